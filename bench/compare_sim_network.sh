#!/usr/bin/env bash
# Side-by-side packet-hop rates of two or more sim_network_bench binaries
# (say, a copy of the previous commit's and the current one): runs them
# alternately ROUNDS times, so machine load affects each alike, and prints
# the median and range of packet_hops_per_s per benchmark and binary.
#   bench/compare_sim_network.sh ROUNDS BINARY... [-- BENCHMARK_ARGS...]
# e.g. bench/compare_sim_network.sh 5 /tmp/old_bench build/release/sim_network_bench \
#        -- --benchmark_filter='/(16|128)$'
set -euo pipefail
if [[ $# -lt 2 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 ROUNDS BINARY... [-- BENCHMARK_ARGS...]" >&2
  exit 2
fi
rounds=$1
shift
binaries=()
while [[ $# -gt 0 && $1 != -- ]]; do binaries+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
for b in "${binaries[@]}"; do
  [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }
done
for ((r = 0; r < rounds; ++r)); do
  for i in "${!binaries[@]}"; do
    "${binaries[$i]}" --benchmark_min_time=0.5 "$@" 2>/dev/null |
      sed -n "s|^\(BM_[^ ]*\).*packet_hops_per_s=\([0-9.]*\)\([kM]\?\)/s.*|$i \1 \2 \3|p"
  done
done | awk '{ v = $3 * ($4 == "M" ? 1e6 : $4 == "k" ? 1e3 : 1); print $2, $1, v }' |
  sort -k1,1 -k2,2n -k3,3g |
  awk -v names="${binaries[*]}" '
    BEGIN { split(names, name, " ") }
    function flush() {
      if (n == 0) return
      printf "%-28s %-40s median %.2f M [%.2f-%.2f] n=%d\n", key, name[bin + 1],
             v[int((n + 1) / 2)] / 1e6, v[1] / 1e6, v[n] / 1e6, n
    }
    $1 " " $2 != last { flush(); n = 0; key = $1; bin = $2; last = $1 " " $2 }
    { v[++n] = $3 }
    END { flush() }'
