#include "wire/lsr/fletcher.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire::lsr {
namespace {

// Both Fletcher sums over `data`, computed the slow way (no early mod).
std::pair<unsigned, unsigned> sums(ByteSpan data) {
  unsigned long c0 = 0, c1 = 0;
  for (std::uint8_t b : data) {
    c0 += b;
    c1 += c0;
  }
  return {static_cast<unsigned>(c0 % 255), static_cast<unsigned>(c1 % 255)};
}

TEST(Fletcher, HandWorkedExample) {
  // Data 01 02 [X Y] 03, checksum at offset 2, L = 5, n = 3. With X = Y = 0
  // C0 runs 1,3,3,3,6 -> C0 = 6, and C1 = 1+3+3+3+6 = 16.
  // X = (L - n) * C0 - C1 = 2*6 - 16 = -4 = 251; Y = -C0 - X = -6 - 251 = 253.
  Bytes d = {0x01, 0x02, 0x00, 0x00, 0x03};
  EXPECT_EQ(fletcher_checksum(d, 2), 0xfbfd);
  d[2] = 0xfb;
  d[3] = 0xfd;
  EXPECT_EQ(sums(d), std::make_pair(0u, 0u));
  EXPECT_TRUE(fletcher_checksum_valid(d, 2));
  d[4] = 0x04;
  EXPECT_FALSE(fletcher_checksum_valid(d, 2));
}

TEST(Fletcher, ZeroOctetsBecome255AndZeroIsNeverValid) {
  // All-zero data: X and Y are both 0 mod 255 and must be sent as 0xff.
  Bytes d(10, 0);
  EXPECT_EQ(fletcher_checksum(d, 4), 0xffff);
  EXPECT_FALSE(fletcher_checksum_valid(d, 4));  // stored 0000: not computed
  d[4] = d[5] = 0xff;
  EXPECT_TRUE(fletcher_checksum_valid(d, 4));
}

RC_GTEST_PROP(Fletcher, ComputedChecksumAlwaysVerifies, ()) {
  Bytes d = *rc::gen::suchThat(rc::gen::arbitrary<Bytes>(),
                               [](const Bytes& b) { return b.size() >= 2; });
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, d.size() - 1);
  const std::uint16_t c = fletcher_checksum(d, at);
  RC_ASSERT((c >> 8) != 0);
  RC_ASSERT((c & 0xff) != 0);
  d[at] = static_cast<std::uint8_t>(c >> 8);
  d[at + 1] = static_cast<std::uint8_t>(c);
  RC_ASSERT(sums(d) == std::make_pair(0u, 0u));
  RC_ASSERT(fletcher_checksum_valid(d, at));
}

}  // namespace
}  // namespace arfabric::wire::lsr
