#include "wire/arn/arn_transport.h"

#include <gtest/gtest.h>

#include "common/hex.h"
#include "wire/inet/checksum.h"

namespace arfabric::wire::arn {
namespace {

ArnMessage congestion() {
  ArnMessage m;
  m.type = ArnType::congestion_detected;
  m.metric = 2;
  m.path_id = 0x01020304;
  return m;
}

TEST(ArnTransport, UdpCarriesHighPriorityDatagramWithValidChecksums) {
  ByteWriter w;
  ASSERT_TRUE(serialize_ipv4_udp(congestion(), {10, 0, 0, 1}, {10, 0, 0, 2},
                                 UdpOptions{}, w));
  ASSERT_EQ(w.size(), 20u + 8 + 8);
  EXPECT_EQ(w.data()[1] >> 2, 48);  // DSCP CS6
  EXPECT_EQ(internet_checksum(ByteSpan(w.data()).first(20)), 0);
  auto d = parse_ipv4_udp(w.data());
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_TRUE(d->ip_checksum_valid);
  EXPECT_TRUE(d->udp_checksum_valid);
  EXPECT_EQ(d->udp.destination_port, kDefaultUdpPort);
  EXPECT_EQ(d->message, congestion());
  // The message bytes: type 1, version 0, metric 2, Para-Type bit 1.
  EXPECT_EQ(to_hex(ByteSpan(w.data()).subspan(28)), "0100024001020304");
}

TEST(ArnTransport, EncodedSizeIsWhatSerializeWrites) {
  ArnMessage with_flow = congestion();
  FiveTuple destination;
  destination.family = AddressFamily::ipv4;
  destination.mask = kMaskDestination;
  with_flow.flow = destination;
  for (const ArnMessage& m : {congestion(), with_flow}) {
    ByteWriter w;
    ASSERT_TRUE(
        serialize_ipv4_udp(m, {10, 0, 0, 1}, {10, 0, 0, 2}, UdpOptions{}, w));
    EXPECT_EQ(encoded_size_ipv4_udp(m), w.size());
  }
}

TEST(ArnTransport, UdpErrorsNameTheLayerAndAbsoluteOffset) {
  ByteWriter w;
  ASSERT_TRUE(serialize_ipv4_udp(congestion(), {10, 0, 0, 1}, {10, 0, 0, 2},
                                 UdpOptions{.port = 6000}, w));
  auto d = parse_ipv4_udp(w.data());
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().field, "arn.udp.destination_port");
  EXPECT_EQ(d.error().offset, 22u);
  ASSERT_TRUE(parse_ipv4_udp(w.data(), UdpOptions{.port = 6000}));

  Bytes bad = w.data();
  bad[28] = 9;  // ARN type 9
  d = parse_ipv4_udp(bad, UdpOptions{.port = 6000});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().field, "arn.type");
  EXPECT_EQ(d.error().offset, 28u);
}

TEST(ArnTransport, L2FrameIsPaddedAndLengthDelimited) {
  ArnL2Frame f;
  f.source = {0x02, 0, 0, 0, 0, 0x11};
  f.message = congestion();
  ByteWriter w;
  ASSERT_TRUE(serialize_l2(f, w));
  ASSERT_EQ(w.size(), 60u);
  EXPECT_EQ(encoded_size_l2(f), 60u);
  EXPECT_EQ(to_hex(ByteSpan(w.data()).first(24)),
            "0341524e0000"      // group address
            "020000000011"      // source
            "88b5"              // EtherType (local experimental)
            "0008"              // ARN message length
            "0100024001020304"  // the message
  );
  auto back = parse_l2(w.data());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, f);
}

TEST(ArnTransport, L2Errors) {
  ArnL2Frame f;
  f.message = congestion();
  ByteWriter w;
  ASSERT_TRUE(serialize_l2(f, w));
  Bytes bad = w.data();
  bad[15] = 0x40;  // length 64 > 44 bytes that follow
  auto e = parse_l2(bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.l2.length");
  bad = w.data();
  bad[15] = 0x07;  // length cuts the Path ID short
  e = parse_l2(bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.path_id");
  EXPECT_EQ(e.error().offset, 20u);
  for (std::size_t n = 0; n < 24; ++n) {
    EXPECT_FALSE(parse_l2(ByteSpan(w.data()).first(n))) << n;
  }
  EXPECT_FALSE(parse_l2(w.data(), L2Options{.ethertype = 0x88b6}));
}

}  // namespace
}  // namespace arfabric::wire::arn
