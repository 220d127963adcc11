#include "wire/inet/udp.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire {
namespace {

Ipv4Header ip() {
  Ipv4Header h;
  h.protocol = kIpProtoUdp;
  h.source = {192, 168, 0, 1};
  h.destination = {192, 168, 0, 199};
  return h;
}

const Bytes kGolden = {
    0x04, 0xd2,      // source port 1234
    0x16, 0x2e,      // destination port 5678
    0x00, 0x0b,      // length 11
    0xd9, 0x55,      // checksum over the pseudo-header
    'h',  'i',  '!'  // payload
};

TEST(Udp, ParsesGoldenBytes) {
  auto d = parse_udp(kGolden);
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_EQ(d->header.source_port, 1234);
  EXPECT_EQ(d->header.destination_port, 5678);
  EXPECT_EQ(d->header.length, 11);
  EXPECT_EQ(d->header.checksum, 0xd955);
  EXPECT_EQ(d->payload.size(), 3u);
  EXPECT_TRUE(udp_checksum_valid(ip(), kGolden));
}

TEST(Udp, SerializesGoldenBytes) {
  ByteWriter w;
  const Bytes payload = {'h', 'i', '!'};
  ASSERT_TRUE(serialize_udp_ipv4(
      UdpHeader{.source_port = 1234, .destination_port = 5678}, ip(), payload,
      w));
  EXPECT_EQ(w.data(), kGolden);
}

TEST(Udp, TruncationAtEveryField) {
  const char* fields[] = {"udp.source_port",      "udp.source_port",
                          "udp.destination_port", "udp.destination_port",
                          "udp.length",           "udp.length",
                          "udp.checksum",         "udp.checksum"};
  for (std::size_t n = 0; n < kGolden.size(); ++n) {
    auto d = parse_udp(ByteSpan(kGolden).first(n), 34);
    ASSERT_FALSE(d) << n;
    EXPECT_EQ(d.error().field, n < 8 ? fields[n] : "udp.length") << n;
  }
}

TEST(Udp, BadLengths) {
  Bytes b = kGolden;
  b[5] = 7;
  auto d = parse_udp(b, 34);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().field, "udp.length");
  EXPECT_EQ(d.error().offset, 38u);
  b[5] = 12;
  EXPECT_EQ(parse_udp(b).error().field, "udp.length");
}

TEST(Udp, ChecksumZeroMeansNoneAndCorruptionIsDetected) {
  Bytes b = kGolden;
  b[6] = b[7] = 0;
  EXPECT_TRUE(udp_checksum_valid(ip(), b));
  b = kGolden;
  b[9] ^= 0x40;
  EXPECT_FALSE(udp_checksum_valid(ip(), b));
  EXPECT_FALSE(udp_checksum_valid(ip(), ByteSpan(kGolden).first(7)));
}

// RFC 768: the checksum covers the pseudo-header, the header and the data,
// all measured by the UDP length field. IP payload bytes past the UDP
// length (the UDP-options "surplus area", or padding) are not covered.
// Regression: udp_checksum_valid() used to sum the whole segment given and
// put its size in the pseudo-header, rejecting such datagrams.
TEST(Udp, ChecksumCoversOnlyTheUdpLength) {
  Bytes with_surplus = kGolden;
  with_surplus.insert(with_surplus.end(), {0x01, 0x02, 0x03});
  EXPECT_TRUE(udp_checksum_valid(ip(), with_surplus));
  // A UDP length beyond the bytes given cannot verify.
  Bytes too_long = kGolden;
  too_long[5] = 12;
  EXPECT_FALSE(udp_checksum_valid(ip(), too_long));
  too_long[5] = 7;
  EXPECT_FALSE(udp_checksum_valid(ip(), too_long));
}

RC_GTEST_PROP(Udp, RoundTripAndChecksumVerifies, ()) {
  Ipv4Header h = ip();
  h.source = *rc::gen::arbitrary<Ipv4Address>();
  h.destination = *rc::gen::arbitrary<Ipv4Address>();
  const UdpHeader u{.source_port = *rc::gen::arbitrary<std::uint16_t>(),
                    .destination_port = *rc::gen::arbitrary<std::uint16_t>()};
  const auto payload = *rc::gen::arbitrary<Bytes>();
  ByteWriter w;
  RC_ASSERT(serialize_udp_ipv4(u, h, payload, w).has_value());
  auto d = parse_udp(w.data());
  RC_ASSERT(d.has_value());
  RC_ASSERT(d->header.source_port == u.source_port);
  RC_ASSERT(d->header.destination_port == u.destination_port);
  RC_ASSERT(d->header.checksum != 0);  // RFC 768: 0 is sent as 0xFFFF
  RC_ASSERT(Bytes(d->payload.begin(), d->payload.end()) == payload);
  RC_ASSERT(udp_checksum_valid(h, w.data()));
}

}  // namespace
}  // namespace arfabric::wire
