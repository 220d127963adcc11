// The body of an OSPFv2 Router-LSA (RFC 2328 A.4.2, LS type 1): a
// router's links in one area.
//
//   Flags (1: 0 0 0 0 0 V E B, RFC 8770's H = 0x80) | 0 (1) | # links (2)
//   per link:
//     Link ID (4) | Link Data (4)
//     Type (1) | # TOS (1) | metric (2)
//     per TOS: TOS (1) | 0 (1) | TOS metric (2)
//
// Link types: 1 point-to-point (Link ID = the neighbour's router ID, Link
// Data = the local interface address, or its ifIndex when unnumbered),
// 2 transit network (a LAN: its designated router's interface address),
// 3 stub network (Link ID = the network, Link Data = its mask), 4 virtual
// link. Other types and every flag are kept as they came, and so is the
// reserved octet, for byte-exact round trips.
#pragma once

#include <cstdint>
#include <expected>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint8_t kLsTypeRouter = 1;
inline constexpr std::uint8_t kRouterFlagBorder = 0x01;    // B: an ABR
inline constexpr std::uint8_t kRouterFlagExternal = 0x02;  // E: an ASBR
inline constexpr std::uint8_t kRouterFlagVirtual = 0x04;   // V
inline constexpr std::uint8_t kRouterFlagHost = 0x80;      // H, RFC 8770
inline constexpr std::uint8_t kRouterLinkPointToPoint = 1;
inline constexpr std::uint8_t kRouterLinkTransit = 2;
inline constexpr std::uint8_t kRouterLinkStub = 3;
inline constexpr std::uint8_t kRouterLinkVirtual = 4;

struct TosMetric {
  std::uint8_t tos = 0;
  std::uint8_t reserved = 0;
  std::uint16_t metric = 0;
  bool operator==(const TosMetric&) const = default;
};

struct RouterLsaLink {
  Ipv4Address link_id{};
  Ipv4Address link_data{};
  std::uint8_t type = kRouterLinkPointToPoint;
  std::uint16_t metric = 0;
  std::vector<TosMetric> tos;
  bool operator==(const RouterLsaLink&) const = default;
};

struct RouterLsa {
  std::uint8_t flags = 0;
  std::uint8_t reserved = 0;
  std::vector<RouterLsaLink> links;
  bool operator==(const RouterLsa&) const = default;
};

// Errors (fields "ospf.router_lsa.*"): a truncated field, ".link_count"
// larger than the links present or smaller (bytes left after the counted
// links).
std::expected<RouterLsa, DecodeError> parse_router_lsa_body(
    ByteSpan body, std::size_t base_offset = 0);
// Errors: over 65535 links (".link_count"), or a link with over 255 TOS
// entries ("links[i].tos").
std::expected<void, EncodeError> serialize_router_lsa_body(const RouterLsa& lsa,
                                                           ByteWriter& out);
std::size_t encoded_size(const RouterLsa& lsa);

}  // namespace arfabric::wire::ospf
