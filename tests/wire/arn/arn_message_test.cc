#include "wire/arn/arn_message.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"

namespace arfabric::wire::arn {
namespace {

// Spine1 tells Leaf1 that its link toward Leaf2 failed (draft §2 Figure 3):
// the affected flows are those toward Leaf2's prefix; Path ID 7 names the
// Spine1->Leaf2 link.
ArnMessage failure_example() {
  ArnMessage m;
  m.type = ArnType::failure_detected;
  m.metric = 255;
  FiveTuple t;
  t.family = AddressFamily::ipv4;
  t.mask = kMaskDestination | kMaskProtocol;
  t.protocol = 17;
  t.destination = {10, 0, 2, 0};
  m.flow = t;
  m.path_id = 7;
  return m;
}

const char* kFailureHex =
    "03"         // Type 3: failure detection
    "00"         // Version 0, Rvsd 0
    "ff"         // Metric 255
    "c0"         // Para-Type: bit 0 (5-tuple) and bit 1 (Path ID)
    "1a000011"   // Opcode 1 (IPv4) | Mask 10100 (Protocol, Dst) | Rsvd | 17
    "00000000"   // Source (wildcard)
    "0a000200"   // Destination 10.0.2.0
    "0000"       // Source Port (wildcard)
    "0000"       // Destination Port (wildcard)
    "00000007";  // Path ID 7

TEST(ArnMessage, GoldenFailureDetection) {
  ByteWriter w;
  ASSERT_TRUE(serialize(failure_example(), w));
  EXPECT_EQ(to_hex(w.data()), to_hex(*from_hex(kFailureHex)));
  EXPECT_EQ(encoded_size(failure_example()), w.size());
  auto m = parse(w.data());
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(*m, failure_example());
  EXPECT_EQ(m->para_type(), 0xc0);
}

TEST(ArnMessage, HeaderOnlyAndIpv6) {
  ArnMessage m;
  m.type = ArnType::congestion_eliminated;
  m.metric = 3;
  ByteWriter w;
  ASSERT_TRUE(serialize(m, w));
  EXPECT_EQ(to_hex(w.data()), "02000300");

  FiveTuple t;
  t.family = AddressFamily::ipv6;
  t.source[0] = 0x20;
  t.source[15] = 1;
  t.destination[15] = 2;
  t.source_port = 4791;
  t.destination_port = 4791;
  m.inner_flow = t;
  w.clear();
  ASSERT_TRUE(serialize(m, w));
  ASSERT_EQ(w.size(), 4u + 4 + 16 + 16 + 4);
  EXPECT_EQ(w.data()[3], 0x20);    // Para-Type bit 2 only
  EXPECT_EQ(w.data()[4] >> 4, 2);  // Opcode 2 = IPv6
  EXPECT_EQ(to_hex(ByteSpan(w.data()).subspan(40)), "12b712b7");
  auto back = parse(w.data());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, m);
}

TEST(ArnMessage, ReservedParaTypeBitsKeepTrailingParametersOpaque) {
  // Bit 7 set: its parameter follows the Path ID and is kept as is.
  const Bytes in = *from_hex("01 00 10 41 00000009 deadbeef");
  auto m = parse(in);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->reserved_para_bits, 0x01);
  EXPECT_EQ(m->path_id, 9u);
  EXPECT_EQ(to_hex(m->unknown_parameters), "deadbeef");
  ByteWriter w;
  ASSERT_TRUE(serialize(*m, w));
  EXPECT_EQ(w.data(), in);
}

TEST(ArnMessage, TrailingBytesWithoutReservedBitsAreAnError) {
  auto m = parse(*from_hex("01 00 10 40 00000009 00"));
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().field, "arn.parameters");
  EXPECT_EQ(m.error().offset, 8u);
}

TEST(ArnMessage, RejectsUnknownTypeVersionAndOpcode) {
  auto e = parse(*from_hex("05000000"));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.type");
  e = parse(*from_hex("00000000"));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.type");
  e = parse(*from_hex("01100000"));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.version");
  EXPECT_EQ(e.error().offset, 1u);
  e = parse(*from_hex("01000080 3f000006 00000000 00000000 00000000"));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.flow.opcode");
  EXPECT_EQ(e.error().offset, 4u);
}

TEST(ArnMessage, ReservedBitsAreKeptAsReceived) {
  // Rvsd = 0xf and the 15 reserved bits of the 5-tuple all set.
  const Bytes in = *from_hex("010f0080 1c7fff06 01020304 05060708 0001 0002");
  auto m = parse(in);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->reserved, 0x0f);
  EXPECT_EQ(m->flow->reserved, 0x7fff);
  EXPECT_EQ(m->flow->mask, 0x18);
  ByteWriter w;
  ASSERT_TRUE(serialize(*m, w));
  EXPECT_EQ(w.data(), in);
}

TEST(ArnMessage, TruncationAtEveryField) {
  const Bytes full = *from_hex(kFailureHex);
  for (std::size_t n = 0; n < full.size(); ++n) {
    auto e = parse(ByteSpan(full).first(n));
    ASSERT_FALSE(e) << "prefix " << n;
    EXPECT_TRUE(e.error().field.starts_with("arn.")) << e.error().field;
    EXPECT_LE(e.error().offset, n);
  }
}

TEST(ArnMessage, SerializeRejectsUnencodable) {
  ArnMessage m = failure_example();
  m.flow->mask = 0x20;
  ByteWriter w;
  auto e = serialize(m, w);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "arn.flow.mask");
  EXPECT_EQ(w.size(), 0u);  // nothing half-written
  m = failure_example();
  m.reserved_para_bits = 0x80;
  EXPECT_FALSE(serialize(m, w));
  m = failure_example();
  m.unknown_parameters = {1};
  EXPECT_FALSE(serialize(m, w));
  m = failure_example();
  m.type = static_cast<ArnType>(9);
  EXPECT_FALSE(serialize(m, w));
}

FiveTuple gen_tuple() {
  FiveTuple t;
  t.family = *rc::gen::element(AddressFamily::ipv4, AddressFamily::ipv6);
  t.mask = static_cast<std::uint8_t>(*rc::gen::inRange(0, 32));
  t.reserved = static_cast<std::uint16_t>(*rc::gen::inRange(0, 0x8000));
  t.protocol = *rc::gen::arbitrary<std::uint8_t>();
  for (std::size_t i = 0; i < t.address_size(); ++i) {
    t.source[i] = *rc::gen::arbitrary<std::uint8_t>();
    t.destination[i] = *rc::gen::arbitrary<std::uint8_t>();
  }
  t.source_port = *rc::gen::arbitrary<std::uint16_t>();
  t.destination_port = *rc::gen::arbitrary<std::uint16_t>();
  return t;
}

RC_GTEST_PROP(ArnMessage, ParseInvertsSerialize, ()) {
  ArnMessage m;
  m.type = static_cast<ArnType>(*rc::gen::inRange(1, 5));
  m.reserved = static_cast<std::uint8_t>(*rc::gen::inRange(0, 16));
  m.metric = *rc::gen::arbitrary<std::uint8_t>();
  if (*rc::gen::arbitrary<bool>()) m.flow = gen_tuple();
  if (*rc::gen::arbitrary<bool>())
    m.path_id = *rc::gen::arbitrary<std::uint32_t>();
  if (*rc::gen::arbitrary<bool>()) m.inner_flow = gen_tuple();
  m.reserved_para_bits = static_cast<std::uint8_t>(*rc::gen::inRange(0, 32));
  if (m.reserved_para_bits) {
    m.unknown_parameters = *rc::gen::arbitrary<Bytes>();
  }
  ByteWriter w;
  RC_ASSERT(serialize(m, w).has_value());
  RC_ASSERT(w.size() == encoded_size(m));
  auto back = parse(w.data());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == m);
}

}  // namespace
}  // namespace arfabric::wire::arn
