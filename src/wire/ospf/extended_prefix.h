// The body of an OSPFv2 Extended Prefix Opaque LSA (RFC 7684 section 2,
// opaque type 7): Extended Prefix TLVs (type 1, section 2.1) carrying the
// FARE Path Bandwidth sub-TLV (draft-xu-lsr-fare-04 section 3; type TBD, a
// codec option here) and other sub-TLVs kept raw.
//
//   Type 1 | Length | Route Type (1) | Prefix Length (1) | AF (1) | Flags (1)
//   Address Prefix (4 octets for AF 0, IPv4 unicast) | Sub-TLVs ...
//
// RFC 7684 defines only AF 0; an Extended Prefix TLV with another AF is kept
// whole as a RawTlv (its prefix encoding is undefined), as are other TLVs.
#pragma once

#include <cstdint>
#include <expected>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"
#include "wire/ospf/tlv.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint16_t kTlvExtendedPrefix = 1;
// Flags (RFC 7684 section 2.1).
inline constexpr std::uint8_t kExtendedPrefixFlagAttach = 0x80;
inline constexpr std::uint8_t kExtendedPrefixFlagNode = 0x40;

struct ExtendedPrefixTlv {
  std::uint8_t route_type = 1;      // 1 intra, 3 inter, 5 external, 7 NSSA
  std::uint8_t prefix_length = 0;   // 0..32
  std::uint8_t address_family = 0;  // always 0 here
  std::uint8_t flags = 0;
  Ipv4Address prefix{};  // all four octets as sent
  std::vector<PrefixSubTlv> sub_tlvs;
  bool operator==(const ExtendedPrefixTlv&) const = default;
};
using ExtendedPrefixLsaTlv = std::variant<ExtendedPrefixTlv, RawTlv>;

// Errors (fields "ospf.ext_prefix.*"): framing errors of read_tlv, the fixed
// part truncated inside the TLV, ".prefix_length" over 32, Path Bandwidth
// sub-TLV not 4 octets.
std::expected<std::vector<ExtendedPrefixLsaTlv>, DecodeError>
parse_extended_prefix_lsa_body(ByteSpan body, std::size_t base_offset = 0,
                               const CodecOptions& options = {});
// Errors: address_family not 0, prefix_length over 32, a value over 65535
// bytes, a raw sub-TLV using the Path Bandwidth type.
std::expected<void, EncodeError> serialize_extended_prefix_lsa_body(
    const std::vector<ExtendedPrefixLsaTlv>& tlvs, ByteWriter& out,
    const CodecOptions& options = {});
std::size_t encoded_size(const std::vector<ExtendedPrefixLsaTlv>& tlvs);

}  // namespace arfabric::wire::ospf
