// AS_PATH and AS4_PATH values (RFC 4271 section 4.3 type 2, RFC 6793,
// RFC 5065 confederation segments): a list of segments, each a type and up
// to 255 ASNs of 2 or 4 bytes.
//
// The ASN width is not on the wire: AS_PATH uses 4 bytes only when both
// sides negotiated the 4-octet AS capability; AS4_PATH always uses 4.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "common/bytes.h"

namespace arfabric::wire::bgp {

namespace segment_type {
inline constexpr std::uint8_t kAsSet = 1;
inline constexpr std::uint8_t kAsSequence = 2;
inline constexpr std::uint8_t kConfedSequence = 3;  // RFC 5065
inline constexpr std::uint8_t kConfedSet = 4;       // RFC 5065
}  // namespace segment_type

struct AsPathSegment {
  std::uint8_t type = segment_type::kAsSequence;
  std::vector<std::uint32_t> asns;  // 1..255 entries on the wire
  bool operator==(const AsPathSegment&) const = default;
};

struct AsPath {
  std::vector<AsPathSegment> segments;
  bool operator==(const AsPath&) const = default;
};

// Parses the whole of `r` as segments of `asn_size` (2 or 4) byte ASNs.
// Errors (RFC 4271 section 6.3 "Malformed AS_PATH", RFC 7606 section 7.2):
// "<field>.segment_type" not 1..4, "<field>.segment_length" zero or running
// past the attribute, truncation.
std::expected<AsPath, DecodeError> parse_as_path(ByteReader r,
                                                 std::size_t asn_size,
                                                 std::string_view field);

// Errors: a segment with 0 or more than 255 ASNs, or (asn_size 2) an ASN
// above 65535 -- the speaker must substitute AS_TRANS (RFC 6793 section 4.2.2)
// before encoding.
std::expected<void, EncodeError> serialize(const AsPath& path,
                                           std::size_t asn_size,
                                           ByteWriter& out);
std::size_t encoded_size(const AsPath& path, std::size_t asn_size);

// "65001 65002 {65003,65004} (65100)" in the usual show-command style.
std::string format_as_path(const AsPath& path);

}  // namespace arfabric::wire::bgp
