// The embedded default scenario: what `arfabric sim` runs with no
// arguments (issue 5, "The default"). examples/scenarios/default.yaml is
// the same text; a test keeps the two identical.
#include "sim/scenario/scenario.h"

namespace arfabric::sim {

std::string_view default_scenario_yaml() {
  return R"yaml(# arfabric's default scenario (issue 5, "The default").
# A 3-stage CLOS (FARE-BGP Figure 1, LSN §4): 16 spines, 32 leaves, 8 hosts
# per leaf, every link 400G. A ring all-reduce across all 256 hosts, the
# ring ordered across leaves so that every ring hop crosses the fabric.
# Mid-collective one spine-leaf link fails (the LSN §4.2 example's
# spine-to-leaf-5 failure) and another drops to half capacity (lane loss).
name: default
description: >-
  clos3 16 spines x 32 leaves x 8 hosts at 400G; ring all-reduce of 32MB
  across 256 hosts; spine3-leaf5 fails at 500us, spine7-leaf12 degrades to
  half capacity at 1ms; all five modes, IBCS signals on.
seed: 1
stop_at: 50ms
modes: [ecmp, fare, fare+lsn, fare+arn, fare+lsn+arn]

topology:
  kind: clos3
  spines: 16
  leaves: 32
  hosts_per_leaf: 8
  host_link: {rate: 400G, delay: 100ns}
  leaf_spine_link: {rate: 400G, delay: 500ns}

switches:
  buffer_per_port: 1MB
  ecn_threshold: 200KB
  path_selection: per_flow
  flowlet_gap: 50us
  failure_detection: 10us
  hw_notification_delay: 1us
  bgp: {update_processing: 200us, mrai: 0s, fib_programming: 10ms}
  lsn: {period: 100us}
  # IBCS: every data packet carries the CSIG available-bandwidth signal
  # (MIN over the path, 31 buckets of 400G / 31); receivers echo it.
  ibcs: {signal: abw}
  arn: {queue_high: 256KB, queue_low: 64KB, repeat_interval: 100us,
        hold_time: 500us}

hosts:
  mss: 4096
  header_bytes: 64
  initial_window: 64
  min_rto: 100us
  dctcp_g: 0.0625

workloads:
  - kind: ring_allreduce
    participants: all
    order: across_leaves
    bytes: 32MB
    start: 0us

events:
  - {at: 500us, kind: link_down, link: [spine3, leaf5]}
  - {at: 1ms, kind: degrade, link: [spine7, leaf12], fraction: 0.5}
)yaml";
}

std::expected<Scenario, ScenarioError> default_scenario() {
  return parse_scenario(default_scenario_yaml(), "<default>");
}

}  // namespace arfabric::sim
