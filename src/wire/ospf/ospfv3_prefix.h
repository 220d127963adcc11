// OSPFv3 Extended-LSA prefix TLVs (RFC 8362 sections 3.4, 3.6, 3.7) that
// carry the FARE Path Bandwidth sub-TLV (draft-xu-lsr-fare-04 section 3;
// type TBD, a codec option here):
//
//   Inter-Area-Prefix (3): 0 (8) | Metric (24)
//   External-Prefix   (5): Flags (8, E = 0x04) | Metric (24)
//   Intra-Area-Prefix (6): 0 (16) | Metric (16)
//   then, for all three: PrefixLength | PrefixOptions | 0 (16)
//   Address Prefix (ceil(PrefixLength / 32) 32-bit words) | Sub-TLVs
//
// parse_ospfv3_tlvs() reads a run of TLVs (the TLV part of an
// E-Inter-Area-Prefix-, E-AS-External-, E-NSSA-, E-Intra-Area-Prefix- or
// E-Link-LSA body, after any fixed fields); other TLV types are kept raw.
// Reserved fields are kept for byte-exact round trips; prefix octets are
// kept as sent (array octets past the encoded words are zero).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/ospf/tlv.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint16_t kV3TlvInterAreaPrefix = 3;
inline constexpr std::uint16_t kV3TlvIntraAreaPrefix = 6;
inline constexpr std::uint16_t kV3TlvExternalPrefix = 5;
inline constexpr std::uint8_t kV3ExternalFlagE = 0x04;

struct Ospfv3Prefix {
  std::uint8_t prefix_length = 0;  // 0..128
  std::uint8_t prefix_options = 0;
  std::uint16_t reserved = 0;
  std::array<std::uint8_t, 16> address{};
  bool operator==(const Ospfv3Prefix&) const = default;
};

struct InterAreaPrefixTlv {
  std::uint8_t reserved = 0;
  std::uint32_t metric = 0;  // 24 bits
  Ospfv3Prefix prefix;
  std::vector<PrefixSubTlv> sub_tlvs;
  bool operator==(const InterAreaPrefixTlv&) const = default;
};
struct ExternalPrefixTlv {
  std::uint8_t flags = 0;
  std::uint32_t metric = 0;  // 24 bits
  Ospfv3Prefix prefix;
  std::vector<PrefixSubTlv> sub_tlvs;
  bool operator==(const ExternalPrefixTlv&) const = default;
};
struct IntraAreaPrefixTlv {
  std::uint16_t reserved = 0;
  std::uint16_t metric = 0;
  Ospfv3Prefix prefix;
  std::vector<PrefixSubTlv> sub_tlvs;
  bool operator==(const IntraAreaPrefixTlv&) const = default;
};
using Ospfv3Tlv = std::variant<InterAreaPrefixTlv, ExternalPrefixTlv,
                               IntraAreaPrefixTlv, RawTlv>;

// Errors (fields "ospfv3.*"): framing errors of read_tlv, fixed fields or
// the address prefix truncated inside the TLV, ".prefix_length" over 128,
// Path Bandwidth sub-TLV not 4 octets.
std::expected<std::vector<Ospfv3Tlv>, DecodeError> parse_ospfv3_tlvs(
    ByteSpan data, std::size_t base_offset = 0,
    const CodecOptions& options = {});
// Errors: metric over 24 bits (types 3, 9), prefix_length over 128, a value
// over 65535 bytes, a raw item using a decoded type code.
std::expected<void, EncodeError> serialize_ospfv3_tlvs(
    const std::vector<Ospfv3Tlv>& tlvs, ByteWriter& out,
    const CodecOptions& options = {});
std::size_t encoded_size(const std::vector<Ospfv3Tlv>& tlvs);

}  // namespace arfabric::wire::ospf
