// The body of an OSPFv2 Summary-LSA (RFC 2328 A.4.4): LS type 3, a
// network an area border router reaches in another area (Link State ID =
// the network), or LS type 4, an AS boundary router (Link State ID = its
// router ID).
//
//   Network Mask (4)
//   0 (1) | metric (3)
//   per TOS: TOS (1) | TOS metric (3)
//
// A metric of LSInfinity (0xFFFFFF) withdraws the route (RFC 2328 §12.4.3,
// §16.2). The reserved octet is kept for byte-exact round trips.
#pragma once

#include <cstdint>
#include <expected>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint8_t kLsTypeSummaryNetwork = 3;
inline constexpr std::uint8_t kLsTypeSummaryAsbr = 4;
inline constexpr std::uint32_t kLsInfinity = 0xFFFFFF;

struct SummaryTosMetric {
  std::uint8_t tos = 0;
  std::uint32_t metric = 0;  // 24 bits
  bool operator==(const SummaryTosMetric&) const = default;
};

struct SummaryLsa {
  Ipv4Address network_mask{};
  std::uint8_t reserved = 0;
  std::uint32_t metric = 0;  // 24 bits
  std::vector<SummaryTosMetric> tos;
  bool operator==(const SummaryLsa&) const = default;
};

// Errors (fields "ospf.summary_lsa.*"): a truncated field, including a TOS
// entry cut short (the body after the metric not a multiple of 4).
std::expected<SummaryLsa, DecodeError> parse_summary_lsa_body(
    ByteSpan body, std::size_t base_offset = 0);
// Errors: ".metric" or "tos[i].metric" over 24 bits.
std::expected<void, EncodeError> serialize_summary_lsa_body(
    const SummaryLsa& lsa, ByteWriter& out);
std::size_t encoded_size(const SummaryLsa& lsa);

}  // namespace arfabric::wire::ospf
