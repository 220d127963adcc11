#!/usr/bin/env bash
# The issue 6 daemon comparison: arfabric bgpd, FRR bgpd and BIRD, one after
# another on the same job, in one invocation on this machine. Each daemon in
# turn receives N IPv4 /24s (default 1,000,000) from a feeding eBGP peer and
# re-advertises them to a receiving eBGP peer; build/*/bgp_million plays both
# peers and measures seconds from the first UPDATE to the last prefix out,
# and the daemon's peak RSS (VmHWM).
#
#   bench/bgp_million.sh [--prefixes N] [--daemons "arfabric frr bird"]
#                        [--build-dir build/release] [--timeout S]
#
# Needs root: everything runs in a network namespace created (and removed)
# here, with the addresses on its loopback (daemon 10.0.0.1, feeder
# 10.0.0.11 AS 65011, receiver 10.0.0.12 AS 65012; the daemon is AS 65000,
# BGP port 10179). Non-loopback addresses because FRR refuses 127.x next
# hops. Equivalent configuration for the three: eBGP both sides, both
# sessions passive, next-hop-self, no policy filtering, MRAI 0, no kernel
# FIB programming (arfabric fib.install false, FRR -Z without zebra, BIRD
# without a kernel protocol).
# Exit status: 0 when every daemon delivered all prefixes in time.
set -euo pipefail
cd "$(dirname "$0")/.."

prefixes=1000000
daemons="arfabric frr bird"
build=build/release
timeout=300
while [ $# -gt 0 ]; do
  case "$1" in
    --prefixes) prefixes=$2; shift 2 ;;
    --daemons) daemons=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) echo "bgp_million.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
for bin in "$build/arfabric" "$build/bgp_million"; do
  [ -x "$bin" ] || { echo "bgp_million.sh: $bin missing: scripts/build release" >&2; exit 1; }
done

ns=arfm$$
work=$(mktemp -d /tmp/bgp_million.XXXXXX)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then
    kill "$daemon_pid" 2>/dev/null || true
    wait "$daemon_pid" 2>/dev/null || true
  fi
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$ns"
ip -n "$ns" link set lo up
for a in 10.0.0.1 10.0.0.11 10.0.0.12; do
  ip -n "$ns" addr add "$a/24" dev lo
done

write_arfabric() {
  cat >"$work/arfabric.yaml" <<EOF
asn: 65000
router_id: 10.0.0.1
role: spine
listen: {address: 10.0.0.1, port: 10179}
log_level: warning
timers: {hold: 9, mrai_ms: 0}
fib: {install: false}
peers:
  - {name: feeder, address: 10.0.0.11, asn: 65011, local_address: 10.0.0.1,
     link_bandwidth: 100G, role: leaf, passive: true, families: [ipv4]}
  - {name: receiver, address: 10.0.0.12, asn: 65012, local_address: 10.0.0.1,
     link_bandwidth: 100G, role: leaf, passive: true, families: [ipv4]}
EOF
}

write_frr() {
  mkdir -p "$work/frr"
  {
    echo "frr defaults datacenter"
    echo "hostname bench"
    echo "router bgp 65000"
    echo " bgp router-id 10.0.0.1"
    echo " no bgp ebgp-requires-policy"
    echo " no bgp network import-check"
    for n in "10.0.0.11 65011" "10.0.0.12 65012"; do
      set -- $n
      echo " neighbor $1 remote-as $2"
      echo " neighbor $1 passive"
      echo " neighbor $1 update-source 10.0.0.1"
      echo " neighbor $1 ebgp-multihop 2"
      echo " neighbor $1 advertisement-interval 0"
    done
    echo " address-family ipv4 unicast"
    echo "  neighbor 10.0.0.11 next-hop-self"
    echo "  neighbor 10.0.0.12 next-hop-self"
    echo " exit-address-family"
  } >"$work/frr/bgpd.conf"
}

write_bird() {
  {
    echo "router id 10.0.0.1;"
    echo "protocol device { }"
    # Makes the feeder's next hop (10.0.0.11 on lo) resolvable.
    echo "protocol direct { ipv4; interface \"lo\"; }"
    for n in "feeder 10.0.0.11 65011" "receiver 10.0.0.12 65012"; do
      set -- $n
      echo "protocol bgp $1 {"
      echo "  local 10.0.0.1 port 10179 as 65000;"
      echo "  neighbor $2 as $3;"
      echo "  multihop; passive on; strict bind on;"
      echo "  ipv4 { import all; export all; next hop self; };"
      echo "}"
    done
  } >"$work/bird.conf"
}

# Starts daemon $1 in the namespace; sets daemon_pid.
start() {
  case "$1" in
    arfabric)
      write_arfabric
      ip netns exec "$ns" "$build/arfabric" bgpd -c "$work/arfabric.yaml" \
        >"$work/arfabric.log" 2>&1 &
      ;;
    frr)
      write_frr
      ip netns exec "$ns" /usr/lib/frr/bgpd -S -Z -l 10.0.0.1 -p 10179 -P 0 \
        -f "$work/frr/bgpd.conf" -i "$work/frr/bgpd.pid" \
        --vty_socket "$work/frr" -u root -g root --log stdout \
        >"$work/frr.log" 2>&1 &
      ;;
    bird)
      write_bird
      ip netns exec "$ns" bird -f -c "$work/bird.conf" -s "$work/bird.ctl" \
        -P "$work/bird.pid" >"$work/bird.log" 2>&1 &
      ;;
    *) echo "bgp_million.sh: unknown daemon '$1' (arfabric, frr, bird)" >&2; exit 2 ;;
  esac
  daemon_pid=$!
}

version() {
  case "$1" in
    arfabric) echo "arfabric bgpd ($(git rev-parse --short HEAD 2>/dev/null || echo ?))" ;;
    frr) echo "FRR bgpd $(/usr/lib/frr/bgpd --version 2>/dev/null | head -1 | awk '{print $NF}')" ;;
    bird) echo "BIRD $(bird --version 2>&1 | awk '{print $NF}')" ;;
  esac
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "job: $prefixes IPv4 /24s, one feeding eBGP peer, one receiving eBGP peer"
failed=0
declare -A secs rss label
for d in $daemons; do
  start "$d"
  if out=$(ip netns exec "$ns" "$build/bgp_million" --name "$d" \
             --daemon 10.0.0.1 --port 10179 --feeder 10.0.0.11 \
             --receiver 10.0.0.12 --prefixes "$prefixes" --pid "$daemon_pid" \
             --timeout "$timeout"); then
    echo "$out"
    secs[$d]=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' <<<"$out")
    rss[$d]=$(sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p' <<<"$out")
  else
    echo "bgp_million.sh: $d failed; its log:" >&2
    tail -n 40 "$work/$d.log" | cut -c1-300 >&2 || true
    failed=1
  fi
  label[$d]=$(version "$d")
  kill "$daemon_pid" 2>/dev/null || true
  wait "$daemon_pid" 2>/dev/null || true
  daemon_pid=
done

echo
echo "| daemon | seconds | peak RSS | time / arfabric | RSS / arfabric |"
echo "|---|---|---|---|---|"
for d in $daemons; do
  if [ -z "${secs[$d]:-}" ]; then
    echo "| ${label[$d]} | failed | | | |"
    continue
  fi
  awk -v n="${label[$d]}" -v s="${secs[$d]}" -v r="${rss[$d]}" \
      -v s0="${secs[arfabric]:-}" -v r0="${rss[arfabric]:-}" 'BEGIN {
    rs = (s0 == "" ? "-" : sprintf("%.2f", s / s0));
    rr = (r0 == "" ? "-" : sprintf("%.2f", r / r0));
    printf "| %s | %.2f | %.0f MB | %s | %s |\n", n, s, r / 1024, rs, rr }'
done
exit "$failed"
