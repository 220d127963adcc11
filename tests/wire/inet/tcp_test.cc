#include "wire/inet/tcp.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "wire/inet/checksum.h"

namespace arfabric::wire {
namespace {

Ipv4Header ip() {
  Ipv4Header h;
  h.protocol = kIpProtoTcp;
  h.source = {192, 168, 0, 1};
  h.destination = {192, 168, 0, 199};
  return h;
}

const Bytes kGolden = {
    0x9c, 0x40,              // source port 40000
    0x00, 0xb3,              // destination port 179
    0x00, 0x00, 0x00, 0x01,  // sequence 1
    0x00, 0x00, 0x00, 0x02,  // acknowledgment 2
    0x50,                    // data offset 5 words
    0x18,                    // flags PSH|ACK
    0xff, 0xff,              // window
    0x07, 0x51,              // checksum
    0x00, 0x00,              // urgent pointer
    'h',  'i',  '!',         // payload
};

TEST(Tcp, ParsesGoldenBytes) {
  auto s = parse_tcp(kGolden);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->header.source_port, 40000);
  EXPECT_EQ(s->header.destination_port, 179);
  EXPECT_EQ(s->header.sequence, 1u);
  EXPECT_EQ(s->header.acknowledgment, 2u);
  EXPECT_EQ(s->header.flags, kTcpFlagPsh | kTcpFlagAck);
  EXPECT_EQ(s->header.checksum, 0x0751);
  EXPECT_EQ(s->payload.size(), 3u);
}

TEST(Tcp, SerializesGoldenBytes) {
  TcpHeader h;
  h.source_port = 40000;
  h.destination_port = 179;
  h.sequence = 1;
  h.acknowledgment = 2;
  const Bytes payload = {'h', 'i', '!'};
  ByteWriter w;
  ASSERT_TRUE(serialize_tcp_ipv4(h, ip(), payload, w));
  EXPECT_EQ(w.data(), kGolden);
}

TEST(Tcp, TruncationAtEveryField) {
  for (std::size_t n = 0; n < 20; ++n) {
    auto s = parse_tcp(ByteSpan(kGolden).first(n), 34);
    ASSERT_FALSE(s) << n;
    EXPECT_EQ(s.error().field.rfind("tcp.", 0), 0u) << n;
    EXPECT_GE(s.error().offset, 34u);
  }
  EXPECT_EQ(parse_tcp(ByteSpan(kGolden).first(11)).error().field,
            "tcp.acknowledgment");
}

TEST(Tcp, BadDataOffset) {
  Bytes b = kGolden;
  b[12] = 0x40;  // 16 bytes < 20
  auto s = parse_tcp(b, 34);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().field, "tcp.data_offset");
  EXPECT_EQ(s.error().offset, 46u);
  b[12] = 0x70;  // 28 bytes > 23 available
  EXPECT_EQ(parse_tcp(b).error().field, "tcp.data_offset");
}

TEST(Tcp, SerializeRejectsBadOptions) {
  TcpHeader h;
  h.options = {1, 1};
  ByteWriter w;
  EXPECT_EQ(serialize_tcp_ipv4(h, ip(), {}, w).error().field, "tcp.options");
  h.options.assign(44, 1);
  EXPECT_EQ(serialize_tcp_ipv4(h, ip(), {}, w).error().field, "tcp.options");
  h.options.clear();
  h.reserved = 0x10;
  EXPECT_EQ(serialize_tcp_ipv4(h, ip(), {}, w).error().field, "tcp.reserved");
}

// The 4 bits after Data Offset (RFC 9293 §3.1 "Rsrvd") round-trip: a decoder
// must show what was on the wire.
TEST(Tcp, ReservedBitsAreKept) {
  Bytes b = kGolden;
  b[12] = 0x5a;
  auto s = parse_tcp(b);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->header.reserved, 0x0a);
  ByteWriter w;
  ASSERT_TRUE(serialize_tcp_ipv4(s->header, ip(), s->payload, w));
  EXPECT_EQ(w.data()[12], 0x5a);
}

RC_GTEST_PROP(Tcp, RoundTripAndChecksum, ()) {
  TcpHeader h;
  h.source_port = *rc::gen::arbitrary<std::uint16_t>();
  h.destination_port = *rc::gen::arbitrary<std::uint16_t>();
  h.sequence = *rc::gen::arbitrary<std::uint32_t>();
  h.acknowledgment = *rc::gen::arbitrary<std::uint32_t>();
  h.reserved = static_cast<std::uint8_t>(*rc::gen::inRange(0, 16));
  h.flags = *rc::gen::arbitrary<std::uint8_t>();
  h.window = *rc::gen::arbitrary<std::uint16_t>();
  h.urgent = *rc::gen::arbitrary<std::uint16_t>();
  h.options =
      *rc::gen::container<Bytes>(4 * *rc::gen::inRange<std::size_t>(0, 11),
                                 rc::gen::arbitrary<std::uint8_t>());
  const auto payload = *rc::gen::arbitrary<Bytes>();
  ByteWriter w;
  RC_ASSERT(serialize_tcp_ipv4(h, ip(), payload, w).has_value());
  auto s = parse_tcp(w.data());
  RC_ASSERT(s.has_value());
  TcpHeader back = s->header;
  back.checksum = 0;
  RC_ASSERT(back == h);
  RC_ASSERT(Bytes(s->payload.begin(), s->payload.end()) == payload);
  RC_ASSERT(internet_checksum(w.data(),
                              ipv4_pseudo_header_sum(
                                  ip().source, ip().destination, kIpProtoTcp,
                                  static_cast<std::uint16_t>(w.size()))) == 0);
}

}  // namespace
}  // namespace arfabric::wire
