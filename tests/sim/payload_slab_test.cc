#include "sim/payload_slab.h"

#include <gtest/gtest.h>

namespace arfabric::sim {
namespace {

TEST(PayloadSlab, StoresCopiesAndReusesReleasedSlots) {
  PayloadSlab slab;
  Bytes a = {1, 2, 3};
  const std::uint32_t x = slab.store(a);
  const std::uint32_t y = slab.store(Bytes{9});
  a[0] = 7;  // a copy was stored
  EXPECT_EQ(Bytes(slab.at(x).begin(), slab.at(x).end()), (Bytes{1, 2, 3}));
  EXPECT_EQ(slab.in_use(), 2u);
  slab.release(x);
  EXPECT_EQ(slab.in_use(), 1u);
  const std::uint32_t z = slab.store(Bytes{4, 5});
  EXPECT_EQ(z, x);  // the released slot, not a new one
  EXPECT_EQ(Bytes(slab.at(z).begin(), slab.at(z).end()), (Bytes{4, 5}));
  EXPECT_EQ(Bytes(slab.at(y).begin(), slab.at(y).end()), (Bytes{9}));
}

}  // namespace
}  // namespace arfabric::sim
