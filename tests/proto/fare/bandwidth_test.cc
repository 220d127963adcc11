#include "proto/fare/bandwidth.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "wire/fare/binary16.h"

namespace arfabric::proto::fare {
namespace {

using wire::fare::PathBandwidth;

PathBandwidth pb(std::uint16_t bits) { return {true, 7, bits}; }

TEST(FareBandwidth, DecodeExactValues) {
  // 0x5240 = 1.5625 * 2^5 = 50 GB/s = 400 Gb/s.
  EXPECT_EQ(to_bits_per_second(pb(0x5240)), gbps(400));
  // 0x50B0 = 1.171875 * 2^5 = 37.5 GB/s = 300 Gb/s.
  EXPECT_EQ(to_bits_per_second(pb(0x50b0)), gbps(300));
  EXPECT_EQ(to_bits_per_second(pb(0x0000)), 0u);
  EXPECT_EQ(to_bits_per_second(pb(0x8000)), 0u);  // -0: zero bandwidth
  // Smallest subnormal 2^-24 GB/s = 476.837158203125 bit/s, floored.
  EXPECT_EQ(to_bits_per_second(pb(0x0001)), 476u);
  // 0x7BFE = 65472 GB/s, the largest value below the maximum.
  EXPECT_EQ(to_bits_per_second(pb(0x7bfe)), 65472ull * 8'000'000'000);
}

TEST(FareBandwidth, MaximumAndInfinityMeanUnlimited) {
  EXPECT_EQ(to_bits_per_second(pb(wire::fare::kBinary16MaxFinite)), kUnlimited);
  EXPECT_EQ(to_bits_per_second(pb(wire::fare::kBinary16PositiveInfinity)),
            kUnlimited);
}

TEST(FareBandwidth, NanAndNegativeAreInvalid) {
  EXPECT_EQ(to_bits_per_second(pb(0x7e00)), std::nullopt);  // NaN
  EXPECT_EQ(to_bits_per_second(pb(0xd240)), std::nullopt);  // -50
  EXPECT_EQ(to_bits_per_second(pb(0xfc00)), std::nullopt);  // -Inf
}

TEST(FareBandwidth, EncodeExact) {
  // 300 Gb/s = 37.5 GB/s, exact in binary16.
  EXPECT_EQ(to_path_bandwidth(9, gbps(300)), (PathBandwidth{true, 9, 0x50b0}));
  EXPECT_EQ(to_path_bandwidth(9, gbps(400), false),
            (PathBandwidth{false, 9, 0x5240}));
  EXPECT_EQ(to_path_bandwidth(9, 0), (PathBandwidth{true, 9, 0}));
}

TEST(FareBandwidth, EncodeRoundsTowardZero) {
  // 3333.6 Gb/s = 416.7 GB/s. In [256, 512) binary16 steps by 0.25:
  // neighbours 416.5 (mantissa (416.5/256 - 1) * 1024 = 642, 0x5E82) and
  // 416.75 (0x5E83). Nearest would be 416.75; toward zero gives 416.5.
  const auto e = to_path_bandwidth(1, 3'333'600'000'000);
  EXPECT_EQ(e.bandwidth_bits, 0x5e82);
  EXPECT_EQ(e.gigabytes_per_second(), 416.5);
  // One bit/s under 400 Gb/s: 49.999999999875 GB/s -> 50 - 1/32 (step in
  // [32, 64) is 2^-5) = 49.96875 = 0x523F, never 50.
  EXPECT_EQ(to_path_bandwidth(1, gbps(400) - 1).bandwidth_bits, 0x523f);
  // Below the smallest subnormal (476.8 bit/s): 0.
  EXPECT_EQ(to_path_bandwidth(1, 476).bandwidth_bits, 0);
  EXPECT_EQ(to_path_bandwidth(1, 477).bandwidth_bits, 0x0001);
}

TEST(FareBandwidth, SubnormalsLoseOneStepOnARoundTrip) {
  // 0x0001 decodes to 476 bit/s (floored from 476.84), which is below
  // 0x0001 again: 0. Conservative, and far below any link rate.
  EXPECT_EQ(
      to_path_bandwidth(1, *to_bits_per_second(pb(0x0001))).bandwidth_bits, 0);
}

TEST(FareBandwidth, EncodeSaturatesAtMaximum) {
  EXPECT_EQ(to_path_bandwidth(1, kUnlimited).bandwidth_bits,
            wire::fare::kBinary16MaxFinite);
  EXPECT_EQ(to_path_bandwidth(1, kLargestEncodable).bandwidth_bits,
            wire::fare::kBinary16MaxFinite);
  EXPECT_EQ(to_path_bandwidth(1, kLargestEncodable - 1).bandwidth_bits, 0x7bfe);
}

TEST(FareBandwidth, SaturatingArithmetic) {
  EXPECT_EQ(saturating_add(kUnlimited, 1), kUnlimited);
  EXPECT_EQ(saturating_add(kUnlimited - 5, 5), kUnlimited);
  EXPECT_EQ(saturating_add(kUnlimited - 5, 4), kUnlimited - 1);
  EXPECT_EQ(saturating_multiply(kUnlimited / 2 + 1, 2), kUnlimited);
  EXPECT_EQ(saturating_multiply(kUnlimited / 2, 2), kUnlimited - 1);
  EXPECT_EQ(saturating_multiply(0, 7), 0u);
  EXPECT_EQ(divide(kUnlimited, 2), kUnlimited);
  EXPECT_EQ(divide(7, 2), 3u);  // toward zero
  EXPECT_EQ(divide(7, 0), 7u);
}

// Encoding gives the largest binary16 whose rate is not above the input.
RC_GTEST_PROP(FareBandwidth, EncodeIsLargestNotAbove, ()) {
  const auto rate = *rc::gen::inRange<BitsPerSecond>(0, kLargestEncodable);
  const auto bits = to_path_bandwidth(1, rate).bandwidth_bits;
  RC_ASSERT(*to_bits_per_second(pb(bits)) <= rate);
  const double next =
      wire::fare::binary16_to_double(static_cast<std::uint16_t>(bits + 1));
  RC_ASSERT(next * 8e9 > static_cast<double>(rate));
}

// Decoding (integer arithmetic) is floor(exact value * 8e9) for every
// valid binary16 below the maximum, -0 to -65472 excluded (invalid); the
// double product is exact. Exhaustive: 31743 values.
TEST(FareBandwidth, DecodeIsFloorOfExactValueForEveryBinary16) {
  for (std::uint16_t bits = 0; bits < 0x7bff; ++bits) {
    const double exact = wire::fare::binary16_to_double(bits) * 8e9;
    ASSERT_EQ(*to_bits_per_second(pb(bits)),
              static_cast<BitsPerSecond>(std::floor(exact)))
        << bits;
  }
}

// Every binary16 from 0.25 GB/s (0x3400, exponent 13: (1024 + m) *
// 2^(e - 25) * 8e9 is a whole number of bit/s) up to below the maximum
// survives a round trip through bit/s. Below 0.25 GB/s decoding floors to a
// whole bit/s and re-encoding then gives the next lower binary16.
RC_GTEST_PROP(FareBandwidth, RoundTrip, ()) {
  const auto bits = *rc::gen::inRange<std::uint16_t>(0x3400, 0x7bff);
  RC_ASSERT(
      to_path_bandwidth(1, *to_bits_per_second(pb(bits))).bandwidth_bits ==
      bits);
}

}  // namespace
}  // namespace arfabric::proto::fare
