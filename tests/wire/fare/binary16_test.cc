#include "wire/fare/binary16.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

namespace arfabric::wire::fare {
namespace {

TEST(Binary16, KnownValues) {
  EXPECT_EQ(double_to_binary16(50.0), 0x5240);  // 400 Gb/s = 50 GB/s
  EXPECT_EQ(binary16_to_double(0x5240), 50.0);
  EXPECT_EQ(double_to_binary16(1.0), 0x3c00);
  EXPECT_EQ(double_to_binary16(12.5), 0x4a40);  // 100 Gb/s
  EXPECT_EQ(double_to_binary16(25.0), 0x4e40);  // 200 Gb/s
  EXPECT_EQ(double_to_binary16(65504.0), 0x7bff);
  EXPECT_EQ(binary16_to_double(0x0001), std::ldexp(1.0, -24));  // subnormal
  EXPECT_EQ(double_to_binary16(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(double_to_binary16(std::ldexp(1.0, -25)), 0x0000);  // toward zero
  EXPECT_TRUE(std::isinf(binary16_to_double(0x7c00)));
  EXPECT_TRUE(std::isnan(binary16_to_double(0x7e00)));
  EXPECT_EQ(binary16_to_double(0xc000), -2.0);
}

TEST(Binary16, ClampsAndRejectsNonPositive) {
  EXPECT_EQ(double_to_binary16(1e9), kBinary16MaxFinite);
  EXPECT_EQ(double_to_binary16(INFINITY), kBinary16MaxFinite);
  EXPECT_EQ(double_to_binary16(-5.0), 0);
  EXPECT_EQ(double_to_binary16(NAN), 0);
  EXPECT_EQ(double_to_binary16(0.0), 0);
}

TEST(Binary16, EveryFiniteNonNegativeValueRoundTripsExactly) {
  for (std::uint32_t bits = 0; bits <= kBinary16MaxFinite; ++bits) {
    const double v = binary16_to_double(static_cast<std::uint16_t>(bits));
    ASSERT_EQ(double_to_binary16(v), bits) << "bits " << bits << " value " << v;
  }
}

TEST(Binary16, RoundsTowardZeroBetweenNeighbours) {
  // 50.03 lies between 50 (0x5240) and 50.03125 (0x5241).
  EXPECT_EQ(double_to_binary16(50.03), 0x5240);
  EXPECT_EQ(double_to_binary16(50.03125), 0x5241);
  // 300 Gb/s = 37.5 GB/s is exact; 0.1 GB/s is not and rounds down.
  EXPECT_EQ(binary16_to_double(double_to_binary16(37.5)), 37.5);
  EXPECT_LT(binary16_to_double(double_to_binary16(0.1)), 0.1);
}

RC_GTEST_PROP(Binary16, EncodedValueIsLargestNotAboveInput, ()) {
  const double v = *rc::gen::inRange(0, 65504'000) / 1000.0 +
                   *rc::gen::inRange(0, 1000) * 1e-7;
  const std::uint16_t bits = double_to_binary16(v);
  RC_ASSERT(binary16_to_double(bits) <= v);
  if (bits < kBinary16MaxFinite) {
    RC_ASSERT(binary16_to_double(static_cast<std::uint16_t>(bits + 1)) > v);
  }
}

}  // namespace
}  // namespace arfabric::wire::fare
