#include "sim/scenario/scenario.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

#include "common/quantity.h"
#include "common/strformat.h"
#include "sim/scenario/generators.h"
#include "wire/arn/arn_transport.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::sim {
namespace {

constexpr std::array<std::string_view, 5> kModeNames = {
    "ecmp", "fare", "fare+lsn", "fare+arn", "fare+lsn+arn"};

}  // namespace

std::string_view mode_name(Mode mode) {
  return kModeNames[static_cast<std::size_t>(mode)];
}

std::optional<Mode> parse_mode(std::string_view name) {
  for (std::size_t i = 0; i < kModeNames.size(); ++i)
    if (kModeNames[i] == name) return static_cast<Mode>(i);
  return std::nullopt;
}

std::string_view workload_kind_name(WorkloadKind kind) {
  constexpr std::array<std::string_view, 4> kNames = {
      "ring_allreduce", "all_gather", "all_to_all", "poisson"};
  return kNames[static_cast<std::size_t>(kind)];
}

std::string_view event_kind_name(EventKind kind) {
  constexpr std::array<std::string_view, 4> kNames = {"link_down", "link_up",
                                                      "degrade", "incast"};
  return kNames[static_cast<std::size_t>(kind)];
}

std::string_view path_selection_name(PathSelection p) {
  constexpr std::array<std::string_view, 3> kNames = {"per_flow", "per_packet",
                                                      "flowlet"};
  return kNames[static_cast<std::size_t>(p)];
}

std::string_view ibcs_signal_name(IbcsSignal s) {
  switch (s) {
    case IbcsSignal::abw:
      return "abw";
    case IbcsSignal::abw_c:
      return "abw_c";
    case IbcsSignal::delay:
      return "delay";
    case IbcsSignal::nqd:
      return "nqd";
  }
  return "unknown";
}

bool ibcs_signal_is_max(IbcsSignal s) {
  // IbcsSignal values are the CSIG type codes (sim/ibcs.cc writes them).
  const auto type = wire::ibcs::csig_signal_type(static_cast<std::uint8_t>(s));
  return type && type->op == wire::ibcs::ExtremumOp::max;
}

std::uint32_t ibcs_default_target(IbcsSignal s) {
  switch (s) {
    case IbcsSignal::abw:
    case IbcsSignal::abw_c:
      return 3;
    case IbcsSignal::delay:
      return 1;
    case IbcsSignal::nqd:
      return 2;
  }
  return 0;
}

std::string_view host_congestion_control_name(HostCongestionControl c) {
  for (const auto& [name, value] : kHostCongestionControls)
    if (value == c) return name;
  return "unknown";
}

std::optional<HostCongestionControl> parse_host_congestion_control(
    std::string_view name) {
  for (const auto& [n, value] : kHostCongestionControls)
    if (n == name) return value;
  return std::nullopt;
}

std::expected<void, std::string> set_congestion_control(
    Scenario& scenario, HostCongestionControl c) {
  HostParams& hosts = scenario.hosts;
  if (c == hosts.congestion_control) return {};
  if (c == HostCongestionControl::ibcs) {
    if (!scenario.switches.ibcs) {
      return std::unexpected(
          "ibcs needs switches.ibcs (the signal it reacts to), which " +
          scenario.file + " does not enable");
    }
    // A file without ibcs cannot set ibcs_beta or ibcs_max_decrease (the
    // parser refuses them): they are the defaults already.
    hosts.ibcs_target = ibcs_default_target(scenario.switches.ibcs->signal);
  }
  hosts.congestion_control = c;
  return {};
}

namespace {

// The default thresholds that follow the buffer, as divisors of it:
// LSN's rises, ARN's queue_high.
constexpr std::uint64_t kLsnRiseDivisors[3] = {16, 4, 2};
constexpr std::uint64_t kArnHighDivisor = 4;

}  // namespace

std::uint64_t default_congestion_fall(std::uint64_t rise) {
  return std::max<std::uint64_t>(1, rise / 2);
}

std::uint64_t default_arn_queue_low(std::uint64_t queue_high) {
  return queue_high / 4;
}

void default_queue_thresholds(SwitchParams& p) {
  const std::uint64_t buffer = p.buffer_bytes_per_port;
  for (int k = 0; k < 3; ++k) {
    p.lsn_congestion_rise[k] = buffer / kLsnRiseDivisors[k];
    p.lsn_congestion_fall[k] =
        default_congestion_fall(p.lsn_congestion_rise[k]);
  }
  p.arn_queue_high_bytes = buffer / kArnHighDivisor;
  p.arn_queue_low_bytes = default_arn_queue_low(p.arn_queue_high_bytes);
}

bool QueueThreshold::read_by(Mode mode) const {
  return std::string_view(section) == "lsn" ? uses_lsn(mode) : uses_arn(mode);
}

std::string QueueThreshold::key() const {
  std::string k = strformat("switches.{}.{}", section, field);
  if (index) k += strformat("[{}]", *index);
  return k;
}

std::vector<QueueThreshold> queue_thresholds(const SwitchParams& p) {
  std::vector<QueueThreshold> out;
  for (std::size_t k = 0; k < 3; ++k) {
    out.push_back({"lsn", "congestion_rise", k, p.lsn_congestion_rise[k],
                   strformat("LSN congestion level {}'s rise", k + 1),
                   kLsnRiseDivisors[k]});
  }
  out.push_back({"arn", "queue_high", std::nullopt, p.arn_queue_high_bytes,
                 "ARN's queue_high", kArnHighDivisor});
  return out;
}

std::optional<std::string> unreachable_threshold(const Scenario& scenario,
                                                 const QueueThreshold& t) {
  const std::uint64_t buffer = scenario.switches.buffer_bytes_per_port;
  const std::uint64_t packet =
      std::uint64_t{scenario.hosts.mss_bytes} + scenario.hosts.header_bytes;
  const std::uint64_t fullest = buffer > packet ? buffer - packet : 0;
  if (t.value <= fullest) return std::nullopt;
  return strformat(
      "{} ({}) might never be reached: a queue that holds more than {} "
      "(buffer_per_port {} less one {} packet) may refuse every packet",
      t.what, format_size(t.value), format_size(fullest), format_size(buffer),
      format_size(packet));
}

std::optional<std::string> queue_threshold_problem(const Scenario& scenario,
                                                   Mode mode) {
  for (const QueueThreshold& t : queue_thresholds(scenario.switches)) {
    if (!t.read_by(mode)) continue;
    if (auto why = unreachable_threshold(scenario, t))
      return strformat(
          "{}: {}; set it (by default 1/{} of the buffer) or a larger "
          "buffer_per_port",
          t.key(), *why, t.default_divisor);
  }
  return std::nullopt;
}

namespace {

// The switches LSN gives Global Node IDs: leaves and dragonfly routers.
std::size_t lsn_edge_switches(const Topology& topology) {
  return topology.count(NodeRole::leaf) +
         topology.count(NodeRole::dragonfly_router);
}

}  // namespace

std::optional<std::string> lsn_edge_problem(const Topology& topology) {
  const std::size_t edge = lsn_edge_switches(topology);
  if (edge <= kMaxLsnNodes) return std::nullopt;
  return strformat(
      "{} leaves: LSN Global Node IDs (LSN §3.2.1, 6-bit Dev-Range) allow "
      "at most {}; drop the fare+lsn modes or shrink the fabric",
      edge, kMaxLsnNodes);
}

namespace {

// The slowest switch-to-switch link over the run, and the degrade event
// that made it so, if one did; rate 0 when there is no such link.
struct SlowestLink {
  BitsPerSecond rate = 0;
  const EventSpec* degrade = nullptr;
};

SlowestLink slowest_switch_link(const Scenario& scenario) {
  const Topology& t = scenario.topology;
  SlowestLink slowest;
  const auto slower = [&](std::uint32_t link, BitsPerSecond rate,
                          const EventSpec* event) {
    if (t.is_host_link(link) || (slowest.rate != 0 && rate >= slowest.rate))
      return;
    slowest = {rate, event};
  };
  for (std::uint32_t l = 0; l < t.links.size(); ++l)
    slower(l, t.links[l].rate, nullptr);
  for (const EventSpec& e : scenario.events) {
    if (e.kind == EventKind::degrade) slower(e.link, e.new_rate, &e);
  }
  return slowest;
}

// ", after the degrade event at line 12", or nothing.
std::string after_degrade(const EventSpec* degrade) {
  return degrade
             ? strformat(", after the degrade event at line {}", degrade->line)
             : "";
}

// `value` (> 0) to `digits` significant digits (every digit of its whole
// part, if more), without an exponent or trailing zeros: "26.88",
// "0.00144", "1000000".
std::string format_significant(double value, int digits) {
  const int magnitude = static_cast<int>(std::floor(std::log10(value)));
  const int decimals = std::max(0, digits - 1 - magnitude);
  char text[400];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string out = text;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

// `fraction` as a percentage to `digits` significant digits: "14.4%",
// "0.00144%", "100%".
std::string format_percent(double fraction, int digits = 3) {
  return format_significant(fraction * 100, digits) + "%";
}

// `needed` in the largest of ns, us, ms and s it is at least one of, to up
// to six digits ("26.88ns", "268.8us"), and rounded up to a whole one of
// that unit, a value that reads well and is enough ("27ns").
struct ReadableBound {
  std::string exact;
  Time at_least;
};

ReadableBound readable_bound(Time needed, int digits = 6) {
  std::int64_t unit = ns(1).ps();
  const char* unit_name = "ns";
  for (const auto& [t, name] : {std::pair{us(1), "us"}, std::pair{ms(1), "ms"},
                                std::pair{sec(1), "s"}}) {
    if (needed >= t) unit = t.ps(), unit_name = name;
  }
  return {format_significant(
              static_cast<double>(needed.ps()) / static_cast<double>(unit),
              digits) +
              unit_name,
          ps((needed.ps() + unit - 1) / unit * unit)};
}

}  // namespace

std::optional<LsnPeriodProblem> lsn_period_problem(const Scenario& scenario) {
  const SwitchParams& sw = scenario.switches;
  const std::size_t edge = lsn_edge_switches(scenario.topology);
  const SlowestLink slowest = slowest_switch_link(scenario);
  if (slowest.rate == 0 || edge == 0 || edge > kMaxLsnNodes)
    return std::nullopt;
  const std::size_t ranges =
      (edge + wire::lsn::kDevicesPerRange - 1) / wire::lsn::kDevicesPerRange;
  const std::size_t frames =
      ranges * (sw.lsn_congestion_sample != Time{} ? 4 : 1);
  const Time needed =
      transmission_time(frames * wire::lsn::kWireSize, slowest.rate);
  if (sw.lsn_period >= needed) return std::nullopt;
  const ReadableBound bound = readable_bound(needed);
  return LsnPeriodProblem{
      strformat(
          "{}: the LSN frames a switch sends on each port per period ({}) "
          "take {} on the slowest switch link ({}{}), so they would queue "
          "without bound; use at least {}",
          format_time(sw.lsn_period), frames, bound.exact,
          format_rate(slowest.rate), after_degrade(slowest.degrade),
          format_time(bound.at_least)),
      slowest.degrade};
}

std::uint32_t arn_message_wire_bytes() {
  static const std::uint32_t bytes = [] {
    wire::arn::ArnMessage m;
    m.type = wire::arn::ArnType::failure_detected;
    m.path_id = 0;
    wire::arn::FiveTuple destination;
    destination.family = wire::arn::AddressFamily::ipv4;
    destination.mask = wire::arn::kMaskDestination;
    m.flow = destination;
    return static_cast<std::uint32_t>(wire::arn::encoded_size_ipv4_udp(m)) +
           kArnFrameOverheadBytes;
  }();
  return bytes;
}

Time arn_message_spacing(BitsPerSecond rate, double share) {
  const double bits = 8.0 * arn_message_wire_bytes();
  const double spacing_ps =
      std::ceil(bits * 1e12 / (share * static_cast<double>(rate)));
  return ps(static_cast<std::int64_t>(std::clamp(
      spacing_ps, 1.0, static_cast<double>(kLongestArnSpacing.ps()))));
}

std::optional<ArnLinkProblem> arn_link_problem(const Scenario& scenario) {
  const SwitchParams& sw = scenario.switches;
  const SlowestLink slowest = slowest_switch_link(scenario);
  if (slowest.rate == 0) return std::nullopt;
  const auto enough = [&](double share) {
    return arn_message_spacing(slowest.rate, share) <= sw.arn_hold_time;
  };
  if (enough(sw.arn_link_share)) return std::nullopt;
  const Time spacing = arn_message_spacing(slowest.rate, sw.arn_link_share);
  // The least share that brings a message per hold_time, rounded up to two
  // significant digits (and up again if rounding made it short).
  const double bits = 8.0 * arn_message_wire_bytes();
  const double least =
      bits / (sw.arn_hold_time.seconds() * static_cast<double>(slowest.rate));
  const double step = std::pow(10.0, std::floor(std::log10(least)) - 1);
  // (The epsilon keeps 0.12 / 0.01 from rounding up to 13; the check
  // below catches a share it made short.)
  double share = std::ceil(least / step - 1e-9) * step;
  while (share <= 1 && !enough(share)) share += step;
  ArnLinkProblem problem;
  problem.degrade = slowest.degrade;
  problem.share_helps = share <= 1;
  // Digits enough to tell the share from the one suggested, and the
  // spacing from hold_time (a share of 0.099999999 is not "10%").
  int share_digits = 3;
  while (share_digits < 15 && format_percent(sw.arn_link_share, share_digits) ==
                                  format_percent(share, share_digits))
    ++share_digits;
  int spacing_digits = 6;
  while (spacing_digits < 15 && readable_bound(spacing, spacing_digits).exact ==
                                    format_time(sw.arn_hold_time))
    ++spacing_digits;
  const bool clamped = spacing == kLongestArnSpacing;
  const std::string every =
      clamped ? "every " + format_time(kLongestArnSpacing) + " or more"
              : "every " + readable_bound(spacing, spacing_digits).exact;
  // No hold_time is longer than the clamp, so none is suggested then; a
  // clamped spacing comes of a tiny share, which a larger one helps.
  const std::string hold =
      "hold_time to at least " + format_time(readable_bound(spacing).at_least);
  const std::string raise = !problem.share_helps
                                ? hold
                                : "link_share to at least " +
                                      format_percent(share, share_digits) +
                                      (clamped ? "" : " or " + hold);
  problem.message = strformat(
      "{} of the slowest switch link ({}{}) lets ARN send one {}-byte "
      "message {}, longer than hold_time ({}): receivers would revoke every "
      "notification before its refresh; raise {}",
      format_percent(sw.arn_link_share, share_digits),
      format_rate(slowest.rate), after_degrade(slowest.degrade),
      arn_message_wire_bytes(), every, format_time(sw.arn_hold_time), raise);
  return problem;
}

std::optional<std::string> mode_problem(const Scenario& scenario, Mode mode) {
  if (uses_lsn(mode)) {
    if (const auto why = lsn_edge_problem(scenario.topology))
      return "topology: " + *why;
    if (const auto why = lsn_period_problem(scenario))
      return "switches.lsn.period: " + why->message;
  }
  if (uses_arn(mode)) {
    if (const auto why = arn_link_problem(scenario))
      return std::string(why->key()) + ": " + why->message;
  }
  return queue_threshold_problem(scenario, mode);
}

}  // namespace arfabric::sim
