#include "proto/fib/prefix_table.h"

#include <gtest/gtest.h>

namespace arfabric::proto::fib {
namespace {

Prefix v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d,
          std::uint8_t len) {
  Prefix p;
  p.address = {a, b, c, d};
  p.length = len;
  return p;
}
std::array<std::uint8_t, 16> addr4(std::uint8_t a, std::uint8_t b,
                                   std::uint8_t c, std::uint8_t d) {
  return {a, b, c, d};
}

TEST(PrefixTable, LongestMatchWins) {
  PrefixTable t;
  ASSERT_TRUE(t.add(v4(10, 0, 0, 0, 8), 1));
  ASSERT_TRUE(t.add(v4(10, 1, 0, 0, 16), 2));
  ASSERT_TRUE(t.add(v4(10, 1, 2, 3, 32), 3));
  EXPECT_EQ(t.lookup(false, addr4(10, 1, 2, 3)), 3u);
  EXPECT_EQ(t.lookup(false, addr4(10, 1, 2, 4)), 2u);
  EXPECT_EQ(t.lookup(false, addr4(10, 2, 0, 0)), 1u);
  EXPECT_EQ(t.lookup(false, addr4(11, 0, 0, 0)), std::nullopt);
  EXPECT_EQ(t.size(), 3u);
  EXPECT_TRUE(t.remove(v4(10, 1, 0, 0, 16)));
  EXPECT_FALSE(t.remove(v4(10, 1, 0, 0, 16)));
  EXPECT_EQ(t.lookup(false, addr4(10, 1, 2, 4)), 1u);
}

TEST(PrefixTable, DefaultRouteAndReplace) {
  PrefixTable t;
  ASSERT_TRUE(t.add(v4(0, 0, 0, 0, 0), 9));
  EXPECT_EQ(t.lookup(false, addr4(192, 0, 2, 1)), 9u);
  ASSERT_TRUE(t.add(v4(0, 0, 0, 0, 0), 4));
  EXPECT_EQ(t.lookup(false, addr4(192, 0, 2, 1)), 4u);
  EXPECT_EQ(t.size(), 1u);
}

TEST(PrefixTable, FamiliesAreSeparate) {
  PrefixTable t;
  Prefix p6;
  p6.ipv6 = true;
  p6.address = {0x20, 0x01, 0x0d, 0xb8};
  p6.length = 32;
  ASSERT_TRUE(t.add(p6, 7));
  std::array<std::uint8_t, 16> a{0x20, 0x01, 0x0d, 0xb8};
  a[15] = 1;
  EXPECT_EQ(t.lookup(true, a), 7u);
  EXPECT_EQ(t.lookup(false, a), std::nullopt);
  Prefix host = p6;
  host.address = a;
  host.length = 128;
  ASSERT_TRUE(t.add(host, 8));
  EXPECT_EQ(t.lookup(true, a), 8u);
}

TEST(PrefixTable, Errors) {
  PrefixTable t;
  EXPECT_EQ(t.add(v4(10, 0, 0, 0, 33), 1).error().field, "prefix.length");
  const auto host_bits = t.add(v4(10, 0, 0, 1, 24), 1);
  ASSERT_FALSE(host_bits);
  EXPECT_EQ(host_bits.error().field, "prefix.address");
  EXPECT_EQ(host_bits.error().reason, "bit 31 set beyond the prefix length");
}

}  // namespace
}  // namespace arfabric::proto::fib
