// OSPF TLV framing shared by the TE (RFC 3630), OSPFv2 Extended Prefix
// (RFC 7684) and OSPFv3 Extended-LSA (RFC 8362) codecs, and the FARE Path
// Bandwidth prefix sub-TLV (draft-xu-lsr-fare-04 section 3).
//
// Every OSPF TLV and sub-TLV is 2-octet type, 2-octet length, value, then
// zero padding to a 4-octet boundary that the length does not count
// (RFC 3630 section 2.3.2, RFC 7684 section 2, RFC 8362 section 3). A
// parent's length counts its sub-TLVs including their padding. Padding must
// be present (an error otherwise); its contents are ignored on receipt and
// written as zeros, so a non-zero pad is the one thing not re-emitted
// byte-exact.
#pragma once

#include <cstdint>
#include <expected>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/lsr/bandwidth.h"

namespace arfabric::wire::ospf {

// The draft leaves both Path Bandwidth sub-TLV types "TBD". The defaults sit
// in the Experimental Use range (32768-33023) of the RFC 7684 "OSPFv2
// Extended Prefix TLV Sub-TLVs" and the RFC 8362 "OSPFv3 Extended-LSA
// Sub-TLVs" registries, so they cannot collide with an assigned code point.
inline constexpr std::uint16_t kDefaultOspfv2PathBandwidthSubTlvType = 32768;
inline constexpr std::uint16_t kDefaultOspfv3PathBandwidthSubTlvType = 32768;

struct CodecOptions {
  std::uint16_t ospfv2_path_bandwidth_sub_tlv_type =
      kDefaultOspfv2PathBandwidthSubTlvType;
  std::uint16_t ospfv3_path_bandwidth_sub_tlv_type =
      kDefaultOspfv3PathBandwidthSubTlvType;
};

inline constexpr std::size_t padded(std::size_t n) { return (n + 3) & ~3u; }

// A TLV or sub-TLV kept as it came (value without padding).
struct RawTlv {
  std::uint16_t type = 0;
  Bytes value;
  bool operator==(const RawTlv&) const = default;
};

struct PathBandwidthSubTlv {
  lsr::Bandwidth32 bandwidth;  // binary32 bytes/s
  bool operator==(const PathBandwidthSubTlv&) const = default;
};
using PrefixSubTlv = std::variant<PathBandwidthSubTlv, RawTlv>;

// One TLV read from `r`: its type, the offset of its type field, and a
// reader over exactly its value. The padding after the value is consumed.
struct TlvView {
  std::uint16_t type = 0;
  std::size_t offset = 0;
  ByteReader value;
};

// Errors: "<field>.type", "<field>.length" truncated, "<field>.value" longer
// than what is left, "<field>.padding" missing.
std::expected<TlvView, DecodeError> read_tlv(ByteReader& r,
                                             std::string_view field);

// Writes type, length and value plus padding. Error: value over 65535.
std::expected<void, EncodeError> write_tlv(std::uint16_t type, ByteSpan value,
                                           ByteWriter& out,
                                           std::string_view field);

// Writes a TLV whose value is produced by `body`, back-filling the length.
template <class F>
std::expected<void, EncodeError> write_tlv_with(std::uint16_t type,
                                                ByteWriter& out,
                                                std::string_view field,
                                                F body) {
  const std::size_t start = out.size();
  out.u16(type);
  out.u16(0);
  auto ok = body();
  const std::size_t len = out.size() - start - 4;
  if (!ok || len > 0xffff) {
    out.truncate(start);
    if (!ok) return std::unexpected(ok.error());
    return std::unexpected(
        EncodeError{std::string(field), "value over 65535 bytes"});
  }
  out.patch_u16(start + 2, static_cast<std::uint16_t>(len));
  out.zeros(padded(len) - len);
  return {};
}

// Prefix sub-TLVs (the rest of `r`); `path_bandwidth_type` selects which
// type is the Path Bandwidth sub-TLV. Errors: those of read_tlv, and
// "<field>.length" when the Path Bandwidth sub-TLV is not 4 octets.
std::expected<std::vector<PrefixSubTlv>, DecodeError> parse_prefix_sub_tlvs(
    ByteReader& r, std::uint16_t path_bandwidth_type, std::string_view field);
std::expected<void, EncodeError> serialize_prefix_sub_tlvs(
    const std::vector<PrefixSubTlv>& subs, std::uint16_t path_bandwidth_type,
    ByteWriter& out, std::string_view field);
std::size_t encoded_size(const std::vector<PrefixSubTlv>& subs);

}  // namespace arfabric::wire::ospf
