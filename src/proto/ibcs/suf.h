// The IBCS Signal Update Function engine
// (draft-tian-ccwg-ibcs-datapath-processing-00).
//
// Per frame, in the draft's order (§5, Figure 1):
//
//   process_ingress(frame, in_port, now)   // §4.1 scrub on untrusted ports
//   key = extract_flow_key(frame); hash    // §5.2, by the caller, BEFORE
//   process_egress(frame, out_port, now)   // §5.3 SUF, or §4.3 strip/zero
//
// The SUF (§6.1) for each configured binding whose field the frame carries:
//   Rule 1  P_Metric == UNINITIALIZED          -> write L_Metric
//   Rule 2  MIN: L < P, MAX: L > P             -> write L_Metric
//   Rule 3  otherwise                          -> leave the header alone
// with L_Metric from the egress port's LocalMetric. When L_Metric is
// unavailable (no sample yet, stale, or a signal type this node does not
// measure) the frame is forwarded unmodified and counted (§7.2 fail-open).
// Rewrites go through wire::ibcs::rewrite_metric, which validates before
// writing and updates IPv4/UDP checksums incrementally (§6.1 atomicity,
// §6.2). A frame whose field is absent or malformed bypasses everything
// (§5.1).
//
// Per-frame calls never allocate: fields are found with
// wire::ibcs::try_locate, which accepts exactly what wire::ibcs::locate
// accepts but reports a refusal without building an error.
//
// A caller that carries one field's P_Metric as a number rather than in a
// frame (the simulator's light packets, sim/ibcs.h) runs the same rules,
// counters and roles through process_ingress_value/process_egress_value,
// given the field as wire::ibcs::locate finds it in a frame of its layout.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <vector>

#include "common/units.h"
#include "proto/fib/forwarding_types.h"
#include "proto/ibcs/local_metric.h"
#include "proto/ibcs/suf_config.h"
#include "wire/ibcs/signal_field.h"

namespace arfabric::proto::ibcs {

// What happened to a frame; with several fields, the highest value wins.
enum class Action : std::uint8_t {
  none,       // no recognised field (or nothing to do on this port)
  unchanged,  // Rule 3
  fail_open,  // L_Metric unavailable
  rewritten,  // Rule 1 or 2
  scrubbed,   // ingress edge reset to UNINITIALIZED
  zeroed,     // egress edge wrote 0 / UNINITIALIZED
  stripped,   // egress edge removed a CSIG tag (new_length is 4 shorter)
};

struct Result {
  Action action = Action::none;
  std::size_t new_length = 0;  // the frame's length after processing
};

// Per-field counts, except `absent` (frames without any recognised field)
// and `bad_port` (frames or samples for a port outside the table).
struct Counters {
  std::uint64_t rewritten = 0;
  std::uint64_t unchanged = 0;
  std::uint64_t scrubbed = 0;
  std::uint64_t stripped = 0;
  std::uint64_t zeroed = 0;
  std::uint64_t fail_open = 0;
  std::uint64_t absent = 0;
  std::uint64_t bad_port = 0;
  bool operator==(const Counters&) const = default;
  // Field by field (totals over several engines).
  Counters& operator+=(const Counters& o) {
    rewritten += o.rewritten;
    unchanged += o.unchanged;
    scrubbed += o.scrubbed;
    stripped += o.stripped;
    zeroed += o.zeroed;
    fail_open += o.fail_open;
    absent += o.absent;
    bad_port += o.bad_port;
    return *this;
  }
};

class SignalUpdateFunction {
 public:
  // Errors: those of validate(SufConfig).
  static std::expected<SignalUpdateFunction, ConfigError> create(
      SufConfig config);

  // Feeds the L_Metric of (port, rule); rule indexes config.rules. Returns
  // false (and counts bad_port) when port or rule is out of range.
  bool record_sample(PortId port, std::size_t rule, std::uint32_t value,
                     Time now);
  bool record_sample(PortId port, std::uint32_t value, Time now) {
    return record_sample(port, 0, value, now);
  }
  // When the L_Metric of (port, rule) got its newest sample
  // (LocalMetric::last_sample); nullopt before the first, and for a port
  // or rule out of range.
  std::optional<Time> last_sample(PortId port, std::size_t rule = 0) const {
    if (!in_range(port, rule)) return std::nullopt;
    return metrics_[metric_index(port, rule)].last_sample();
  }
  // Whether the L_Metric of (port, rule) got a sample after `t`; false
  // before the first, and for a port or rule out of range. It is in the
  // line process_egress_value reads, so a caller that samples every so
  // often (t = now - interval) can ask it first at no cost in lines: a
  // bool, where last_sample()'s optional is passed through the stack.
  bool sampled_after(PortId port, Time t, std::size_t rule = 0) const {
    return in_range(port, rule) &&
           metrics_[metric_index(port, rule)].sampled_after(t);
  }

  // Ingress processing: scrubs on untrusted_ingress ports, otherwise
  // leaves the frame alone (Action::none). A port outside the table is
  // treated as untrusted (fail safe against spoofing) and counted bad_port.
  Result process_ingress(std::span<std::uint8_t> frame, PortId ingress,
                         Time now);

  // Egress processing: the SUF on transit / peering ports, strip or zero on
  // egress edge ports. A port outside the table: frame unmodified,
  // bad_port counted. The frame's bytes past new_length are garbage after a
  // strip.
  Result process_egress(std::span<std::uint8_t> frame, PortId egress, Time now);

  // The same two steps on one field held as a number. `field` is where a
  // frame of the caller's layout has it (wire::ibcs::locate with this
  // engine's config().wire, which the value path cannot check): the rules
  // of its binding apply, and its signal type, operator, UNINITIALIZED and
  // max_value are read as the frame path reads them; its offsets are not
  // used. `value` is P_Metric and is updated in place, with the Action and
  // counters that the frame path gives a frame holding it. Edge cases:
  // - a `value` above field.max_value cannot be in the field: it is a
  //   malformed field, left alone and counted `absent` (Action::none), as
  //   a frame the codec refuses (§5.1);
  // - an egress edge that strips the CSIG tag returns Action::stripped and
  //   leaves `value`: the caller drops the field;
  // - a port outside the table, as in the frame path.
  Action process_ingress_value(const wire::ibcs::SignalField& field,
                               std::uint32_t& value, PortId ingress, Time now);
  Action process_egress_value(const wire::ibcs::SignalField& field,
                              std::uint32_t& value, PortId egress, Time now);

  const Counters& counters() const { return counters_; }
  const SufConfig& config() const { return config_; }

 private:
  explicit SignalUpdateFunction(SufConfig config);
  bool in_range(PortId port, std::size_t rule) const {
    return port < port_count_ && rule < rule_count_;
  }
  std::size_t metric_index(PortId port, std::size_t rule) const {
    return port * rule_count_ + rule;
  }
  LocalMetric& metric(PortId port, std::size_t rule) {
    return metrics_[metric_index(port, rule)];
  }
  // Rules 1-3 (§6.1) of config.rules[rule] at `port` for a field holding
  // `packet` (nullopt: unreadable): Action::rewritten with the L_Metric to
  // write, Action::unchanged, or Action::fail_open.
  struct Update {
    Action action;
    std::uint32_t value;
  };
  Update apply_rules(std::size_t rule, PortId port,
                     const wire::ibcs::SignalField& field,
                     std::optional<std::uint32_t> packet, Time now);
  // A value the field cannot hold: counted `absent` (a field the codec
  // would refuse).
  bool malformed(const wire::ibcs::SignalField& field, std::uint32_t value);
  // Counts `action` for one field and raises the frame's result to it.
  void tally(Action action, Result& result);
  Result scrub(std::span<std::uint8_t> frame);
  Result edge(std::span<std::uint8_t> frame);
  Result suf(std::span<std::uint8_t> frame, PortId port, Time now);
  Action scrub_value(const wire::ibcs::SignalField& field,
                     std::uint32_t& value);
  Action edge_value(const wire::ibcs::SignalField& field, std::uint32_t& value);
  Action suf_value(const wire::ibcs::SignalField& field, std::uint32_t& value,
                   PortId port, Time now);

  SufConfig config_;
  // config_.ports.size() and config_.rules.size(), which the per-packet
  // range checks and metric lookups read: the vectors' own sizes divide
  // by element sizes that are not powers of two (a multiply each). A
  // moved-from engine keeps them while its vectors are empty, so, like
  // any moved-from object, it must not be used.
  std::uint32_t port_count_ = 0;
  std::uint32_t rule_count_ = 0;
  std::array<EdgeAction, kMaxRules> edge_actions_{};
  std::vector<LocalMetric> metrics_;  // ports x rules, one line each
  Counters counters_;
};

}  // namespace arfabric::proto::ibcs
