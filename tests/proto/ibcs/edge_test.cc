#include "proto/ibcs/edge.h"

#include <gtest/gtest.h>

#include "proto/ibcs/ibcs_frames.h"

namespace arfabric::proto::ibcs {
namespace {

TEST(StripCsigTag, RemovesFourBytes) {
  const Bytes inner = testing::ipv4_udp_frame({}, 4791, Bytes(30, 0x5a));
  Bytes frame = testing::with_csig(inner, {.signal_value = 3});
  auto n = strip_csig_tag(frame, 12);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, inner.size());
  EXPECT_EQ(Bytes(frame.begin(), frame.begin() + *n), inner);
}

TEST(StripCsigTag, PadsToTheEthernetMinimum) {
  // 62 bytes with the tag -> 58 without -> padded to 60.
  Bytes frame(62, 0xee);
  auto n = strip_csig_tag(frame, 12);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 60u);
  EXPECT_EQ(frame[57], 0xee);
  EXPECT_EQ(frame[58], 0);
  EXPECT_EQ(frame[59], 0);
  // A short (test) frame below 60 is not padded.
  Bytes small(20, 1);
  EXPECT_EQ(strip_csig_tag(small, 12), 16u);
}

TEST(StripCsigTag, RefusesATagOutsideTheFrame) {
  Bytes frame(20, 1);
  const Bytes before = frame;
  EXPECT_FALSE(strip_csig_tag(frame, 17));
  EXPECT_FALSE(strip_csig_tag(frame, 6));
  EXPECT_FALSE(strip_csig_tag(frame, 100));
  EXPECT_EQ(frame, before);
}

}  // namespace
}  // namespace arfabric::proto::ibcs
