#include "wire/inet/ipv4.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire {
namespace {

// The classic example header (192.168.0.1 -> 192.168.0.199, UDP) with a
// 95-byte payload of zeros.
Bytes golden() {
  Bytes b = {
      0x45,                    // version 4, IHL 5
      0x00,                    // DSCP 0, ECN 0
      0x00, 0x73,              // total length 115
      0x00, 0x00,              // identification
      0x40, 0x00,              // flags DF, fragment offset 0
      0x40,                    // TTL 64
      0x11,                    // protocol UDP
      0xb8, 0x61,              // header checksum
      0xc0, 0xa8, 0x00, 0x01,  // source 192.168.0.1
      0xc0, 0xa8, 0x00, 0xc7,  // destination 192.168.0.199
  };
  b.resize(0x73, 0);
  return b;
}

Ipv4Header golden_header() {
  Ipv4Header h;
  h.flags = 2;
  h.ttl = 64;
  h.protocol = kIpProtoUdp;
  h.source = {192, 168, 0, 1};
  h.destination = {192, 168, 0, 199};
  return h;
}

TEST(Ipv4, ParsesGoldenBytes) {
  const Bytes b = golden();
  auto p = parse_ipv4(b);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_TRUE(p->checksum_valid);
  EXPECT_EQ(p->header.total_length, 115);
  EXPECT_EQ(p->header.flags, 2);
  EXPECT_EQ(p->header.checksum, 0xb861);
  EXPECT_EQ(p->header.protocol, kIpProtoUdp);
  EXPECT_EQ(format_ipv4(p->header.destination), "192.168.0.199");
  EXPECT_EQ(p->payload.size(), 95u);
}

TEST(Ipv4, SerializesGoldenBytes) {
  ByteWriter w;
  ASSERT_TRUE(serialize(golden_header(), 95, w));
  const Bytes want = golden();
  EXPECT_EQ(w.data(), Bytes(want.begin(), want.begin() + 20));
  EXPECT_EQ(encoded_size(golden_header()), 20u);
}

TEST(Ipv4, TrailingPaddingIsNotPayload) {
  Bytes b = golden();
  b.insert(b.end(), 6, 0xee);
  auto p = parse_ipv4(b);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->payload.size(), 95u);
}

TEST(Ipv4, TruncationAtEveryField) {
  const Bytes b = golden();
  for (std::size_t n = 0; n < b.size(); ++n) {
    auto p = parse_ipv4(ByteSpan(b).first(n), 14);
    ASSERT_FALSE(p) << n;
    EXPECT_EQ(p.error().field.rfind("ipv4.", 0), 0u) << n;
    EXPECT_GE(p.error().offset, 14u);
  }
}

TEST(Ipv4, BadVersionIhlAndLengths) {
  Bytes b = golden();
  b[0] = 0x65;
  EXPECT_EQ(parse_ipv4(b).error().field, "ipv4.version");
  b = golden();
  b[0] = 0x44;
  EXPECT_EQ(parse_ipv4(b).error().field, "ipv4.ihl");
  b = golden();
  b[0] = 0x4f;  // 60-byte header, total length 48
  b[3] = 0x30;
  ASSERT_FALSE(parse_ipv4(b));
  EXPECT_EQ(parse_ipv4(b).error().field, "ipv4.total_length");
  b = golden();
  b[3] = 0x13;  // total length 19 < header
  EXPECT_EQ(parse_ipv4(b).error().field, "ipv4.total_length");
  b = golden();
  b[2] = 0x01;  // total length beyond the buffer
  auto p = parse_ipv4(b);
  EXPECT_EQ(p.error().field, "ipv4.total_length");
  EXPECT_EQ(p.error().offset, 2u);
}

TEST(Ipv4, BadChecksumIsReportedNotRejected) {
  Bytes b = golden();
  b[11] ^= 1;
  auto p = parse_ipv4(b);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->checksum_valid);
}

TEST(Ipv4, SerializeRejectsOutOfRangeFields) {
  ByteWriter w;
  Ipv4Header h;
  h.options = {1, 1, 1};
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv4.options");
  h = {};
  h.dscp = 64;
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv4.dscp");
  h = {};
  h.ecn = 4;
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv4.ecn");
  h = {};
  h.flags = 8;
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv4.flags");
  h = {};
  h.fragment_offset = 0x2000;
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv4.fragment_offset");
  h = {};
  EXPECT_EQ(serialize(h, 65536 - 20, w).error().field, "ipv4.total_length");
  EXPECT_EQ(w.size(), 0u);
}

RC_GTEST_PROP(Ipv4, RoundTrip, ()) {
  Ipv4Header h;
  h.dscp = *rc::gen::inRange<std::uint8_t>(0, 64);
  h.ecn = *rc::gen::inRange<std::uint8_t>(0, 4);
  h.identification = *rc::gen::arbitrary<std::uint16_t>();
  h.flags = *rc::gen::inRange<std::uint8_t>(0, 8);
  h.fragment_offset = *rc::gen::inRange<std::uint16_t>(0, 0x2000);
  h.ttl = *rc::gen::arbitrary<std::uint8_t>();
  h.protocol = *rc::gen::arbitrary<std::uint8_t>();
  h.source = *rc::gen::arbitrary<Ipv4Address>();
  h.destination = *rc::gen::arbitrary<Ipv4Address>();
  const auto words = *rc::gen::inRange<std::size_t>(0, 11);
  h.options =
      *rc::gen::container<Bytes>(words * 4, rc::gen::arbitrary<std::uint8_t>());
  const auto payload = *rc::gen::arbitrary<Bytes>();
  ByteWriter w;
  RC_ASSERT(serialize(h, payload.size(), w).has_value());
  w.bytes(payload);
  auto p = parse_ipv4(w.data());
  RC_ASSERT(p.has_value());
  RC_ASSERT(p->checksum_valid);
  Ipv4Header back = p->header;
  back.total_length = 0;
  back.checksum = 0;
  RC_ASSERT(back == h);
  RC_ASSERT(Bytes(p->payload.begin(), p->payload.end()) == payload);
}

TEST(Ipv4, IsFragmentByMoreFragmentsOrOffset) {
  Ipv4Header h;
  EXPECT_FALSE(h.is_fragment());
  h.flags = 0x2;  // DF alone
  EXPECT_FALSE(h.is_fragment());
  h.flags = 0x1;  // MF: the first of several
  EXPECT_TRUE(h.is_fragment());
  h.flags = 0;
  h.fragment_offset = 185;  // the last
  EXPECT_TRUE(h.is_fragment());
}

}  // namespace
}  // namespace arfabric::wire
