#include "proto/lsn/congestion_level.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::proto::lsn {
namespace {

TEST(CongestionLevel, RisesAtRiseAndFallsBelowFall) {
  CongestionThresholds t;  // rise 64/256/1024 KiB, fall 32/128/512 KiB
  std::uint8_t l = 0;
  l = next_congestion_level(t, l, 64 * 1024 - 1);
  EXPECT_EQ(l, 0);
  l = next_congestion_level(t, l, 64 * 1024);
  EXPECT_EQ(l, 1);
  // Inside the hysteresis band (32..64 KiB) the level holds.
  l = next_congestion_level(t, l, 40 * 1024);
  EXPECT_EQ(l, 1);
  l = next_congestion_level(t, l, 32 * 1024);
  EXPECT_EQ(l, 1);
  l = next_congestion_level(t, l, 32 * 1024 - 1);
  EXPECT_EQ(l, 0);
  // A jump straight to the top and back to empty crosses every level.
  l = next_congestion_level(t, l, 2 * 1024 * 1024);
  EXPECT_EQ(l, 3);
  l = next_congestion_level(t, l, 600 * 1024);  // 512 KiB <= d < 1 MiB: holds 3
  EXPECT_EQ(l, 3);
  l = next_congestion_level(t, l, 200 * 1024);  // < 512 KiB, >= 128 KiB: 2
  EXPECT_EQ(l, 2);
  l = next_congestion_level(t, l, 0);
  EXPECT_EQ(l, 0);
}

RC_GTEST_PROP(CongestionLevel, StableAndBracketed, ()) {
  CongestionThresholds t;
  const auto start = static_cast<std::uint8_t>(*rc::gen::inRange(0, 4));
  const auto depth = *rc::gen::inRange<std::uint64_t>(0, 3 * 1024 * 1024);
  const std::uint8_t l = next_congestion_level(t, start, depth);
  RC_ASSERT(next_congestion_level(t, l, depth) == l);
  // At level l the depth has reached fall[l-1] and not rise[l].
  if (l > 0) RC_ASSERT(depth >= t.fall[l - 1]);
  if (l < 3) RC_ASSERT(depth < t.rise[l]);
}

}  // namespace
}  // namespace arfabric::proto::lsn
