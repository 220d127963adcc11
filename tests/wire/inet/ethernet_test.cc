#include "wire/inet/ethernet.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire {
namespace {

const Bytes kTagged = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,  // destination
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01,  // source
    0x81, 0x00,                          // 802.1Q TPID
    0x20, 0x64,                          // TCI: PCP 1, VID 100
    0x08, 0x00,                          // EtherType IPv4
    0xaa, 0xbb,                          // payload
};

TEST(Ethernet, ParsesTaggedGoldenBytes) {
  auto f = parse_ethernet(kTagged);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(format_mac(f->header.destination), "01:80:c2:00:00:01");
  EXPECT_EQ(f->header.vlan_tci, 0x2064);
  EXPECT_EQ(f->header.ethertype, kEtherTypeIpv4);
  EXPECT_FALSE(f->header.is_length());
  EXPECT_EQ(f->payload.size(), 2u);
}

TEST(Ethernet, SerializesTaggedGoldenBytes) {
  auto f = parse_ethernet(kTagged);
  ASSERT_TRUE(f);
  ByteWriter w;
  serialize(f->header, w);
  EXPECT_EQ(w.data(), Bytes(kTagged.begin(), kTagged.end() - 2));
  EXPECT_EQ(encoded_size(f->header), 18u);
}

TEST(Ethernet, LengthFrame) {
  Bytes b(kTagged.begin(), kTagged.begin() + 12);
  b.insert(b.end(), {0x00, 0x03, 0xfe, 0xfe, 0x03});  // 802.3 + LLC
  auto f = parse_ethernet(b);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->header.is_length());
  EXPECT_EQ(f->header.ethertype, 3);
  EXPECT_FALSE(f->header.vlan_tci);
}

TEST(Ethernet, TruncationAtEveryField) {
  for (std::size_t n = 0; n < 18; ++n) {
    auto f = parse_ethernet(ByteSpan(kTagged).first(n));
    ASSERT_FALSE(f) << n;
    const char* want = n < 6    ? "eth.destination"
                       : n < 12 ? "eth.source"
                       : n < 14 ? "eth.ethertype"
                       : n < 16 ? "eth.vlan.tci"
                                : "eth.vlan.ethertype";
    EXPECT_EQ(f.error().field, want) << n;
  }
}

RC_GTEST_PROP(Ethernet, RoundTrip, ()) {
  EthernetHeader h;
  h.destination = *rc::gen::arbitrary<MacAddress>();
  h.source = *rc::gen::arbitrary<MacAddress>();
  if (*rc::gen::arbitrary<bool>())
    h.vlan_tci = *rc::gen::arbitrary<std::uint16_t>();
  h.ethertype = *rc::gen::suchThat<std::uint16_t>(
      [](std::uint16_t t) { return t != kEtherTypeVlan; });
  ByteWriter w;
  serialize(h, w);
  RC_ASSERT(w.size() == encoded_size(h));
  auto f = parse_ethernet(w.data());
  RC_ASSERT(f.has_value());
  RC_ASSERT(f->header == h);
}

}  // namespace
}  // namespace arfabric::wire
