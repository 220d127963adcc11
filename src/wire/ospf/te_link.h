// The body of an OSPFv2 Traffic Engineering opaque LSA (RFC 3630, opaque
// type 1): top-level TLVs Router Address (1) and Link (2). In the Link TLV
// (RFC 3630 section 2.4.2) the sub-TLVs Link type (1), Link ID (2), Local
// (3) and Remote (4) interface IP addresses and Maximum Bandwidth (6,
// binary32 bytes/s, section 2.5.6) are decoded; the others (TE metric,
// reservable/unreserved bandwidth, admin group, ...) are kept raw.
//
// FARE (draft-xu-lsr-fare-04 section 4) uses Maximum Bandwidth as the link
// capacity in its path weight. A decoded sub-TLV of the wrong length is an
// error; see wire/ospf/tlv.h for padding.
#pragma once

#include <cstdint>
#include <expected>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"
#include "wire/ospf/tlv.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint16_t kTeTlvRouterAddress = 1;
inline constexpr std::uint16_t kTeTlvLink = 2;
inline constexpr std::uint16_t kLinkSubTlvLinkType = 1;
inline constexpr std::uint16_t kLinkSubTlvLinkId = 2;
inline constexpr std::uint16_t kLinkSubTlvLocalAddress = 3;
inline constexpr std::uint16_t kLinkSubTlvRemoteAddress = 4;
inline constexpr std::uint16_t kLinkSubTlvMaxBandwidth = 6;

struct LinkTypeSubTlv {  // 1: 1 = point-to-point, 2 = multi-access
  std::uint8_t link_type = 1;
  bool operator==(const LinkTypeSubTlv&) const = default;
};
struct LinkIdSubTlv {  // 2
  Ipv4Address link_id{};
  bool operator==(const LinkIdSubTlv&) const = default;
};
struct LocalAddressSubTlv {  // 3, one or more addresses
  std::vector<Ipv4Address> addresses;
  bool operator==(const LocalAddressSubTlv&) const = default;
};
struct RemoteAddressSubTlv {  // 4, one or more addresses
  std::vector<Ipv4Address> addresses;
  bool operator==(const RemoteAddressSubTlv&) const = default;
};
struct MaxBandwidthSubTlv {  // 6
  lsr::Bandwidth32 bandwidth;
  bool operator==(const MaxBandwidthSubTlv&) const = default;
};
using LinkSubTlv =
    std::variant<LinkTypeSubTlv, LinkIdSubTlv, LocalAddressSubTlv,
                 RemoteAddressSubTlv, MaxBandwidthSubTlv, RawTlv>;

struct TeLinkTlv {
  std::vector<LinkSubTlv> sub_tlvs;
  bool operator==(const TeLinkTlv&) const = default;
};
struct TeRouterAddressTlv {
  Ipv4Address address{};
  bool operator==(const TeRouterAddressTlv&) const = default;
};
using TeTlv = std::variant<TeRouterAddressTlv, TeLinkTlv, RawTlv>;

// Parses the TLVs filling an opaque LSA body. Errors (fields "ospf.te.*"):
// framing errors of read_tlv, ".length" of a decoded TLV or sub-TLV that is
// the wrong size (Router Address 4, Link type 1, Link ID 4, addresses a
// non-zero multiple of 4, Maximum Bandwidth 4).
std::expected<std::vector<TeTlv>, DecodeError> parse_te_lsa_body(
    ByteSpan body, std::size_t base_offset = 0);
// Errors: a value over 65535 bytes, an empty address list, a raw item using
// a decoded type code.
std::expected<void, EncodeError> serialize_te_lsa_body(
    const std::vector<TeTlv>& tlvs, ByteWriter& out);
std::size_t encoded_size(const std::vector<TeTlv>& tlvs);

// Convenience: the Maximum Bandwidth of a Link TLV, if present.
const MaxBandwidthSubTlv* find_max_bandwidth(const TeLinkTlv& link);

}  // namespace arfabric::wire::ospf
