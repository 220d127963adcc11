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

}  // namespace
}  // namespace arfabric
