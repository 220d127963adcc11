// OSPF LSA headers around the FARE TLVs: the 20-octet OSPFv2 LSA header
// (RFC 2328 section A.4.1) of the TE (RFC 3630, opaque type 1) and
// Extended Prefix (RFC 7684, opaque type 7) opaque LSAs (RFC 5250), and the
// 20-octet OSPFv3 LSA header (RFC 5340 section A.4.2) of the RFC 8362
// Extended LSAs.
//
// The LSA checksum is the ISO 8473 Fletcher checksum (wire/lsr/fletcher.h)
// over the LSA without LS age (RFC 2328 section 12.1.7, RFC 5340 section
// 4.1): verified and reported on parse, computed on serialize. The body is
// returned as a view; wire/ospf/{te_link,extended_prefix,ospfv3_prefix}.h
// decode it (elsa_tlv_offset() says where an E-LSA's TLVs start).
#pragma once

#include <cstdint>
#include <expected>
#include <optional>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::ospf {

inline constexpr std::size_t kLsaHeaderSize = 20;
inline constexpr std::size_t kLsaChecksumOffset = 16;
// Opaque LSA types (RFC 5250) and opaque types.
inline constexpr std::uint8_t kLsTypeOpaqueLink = 9;
inline constexpr std::uint8_t kLsTypeOpaqueArea = 10;
inline constexpr std::uint8_t kLsTypeOpaqueAs = 11;
inline constexpr std::uint8_t kOpaqueTypeTe = 1;
inline constexpr std::uint8_t kOpaqueTypeExtendedPrefix = 7;

struct Ospfv2LsaHeader {
  std::uint16_t ls_age = 0;
  std::uint8_t options = 0;
  std::uint8_t ls_type = kLsTypeOpaqueArea;
  Ipv4Address link_state_id{};  // opaque: type (octet 0) + opaque ID
  Ipv4Address advertising_router{};
  std::uint32_t sequence_number = 0x80000001;
  std::uint16_t checksum = 0;  // as received; computed by serialize
  std::uint16_t length = 0;    // as received; computed by serialize
  bool operator==(const Ospfv2LsaHeader&) const = default;

  bool is_opaque() const {
    return ls_type >= kLsTypeOpaqueLink && ls_type <= kLsTypeOpaqueAs;
  }
  std::uint8_t opaque_type() const { return link_state_id[0]; }
};

struct Ospfv3LsaHeader {
  std::uint16_t ls_age = 0;
  std::uint16_t ls_type = 0;  // U, S2, S1 bits + 13-bit function code
  Ipv4Address link_state_id{};
  Ipv4Address advertising_router{};
  std::uint32_t sequence_number = 0x80000001;
  std::uint16_t checksum = 0;
  std::uint16_t length = 0;
  bool operator==(const Ospfv3LsaHeader&) const = default;

  std::uint16_t function_code() const { return ls_type & 0x1fff; }
};

template <class Header>
struct ParsedLsa {
  Header header;
  ByteSpan body;  // the LSA after its header, up to the LSA length
  bool checksum_valid = false;
};

// Errors: a truncated header field ("ospf.lsa.*"), "ospf.lsa.length" below
// 20 or beyond the buffer. Bytes after the LSA length are not looked at.
std::expected<ParsedLsa<Ospfv2LsaHeader>, DecodeError> parse_ospfv2_lsa(
    ByteSpan data, std::size_t base_offset = 0);
std::expected<ParsedLsa<Ospfv3LsaHeader>, DecodeError> parse_ospfv3_lsa(
    ByteSpan data, std::size_t base_offset = 0);

// Writes header + body with length (and, unless told not to, checksum)
// computed. Error: "ospf.lsa.length" over 65535.
std::expected<void, EncodeError> serialize_ospfv2_lsa(
    const Ospfv2LsaHeader& header, ByteSpan body, ByteWriter& out,
    bool compute_checksum = true);
std::expected<void, EncodeError> serialize_ospfv3_lsa(
    const Ospfv3LsaHeader& header, ByteSpan body, ByteWriter& out,
    bool compute_checksum = true);

// RFC 8362 section 4 E-LSA function codes that carry prefix TLVs, and how
// many fixed octets precede their TLVs: E-Inter-Area-Prefix (35), E-AS-
// External (37), E-NSSA (39): 0; E-Link (40): 4 (priority, options);
// E-Intra-Area-Prefix (41): 12 (reserved, referenced LS type, ID, router).
// nullopt for other function codes.
std::optional<std::size_t> elsa_tlv_offset(std::uint16_t function_code);

}  // namespace arfabric::wire::ospf
