#include "common/hex.h"

namespace arfabric {
namespace {

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':' ||
         c == '-';
}

}  // namespace

std::string to_upper_hex(std::uint8_t byte) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return {kDigits[byte >> 4], kDigits[byte & 0xF]};
}

std::string to_hex16(std::uint16_t value) {
  const std::uint8_t bytes[] = {static_cast<std::uint8_t>(value >> 8),
                                static_cast<std::uint8_t>(value)};
  return "0x" + to_hex(bytes);
}

std::string to_hex(ByteSpan bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xf]);
  }
  return out;
}

std::expected<Bytes, std::string> from_hex(std::string_view text) {
  Bytes out;
  std::size_t i = 0;
  if (text.starts_with("0x") || text.starts_with("0X")) i = 2;
  while (i < text.size()) {
    if (is_separator(text[i])) {
      ++i;
      continue;
    }
    int hi = nibble(text[i]);
    if (hi < 0) {
      return std::unexpected("invalid hex character '" +
                             std::string(1, text[i]) + "' at position " +
                             std::to_string(i));
    }
    if (i + 1 >= text.size() || nibble(text[i + 1]) < 0) {
      return std::unexpected(
          "odd number of hex digits or invalid character at position " +
          std::to_string(i + 1));
    }
    out.push_back(static_cast<std::uint8_t>(hi << 4 | nibble(text[i + 1])));
    i += 2;
  }
  return out;
}

}  // namespace arfabric
