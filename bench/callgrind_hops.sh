#!/usr/bin/env bash
# Instructions and simulated cache misses per packet hop of one or more
# sim_hop_count binaries (say, a copy of the previous commit's and the
# current one), under callgrind: deterministic counts, for changes too
# small for the noisy timings of compare_sim_network.sh to show. The
# simulated caches are this machine's L1 and last level (callgrind's
# model: no prefetching, no TLB), so misses here are a guide to memory
# traffic, not to time.
#   bench/callgrind_hops.sh LEAVES EVENTS BINARY...
# e.g. bench/callgrind_hops.sh 512 300000 /tmp/old_sim_hop_count \
#        build/release/sim_hop_count
set -euo pipefail
if [[ $# -lt 3 || ! $1 =~ ^[0-9]+$ || ! $2 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 LEAVES EVENTS BINARY..." >&2
  exit 2
fi
command -v valgrind >/dev/null ||
  { echo "$0: valgrind is not installed (scripts/setup installs it)" >&2; exit 2; }
leaves=$1 events=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-44s %8s %12s %10s %10s\n' binary hops instr/hop D1miss/hop LLmiss/hop
for b in "$@"; do
  [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }
  out=$(valgrind --tool=callgrind --cache-sim=yes --toggle-collect='run_events*' \
          --callgrind-out-file="$tmp/out" "$b" "$leaves" "$events" 2>"$tmp/log")
  hops=$(sed -n 's/.*packet_hops \([0-9]*\).*/\1/p' <<<"$out")
  [[ -n $hops && $hops -gt 0 ]] || { echo "$0: $b printed no hops: $out" >&2; exit 1; }
  # The totals line of the profile: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
  read -r ir _ _ _ d1r d1w _ dlr dlw < <(sed -n 's/^totals: //p' "$tmp/out")
  awk -v b="$b" -v h="$hops" -v ir="$ir" -v d1="$((d1r + d1w))" -v ll="$((dlr + dlw))" \
    'BEGIN { printf "%-44s %8d %12.1f %10.2f %10.3f\n", b, h, ir / h, d1 / h, ll / h }'
done
