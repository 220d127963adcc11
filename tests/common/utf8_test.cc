#include "common/utf8.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace arfabric {
namespace {

constexpr auto npos = std::string_view::npos;

TEST(FirstNonUtf8, AcceptsAsciiAndWellFormedSequences) {
  EXPECT_EQ(first_non_utf8(""), npos);
  EXPECT_EQ(first_non_utf8("name: tiny\n"), npos);
  EXPECT_EQ(first_non_utf8("\u00b5s"), npos);              // 2 bytes
  EXPECT_EQ(first_non_utf8("LSN \u00a7 \u2192"), npos);    // 2 and 3
  EXPECT_EQ(first_non_utf8("\U0001F600"), npos);           // 4
  EXPECT_EQ(first_non_utf8("\xEF\xBB\xBFname: x"), npos);  // a BOM
  EXPECT_EQ(first_non_utf8("\xF4\x8F\xBF\xBF"), npos);     // U+10FFFF
  EXPECT_EQ(first_non_utf8(std::string_view("a\0b", 3)), npos);
}

TEST(FirstNonUtf8, NamesTheFirstByteThatIsNot) {
  EXPECT_EQ(first_non_utf8("name: \xFF"), 6u);
  EXPECT_EQ(first_non_utf8("ab\x80"), 2u);            // stray continuation
  EXPECT_EQ(first_non_utf8("ab\xC3"), 2u);            // cut short
  EXPECT_EQ(first_non_utf8("\xE2\x82x"), 0u);         // cut by ASCII
  EXPECT_EQ(first_non_utf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(first_non_utf8("\xC1\xBF"), 0u);          // overlong
  EXPECT_EQ(first_non_utf8("\xE0\x80\xAF"), 0u);      // overlong, 3 bytes
  EXPECT_EQ(first_non_utf8("\xF0\x80\x80\xAF"), 0u);  // overlong, 4 bytes
  EXPECT_EQ(first_non_utf8("x\xED\xA0\x80"), 1u);     // surrogate U+D800
  EXPECT_EQ(first_non_utf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(first_non_utf8("\xF5\x80\x80\x80"), 0u);
  EXPECT_EQ(first_non_utf8("ok \u00e9 then \xFE"), 11u);
}

TEST(WhyNotUtf8, NamesTheByteOrUtf16) {
  EXPECT_EQ(why_not_utf8("ab\xE9", 2), "byte 0xE9 is not UTF-8");
  const std::string utf16("\xFF\xFEn\0a\0", 6);
  EXPECT_EQ(why_not_utf8(utf16, first_non_utf8(utf16)),
            "UTF-16 text (it starts with a UTF-16 byte-order mark)");
}

TEST(PositionOf, CountsLinesAndBytes) {
  EXPECT_EQ(position_of("abc", 0).line, 1);
  EXPECT_EQ(position_of("abc", 0).column, 1);
  EXPECT_EQ(position_of("abc", 2).column, 3);
  const std::string_view text = "a: 1\nb: \xC3\xA9x\n";
  EXPECT_EQ(position_of(text, 5).line, 2);
  EXPECT_EQ(position_of(text, 5).column, 1);
  EXPECT_EQ(position_of(text, 10).line, 2);
  EXPECT_EQ(position_of(text, 10).column, 6);  // 'x', after a 2-byte e
  EXPECT_EQ(position_of(text, text.size()).line, 3);
}

// The UTF-8 encoding of `points` (no surrogates among them).
std::string encode(const std::vector<char32_t>& points) {
  std::string text;
  for (char32_t c : points) {
    if (c < 0x80) {
      text += static_cast<char>(c);
    } else if (c < 0x800) {
      text += static_cast<char>(0xC0 | (c >> 6));
      text += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      text += static_cast<char>(0xE0 | (c >> 12));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      text += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      text += static_cast<char>(0xF0 | (c >> 18));
      text += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      text += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return text;
}

const auto kCodePoints = [] {
  return rc::gen::container<std::vector<char32_t>>(
      rc::gen::suchThat(rc::gen::inRange<char32_t>(0, 0x110000),
                        [](char32_t c) { return c < 0xD800 || c > 0xDFFF; }));
};

// Every code point's encoding is accepted, and a byte string of
// well-formed code points joined stays accepted.
RC_GTEST_PROP(FirstNonUtf8Property, AcceptsEveryEncodedCodePoint, ()) {
  RC_ASSERT(first_non_utf8(encode(*kCodePoints())) == npos);
}

// YAML's printable set (YAML 1.2 §5.1): tab, line feed, carriage return,
// the rest of ASCII but DEL, NEL, and everything from U+00A0 on but
// U+FFFE and U+FFFF.
TEST(FirstNonYamlPrintable, FindsControlCharactersAndNonCharacters) {
  EXPECT_EQ(first_non_yaml_printable("name: x\tz\r\n# caf\xC3\xA9 \xC2\x85"),
            npos);
  EXPECT_EQ(first_non_yaml_printable("\xEF\xBB\xBF"
                                     "a: 1"),
            npos);  // a BOM
  EXPECT_EQ(first_non_yaml_printable(std::string_view("name: t\0x", 10)), 7u);
  EXPECT_EQ(first_non_yaml_printable("a\x7F"), 1u);
  EXPECT_EQ(first_non_yaml_printable("\xC3\xA9\xC2\x9B["), 2u);  // U+009B
  EXPECT_EQ(first_non_yaml_printable("\xEF\xBF\xBE"), 0u);       // U+FFFE
  EXPECT_EQ(why_not_yaml_printable(std::string_view("a\0", 2), 1),
            "control character U+0000 is not allowed in YAML text (write it "
            "as an escape in a double-quoted string)");
  EXPECT_EQ(why_not_yaml_printable("\xEF\xBF\xBF", 0),
            "non-character U+FFFF is not allowed in YAML text (write it as "
            "an escape in a double-quoted string)");
}

// Plain text: no C0 control (a multi-line text may hold line feeds and
// tabs), DEL, C1 control (NEL included) or U+FFFE/U+FFFF.
TEST(FirstControlCharacter, FindsWhatATerminalOrXmlWouldMisread) {
  EXPECT_EQ(
      first_control_character("caf\xC3\xA9 \xC2\xA0 \xF0\x9F\x98\x80", false),
      npos);
  EXPECT_EQ(first_control_character("a\tb", false), 1u);
  EXPECT_EQ(first_control_character("a\tb\nc", true), npos);
  EXPECT_EQ(first_control_character("a\rb", true), 1u);
  EXPECT_EQ(first_control_character("\xC3\xA9\xC2\x85", true), 2u);  // NEL
  EXPECT_EQ(first_control_character("ab\x7F", false), 2u);
  EXPECT_EQ(first_control_character("\xEF\xBF\xBE", false), 0u);
  EXPECT_EQ(code_point_at("a\xEF\xBF\xBE", 1), char32_t{0xFFFE});
  // Line and paragraph separators, bidirectional controls, U+FEFF.
  EXPECT_EQ(first_control_character("a\xE2\x80\xA8", true), 1u);  // U+2028
  EXPECT_EQ(first_control_character("a\xE2\x80\xAE", true), 1u);  // U+202E
  EXPECT_EQ(first_control_character("a\xE2\x81\xA6", true), 1u);  // U+2066
  EXPECT_EQ(first_control_character("a\xE2\x80\x8F", true), 1u);  // U+200F
  EXPECT_EQ(first_control_character("a\xD8\x9C", true), 1u);      // U+061C ALM
  EXPECT_EQ(first_control_character("a\xEF\xBB\xBF", true), 1u);  // U+FEFF
  EXPECT_EQ(first_control_character("a\xE2\x80\x94"
                                    "b",
                                    true),
            npos);  // dash
}

// The offset found is that of the first code point outside the set.
RC_GTEST_PROP(FirstNonYamlPrintableProperty, FindsTheFirstOutsideTheSet, ()) {
  const auto points = *kCodePoints();
  const auto printable = [](char32_t c) {
    return c == 9 || c == 10 || c == 13 || (c >= 0x20 && c < 0x7F) ||
           c == 0x85 || (c >= 0xA0 && c != 0xFFFE && c != 0xFFFF);
  };
  std::size_t expected = npos, offset = 0;
  for (char32_t c : points) {
    if (!printable(c)) {
      expected = offset;
      break;
    }
    offset += encode({c}).size();
  }
  RC_ASSERT(first_non_yaml_printable(encode(points)) == expected);
}

}  // namespace
}  // namespace arfabric
