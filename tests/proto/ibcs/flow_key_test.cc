#include "proto/ibcs/flow_key.h"

#include <gtest/gtest.h>

#include "proto/ibcs/ibcs_frames.h"

namespace arfabric::proto::ibcs {
namespace {

TEST(FlowKey, Ipv4UdpBehindCsigTag) {
  const Bytes plain = testing::ipv4_udp_frame({}, 4791, Bytes{1, 2},
                                              {10, 1, 2, 3}, {10, 4, 5, 6});
  auto k = extract_flow_key(plain);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->protocol, 17);
  EXPECT_EQ(k->source[0], 10);
  EXPECT_EQ(k->source[3], 3);
  EXPECT_EQ(k->destination[3], 6);
  EXPECT_EQ(k->source[4], 0);  // IPv4 uses the first 4 bytes only
  EXPECT_EQ(k->source_port, 40000);
  EXPECT_EQ(k->destination_port, 4791);
  EXPECT_EQ(extract_flow_key(testing::with_csig(plain, {})), k);
  // Behind QinQ tags (802.1ad outside 802.1Q) too.
  Bytes qinq(plain.begin(), plain.begin() + 12);
  qinq.insert(qinq.end(), {0x88, 0xa8, 0x00, 0x05, 0x81, 0x00, 0x00, 0x07});
  qinq.insert(qinq.end(), plain.begin() + 12, plain.end());
  EXPECT_EQ(extract_flow_key(qinq), k);
}

TEST(FlowKey, RejectsNonIpv4AndTruncation) {
  const Bytes plain = testing::ipv4_udp_frame({}, 4791, Bytes{1, 2});
  for (std::size_t n = 0; n < 14 + 20 + 4; ++n)
    EXPECT_FALSE(extract_flow_key(ByteSpan(plain).first(n))) << n;
  Bytes arp = plain;
  arp[12] = 0x08;
  arp[13] = 0x06;
  EXPECT_FALSE(extract_flow_key(arp));
  Bytes fragment = plain;
  fragment[14 + 7] = 0x10;  // fragment offset 16
  EXPECT_FALSE(extract_flow_key(fragment));
}

}  // namespace
}  // namespace arfabric::proto::ibcs
