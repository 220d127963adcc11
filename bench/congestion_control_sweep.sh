#!/usr/bin/env bash
# DCTCP against the IBCS-driven window (hosts.congestion_control: ibcs,
# docs/TRANSPORT.md) on one workload, one row per setting: runs BINARY on
# examples/scenarios/poisson128.yaml changed to ecmp only, load 0.7 and
# 2 ms of arrivals (the web-search CDF), first with DCTCP, then with IBCS
# for each "SIGNAL:TARGET" given, and prints the job's completion, flow
# completion times, drops, goodput and the mean signal at receivers.
# Simulated results do not depend on the machine: rerunning gives the same
# table.
#   bench/congestion_control_sweep.sh BINARY SIGNAL:TARGET...
# e.g. bench/congestion_control_sweep.sh build/release/arfabric \
#        nqd:2 nqd:6 delay:1 abw_c:3
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 BINARY SIGNAL:TARGET..." >&2
  exit 2
fi
binary=$1
shift
[[ -x $binary ]] || { echo "$0: $binary is not an executable" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
base=$root/examples/scenarios/poisson128.yaml
export ARFABRIC_DATA_DIR=$root/data/workloads
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# scenario SIGNAL [TARGET]: the variant, IBCS-driven when TARGET is given.
scenario() {
  sed -e "s/ibcs: {signal: abw}/ibcs: {signal: $1}/" \
      -e 's/^modes:.*/modes: [ecmp]/' -e 's/duration: 200us/duration: 2ms/' \
      -e 's/load: 0.5/load: 0.7/' "$base"
  if [[ $# -eq 2 ]]; then
    printf 'hosts:\n  congestion_control: ibcs\n  ibcs_target: %s\n' "$2"
  fi
}

run() {  # LABEL SIGNAL [TARGET]
  local label=$1
  shift
  scenario "$@" >"$tmp/s.yaml"
  # Each edit must have taken (poisson128.yaml may have changed).
  for want in "ibcs: {signal: $1}" 'modes: \[ecmp\]' 'duration: 2ms' \
      'load: 0.7'; do
    grep -q "$want" "$tmp/s.yaml" ||
      { echo "$0: $base no longer gives '$want'" >&2; exit 1; }
  done
  "$binary" sim -s "$tmp/s.yaml" --out "$tmp/out" >/dev/null
  python3 - "$label" "$tmp/out/results.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[2]))["modes"][0]
print(f"{sys.argv[1]:<14} {m['completion_s'] * 1e3:8.3f} "
      f"{m['fct_mean_s'] * 1e6:9.1f} {m['fct_p99_s'] * 1e6:8.0f} "
      f"{sum(m['dropped'].values()):7d} {m['goodput_gbps']:9.0f} "
      f"{m['ibcs']['mean_delivered']:6.2f}")
PY
}

printf '%-14s %8s %9s %8s %7s %9s %6s\n' setting 'job ms' 'fct us' \
  'p99 us' drops 'Gb/s' signal
run dctcp abw_c
for st in "$@"; do
  [[ $st =~ ^(abw|abw_c|delay|nqd):([0-9]+)$ ]] ||
    { echo "$0: '$st' is not SIGNAL:TARGET" >&2; exit 2; }
  run "ibcs $st" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
done
