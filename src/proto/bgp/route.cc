#include "proto/bgp/route.h"

#include <algorithm>

namespace arfabric::proto::bgp {

namespace wb = wire::bgp;

Destination destination_of(std::uint16_t afi, const wb::Prefix& p) {
  Destination d;
  d.afi = afi;
  d.length = p.length;
  const std::size_t full = p.length / 8;
  std::copy_n(p.address.begin(), full, d.address.begin());
  if (const unsigned rest = p.length % 8; rest != 0) {
    d.address[full] =
        static_cast<std::uint8_t>(p.address[full] & (0xff00u >> rest));
  }
  return d;
}

wb::Prefix to_wire_prefix(const Destination& d) {
  wb::Prefix p;
  p.length = d.length;
  p.address = d.address;
  return p;
}

std::string format_destination(const Destination& d) {
  return wb::format_prefix(to_wire_prefix(d), d.max_length());
}

std::size_t DestinationHash::operator()(const Destination& d) const {
  // FNV-1a over the significant bytes; IPv4 tables hash 4 + 2 bytes.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint8_t b) {
    h ^= b;
    h *= 1099511628211ull;
  };
  mix(static_cast<std::uint8_t>(d.afi));
  mix(d.length);
  const std::size_t n = d.afi == wb::kAfiIpv6 ? 16 : 4;
  for (std::size_t i = 0; i < n; ++i) mix(d.address[i]);
  return static_cast<std::size_t>(h);
}

bool RouteAttributes::contains_as(std::uint32_t asn) const {
  const wb::PathAttribute* a = find(wb::attr_type::kAsPath);
  const auto* path = a ? std::get_if<wb::AsPath>(&a->value) : nullptr;
  if (!path) return false;
  for (const wb::AsPathSegment& s : path->segments) {
    if (std::find(s.asns.begin(), s.asns.end(), asn) != s.asns.end()) {
      return true;
    }
  }
  return false;
}

const wb::PathAttribute* RouteAttributes::find(std::uint8_t type) const {
  for (const wb::PathAttribute& a : attributes) {
    if (a.type == type) return &a;
  }
  return nullptr;
}

AttributesRef make_route_attributes(std::vector<wb::PathAttribute> attributes,
                                    Bytes next_hop,
                                    std::uint8_t path_bandwidth_sub_type) {
  auto r = std::make_shared<RouteAttributes>();
  r->next_hop = std::move(next_hop);
  for (wb::PathAttribute& a : attributes) {
    switch (a.type) {
      case wb::attr_type::kNextHop:
      case wb::attr_type::kMpReachNlri:
      case wb::attr_type::kMpUnreachNlri:
        continue;
      default:
        break;
    }
    if (const auto* o = std::get_if<wb::Origin>(&a.value)) {
      r->origin = o->value;
    } else if (const auto* p = std::get_if<wb::AsPath>(&a.value)) {
      for (const wb::AsPathSegment& s : p->segments) {
        // RFC 4271 section 9.1.2.2 (a): an AS_SET counts as one; the
        // confederation segments do not count (RFC 5065 section 5.3).
        if (s.type == wb::segment_type::kAsSequence) {
          r->as_path_length += static_cast<std::uint32_t>(s.asns.size());
        } else if (s.type == wb::segment_type::kAsSet) {
          r->as_path_length += 1;
        }
      }
      if (!p->segments.empty() && !p->segments.front().asns.empty() &&
          p->segments.front().type == wb::segment_type::kAsSequence) {
        r->neighbor_as = p->segments.front().asns.front();
      }
    } else if (const auto* m = std::get_if<wb::Med>(&a.value)) {
      r->med = m->value;
    } else if (const auto* l = std::get_if<wb::LocalPref>(&a.value)) {
      r->local_pref = l->value;
    } else if (const auto* e = std::get_if<wb::ExtendedCommunities>(&a.value)) {
      for (const wb::ExtendedCommunity& ec : e->values) {
        auto pb =
            wire::fare::decode_path_bandwidth(ec, path_bandwidth_sub_type);
        if (!pb) continue;
        // The first valid one of each kind counts; a second one is ignored
        // (the draft attaches at most one of each per route). An invalid
        // one (NaN, negative) is kept only while no valid one is seen, so
        // that FARE reports it as invalid (docs/PROTOCOLS.md, units) rather
        // than missing; the policy treats it as absent.
        auto& slot = pb->transitive ? r->path_bandwidth
                                    : r->path_bandwidth_non_transitive;
        if (!slot || (!slot->valid() && pb->valid())) slot = *pb;
      }
    }
    r->attributes.push_back(std::move(a));
  }
  return r;
}

}  // namespace arfabric::proto::bgp
