#include "proto/ibcs/suf.h"

#include <algorithm>
#include <utility>

#include "proto/ibcs/edge.h"

namespace arfabric::proto::ibcs {
namespace {

using wire::ibcs::Binding;
using wire::ibcs::ExtremumOp;
using wire::ibcs::SignalField;

bool tighter(std::uint32_t local, std::uint32_t packet, ExtremumOp op) {
  return op == ExtremumOp::min ? local < packet : local > packet;
}

void raise(Result& r, Action a) { r.action = std::max(r.action, a); }

}  // namespace

std::expected<SignalUpdateFunction, ConfigError> SignalUpdateFunction::create(
    SufConfig config) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  return SignalUpdateFunction(std::move(config));
}

SignalUpdateFunction::SignalUpdateFunction(SufConfig config)
    : config_(std::move(config)),
      port_count_(static_cast<std::uint32_t>(config_.ports.size())),
      rule_count_(static_cast<std::uint32_t>(config_.rules.size())) {
  metrics_.resize(std::size_t{port_count_} * rule_count_);
  for (std::size_t i = 0; i < rule_count_; ++i)
    edge_actions_[i] = config_.rules[i].edge_action.value_or(
        default_edge_action(config_.rules[i].binding));
}

bool SignalUpdateFunction::record_sample(PortId port, std::size_t rule,
                                         std::uint32_t value, Time now) {
  if (!in_range(port, rule)) {
    ++counters_.bad_port;
    return false;
  }
  metric(port, rule).record(config_.rules[rule].metric, value, now);
  return true;
}

Result SignalUpdateFunction::process_ingress(std::span<std::uint8_t> frame,
                                             PortId ingress, Time) {
  if (ingress >= port_count_) {
    ++counters_.bad_port;
    return scrub(frame);
  }
  if (!config_.ports[ingress].untrusted_ingress)
    return {Action::none, frame.size()};
  return scrub(frame);
}

Result SignalUpdateFunction::process_egress(std::span<std::uint8_t> frame,
                                            PortId egress, Time now) {
  if (egress >= port_count_) {
    ++counters_.bad_port;
    return {Action::none, frame.size()};
  }
  const PortConfig& port = config_.ports[egress];
  if (port.egress_edge && !port.peering) return edge(frame);
  return suf(frame, egress, now);
}

Action SignalUpdateFunction::process_ingress_value(const SignalField& field,
                                                   std::uint32_t& value,
                                                   PortId ingress, Time) {
  if (ingress >= port_count_) {
    ++counters_.bad_port;
    return scrub_value(field, value);
  }
  if (!config_.ports[ingress].untrusted_ingress) return Action::none;
  return scrub_value(field, value);
}

Action SignalUpdateFunction::process_egress_value(const SignalField& field,
                                                  std::uint32_t& value,
                                                  PortId egress, Time now) {
  if (egress >= port_count_) {
    ++counters_.bad_port;
    return Action::none;
  }
  if (malformed(field, value)) return Action::none;
  const PortConfig& port = config_.ports[egress];
  if (port.egress_edge && !port.peering) return edge_value(field, value);
  return suf_value(field, value, egress, now);
}

SignalUpdateFunction::Update SignalUpdateFunction::apply_rules(
    std::size_t rule, PortId port, const SignalField& field,
    std::optional<std::uint32_t> packet, Time now) {
  const BindingRule& r = config_.rules[rule];
  const auto local = field.signal_type == r.signal_type
                         ? metric(port, rule).value(r.metric, now)
                         : std::nullopt;
  if (!local || !packet) return {Action::fail_open, 0};
  const std::uint32_t l = std::min(*local, field.max_value);
  const ExtremumOp op = r.op.value_or(field.op);
  const bool rule1 = *packet == field.uninitialized;
  if (rule1 || tighter(l, *packet, op)) return {Action::rewritten, l};
  return {Action::unchanged, 0};
}

bool SignalUpdateFunction::malformed(const SignalField& field,
                                     std::uint32_t value) {
  if (value <= field.max_value) return false;
  ++counters_.absent;
  return true;
}

void SignalUpdateFunction::tally(Action action, Result& result) {
  switch (action) {
    case Action::none:
      return;
    case Action::unchanged:
      ++counters_.unchanged;
      break;
    case Action::fail_open:
      ++counters_.fail_open;
      break;
    case Action::rewritten:
      ++counters_.rewritten;
      break;
    case Action::scrubbed:
      ++counters_.scrubbed;
      break;
    case Action::zeroed:
      ++counters_.zeroed;
      break;
    case Action::stripped:
      ++counters_.stripped;
      break;
  }
  raise(result, action);
}

Result SignalUpdateFunction::scrub(std::span<std::uint8_t> frame) {
  Result r{Action::none, frame.size()};
  for (const BindingRule& rule : config_.rules) {
    const auto field =
        wire::ibcs::try_locate(rule.binding, frame, config_.wire);
    if (!field) continue;
    // Unconditional: a spoofed value must not survive even if it equals
    // what this node would have written (§4.1).
    if (wire::ibcs::rewrite_metric(frame, *field, field->uninitialized))
      tally(Action::scrubbed, r);
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

Action SignalUpdateFunction::scrub_value(const SignalField& field,
                                         std::uint32_t& value) {
  if (malformed(field, value)) return Action::none;
  Result r;
  for (const BindingRule& rule : config_.rules) {
    if (rule.binding != field.binding) continue;
    value = field.uninitialized;
    tally(Action::scrubbed, r);
  }
  if (r.action == Action::none) ++counters_.absent;
  return r.action;
}

Result SignalUpdateFunction::edge(std::span<std::uint8_t> frame) {
  Result r{Action::none, frame.size()};
  std::optional<std::size_t> strip_at;
  for (std::size_t i = 0; i < rule_count_; ++i) {
    const BindingRule& rule = config_.rules[i];
    const auto field =
        wire::ibcs::try_locate(rule.binding, frame, config_.wire);
    if (!field) continue;
    switch (edge_actions_[i]) {
      case EdgeAction::strip:
        // Last, after the other fields: stripping moves their offsets.
        strip_at = field->offset - 2;
        break;
      case EdgeAction::zero:
      case EdgeAction::uninitialize: {
        const std::uint32_t v =
            edge_actions_[i] == EdgeAction::zero ? 0 : field->uninitialized;
        if (wire::ibcs::rewrite_metric(frame, *field, v))
          tally(Action::zeroed, r);
        break;
      }
    }
  }
  if (strip_at) {
    if (auto length = strip_csig_tag(frame, *strip_at)) {
      r.new_length = *length;
      tally(Action::stripped, r);
    }
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

Action SignalUpdateFunction::edge_value(const SignalField& field,
                                        std::uint32_t& value) {
  Result r;
  bool strip = false;
  for (std::size_t i = 0; i < rule_count_; ++i) {
    if (config_.rules[i].binding != field.binding) continue;
    switch (edge_actions_[i]) {
      case EdgeAction::strip:
        strip = true;  // validate(): only a CSIG tag is stripped
        break;
      case EdgeAction::zero:
      case EdgeAction::uninitialize:
        value = edge_actions_[i] == EdgeAction::zero ? 0 : field.uninitialized;
        tally(Action::zeroed, r);
        break;
    }
  }
  if (strip) tally(Action::stripped, r);
  if (r.action == Action::none) ++counters_.absent;
  return r.action;
}

Result SignalUpdateFunction::suf(std::span<std::uint8_t> frame, PortId port,
                                 Time now) {
  Result r{Action::none, frame.size()};
  for (std::size_t i = 0; i < rule_count_; ++i) {
    const auto field =
        wire::ibcs::try_locate(config_.rules[i].binding, frame, config_.wire);
    if (!field) continue;  // §5.1: unrecognised -> opaque
    const auto packet = wire::ibcs::read_metric(frame, *field);
    Update u = apply_rules(
        i, port, *field,
        packet ? std::optional<std::uint32_t>(*packet) : std::nullopt, now);
    if (u.action == Action::rewritten &&
        !wire::ibcs::rewrite_metric(frame, *field, u.value))
      u.action = Action::unchanged;
    tally(u.action, r);
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

Action SignalUpdateFunction::suf_value(const SignalField& field,
                                       std::uint32_t& value, PortId port,
                                       Time now) {
  Result r;
  for (std::size_t i = 0; i < rule_count_; ++i) {
    if (config_.rules[i].binding != field.binding) continue;
    const Update u = apply_rules(i, port, field, value, now);
    if (u.action == Action::rewritten) value = u.value;
    tally(u.action, r);
  }
  if (r.action == Action::none) ++counters_.absent;
  return r.action;
}

}  // namespace arfabric::proto::ibcs
