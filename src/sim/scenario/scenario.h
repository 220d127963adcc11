// A simulation scenario: topology, switch and host parameters, workloads,
// timed events and the modes to compare (issue 5). Loaded from YAML
// (docs/protocols/scenario.md documents every key) and validated in full
// before anything is returned: a Scenario is never half-built.
//
// Modes (issue 5, "Modes, compared in one run"): ecmp = BGP with equal
// weights and no notifications; fare = BGP with the FARE Path Bandwidth
// weights (FARE-BGP §4); fare+lsn adds LSN hardware notifications (LSN §3);
// fare+arn adds ARN (ARN §2); fare+lsn+arn both.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/units.h"
#include "sim/scenario/flow_cdf.h"
#include "sim/scenario/topology.h"

namespace arfabric::sim {

enum class WorkloadKind : std::uint8_t {
  ring_allreduce,
  all_gather,
  all_to_all,
  poisson
};
std::string_view workload_kind_name(WorkloadKind kind);

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::ring_allreduce;
  // Hosts taking part, in ring order for ring_allreduce/all_gather ("all":
  // every host in node order). At least 2, no duplicates.
  std::vector<NodeIndex> participants;
  // ring_allreduce, all_gather: each participant's buffer (the vector being
  // reduced / the gathered result); all_to_all: bytes each participant
  // sends to every other participant. Unused by poisson.
  std::uint64_t bytes = 0;
  Time start{};
  // poisson: each participant starts flows to uniformly chosen other
  // participants at rate load * host_link_rate / (8 * cdf.mean_bytes()),
  // from start to start + duration or to the run's stop_at, whichever
  // comes first (poisson_arrivals_end).
  double load = 0;
  std::string flow_size_cdf_path;  // resolved, as opened
  FlowSizeCdf flow_size_cdf;
  Time duration{};
};

enum class EventKind : std::uint8_t { link_down, link_up, degrade, incast };
std::string_view event_kind_name(EventKind kind);

struct EventSpec {
  Time at{};
  EventKind kind = EventKind::link_down;
  // The cable, by its two end nodes as written (a, b) and its index in
  // Topology::links. Events act on both directions of the cable.
  NodeIndex a = 0, b = 0;
  std::uint32_t link = 0;
  // degrade: the cable's new rate (the original rate * fraction when the
  // file gave a fraction). Always < the original rate and > 0.
  BitsPerSecond new_rate = 0;
  double fraction = 0;  // degrade: new_rate / original rate
  // incast: every sender sends `bytes` to `receiver` at `at`; the receiver
  // is a host whose traffic crosses the link (default: the first host
  // attached to whichever end of the link is an edge switch, b first).
  std::vector<NodeIndex> senders;
  NodeIndex receiver = 0;
  std::uint64_t bytes = 0;
  int line = 0;           // where the event is written, for messages
  std::size_t index = 0;  // its place in the file's list (events are sorted)
};

enum class Mode : std::uint8_t { ecmp, fare, fare_lsn, fare_arn, fare_lsn_arn };
inline constexpr std::array<Mode, 5> kAllModes = {
    Mode::ecmp, Mode::fare, Mode::fare_lsn, Mode::fare_arn, Mode::fare_lsn_arn};
// "ecmp", "fare", "fare+lsn", "fare+arn", "fare+lsn+arn".
std::string_view mode_name(Mode mode);
std::optional<Mode> parse_mode(std::string_view name);
inline bool uses_lsn(Mode m) {
  return m == Mode::fare_lsn || m == Mode::fare_lsn_arn;
}
inline bool uses_arn(Mode m) {
  return m == Mode::fare_arn || m == Mode::fare_lsn_arn;
}
inline bool uses_fare(Mode m) { return m != Mode::ecmp; }

enum class PathSelection : std::uint8_t { per_flow, per_packet, flowlet };
std::string_view path_selection_name(PathSelection p);

// How FIBs get their routes. bgp: a real BGP speaker per switch (FARE
// weights in the fare modes), converged in a warm-up. static: shortest-path
// ECMP computed and programmed at time 0, no routing protocol (for fabrics
// too large to warm BGP up in reasonable time); every mode then has equal
// weights, and an LSN veto is held until its safety bound since nothing
// re-installs routes.
enum class Routing : std::uint8_t { bgp, static_ecmp };

// In-band congestion signalling (IBCS draft, CSIG compact tag binding):
// hosts originate the signal UNINITIALIZED, every switch egress runs the
// real Signal Update Function, receivers echo what arrives. Off unless the
// scenario has `switches.ibcs`.
enum class IbcsSignal : std::uint8_t { abw, abw_c, delay, nqd };  // CSIG T
enum class IbcsEstimator : std::uint8_t {
  ewma,
  window_mean,
  window_min,
  window_max
};
std::string_view ibcs_signal_name(IbcsSignal s);
// Whether the signal is a MAX one (delay, nqd: more is worse) rather than
// a MIN one (abw, abw_c: less is worse), as the CSIG type table says.
bool ibcs_signal_is_max(IbcsSignal s);
// The hosts' default ibcs_target for the signal, in its buckets: nqd 2
// (congested from 3/31 of the buffer), delay 1 (from 2 us at the default
// 1 us step), abw_c 3 (under 3/31 of the capacity left, i.e. ~90 % busy)
// and abw 3 (under 3 bandwidth_steps left: ~90 % busy on the fastest
// links, more idle on slower ones). Chosen by a sweep that kept drops
// near DCTCP's (docs/TRANSPORT.md, "Tests and figures").
std::uint32_t ibcs_default_target(IbcsSignal s);
struct IbcsParams {
  IbcsSignal signal = IbcsSignal::abw_c;
  // A port records an L_Metric sample when a packet leaves and the last
  // sample is at least this old (a port without traffic has nothing to
  // update).
  Time sample_interval = us(1);
  IbcsEstimator estimator = IbcsEstimator::ewma;
  double ewma_weight = 0.25;
  Time window = us(10);
  Time max_age = us(100);
  // Bucket widths: abw (0 = the fastest switch link / 31) and delay.
  BitsPerSecond bandwidth_step = 0;
  Time delay_step = us(1);
  // Host-facing ingress ports are untrusted (scrub, IBCS §4.1).
  bool scrub_host_ingress = true;
};

struct SwitchParams {
  std::uint64_t buffer_bytes_per_port = 1'000'000;
  std::uint64_t ecn_threshold_bytes = 200'000;
  PathSelection path_selection = PathSelection::per_flow;
  Routing routing = Routing::bgp;
  Time flowlet_gap = us(50);
  Time failure_detection_delay = us(10);  // loss of signal to port down
  // LSN and ARN frames are handled "in hardware" with this delay per frame.
  Time hw_notification_delay = us(1);
  // Control-plane CPU: each BGP UPDATE received costs this much CPU time
  // (UPDATEs queue behind each other), routes leave at most once per MRAI
  // per peer, and a changed route reaches the FIB after the programming
  // delay. Defaults land BGP-only convergence in the 10-50 ms range of
  // LSN §2.
  Time bgp_update_processing = us(200);
  Time bgp_mrai = Time{};
  Time fib_programming_delay = ms(10);
  Time lsn_period = us(100);
  // How often an LSN originator reads its queue depths for the congestion
  // Msg-types; 0: never (reachability only).
  Time lsn_congestion_sample = us(10);
  // LSN congestion levels 1..3 (rise/fall queue depths, bytes). By
  // default 1/16, 1/4 and 1/2 of the buffer, and each fall half its rise
  // (default_queue_thresholds(), which the parser applies to the buffer
  // it reads): a level at the buffer's size would never be reached, since
  // drop-tail refuses the packet that would fill it.
  std::uint64_t lsn_congestion_rise[3] = {62'500, 250'000, 500'000};
  std::uint64_t lsn_congestion_fall[3] = {31'250, 125'000, 250'000};
  // ARN congestion detection (ARN §2.1) and message timing. By default
  // 1/4 and 1/16 of the buffer.
  std::uint64_t arn_queue_high_bytes = 250'000;
  std::uint64_t arn_queue_low_bytes = 62'500;
  double arn_util_high = 0.95, arn_util_low = 0.80;
  Time arn_repeat_interval = us(100);
  Time arn_hold_time = us(500);
  // The most of a switch link ARN's messages may take (the simulator's
  // flood protection: sim/arn_control.h). Control packets go before data,
  // so without a bound, repetitions on a slow link could starve the data
  // whose congestion they report.
  double arn_link_share = 0.1;
  std::optional<IbcsParams> ibcs;
};

// Sets the queue thresholds above to their defaults for the switches'
// buffer_bytes_per_port.
void default_queue_thresholds(SwitchParams& p);
// What the other threshold defaults to for one given: an LSN level's
// fall, half its rise (at least 1); ARN's queue_low, a quarter of
// queue_high (1/16 of the buffer by default).
std::uint64_t default_congestion_fall(std::uint64_t rise);
std::uint64_t default_arn_queue_low(std::uint64_t queue_high);

// How hosts control their congestion windows (docs/TRANSPORT.md).
enum class HostCongestionControl : std::uint8_t {
  dctcp,  // RFC 8257: ECN marks
  ibcs,   // the echoed IBCS signal against ibcs_target
};
// Each controller with its name in scenarios, results and the CLI.
inline constexpr std::array<std::pair<std::string_view, HostCongestionControl>,
                            2>
    kHostCongestionControls = {{{"dctcp", HostCongestionControl::dctcp},
                                {"ibcs", HostCongestionControl::ibcs}}};
std::string_view host_congestion_control_name(HostCongestionControl c);
std::optional<HostCongestionControl> parse_host_congestion_control(
    std::string_view name);

struct HostParams {
  std::uint32_t mss_bytes = 4096;   // payload per data packet
  std::uint32_t header_bytes = 64;  // added on the wire per packet
  std::uint32_t ack_bytes = 64;     // an ACK on the wire
  std::uint32_t initial_window_packets = 64;
  Time min_rto = us(100);
  double dctcp_g = 1.0 / 16;
  std::uint32_t dupack_threshold = 3;  // raised by the transport for spraying
  HostCongestionControl congestion_control = HostCongestionControl::dctcp;
  // congestion_control ibcs (needs switches.ibcs): the signal's target in
  // its buckets (the parser sets ibcs_default_target unless given), the
  // cut per unit of relative excess and the largest cut.
  std::uint32_t ibcs_target = 0;
  double ibcs_beta = 0.8;
  double ibcs_max_decrease = 0.5;
};

struct Scenario {
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  Topology topology;
  SwitchParams switches;
  HostParams hosts;
  std::vector<WorkloadSpec> workloads;
  std::vector<EventSpec> events;  // sorted by time (stable)
  std::vector<Mode> modes;        // in the order written
  Time stop_at{};
  std::string file;  // the scenario's file name, "<default>" if embedded
};

// When a poisson workload's flows stop arriving: start + duration, or
// stop_at if that comes first (a duration past the run's end draws no
// flows that could never start, so a long one is a steady load to the
// end, not a memory cost).
inline Time poisson_arrivals_end(const WorkloadSpec& w, Time stop_at) {
  return std::min(w.start + w.duration, stop_at);
}

// Makes the scenario's hosts run `c` (the sim command's
// --congestion-control), as if its file said so: switching to ibcs sets
// the signal's default target unless the file already chose ibcs.
// Error: ibcs without switches.ibcs ("ibcs needs switches.ibcs ..."); the
// scenario is then unchanged.
std::expected<void, std::string> set_congestion_control(
    Scenario& scenario, HostCongestionControl c);

// More edge switches than LSN's Global Node IDs can name (LSN §3.2.1:
// 64 ranges of 256): why, "16385 leaves: LSN Global Node IDs ... allow at
// most 16384; ...". Asked as lsn_period_problem is.
std::optional<std::string> lsn_edge_problem(const Topology& topology);

// The queue depths LSN (congestion levels' rises) and ARN (queue_high)
// react to, where the file sets them: switches.<section>.<field>, the
// index'th of a list.
struct QueueThreshold {
  const char* section;  // "lsn" or "arn"
  const char* field;    // "congestion_rise", "queue_high"
  std::optional<std::size_t> index;
  std::uint64_t value = 0;
  std::string what;                   // "LSN congestion level 3's rise"
  std::uint64_t default_divisor = 1;  // by default buffer_per_port / it
  bool read_by(Mode mode) const;
  std::string key() const;  // "switches.lsn.congestion_rise[2]"
};
std::vector<QueueThreshold> queue_thresholds(const SwitchParams& p);

// A drop-tail queue that holds more than buffer_per_port less one data
// packet may refuse every packet that comes (link.cc admits a packet only
// while the buffer holds it whole), so a congestion threshold above that
// might never be reached: LSN's level 3 at the 1 MB buffer's size never
// was. Why `t` is so, or nothing.
std::optional<std::string> unreachable_threshold(const Scenario& scenario,
                                                 const QueueThreshold& t);
// The first threshold `mode` reads that might never be reached, with its
// key: "switches.lsn.congestion_rise[2]: LSN congestion level 3's rise
// ...". The parser checks given thresholds whatever the modes, and
// defaults for the file's modes, at their keys; the runner and the sim
// command ask for a mode -m adds.
std::optional<std::string> queue_threshold_problem(const Scenario& scenario,
                                                   Mode mode);

// LSN frames leave every switch-to-switch port each period, one per 256
// edge switches and Msg-type (four Msg-types with congestion sampling on,
// LSN §3.2.2), and a full queue never drops control packets: a period
// shorter than their time on the slowest such link, at its slowest (after
// a degrade event too), would queue frames without bound. When the
// scenario's lsn.period is that short, why: "2ns: the LSN frames ...; use
// at least 27ns", and the degrade event that slowed the link, if one did
// (the parser points at it when the period is the default). Whatever the
// scenario's modes: the parser asks when they include an LSN mode, the
// runner for every LSN mode it runs (the sim command's -m may add one).
struct LsnPeriodProblem {
  std::string message;
  const EventSpec* degrade = nullptr;  // in Scenario::events
};
std::optional<LsnPeriodProblem> lsn_period_problem(const Scenario& scenario);

// One of the simulator's ARN messages on a link: a condition of one IPv4
// destination (a switch's own messages and the relays that repeat them)
// in IPv4/UDP, with Ethernet's header, FCS, preamble and inter-frame gap.
inline constexpr std::uint32_t kArnFrameOverheadBytes = 14 + 4 + 20;
std::uint32_t arn_message_wire_bytes();
// The time between two ARN messages on a link of `rate` that keeps them
// within `share` of it: at least 1 ps, and at most kLongestArnSpacing (the
// longest time a scenario can state; a share of 1e-20 would overflow the
// picoseconds).
inline constexpr Time kLongestArnSpacing = sec(1'000'000);
Time arn_message_spacing(BitsPerSecond rate, double share);

// When switches.arn.link_share of the slowest switch link (a degrade
// event's rate included) carries fewer than one ARN message per hold_time,
// receivers would revoke every notification before its refresh. A floor,
// not a guarantee: the objects a port announces at once share its
// messages (failures first), so n of them need n per hold_time. Why
// ("10% of the slowest switch link (10M) lets ARN send one 90-byte message
// every 720us, ...; raise link_share to at least 15% or hold_time to at
// least 720us": the share rounded up to two significant digits, the time
// to a whole unit), whether a larger share could help, and the
// degrade event that slowed the link, if one did. The parser asks when the
// file's modes include an ARN mode, the runner for every ARN mode it runs.
struct ArnLinkProblem {
  std::string message;
  const EventSpec* degrade = nullptr;  // in Scenario::events
  bool share_helps = true;             // false: no link_share up to 1 is enough
  // The key to change: "switches.arn.link_share", or hold_time when no
  // share would do.
  const char* key() const {
    return share_helps ? "switches.arn.link_share" : "switches.arn.hold_time";
  }
};
std::optional<ArnLinkProblem> arn_link_problem(const Scenario& scenario);

// The first of the checks above that `mode` fails, with the key to
// change: "topology: ..." (lsn_edge_problem), "switches.lsn.period: ...",
// ArnLinkProblem::key() and its message, or queue_threshold_problem's.
// The parser makes them for the file's modes, at their places; the runner
// and the sim command ask for a mode that -m adds.
std::optional<std::string> mode_problem(const Scenario& scenario, Mode mode);

struct ScenarioError {
  std::string file;
  int line = 0;     // 1-based; 0 when unknown
  int column = 0;   // 1-based; 0 when unknown
  std::string key;  // dotted path: "topology.spines", "events[2].link"
  std::string message;
  // "default.yaml:12:5: topology.spines: must be at least 1"
  std::string to_string() const;
};

// Parses and validates a scenario. `file_name` names it in errors and is
// the directory relative CDF paths resolve against (then the repository's
// data/workloads/, found by walking up from that directory and from the
// working directory; then $ARFABRIC_DATA_DIR). Errors, each with the
// line, column and key: a byte that is not UTF-8; YAML syntax; a second
// YAML document; unknown or duplicate key at any level;
// missing required key; wrong type; value out of range (0 spines, rate 0,
// more than 16,384 edge switches with an LSN mode, ...); impossible
// topology (unknown node in a link, duplicate node name or link, self
// loop, host attached to several switches without allow_multihoming, a
// disconnected fabric); a workload naming an unknown or non-host
// participant; a CDF file missing or malformed (file and line of the CDF,
// key of the workload); an event on a missing link, at or after stop_at;
// an unknown or repeated mode.
std::expected<Scenario, ScenarioError> parse_scenario(
    std::string_view yaml_text, std::string_view file_name);

// Reads `path` and parses it. Errors: the file cannot be read (line 0),
// then those of parse_scenario.
std::expected<Scenario, ScenarioError> load_scenario_file(
    const std::string& path);

// The embedded default scenario (issue 5 "The default").
std::string_view default_scenario_yaml();
std::expected<Scenario, ScenarioError> default_scenario();

}  // namespace arfabric::sim
