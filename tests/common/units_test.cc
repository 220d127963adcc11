#include "common/units.h"

#include <gtest/gtest.h>

namespace arfabric {
namespace {

TEST(Units, TimeArithmeticAndConversions) {
  EXPECT_EQ(us(1).ps(), 1'000'000);
  EXPECT_EQ(ms(2) + us(5), Time::from_ps(2'005'000'000));
  EXPECT_LT(ns(999), us(1));
  EXPECT_EQ(ms(10) / us(1), 10'000);
  EXPECT_DOUBLE_EQ(sec(3).seconds(), 3.0);
}

TEST(Units, TransmissionTime) {
  // 400 Gb/s: a bit takes 2.5 ps, a 4096-byte packet 81.92 ns.
  EXPECT_EQ(transmission_time(4096, gbps(400)), ps(81'920));
  // Rounded up: 1 byte at 3 b/s is 2.666... s.
  EXPECT_EQ(transmission_time(1, 3), ps(2'666'666'666'667));
}

// Sizes that fit the 64-bit fast path and sizes beyond it give the exact
// 128-bit quotient, rounded up.
TEST(Units, TransmissionTimeMatchesWideArithmeticOnBothPaths) {
  auto wide = [](std::uint64_t bytes, BitsPerSecond rate) {
    const unsigned __int128 bits_ps =
        static_cast<unsigned __int128>(bytes) * 8'000'000'000'000ULL;
    return ps(static_cast<std::int64_t>((bits_ps + rate - 1) / rate));
  };
  const BitsPerSecond rates[] = {3, gbps(100), gbps(300), gbps(400) + 7};
  const std::uint64_t limit = ~std::uint64_t{0} / 8'000'000'000'000ULL;
  for (BitsPerSecond r : rates) {
    for (std::uint64_t b :
         {std::uint64_t{1}, std::uint64_t{64}, std::uint64_t{4160}, limit - 1,
          limit, limit + 1, std::uint64_t{1} << 40}) {
      EXPECT_EQ(transmission_time(b, r), wide(b, r)) << b << " B at " << r;
    }
  }
}

// Where a rate has a whole, small picoseconds-per-byte, the product is
// transmission_time() for every 32-bit size; elsewhere it is 0.
TEST(Units, ExactPicosecondsPerByte) {
  EXPECT_EQ(exact_picoseconds_per_byte(gbps(400)), 20u);
  EXPECT_EQ(exact_picoseconds_per_byte(gbps(100)), 80u);
  EXPECT_EQ(exact_picoseconds_per_byte(gbps(300)), 0u);  // 26.67 ps
  EXPECT_EQ(exact_picoseconds_per_byte(0), 0u);
  EXPECT_EQ(exact_picoseconds_per_byte(1), 0u);  // product could overflow
  EXPECT_EQ(exact_picoseconds_per_byte(1'000'000), 8'000'000u);
  for (BitsPerSecond r : {gbps(400), gbps(25), mbps(1), BitsPerSecond{4000}}) {
    const std::uint64_t per_byte = exact_picoseconds_per_byte(r);
    ASSERT_NE(per_byte, 0u) << r;
    for (std::uint64_t b :
         {std::uint64_t{1}, std::uint64_t{4160}, std::uint64_t{0xffffffff}}) {
      EXPECT_EQ(ps(static_cast<std::int64_t>(b * per_byte)),
                transmission_time(b, r))
          << b << " B at " << r;
    }
  }
}

}  // namespace
}  // namespace arfabric
