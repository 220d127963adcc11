#include "proto/fib/flow_hash.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

namespace arfabric::proto::fib {
namespace {

FlowKey key(std::uint32_t i) {
  FlowKey k;
  k.source = {10, 0, static_cast<std::uint8_t>(i >> 8),
              static_cast<std::uint8_t>(i)};
  k.destination = {10, 1, 0, 1};
  k.source_port = 49152;
  k.destination_port = 4791;  // RoCEv2
  k.protocol = 17;
  return k;
}

TEST(FlowHash, DeterministicAndSeeded) {
  EXPECT_EQ(flow_hash(key(1), 7), flow_hash(key(1), 7));
  EXPECT_NE(flow_hash(key(1), 7), flow_hash(key(1), 8));
  EXPECT_NE(flow_hash(key(1), 7), flow_hash(key(2), 7));
}

TEST(FlowHash, EveryFieldMatters) {
  const FlowKey base = key(1);
  const std::uint64_t h = flow_hash(base, 0);
  FlowKey k = base;
  k.source[15] ^= 1;
  EXPECT_NE(flow_hash(k, 0), h);
  k = base;
  k.destination[8] ^= 1;
  EXPECT_NE(flow_hash(k, 0), h);
  k = base;
  k.source_port ^= 1;
  EXPECT_NE(flow_hash(k, 0), h);
  k = base;
  k.destination_port ^= 0x8000;
  EXPECT_NE(flow_hash(k, 0), h);
  k = base;
  k.protocol = 6;
  EXPECT_NE(flow_hash(k, 0), h);
}

TEST(FlowHash, OneBitInputChangeFlipsAboutHalfTheOutput) {
  // Avalanche: over 4096 single-bit source-port flips the mean number of
  // output bits that change is 32 +- 0.1 (sd of a Binomial(64, 1/2) is 4,
  // of the mean of 4096 such: 4 / 64 = 0.0625, so 0.25 is 4 sigma).
  double total = 0;
  int samples = 0;
  for (std::uint32_t i = 0; i < 256; ++i)
    for (int b = 0; b < 16; ++b) {
      FlowKey k = key(i);
      const std::uint64_t h = flow_hash(k, 1);
      k.source_port ^= static_cast<std::uint16_t>(1u << b);
      total += std::popcount(h ^ flow_hash(k, 1));
      ++samples;
    }
  EXPECT_NEAR(total / samples, 32.0, 0.25);
}

}  // namespace
}  // namespace arfabric::proto::fib
