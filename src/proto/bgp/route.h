// Routes as the speaker stores them: a destination (AFI + prefix), the
// path attributes shared by every prefix of one UPDATE, and one path per
// (peer, ADD-PATH path identifier).
//
// Attributes are parsed once per UPDATE into an immutable RouteAttributes
// that all the UPDATE's prefixes share through a shared_ptr; the fields the
// decision process and FARE read (AS_PATH length, first AS, origin, MED, the
// Path Bandwidth ECs) are pre-computed so the per-prefix work is small.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "wire/bgp/nlri.h"
#include "wire/bgp/options.h"
#include "wire/bgp/path_attribute.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::proto::bgp {

// Index of a configured peer in SpeakerConfig::peers.
using PeerId = std::uint32_t;
inline constexpr PeerId kLocalPeer = 0xffffffff;  // routes we originate

// An IPv4 or IPv6 unicast prefix (the only families the speaker carries).
struct Destination {
  std::uint16_t afi = wire::bgp::kAfiIpv4;
  std::uint8_t length = 0;
  std::array<std::uint8_t, 16> address{};  // bits past `length` are zero

  bool operator==(const Destination&) const = default;
  auto operator<=>(const Destination&) const = default;
  std::uint8_t max_length() const {
    return afi == wire::bgp::kAfiIpv6 ? 128 : 32;
  }
  wire::bgp::AfiSafi family() const { return {afi, wire::bgp::kSafiUnicast}; }
};

// The destination of a wire prefix, host bits cleared (RFC 4271 section
// 4.3 allows trailing bits; they must not make two routes differ).
Destination destination_of(std::uint16_t afi, const wire::bgp::Prefix& p);
wire::bgp::Prefix to_wire_prefix(const Destination& d);
std::string format_destination(const Destination& d);

struct DestinationHash {
  std::size_t operator()(const Destination& d) const;
};

struct RouteAttributes {
  // Every received attribute except NEXT_HOP, MP_REACH_NLRI and
  // MP_UNREACH_NLRI (those are per family and per peer), in wire order,
  // after RFC 7606 attribute-discard.
  std::vector<wire::bgp::PathAttribute> attributes;
  // Next hop: 4 bytes (IPv4) or 16/32 bytes (IPv6 global [+ link-local]).
  Bytes next_hop;

  // Derived for the decision process (RFC 4271 section 9.1.2.2).
  wire::bgp::OriginValue origin = wire::bgp::OriginValue::incomplete;
  std::uint32_t as_path_length = 0;  // an AS_SET counts 1
  std::uint32_t neighbor_as = 0;     // first AS of the path, 0 if empty
  std::optional<std::uint32_t> med;
  std::uint32_t local_pref = 100;
  // FARE (draft-xu-idr-fare section 3), when present: the first valid
  // community of each kind, else the first invalid one (NaN, negative),
  // which the FARE policy treats as absent and reports as invalid.
  std::optional<wire::fare::PathBandwidth> path_bandwidth;
  std::optional<wire::fare::PathBandwidth> path_bandwidth_non_transitive;

  bool contains_as(std::uint32_t asn) const;
  const wire::bgp::PathAttribute* find(std::uint8_t type) const;
};
using AttributesRef = std::shared_ptr<const RouteAttributes>;

// Builds RouteAttributes from the attributes of one UPDATE and the next hop
// it gave for the family. `path_bandwidth_sub_type` selects the FARE EC.
AttributesRef make_route_attributes(
    std::vector<wire::bgp::PathAttribute> attributes, Bytes next_hop,
    std::uint8_t path_bandwidth_sub_type);

// One path to a destination: from a peer (with its ADD-PATH identifier,
// 0 without ADD-PATH) or originated locally (peer == kLocalPeer).
struct Path {
  PeerId peer = kLocalPeer;
  std::uint32_t path_id = 0;
  AttributesRef attributes;
};

}  // namespace arfabric::proto::bgp
