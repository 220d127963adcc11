#include "proto/bgp/open_negotiation.h"

#include <algorithm>

#include "wire/bgp/error.h"

namespace arfabric::proto::bgp {
namespace {

namespace cc = wire::bgp::capability_code;
using wire::bgp::AddPathCapability;
using wire::bgp::AfiSafi;
using wire::bgp::Capability;
using wire::bgp::MultiprotocolCapability;
using wire::bgp::Notification;
using wire::bgp::Open;

Notification open_error(std::uint8_t subcode, Bytes data = {}) {
  return Notification{wire::bgp::error_code::kOpenMessage, subcode,
                      std::move(data)};
}

bool has_capability(const Open& o, std::uint8_t code) {
  for (const Capability& c : o.capabilities()) {
    if (c.code == code) return true;
  }
  return false;
}

std::vector<AddPathCapability::Entry> add_path_entries(const Open& o) {
  std::vector<AddPathCapability::Entry> out;
  for (const Capability& c : o.capabilities()) {
    if (auto* v = std::get_if<AddPathCapability>(&c.value)) {
      out.insert(out.end(), v->entries.begin(), v->entries.end());
    }
  }
  return out;
}

template <typename T, typename V>
bool contains(const std::vector<T>& v, const V& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

bool CapabilityFilter::drops_code(std::uint8_t code) const {
  return contains(codes, code);
}

bool CapabilityFilter::drops_family(AfiSafi f) const {
  return contains(families, f);
}

bool CapabilityFilter::add_from(const Notification& n) {
  if (n.code != wire::bgp::error_code::kOpenMessage ||
      n.subcode != kSubcodeUnsupportedCapability) {
    return false;
  }
  auto caps = wire::bgp::parse_capabilities(ByteReader(n.data));
  if (!caps || caps->empty()) return false;
  for (const Capability& c : *caps) {
    if (auto* mp = std::get_if<MultiprotocolCapability>(&c.value)) {
      if (!drops_family(mp->family)) families.push_back(mp->family);
    } else if (!drops_code(c.code)) {
      codes.push_back(c.code);
    }
  }
  return true;
}

Open local_open(const SessionConfig& config, const CapabilityFilter& filter) {
  Open o;
  o.version = 4;
  o.my_as = config.local_as > 0xffff
                ? wire::bgp::kAsTrans
                : static_cast<std::uint16_t>(config.local_as);
  o.hold_time = config.hold_time_s;
  o.identifier = config.router_id;
  wire::bgp::OptionalParameter p;
  p.type = wire::bgp::kParamCapabilities;
  if (!filter.drops_code(cc::kMultiprotocol)) {
    for (AfiSafi f : config.families) {
      if (filter.drops_family(f)) continue;
      p.capabilities.push_back(
          {cc::kMultiprotocol, MultiprotocolCapability{f}});
    }
  }
  if (config.route_refresh && !filter.drops_code(cc::kRouteRefresh)) {
    p.capabilities.push_back(
        {cc::kRouteRefresh, wire::bgp::RouteRefreshCapability{}});
  }
  if (config.extended_message && !filter.drops_code(cc::kExtendedMessage)) {
    p.capabilities.push_back(
        {cc::kExtendedMessage, wire::bgp::ExtendedMessageCapability{}});
  }
  if (!filter.drops_code(cc::kFourOctetAs)) {
    p.capabilities.push_back(
        {cc::kFourOctetAs, wire::bgp::FourOctetAsCapability{config.local_as}});
  }
  if (!config.add_path.empty() && !filter.drops_code(cc::kAddPath)) {
    AddPathCapability ap;
    for (const auto& e : config.add_path) {
      if (!filter.drops_family(e.family)) ap.entries.push_back(e);
    }
    if (!ap.entries.empty()) p.capabilities.push_back({cc::kAddPath, ap});
  }
  if (!p.capabilities.empty()) o.parameters.push_back(std::move(p));
  return o;
}

std::vector<AfiSafi> advertised_families(const Open& o) {
  std::vector<AfiSafi> out;
  for (const Capability& c : o.capabilities()) {
    if (auto* mp = std::get_if<MultiprotocolCapability>(&c.value)) {
      if (!contains(out, mp->family)) out.push_back(mp->family);
    }
  }
  if (out.empty())
    out.push_back({wire::bgp::kAfiIpv4, wire::bgp::kSafiUnicast});
  return out;
}

std::expected<Negotiated, Notification> accept_open(const SessionConfig& config,
                                                    const Open& local,
                                                    const Open& remote) {
  namespace sub = wire::bgp::subcode;
  for (const auto& p : remote.parameters) {
    if (p.type != wire::bgp::kParamCapabilities)
      return std::unexpected(open_error(sub::kUnsupportedOptionalParameter));
  }
  if (remote.hold_time == 1 || remote.hold_time == 2)
    return std::unexpected(open_error(sub::kUnacceptableHoldTime));
  const std::uint32_t remote_as = remote.four_octet_as().value_or(remote.my_as);
  if (remote_as != config.remote_as)
    return std::unexpected(open_error(sub::kBadPeerAs));
  if (remote.identifier == wire::Ipv4Address{} ||
      (config.remote_as == config.local_as &&
       remote.identifier == config.router_id)) {
    return std::unexpected(open_error(sub::kBadBgpIdentifier));
  }
  Negotiated n;
  const std::vector<AfiSafi> ours = advertised_families(local);
  for (AfiSafi f : advertised_families(remote)) {
    if (contains(ours, f) && contains(config.families, f))
      n.families.push_back(f);
  }
  // Sorted, so both ends of a session list them alike.
  std::sort(n.families.begin(), n.families.end());
  if (n.families.empty()) {
    ByteWriter data;
    for (const Capability& c : local.capabilities()) {
      if (c.code != cc::kMultiprotocol) continue;
      // Our own capabilities always encode.
      (void)wire::bgp::serialize(c, data);
    }
    return std::unexpected(
        open_error(kSubcodeUnsupportedCapability, data.take()));
  }
  n.remote_open = remote;
  n.remote_as = remote_as;
  n.remote_id = remote.identifier;
  n.hold_time_s = std::min(local.hold_time, remote.hold_time);
  n.route_refresh = has_capability(local, cc::kRouteRefresh) &&
                    has_capability(remote, cc::kRouteRefresh);
  n.receive = wire::bgp::negotiate(local, remote);
  std::erase_if(n.receive.add_path,
                [&](AfiSafi f) { return !contains(n.families, f); });
  n.send = n.receive;
  n.send.add_path.clear();
  const auto remote_entries = add_path_entries(remote);
  for (const auto& l : add_path_entries(local)) {
    if (!(l.send_receive & 2) || !contains(n.families, l.family)) continue;
    for (const auto& r : remote_entries) {
      if (r.family == l.family && (r.send_receive & 1) &&
          !n.send.has_add_path(l.family)) {
        n.send.add_path.push_back(l.family);
      }
    }
  }
  return n;
}

}  // namespace arfabric::proto::bgp
