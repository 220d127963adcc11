// NLRI prefixes (RFC 4271 section 4.3, RFC 4760 section 5, RFC 7911 section
// 3): an optional 4-byte path identifier, a length in bits and the fewest
// bytes that hold it.
//
// The address bytes past ceil(length/8) are always zero, but bits past
// `length` inside the last byte are kept as received, so serialization is
// byte-exact even for sloppy senders.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/error.h"

namespace arfabric::wire::bgp {

struct Prefix {
  std::optional<std::uint32_t> path_id;  // present iff ADD-PATH (RFC 7911)
  std::uint8_t length = 0;               // bits
  std::array<std::uint8_t, 16> address{};

  std::size_t byte_length() const { return (length + 7u) / 8u; }
  bool operator==(const Prefix&) const = default;
};

// A prefix from dotted/colon text such as "10.1.0.0/16" or "2001:db8::/32";
// nullopt when the text is not one.
std::optional<Prefix> prefix_from_string(const std::string& text);

// "10.1.0.0/16" (max_bits 32) or "2001:db8::/32" (max_bits 128).
std::string format_prefix(const Prefix& p, std::uint8_t max_bits);

// Parses every prefix in `r` until it is empty. Errors (session_reset, code
// 3 subcode `subcode`, RFC 7606 section 5.3): a length above max_bits, a
// prefix or path ID running past the end of the field. The error's field
// is `field` + ".prefix_length" / ".prefix" / ".path_id".
std::expected<std::vector<Prefix>, BgpError> parse_prefixes(
    ByteReader r, std::uint8_t max_bits, bool add_path, std::string_view field,
    std::uint8_t subcode);

// Writes each prefix; a path ID is written iff `add_path` (0 when absent).
// Errors: a length above max_bits, or a path ID present without add_path.
std::expected<void, EncodeError> serialize_prefixes(
    const std::vector<Prefix>& prefixes, std::uint8_t max_bits, bool add_path,
    ByteWriter& out);
std::size_t encoded_size(const std::vector<Prefix>& prefixes, bool add_path);

}  // namespace arfabric::wire::bgp
