#include "common/utf8.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "common/hex.h"

namespace arfabric {

std::size_t first_non_utf8(std::string_view text) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const auto lead = static_cast<std::uint8_t>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // The sequence's length and the range of its second byte (RFC 3629
    // section 4), which rules out overlong forms, surrogates and code
    // points above U+10FFFF.
    std::size_t length = 0;
    std::uint8_t low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (n - i < length) return i;
    const auto second = static_cast<std::uint8_t>(text[i + 1]);
    if (second < low || second > high) return i;
    for (std::size_t k = 2; k < length; ++k) {
      const auto next = static_cast<std::uint8_t>(text[i + k]);
      if (next < 0x80 || next > 0xBF) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

std::string why_not_utf8(std::string_view text, std::size_t offset) {
  if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF"))
    return "UTF-16 text (it starts with a UTF-16 byte-order mark)";
  return "byte 0x" + to_upper_hex(static_cast<std::uint8_t>(text[offset])) +
         " is not UTF-8";
}

namespace {

// The code point of the well-formed UTF-8 sequence at text[i], and its
// length in bytes.
std::pair<char32_t, std::size_t> decode_at(std::string_view text,
                                           std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return static_cast<std::uint8_t>(text[i + k]);
  };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  if (lead < 0xE0) return {char32_t(lead & 0x1F) << 6 | (byte(1) & 0x3F), 2};
  if (lead < 0xF0)
    return {char32_t(lead & 0x0F) << 12 | char32_t(byte(1) & 0x3F) << 6 |
                (byte(2) & 0x3F),
            3};
  return {char32_t(lead & 0x07) << 18 | char32_t(byte(1) & 0x3F) << 12 |
              char32_t(byte(2) & 0x3F) << 6 | (byte(3) & 0x3F),
          4};
}

bool yaml_printable(char32_t c) {
  if (c < 0x20) return c == '\t' || c == '\n' || c == '\r';
  if (c < 0x7F) return true;
  if (c < 0xA0) return c == 0x85;
  return c != 0xFFFE && c != 0xFFFF;
}

}  // namespace

std::size_t first_non_yaml_printable(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_at(text, i);
    if (!yaml_printable(c)) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::size_t first_control_character(std::string_view text, bool multi_line) {
  for (std::size_t i = 0; i < text.size();) {
    const auto [c, length] = decode_at(text, i);
    const bool allowed = multi_line && (c == '\n' || c == '\t');
    const bool control = c < 0x20 || (c >= 0x7F && c < 0xA0);
    const bool format = c == 0x061C ||                   // ALM
                        c == 0x200E || c == 0x200F ||    // LRM, RLM
                        (c >= 0x2028 && c <= 0x202E) ||  // LS, PS
                        (c >= 0x2066 && c <= 0x2069) ||  // isolates
                        c == 0xFEFF || c == 0xFFFE || c == 0xFFFF;
    if ((control && !allowed) || format) return i;
    i += length;
  }
  return std::string_view::npos;
}

char32_t code_point_at(std::string_view text, std::size_t offset) {
  return decode_at(text, offset).first;
}

std::string why_not_yaml_printable(std::string_view text, std::size_t offset) {
  return describe_character(decode_at(text, offset).first) +
         " is not allowed in YAML text (write it as an escape in a "
         "double-quoted string)";
}

std::string describe_character(char32_t c) {
  const char* kind = c < 0xA0                     ? "control character"
                     : c == 0xFFFE || c == 0xFFFF ? "non-character"
                                                  : "format character";
  return std::string(kind) + " U+" +
         to_upper_hex(static_cast<std::uint8_t>(c >> 8)) +
         to_upper_hex(static_cast<std::uint8_t>(c));
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n');
  return TextPosition{
      static_cast<int>(std::count(before.begin(), before.end(), '\n') + 1),
      static_cast<int>(line_start == std::string_view::npos
                           ? before.size() + 1
                           : before.size() - line_start)};
}

}  // namespace arfabric
