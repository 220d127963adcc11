// Hex text <-> bytes, for the decode command, test vectors and JSON output.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include "common/bytes.h"

namespace arfabric {

// Lower-case hex, no separators.
std::string to_hex(ByteSpan bytes);

// One byte in upper-case hex, as messages quote a byte: "E9" for 0xE9.
std::string to_upper_hex(std::uint8_t byte);

// A 16-bit value as JSON shows checksums: "0x" and four lower-case
// digits, "0x0a3f".
std::string to_hex16(std::uint16_t value);

// Parses hex digits; whitespace, ':' and '-' between byte pairs are ignored,
// as is a leading "0x". Errors name the offending character's position.
std::expected<Bytes, std::string> from_hex(std::string_view text);

}  // namespace arfabric
