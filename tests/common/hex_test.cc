#include "common/hex.h"

#include <gtest/gtest.h>

namespace arfabric {
namespace {

TEST(Hex, RoundTripsAndIgnoresSeparators) {
  auto b = from_hex("0x01:80-c2 00 00\n01");
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (Bytes{0x01, 0x80, 0xc2, 0x00, 0x00, 0x01}));
  EXPECT_EQ(to_hex(*b), "0180c2000001");
}

TEST(Hex, RejectsBadCharactersWithPosition) {
  auto b = from_hex("01zz");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find("position 2"), std::string::npos);
  EXPECT_FALSE(from_hex("abc"));
}

TEST(Hex, SixteenBitValuesAsChecksumsShowThem) {
  EXPECT_EQ(to_hex16(0), "0x0000");
  EXPECT_EQ(to_hex16(0x0a3f), "0x0a3f");
  EXPECT_EQ(to_hex16(0xd9de), "0xd9de");
}

}  // namespace
}  // namespace arfabric
