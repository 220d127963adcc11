// Checking that text the user gave (a scenario file, a daemon
// configuration) is UTF-8, as YAML requires, so that a stray byte is an
// error naming where it is rather than a name that later makes a JSON or
// SVG output invalid.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace arfabric {

// Where `text` stops being UTF-8 (RFC 3629): the offset of the first byte
// that does not start a well-formed sequence (a stray continuation byte,
// a sequence cut short, an overlong form, a surrogate, a code point above
// U+10FFFF, or 0xC0, 0xC1, 0xF5-0xFF); std::string_view::npos when all of
// it is.
std::size_t first_non_utf8(std::string_view text);

// Why `text` is not UTF-8 at `offset` (first_non_utf8's answer), for an
// error message: "byte 0xE9 is not UTF-8", or, for a text that starts with
// a UTF-16 byte-order mark, "UTF-16 text (it starts with a UTF-16
// byte-order mark)".
std::string why_not_utf8(std::string_view text, std::size_t offset);

// Where UTF-8 `text` (first_non_utf8 found none) first holds a character
// YAML does not allow raw in a stream (YAML 1.2 §5.1, c-printable): a C0
// control but tab, line feed and carriage return (NUL among them), DEL, a
// C1 control but NEL (U+0085), U+FFFE or U+FFFF; std::string_view::npos
// when it holds none. yaml-cpp does not check, and misreads what follows
// (a NUL became "bad character found while scanning hex number"). Such a
// character may still be written as an escape in a double-quoted string.
std::size_t first_non_yaml_printable(std::string_view text);

// Why, for first_non_yaml_printable's answer: "control character U+0000
// is not allowed in YAML text (write it as an escape in a double-quoted
// string)" ("non-character U+FFFE ..." for the last two).
std::string why_not_yaml_printable(std::string_view text, std::size_t offset);

// What a character that first_non_yaml_printable or
// first_control_character finds is, for an error message: "control
// character U+001B" (C0, DEL, C1), "non-character U+FFFE" (U+FFFE,
// U+FFFF) or "format character U+2028" (the rest).
std::string describe_character(char32_t c);

// Where UTF-8 `text` (first_non_utf8 found none) first holds a character
// a plain text should not: a C0 control (but line feed and tab when
// `multi_line`), DEL, a C1 control (NEL included); a line or paragraph
// separator (U+2028, U+2029), a bidirectional control (U+061C, U+200E, U+200F,
// U+202A..U+202E, U+2066..U+2069), U+FEFF, U+FFFE or U+FFFF;
// std::string_view::npos when none. Terminals read ESC and CSI (U+009B)
// as the start of an escape sequence, XML holds no C0 control but tab and
// line feed, and the bidirectional controls show text in another order
// than it is.
std::size_t first_control_character(std::string_view text, bool multi_line);

// The code point of the UTF-8 sequence at byte `offset` of `text`
// (first_non_utf8 found none before its end).
char32_t code_point_at(std::string_view text, std::size_t offset);

// The 1-based line and column of byte `offset` of `text` (at most its
// size), for an error message; the column counts bytes.
struct TextPosition {
  int line = 1;
  int column = 1;
};
TextPosition position_of(std::string_view text, std::size_t offset);

}  // namespace arfabric
