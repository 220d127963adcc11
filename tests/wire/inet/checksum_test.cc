#include "wire/inet/checksum.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire {
namespace {

// RFC 1624 section 3: m = 0x5555 changes to m' = 0x3285 in a header whose
// other words sum to 0xCD7A. Eqn. 2 (RFC 1141) yields 0xFFFF ("-0"); eqn. 3
// yields 0x0000, the value a full recomputation gives.
TEST(UpdateChecksum, Rfc1624Section3Example) {
  const Bytes with_old = {0xcd, 0x7a, 0x55, 0x55};
  const std::uint16_t hc = internet_checksum(with_old);
  EXPECT_EQ(hc, 0xdd2f);
  // Full recomputation of HC' over the other words and m'.
  const Bytes with_new = {0xcd, 0x7a, 0x32, 0x85};
  EXPECT_EQ(internet_checksum(with_new), 0x0000);
  EXPECT_EQ(update_checksum(hc, 0x5555, 0x3285), 0x0000);
  // And the reverse change restores the original.
  EXPECT_EQ(update_checksum(0x0000, 0x3285, 0x5555), 0xdd2f);
}

TEST(UpdateChecksum, IsConstexpr) {
  static_assert(update_checksum(0xdd2f, 0x5555, 0x3285) == 0x0000);
}

TEST(InternetChecksum, Rfc1071Example) {
  // RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to 0xddf2.
  const Bytes data = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(ones_complement_sum(data), 0xddf2);
  EXPECT_EQ(internet_checksum(data), 0x220d);
}

TEST(InternetChecksum, OddLengthPadsWithZero) {
  const Bytes odd = {0x12, 0x34, 0x56};
  const Bytes padded = {0x12, 0x34, 0x56, 0x00};
  EXPECT_EQ(ones_complement_sum(odd), ones_complement_sum(padded));
  EXPECT_EQ(ones_complement_sum(odd), 0x6834);
}

TEST(UpdateChecksumBytes, OddOffsetUsesLowHalfOfFirstWord) {
  // Region: aa [bb cc] dd ; the run "bb cc" starts at offset 1.
  Bytes region = {0xaa, 0xbb, 0xcc, 0xdd};
  const std::uint16_t before = internet_checksum(region);
  const Bytes old_run = {0xbb, 0xcc};
  const Bytes new_run = {0x01, 0x02};
  region[1] = 0x01;
  region[2] = 0x02;
  EXPECT_EQ(update_checksum_bytes(before, true, old_run, new_run),
            internet_checksum(region));
  // Treating it as even-aligned gives a different (wrong) answer.
  EXPECT_NE(update_checksum_bytes(before, false, old_run, new_run),
            internet_checksum(region));
}

TEST(UpdateChecksumBytes, LengthMismatchLeavesChecksum) {
  const Bytes a = {1, 2};
  const Bytes b = {1};
  EXPECT_EQ(update_checksum_bytes(0x1234, false, a, b), 0x1234);
}

// For any region with a nonzero word, before and after the change, and
// any run at any offset, the incremental update equals a full
// recomputation. (A change that leaves every byte zero is the case below.)
RC_GTEST_PROP(UpdateChecksumBytes, MatchesFullRecomputation, ()) {
  auto region = *rc::gen::nonEmpty<Bytes>();
  RC_PRE(ones_complement_sum(region) != 0);
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, region.size());
  const std::size_t n = *rc::gen::inRange<std::size_t>(0, region.size() - at);
  const std::uint16_t before = internet_checksum(region);
  const Bytes old_run(region.begin() + at, region.begin() + at + n);
  const auto new_run =
      *rc::gen::container<Bytes>(n, rc::gen::arbitrary<std::uint8_t>());
  std::copy(new_run.begin(), new_run.end(), region.begin() + at);
  RC_PRE(ones_complement_sum(region) != 0);
  RC_ASSERT(update_checksum_bytes(before, at % 2 == 1, old_run, new_run) ==
            internet_checksum(region));
}

// The one case where they differ: a change that leaves the covered data
// all zero. Recomputation gives 0xffff (the complement of +0), RFC 1624
// equation 3 gives 0x0000 (the complement of -0); both are one's
// complement zero. No header this project rewrites can be all zero (an
// IPv4 header has its version, a UDP pseudo-header its protocol).
TEST(UpdateChecksumBytes, DataLeftAllZeroGivesNegativeZero) {
  const Bytes region = {1, 0, 0, 0, 0};
  const Bytes old_run = {1};
  const Bytes new_run = {0};
  EXPECT_EQ(
      update_checksum_bytes(internet_checksum(region), false, old_run, new_run),
      0x0000);
  EXPECT_EQ(internet_checksum(Bytes(5, 0)), 0xffff);
}

RC_GTEST_PROP(UpdateChecksum, MatchesFullRecomputationForOneWord,
              (std::uint16_t other, std::uint16_t m, std::uint16_t m_new)) {
  RC_PRE(other != 0);
  const auto words = [&](std::uint16_t w) {
    return Bytes{
        static_cast<std::uint8_t>(other >> 8), static_cast<std::uint8_t>(other),
        static_cast<std::uint8_t>(w >> 8), static_cast<std::uint8_t>(w)};
  };
  RC_ASSERT(update_checksum(internet_checksum(words(m)), m, m_new) ==
            internet_checksum(words(m_new)));
}

}  // namespace
}  // namespace arfabric::wire
