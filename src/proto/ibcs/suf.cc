#include "proto/ibcs/suf.h"

#include <algorithm>
#include <utility>

#include "proto/ibcs/edge.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"

namespace arfabric::proto::ibcs {
namespace {

using wire::ibcs::Binding;
using wire::ibcs::ExtremumOp;
using wire::ibcs::SignalField;

// Which bindings a frame may carry, from a walk that never allocates. It is
// conservative (a "yes" may still fail locate(), a "no" is always right), so
// locate() and its error strings run only for frames that look right.
struct Scan {
  bool csig = false;
  bool ipv4_options = false;
  bool ibcs_udp = false;
};

std::uint16_t get16(ByteSpan b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}

Scan prescan(ByteSpan frame, const wire::ibcs::BindingConfig& c) {
  Scan s;
  std::size_t p = 12;
  bool vlan = false;
  std::uint16_t type = 0;
  for (;;) {
    if (frame.size() < p + 2) return s;
    type = get16(frame, p);
    p += 2;
    if (type == wire::kEtherTypeVlan && !vlan) {
      vlan = true;
      p += 2;
    } else if (type == c.csig_ethertype && !s.csig) {
      s.csig = true;
      p += 2;
    } else {
      break;
    }
  }
  if (type != wire::kEtherTypeIpv4 || frame.size() < p + 20) return s;
  const ByteSpan ip = frame.subspan(p);
  const std::size_t ihl = (ip[0] & 0x0f) * 4u;
  s.ipv4_options = ihl > 20;
  if (ip[9] == wire::kIpProtoUdp && (get16(ip, 6) & 0x1fff) == 0 &&
      ip.size() >= ihl + 4)
    s.ibcs_udp = get16(ip, ihl + 2) == c.udp_port;
  return s;
}

bool may_carry(const Scan& s, Binding b) {
  switch (b) {
    case Binding::csig_l2:
      return s.csig;
    case Binding::hpcc_int:
      return s.ipv4_options;
    case Binding::ipv4_udp:
      return s.ibcs_udp;
  }
  return false;
}

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
  const Scan scan = prescan(frame, config_.wire);
  for (const BindingRule& rule : config_.rules) {
    if (!may_carry(scan, rule.binding)) continue;
    const auto field = wire::ibcs::locate(rule.binding, frame, config_.wire);
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
  const Scan scan = prescan(frame, config_.wire);
  std::optional<std::size_t> strip_at;
  for (std::size_t i = 0; i < config_.rules.size(); ++i) {
    const BindingRule& rule = config_.rules[i];
    if (!may_carry(scan, rule.binding)) continue;
    const auto field = wire::ibcs::locate(rule.binding, frame, config_.wire);
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
  const Scan scan = prescan(frame, config_.wire);
  for (std::size_t i = 0; i < config_.rules.size(); ++i) {
    const BindingRule& rule = config_.rules[i];
    if (!may_carry(scan, rule.binding)) continue;
    const auto field = wire::ibcs::locate(rule.binding, frame, config_.wire);
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
