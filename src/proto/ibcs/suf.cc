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
    : config_(std::move(config)) {
  metrics_.reserve(config_.ports.size() * config_.rules.size());
  for (std::size_t p = 0; p < config_.ports.size(); ++p)
    for (const BindingRule& r : config_.rules) metrics_.emplace_back(r.metric);
  for (std::size_t i = 0; i < config_.rules.size(); ++i)
    edge_actions_[i] = config_.rules[i].edge_action.value_or(
        default_edge_action(config_.rules[i].binding));
}

bool SignalUpdateFunction::record_sample(PortId port, std::size_t rule,
                                         std::uint32_t value, Time now) {
  if (port >= config_.ports.size() || rule >= config_.rules.size()) {
    ++counters_.bad_port;
    return false;
  }
  metric(port, rule).record(value, now);
  return true;
}

Result SignalUpdateFunction::process_ingress(std::span<std::uint8_t> frame,
                                             PortId ingress, Time) {
  if (ingress >= config_.ports.size()) {
    ++counters_.bad_port;
    return scrub(frame);
  }
  if (!config_.ports[ingress].untrusted_ingress)
    return {Action::none, frame.size()};
  return scrub(frame);
}

Result SignalUpdateFunction::process_egress(std::span<std::uint8_t> frame,
                                            PortId egress, Time now) {
  if (egress >= config_.ports.size()) {
    ++counters_.bad_port;
    return {Action::none, frame.size()};
  }
  const PortConfig& port = config_.ports[egress];
  if (port.egress_edge && !port.peering) return edge(frame);
  return suf(frame, egress, now);
}

Result SignalUpdateFunction::scrub(std::span<std::uint8_t> frame) {
  Result r{Action::none, frame.size()};
  for (const BindingRule& rule : config_.rules) {
    const auto field =
        wire::ibcs::try_locate(rule.binding, frame, config_.wire);
    if (!field) continue;
    // Unconditional: a spoofed value must not survive even if it equals
    // what this node would have written (§4.1).
    if (wire::ibcs::rewrite_metric(frame, *field, field->uninitialized)) {
      ++counters_.scrubbed;
      raise(r, Action::scrubbed);
    }
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

Result SignalUpdateFunction::edge(std::span<std::uint8_t> frame) {
  Result r{Action::none, frame.size()};
  std::optional<std::size_t> strip_at;
  for (std::size_t i = 0; i < config_.rules.size(); ++i) {
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
        if (wire::ibcs::rewrite_metric(frame, *field, v)) {
          ++counters_.zeroed;
          raise(r, Action::zeroed);
        }
        break;
      }
    }
  }
  if (strip_at) {
    if (auto length = strip_csig_tag(frame, *strip_at)) {
      r.new_length = *length;
      ++counters_.stripped;
      raise(r, Action::stripped);
    }
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

Result SignalUpdateFunction::suf(std::span<std::uint8_t> frame, PortId port,
                                 Time now) {
  Result r{Action::none, frame.size()};
  for (std::size_t i = 0; i < config_.rules.size(); ++i) {
    const BindingRule& rule = config_.rules[i];
    const auto field =
        wire::ibcs::try_locate(rule.binding, frame, config_.wire);
    if (!field) continue;  // §5.1: unrecognised -> opaque
    const auto local = field->signal_type == rule.signal_type
                           ? metric(port, i).value(now)
                           : std::nullopt;
    const auto packet = wire::ibcs::read_metric(frame, *field);
    if (!local || !packet) {
      ++counters_.fail_open;
      raise(r, Action::fail_open);
      continue;
    }
    const std::uint32_t l = std::min(*local, field->max_value);
    const ExtremumOp op = rule.op.value_or(field->op);
    const bool rule1 = *packet == field->uninitialized;
    if ((rule1 || tighter(l, *packet, op)) &&
        wire::ibcs::rewrite_metric(frame, *field, l)) {
      ++counters_.rewritten;
      raise(r, Action::rewritten);
    } else {
      ++counters_.unchanged;
      raise(r, Action::unchanged);
    }
  }
  if (r.action == Action::none) ++counters_.absent;
  return r;
}

}  // namespace arfabric::proto::ibcs
