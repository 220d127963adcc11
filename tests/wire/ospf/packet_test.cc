#include "wire/ospf/packet.h"

#include <gtest/gtest.h>

#include "common/hex.h"
#include "wire/ospf/lsa.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// An LS Update from 192.0.2.1 in area 0 holding a Router-LSA and a
// Summary-LSA; checksums computed by an independent script, and tshark 4.0
// shows the packet checksum 0xd9de "[correct]".
const Bytes kLsUpdate =
    hex("02 04 0078 c0000201 00000000 d9de 0000 aaaaaaaaaaaaaaaa"
        "00000002"
        "0001 02 01 c0000201 c0000201 80000003 3459 0040"
        "01 00 0003"
        "c0000202 0a010100 01 00 000a"
        "0a010100 fffffffe 03 00 000a"
        "0a000100 ffffff00 03 01 0001 08 00 0014"
        "0002 02 03 0a070000 c0000201 80000001 e683 001c"
        "ffff0000 00 00001e");

TEST(OspfPacket, ParsesGoldenLsUpdate) {
  auto p = parse_ospfv2_packet(kLsUpdate);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_TRUE(p->checksum_valid);
  EXPECT_EQ(p->header.type, kPacketLinkStateUpdate);
  EXPECT_EQ(p->header.length, 120);
  EXPECT_EQ(p->header.router_id, (Ipv4Address{192, 0, 2, 1}));
  EXPECT_EQ(p->header.area_id, (Ipv4Address{0, 0, 0, 0}));
  EXPECT_EQ(p->header.checksum, 0xd9de);
  EXPECT_EQ(p->body.size(), 96u);
  auto lsas = parse_ls_update(p->body, kOspfv2PacketHeaderSize);
  ASSERT_TRUE(lsas) << lsas.error().to_string();
  ASSERT_EQ(lsas->size(), 2u);
  EXPECT_EQ((*lsas)[0].size(), 64u);
  EXPECT_EQ((*lsas)[1].size(), 28u);
  for (ByteSpan lsa : *lsas) {
    auto parsed = parse_ospfv2_lsa(lsa);
    ASSERT_TRUE(parsed);
    EXPECT_TRUE(parsed->checksum_valid);
  }
}

TEST(OspfPacket, SerializeComputesLengthAndChecksum) {
  auto p = parse_ospfv2_packet(kLsUpdate);
  ASSERT_TRUE(p);
  Ospfv2PacketHeader h = p->header;
  h.length = 0;
  h.checksum = 0;
  ByteWriter out;
  ASSERT_TRUE(serialize_ospfv2_packet(h, p->body, out));
  EXPECT_EQ(out.data(), kLsUpdate);
  // The LS Update body rebuilt from its LSAs.
  auto lsas = parse_ls_update(p->body);
  ASSERT_TRUE(lsas);
  ByteWriter body;
  serialize_ls_update({Bytes((*lsas)[0].begin(), (*lsas)[0].end()),
                       Bytes((*lsas)[1].begin(), (*lsas)[1].end())},
                      body);
  EXPECT_EQ(body.data(), Bytes(p->body.begin(), p->body.end()));
}

TEST(OspfPacket, BadChecksumIsReportedNotRefused) {
  Bytes b = kLsUpdate;
  b[30] ^= 1;  // inside the first LSA
  auto p = parse_ospfv2_packet(b);
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->checksum_valid);
  // The Authentication octets are outside the checksum.
  b = kLsUpdate;
  b[17] ^= 0xff;
  EXPECT_TRUE(parse_ospfv2_packet(b)->checksum_valid);
  // With cryptographic authentication the checksum is not computed.
  b = kLsUpdate;
  b[12] = b[13] = 0;
  b[15] = kAuTypeCryptographic;
  EXPECT_TRUE(parse_ospfv2_packet(b)->checksum_valid);
}

TEST(OspfPacket, BytesAfterThePacketLengthAreNotLookedAt) {
  Bytes b = kLsUpdate;
  b.insert(b.end(), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  auto p = parse_ospfv2_packet(b);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->checksum_valid);
  EXPECT_EQ(p->body.size(), 96u);
}

TEST(OspfPacket, TruncationAtEveryLength) {
  for (std::size_t n = 0; n < kLsUpdate.size(); ++n) {
    auto p = parse_ospfv2_packet(ByteSpan(kLsUpdate).first(n));
    ASSERT_FALSE(p) << n;
    EXPECT_EQ(p.error().field.rfind("ospf.packet.", 0), 0u)
        << n << ": " << p.error().to_string();
  }
}

TEST(OspfPacket, MalformedHeaders) {
  struct Case {
    std::size_t at;
    std::uint8_t value;
    std::string field;
    std::size_t offset;
  };
  for (const Case& c :
       {Case{0, 3, "ospf.packet.version", 0}, Case{1, 0, "ospf.packet.type", 1},
        Case{1, 6, "ospf.packet.type", 1}, Case{3, 23, "ospf.packet.length", 2},
        Case{3, 121, "ospf.packet.length", 2}}) {
    Bytes b = kLsUpdate;
    b[c.at] = c.value;
    auto p = parse_ospfv2_packet(b, 100);
    ASSERT_FALSE(p) << c.field;
    EXPECT_EQ(p.error().field, c.field);
    EXPECT_EQ(p.error().offset, 100 + c.offset) << p.error().to_string();
  }
}

TEST(OspfPacket, LsUpdateCountMustMatchTheLsas) {
  auto p = parse_ospfv2_packet(kLsUpdate);
  ASSERT_TRUE(p);
  for (std::uint8_t count : {0, 1, 3}) {
    Bytes body(p->body.begin(), p->body.end());
    body[3] = count;
    auto lsas = parse_ls_update(body, 24);
    ASSERT_FALSE(lsas) << int{count};
    EXPECT_EQ(lsas.error().field, "ospf.ls_update.lsa_count");
    EXPECT_EQ(lsas.error().offset, 24u);
  }
  // Every cut of the body: a truncated count or LSA header, or an LSA
  // length beyond the body.
  for (std::size_t n = 0; n < p->body.size(); ++n) {
    auto lsas = parse_ls_update(p->body.first(n), 24);
    ASSERT_FALSE(lsas) << n;
  }
  // An LSA length below the header's 20 octets.
  Bytes body(p->body.begin(), p->body.end());
  body[4 + 19] = 19;
  auto lsas = parse_ls_update(body, 24);
  ASSERT_FALSE(lsas);
  EXPECT_EQ(lsas.error().field, "ospf.lsa.length");
  EXPECT_EQ(lsas.error().offset, 24u + 4 + 18);
  // An empty update is well formed.
  const Bytes empty = hex("00000000");
  ASSERT_TRUE(parse_ls_update(empty));
  EXPECT_TRUE(parse_ls_update(empty)->empty());
}

TEST(OspfPacket, SerializeRefusesAnOversizedPacket) {
  ByteWriter out;
  const Bytes body(0xffff - 23, 0);
  auto r = serialize_ospfv2_packet({}, body, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ospf.packet.length");
  ByteWriter fits;
  EXPECT_TRUE(
      serialize_ospfv2_packet({}, ByteSpan(body).first(0xffff - 24), fits));
}

}  // namespace
}  // namespace arfabric::wire::ospf
