#include "wire/inet/ipv6.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire {
namespace {

// fe80::1 -> fe80::2, TCP, traffic class 0xc0 (CS6, as BGP sends), flow
// label 0x12345, hop limit 1, with a 12-byte payload.
Bytes golden() {
  Bytes b = {
      0x6c, 0x01, 0x23, 0x45,  // version 6, traffic class 0xc0, flow label
      0x00, 0x0c,              // payload length 12
      0x06,                    // next header TCP
      0x01,                    // hop limit 1
  };
  const Bytes source = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const Bytes destination = {0xfe, 0x80, 0, 0, 0, 0, 0, 0,
                             0,    0,    0, 0, 0, 0, 0, 2};
  b.insert(b.end(), source.begin(), source.end());
  b.insert(b.end(), destination.begin(), destination.end());
  for (std::uint8_t i = 0; i < 12; ++i) b.push_back(i);
  return b;
}

Ipv6Header golden_header() {
  Ipv6Header h;
  h.traffic_class = 0xc0;
  h.flow_label = 0x12345;
  h.next_header = 6;
  h.hop_limit = 1;
  h.source = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  h.destination = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  return h;
}

TEST(Ipv6, ParsesGoldenBytes) {
  const Bytes b = golden();
  auto p = parse_ipv6(b, 14);
  ASSERT_TRUE(p) << p.error().to_string();
  Ipv6Header want = golden_header();
  want.payload_length = 12;
  EXPECT_EQ(p->header, want);
  EXPECT_EQ(p->header_offset, 14u);
  EXPECT_EQ(format_ipv6(p->header.source), "fe80::1");
  EXPECT_EQ(format_ipv6(p->header.destination), "fe80::2");
  ASSERT_EQ(p->payload.size(), 12u);
  EXPECT_EQ(p->payload[0], 0);
  EXPECT_EQ(p->payload[11], 11);
}

TEST(Ipv6, SerializesGoldenBytes) {
  ByteWriter w;
  ASSERT_TRUE(serialize(golden_header(), 12, w));
  const Bytes want = golden();
  EXPECT_EQ(w.data(), Bytes(want.begin(), want.begin() + kIpv6HeaderBytes));
}

TEST(Ipv6, TrailingPaddingIsNotPayload) {
  Bytes b = golden();
  b.insert(b.end(), 6, 0xee);
  auto p = parse_ipv6(b);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->payload.size(), 12u);
}

TEST(Ipv6, TruncationAtEveryField) {
  const Bytes b = golden();
  for (std::size_t n = 0; n < b.size(); ++n) {
    auto p = parse_ipv6(ByteSpan(b).first(n), 14);
    ASSERT_FALSE(p) << n;
    EXPECT_EQ(p.error().field.rfind("ipv6.", 0), 0u) << n;
    EXPECT_GE(p.error().offset, 14u) << n;
    if (n >= kIpv6HeaderBytes) {
      EXPECT_EQ(p.error().field, "ipv6.payload_length") << n;
      EXPECT_EQ(p.error().offset, 18u) << n;
    }
  }
}

TEST(Ipv6, BadVersion) {
  Bytes b = golden();
  b[0] = 0x4c;
  auto p = parse_ipv6(b);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().field, "ipv6.version");
  EXPECT_NE(p.error().reason.find("got 4"), std::string::npos);
}

TEST(Ipv6, SerializeRejectsOutOfRangeFields) {
  ByteWriter w;
  Ipv6Header h;
  h.flow_label = 0x100000;
  EXPECT_EQ(serialize(h, 0, w).error().field, "ipv6.flow_label");
  h = {};
  EXPECT_EQ(serialize(h, 65536, w).error().field, "ipv6.payload_length");
  EXPECT_TRUE(w.data().empty());
}

RC_GTEST_PROP(Ipv6Property, SerializeThenParseRoundTrips,
              (std::uint8_t traffic_class, std::uint8_t next_header,
               std::uint8_t hop_limit, std::vector<std::uint8_t> payload)) {
  Ipv6Header h;
  h.traffic_class = traffic_class;
  h.flow_label = *rc::gen::inRange<std::uint32_t>(0, 0x100000);
  h.next_header = next_header;
  h.hop_limit = hop_limit;
  for (auto& b : h.source) b = *rc::gen::arbitrary<std::uint8_t>();
  for (auto& b : h.destination) b = *rc::gen::arbitrary<std::uint8_t>();
  ByteWriter w;
  RC_ASSERT(serialize(h, payload.size(), w).has_value());
  w.bytes(payload);
  auto p = parse_ipv6(w.data());
  RC_ASSERT(p.has_value());
  h.payload_length = static_cast<std::uint16_t>(payload.size());
  RC_ASSERT(p->header == h);
  RC_ASSERT(Bytes(p->payload.begin(), p->payload.end()) == payload);
}

}  // namespace
}  // namespace arfabric::wire
