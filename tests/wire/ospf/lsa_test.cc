#include "wire/ospf/lsa.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/ospf/ospfv3_prefix.h"
#include "wire/ospf/te_link.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// The TE body of te_link_test.cc in an area-scope opaque LSA. Checksum
// computed by an independent implementation of ISO 8473 annex C.
const Bytes kTeLsa =
    hex("0003"      // LS age 3 (not checksummed)
        "02"        // options: E
        "0a"        // LS type 10: opaque, area scope
        "01000000"  // link state ID: opaque type 1 (TE), instance 0
        "c0000201"  // advertising router 192.0.2.1
        "80000001"  // sequence number
        "9e61"      // checksum
        "0058"      // length 88
        "0001 0004 c0000201"
        "0002 0038 0001 0001 01 000000 0002 0004 c0000202 0003 0004 0a010100"
        "0004 0004 0a010101 0006 0004 513a43b7 0005 0004 0000000a"
        "8002 0003 aabbcc 00");

// An RFC 8362 E-Inter-Area-Prefix-LSA with a Path Bandwidth sub-TLV.
const Bytes kV3Lsa =
    hex("0001"      // LS age 1
        "a023"      // LS type: U=1, S2S1=01 (area), function code 35
        "00000005"  // link state ID
        "c0000201"  // advertising router
        "80000002"  // sequence number
        "747b"      // checksum
        "0030"      // length 48
        "0003 0018 00 00000a 40 00 0000 20010db8 00010000 8000 0004 7f7fffff");

TEST(OspfLsa, ParsesGoldenTeLsaAndItsBody) {
  auto lsa = parse_ospfv2_lsa(kTeLsa);
  ASSERT_TRUE(lsa) << lsa.error().to_string();
  EXPECT_TRUE(lsa->checksum_valid);
  EXPECT_TRUE(lsa->header.is_opaque());
  EXPECT_EQ(lsa->header.opaque_type(), kOpaqueTypeTe);
  EXPECT_EQ(lsa->header.length, 88);
  EXPECT_EQ(lsa->header.checksum, 0x9e61);
  auto body = parse_te_lsa_body(lsa->body, kLsaHeaderSize);
  ASSERT_TRUE(body);
  EXPECT_EQ(body->size(), 2u);
}

TEST(OspfLsa, SerializeComputesLengthAndChecksum) {
  auto lsa = parse_ospfv2_lsa(kTeLsa);
  ASSERT_TRUE(lsa);
  Ospfv2LsaHeader h = lsa->header;
  h.checksum = 0;
  h.length = 0;
  ByteWriter out;
  ASSERT_TRUE(serialize_ospfv2_lsa(h, lsa->body, out));
  EXPECT_EQ(to_hex(out.data()), to_hex(kTeLsa));
}

TEST(OspfLsa, V3GoldenRoundTrip) {
  auto lsa = parse_ospfv3_lsa(kV3Lsa);
  ASSERT_TRUE(lsa) << lsa.error().to_string();
  EXPECT_TRUE(lsa->checksum_valid);
  EXPECT_EQ(lsa->header.function_code(), 35);
  const auto at = elsa_tlv_offset(lsa->header.function_code());
  ASSERT_TRUE(at);
  auto tlvs = parse_ospfv3_tlvs(lsa->body.subspan(*at));
  ASSERT_TRUE(tlvs);
  EXPECT_EQ(std::get<InterAreaPrefixTlv>((*tlvs)[0]).metric, 10u);
  ByteWriter out;
  ASSERT_TRUE(serialize_ospfv3_lsa(lsa->header, lsa->body, out));
  EXPECT_EQ(out.data(), kV3Lsa);
}

TEST(OspfLsa, ChecksumSkipsAgeAndCatchesCorruption) {
  Bytes b = kTeLsa;
  b[0] = 0x0e;  // LS age 3600: MaxAge does not touch the checksum
  EXPECT_TRUE(parse_ospfv2_lsa(b)->checksum_valid);
  for (std::size_t i = 2; i < b.size(); ++i) {
    if (i == 18 || i == 19) continue;  // the length: would fail to parse
    Bytes c = kTeLsa;
    c[i] ^= 0x10;
    auto lsa = parse_ospfv2_lsa(c);
    ASSERT_TRUE(lsa) << i;
    EXPECT_FALSE(lsa->checksum_valid) << i;
  }
  ByteWriter out;
  Ospfv2LsaHeader h = parse_ospfv2_lsa(kTeLsa)->header;
  h.checksum = 0xbeef;
  ASSERT_TRUE(serialize_ospfv2_lsa(h, parse_ospfv2_lsa(kTeLsa)->body, out,
                                   /*compute_checksum=*/false));
  EXPECT_FALSE(parse_ospfv2_lsa(out.data())->checksum_valid);
}

TEST(OspfLsa, TruncationAndLength) {
  for (std::size_t n = 0; n < kTeLsa.size(); ++n) {
    auto r = parse_ospfv2_lsa(ByteSpan(kTeLsa).first(n));
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().field.rfind("ospf.lsa.", 0), 0u) << n;
    EXPECT_LE(r.error().offset, n);
  }
  Bytes b = kTeLsa;
  b[19] = 0x13;  // length 19 < header
  EXPECT_EQ(parse_ospfv2_lsa(b).error().field, "ospf.lsa.length");
  EXPECT_EQ(parse_ospfv2_lsa(b).error().offset, 18u);
  b = kTeLsa;
  b.insert(b.end(), {1, 2, 3});  // trailing bytes are not part of the LSA
  auto r = parse_ospfv2_lsa(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body.size(), 68u);
  EXPECT_TRUE(r->checksum_valid);
}

TEST(OspfLsa, ElsaTlvOffsets) {
  EXPECT_EQ(elsa_tlv_offset(35), 0u);
  EXPECT_EQ(elsa_tlv_offset(37), 0u);
  EXPECT_EQ(elsa_tlv_offset(40), 4u);
  EXPECT_EQ(elsa_tlv_offset(41), 12u);
  EXPECT_FALSE(elsa_tlv_offset(33));
}

RC_GTEST_PROP(OspfLsa, RoundTripWithValidChecksum, ()) {
  Ospfv3LsaHeader h;
  h.ls_age = *rc::gen::arbitrary<std::uint16_t>();
  h.ls_type = *rc::gen::arbitrary<std::uint16_t>();
  h.link_state_id = *rc::gen::arbitrary<Ipv4Address>();
  h.advertising_router = *rc::gen::arbitrary<Ipv4Address>();
  h.sequence_number = *rc::gen::arbitrary<std::uint32_t>();
  const Bytes body = *rc::gen::arbitrary<Bytes>();
  ByteWriter out;
  RC_ASSERT(serialize_ospfv3_lsa(h, body, out).has_value());
  auto lsa = parse_ospfv3_lsa(out.data());
  RC_ASSERT(lsa.has_value());
  RC_ASSERT(lsa->checksum_valid);
  h.checksum = lsa->header.checksum;
  h.length = static_cast<std::uint16_t>(kLsaHeaderSize + body.size());
  RC_ASSERT(lsa->header == h);
  RC_ASSERT(Bytes(lsa->body.begin(), lsa->body.end()) == body);
}

}  // namespace
}  // namespace arfabric::wire::ospf
