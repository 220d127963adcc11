#!/usr/bin/env bash
# Instructions and simulated cache misses per packet hop of whole
# `arfabric sim` runs of one scenario and mode, for one or more binaries
# (say, a copy of the previous commit's and the current one), under
# callgrind: deterministic counts for changes that the noisy timings of
# compare_sim_runs.sh cannot show. The last-level cache is modelled as
# LL_BYTES (default 1 MB, one core's L2 here: what a hop misses when the
# fabric does not fit). callgrind's model has no prefetching and no TLB:
# a miss that a prefetch hides still counts, so the read misses are a
# guide to memory traffic, not to time; write misses (no prefetch asks for
# them) are closer to what the core pays. Two more differences from a
# native run: valgrind reports a 256 KB L2, so a fabric between 256 KB and
# the real L2 looks three events ahead under callgrind and two natively
# (Network::create; poisson1024 is one); and a run cut short has fewer long
# flows and shallower queues than the whole one (poisson1024 ecmp: 0.87
# last-level read misses per hop in the 50 us cut below, 3.5 in the whole
# run).
#   bench/callgrind_sim.sh SCENARIO MODE BINARY...
#   LL_BYTES=2097152 bench/callgrind_sim.sh ...
# e.g. (a 1,024-host run shortened to 50 us of arrivals, ~3 minutes each)
#   sed 's/duration: 200us/duration: 50us/' \
#     examples/scenarios/poisson1024.yaml > /tmp/p1024s.yaml
#   bench/callgrind_sim.sh /tmp/p1024s.yaml ecmp /tmp/old_arfabric \
#     build/release/arfabric
# Run from the repository, so the scenario's flow-size CDF is found.
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 SCENARIO MODE BINARY..." >&2
  exit 2
fi
command -v valgrind >/dev/null ||
  { echo "$0: valgrind is not installed (scripts/setup installs it)" >&2; exit 2; }
scenario=$1 mode=$2
shift 2
[[ -r $scenario ]] || { echo "$0: cannot read $scenario" >&2; exit 2; }
ll=${LL_BYTES:-1048576}
[[ $ll =~ ^[0-9]+$ ]] || { echo "$0: LL_BYTES must be a number of bytes" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-36s %9s %10s %10s %11s %11s\n' binary hops instr/hop D1miss/hop \
  LLread/hop LLwrite/hop
for b in "$@"; do
  [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }
  if ! valgrind --tool=callgrind --cache-sim=yes --LL="$ll,16,64" \
         --callgrind-out-file="$tmp/out" "$b" sim -s "$scenario" -m "$mode" \
         -j 1 --timing >"$tmp/stdout" 2>"$tmp/log"; then
    echo "$0: $b failed:" >&2
    cat "$tmp/stdout" "$tmp/log" >&2
    exit 1
  fi
  # The mode's row of --timing's table (after "wall time (s):"): mode
  # set-up warm-up start loop packet-hops ...
  hops=$(awk -v m="$mode" '/^wall time \(s\):/ { t = 1; next }
                           t && $1 == m { print $6 }' "$tmp/stdout")
  [[ $hops =~ ^[0-9]+$ && $hops -gt 0 ]] ||
    { echo "$0: $b printed no packet-hops for $mode" >&2; exit 1; }
  # The totals line of the profile: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
  # (the order its "events:" line names).
  events=$(sed -n 's/^events: //p' "$tmp/out")
  [[ $events == "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw" ]] ||
    { echo "$0: unexpected callgrind events: '$events'" >&2; exit 1; }
  totals=$(sed -n 's/^totals: //p' "$tmp/out")
  [[ -n $totals ]] || { echo "$0: no totals in callgrind's output" >&2; exit 1; }
  read -r ir _ _ _ d1r d1w _ dlr dlw <<<"$totals"
  awk -v b="$b" -v h="$hops" -v ir="$ir" -v d1="$((d1r + d1w))" \
      -v lr="$dlr" -v lw="$dlw" \
    'BEGIN { printf "%-36s %9d %10.1f %10.2f %11.3f %11.3f\n", b, h, ir / h, d1 / h, lr / h, lw / h }'
done
