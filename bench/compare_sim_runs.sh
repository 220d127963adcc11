#!/usr/bin/env bash
# Side-by-side whole-simulator runs of two or more arfabric binaries (say,
# a copy of the previous commit's and the current one) on one scenario:
# runs `BINARY sim -s SCENARIO -j 1 --timing` alternately ROUNDS times,
# so machine load affects each alike, and prints per binary the median
# and range of each mode's event-loop packet-hops per second, its set-up
# seconds and its events per hop, then of the process's wall time and
# peak RSS.
#   bench/compare_sim_runs.sh ROUNDS SCENARIO BINARY...
# e.g. bench/compare_sim_runs.sh 3 examples/scenarios/poisson1024.yaml \
#        /tmp/old_arfabric build/release/arfabric
set -euo pipefail
if [[ $# -lt 3 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 ROUNDS SCENARIO BINARY..." >&2
  exit 2
fi
rounds=$1 scenario=$2
shift 2
[[ -r $scenario ]] || { echo "$0: cannot read $scenario" >&2; exit 2; }
[[ -x /usr/bin/time ]] ||
  { echo "$0: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }
for b in "$@"; do
  [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
binaries=("$@")
# One line per measurement: KEY BINARY_INDEX VALUE.
for ((r = 0; r < rounds; ++r)); do
  for i in "${!binaries[@]}"; do
    if ! /usr/bin/time -o "$tmp/time" -f '%e %M' "${binaries[$i]}" sim \
        -s "$scenario" -j 1 --timing >"$tmp/out" 2>"$tmp/err"; then
      echo "$0: ${binaries[$i]} failed:" >&2
      cat "$tmp/err" >&2
      exit 1
    fi
    # The --timing table: mode set-up warm-up start loop hops rate M
    # events/hop (binaries before the events/hop column: 8 fields).
    awk -v i="$i" '
      /^wall time \(s\):/ { table = 1; next }
      table && /^mode / { next }
      table && NF >= 8 && $8 == "M" {
        print $1 "/loop_Mhops_per_s", i, $7
        print $1 "/setup_s", i, $2
        if (NF >= 9) print $1 "/events_per_hop", i, $9
      }' "$tmp/out"
    read -r wall rss <"$tmp/time"
    echo "process/wall_s $i $wall"
    echo "process/peak_rss_MB $i $((rss / 1024))"
  done
done | sort -k1,1 -k2,2n -k3,3g |
  awk -v names="${binaries[*]}" '
    BEGIN { split(names, name, " ") }
    function flush() {
      if (n == 0) return
      printf "%-32s %-40s median %.2f [%.2f-%.2f] n=%d\n", key, name[bin + 1],
             v[int((n + 1) / 2)], v[1], v[n], n
    }
    $1 " " $2 != last { flush(); n = 0; key = $1; bin = $2; last = $1 " " $2 }
    { v[++n] = $3 }
    END { flush() }'
