#include "sim/transport/ring.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace arfabric::sim::transport {
namespace {

// Elements read back as written; a moved-from array is empty, not a
// null pointer with a size.
TEST(UninitializedArray, HoldsWhatIsWrittenAndMovesItsSize) {
  UninitializedArray<std::uint64_t> a(5);
  ASSERT_EQ(a.size(), 5u);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 10 * i;
  UninitializedArray<std::uint64_t> b(std::move(a));
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): the point
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b[4], 40u);
  UninitializedArray<std::uint64_t> c;
  EXPECT_EQ(c.size(), 0u);
  c = std::move(b);
  EXPECT_EQ(b.size(), 0u);  // NOLINT(bugprone-use-after-move)
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[2], 20u);
}

// More elements than fit in memory: refused, not wrapped around.
TEST(UninitializedArray, ASizeThatOverflowsIsRefused) {
  EXPECT_THROW(UninitializedArray<std::uint64_t>(SIZE_MAX / 4), std::bad_alloc);
}

// A FIFO over storage nothing initialised: it reads only what it was
// given, in order, across the end of the buffer, and compaction keeps the
// order.
TEST(Ring, IsAFifoAcrossTheEndOfItsBuffer) {
  Ring<std::uint32_t> r;
  r.reset(4);
  EXPECT_TRUE(r.empty());
  std::vector<std::uint32_t> out;
  for (std::uint32_t v = 1; v <= 10; ++v) {
    r.push_back(v);
    if (r.full()) {
      out.push_back(r.front());
      r.pop_front();
    }
  }
  EXPECT_EQ(out, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  ASSERT_EQ(r.size(), 3u);  // 8, 9, 10
  r.compact([](std::uint32_t v) { return v != 9; });
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.front(), 8u);
  r.pop_front();
  EXPECT_EQ(r.front(), 10u);
  r.reset(2);  // a fresh, empty buffer
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.capacity(), 2u);
}

}  // namespace
}  // namespace arfabric::sim::transport
