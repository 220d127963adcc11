#include "wire/ospf/ospfv2_lsa.h"

#include <gtest/gtest.h>

#include "common/hex.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// The two LSAs of packet_test.cc's golden LS Update.
const Bytes kRouterLsa =
    hex("0001 02 01 c0000201 c0000201 80000003 3459 0040"
        "01 00 0003"
        "c0000202 0a010100 01 00 000a"
        "0a010100 fffffffe 03 00 000a"
        "0a000100 ffffff00 03 01 0001 08 00 0014");
const Bytes kSummaryLsa =
    hex("0002 02 03 0a070000 c0000201 80000001 e683 001c"
        "ffff0000 00 00001e");

Bytes encode(const Ospfv2Lsa& lsa) {
  ByteWriter out;
  EXPECT_TRUE(serialize_ospfv2_lsa(lsa, out));
  return out.take();
}

TEST(Ospfv2Lsa, DecodesEachBodyByType) {
  auto router = parse_ospfv2_lsa_decoded(kRouterLsa);
  ASSERT_TRUE(router) << router.error().to_string();
  EXPECT_TRUE(router->checksum_valid);
  ASSERT_TRUE(std::holds_alternative<RouterLsa>(router->body));
  EXPECT_EQ(std::get<RouterLsa>(router->body).links.size(), 3u);
  EXPECT_EQ(encode(*router), kRouterLsa);

  auto summary = parse_ospfv2_lsa_decoded(kSummaryLsa);
  ASSERT_TRUE(summary);
  ASSERT_TRUE(std::holds_alternative<SummaryLsa>(summary->body));
  EXPECT_EQ(std::get<SummaryLsa>(summary->body).metric, 30u);
  EXPECT_EQ(encode(*summary), kSummaryLsa);

  // A Type 4 summary decodes the same way; a TE and an Extended Prefix
  // opaque LSA as their TLVs; a Network-LSA is kept raw.
  Ospfv2Lsa asbr = *summary;
  asbr.header.ls_type = kLsTypeSummaryAsbr;
  EXPECT_EQ(*parse_ospfv2_lsa_decoded(encode(asbr)), [&] {
    Ospfv2Lsa want = asbr;
    want.header = parse_ospfv2_lsa(encode(asbr))->header;
    want.checksum_valid = true;
    return want;
  }());
  Ospfv2Lsa te{.header = {.ls_type = kLsTypeOpaqueArea,
                          .link_state_id = {kOpaqueTypeTe, 0, 0, 1},
                          .advertising_router = {192, 0, 2, 1}},
               .body = TeLsa{{TeRouterAddressTlv{{192, 0, 2, 1}}}}};
  auto te_back = parse_ospfv2_lsa_decoded(encode(te));
  ASSERT_TRUE(te_back);
  EXPECT_EQ(te_back->body, te.body);
  Ospfv2Lsa prefix{
      .header = {.ls_type = kLsTypeOpaqueLink,
                 .link_state_id = {kOpaqueTypeExtendedPrefix, 0, 0, 2}},
      .body = ExtendedPrefixLsa{{ExtendedPrefixTlv{
          .prefix_length = 24,
          .prefix = {10, 0, 1, 0},
          .sub_tlvs = {PathBandwidthSubTlv{{0x4f000000}}}}}}};
  auto prefix_back = parse_ospfv2_lsa_decoded(encode(prefix));
  ASSERT_TRUE(prefix_back);
  EXPECT_EQ(prefix_back->body, prefix.body);
  Ospfv2Lsa network{.header = {.ls_type = 2},
                    .body = UndecodedLsaBody{hex("ffffff00 c0000201")}};
  auto network_back = parse_ospfv2_lsa_decoded(encode(network));
  ASSERT_TRUE(network_back);
  EXPECT_EQ(network_back->body, network.body);
  // An opaque type other than 1 and 7 stays raw too.
  Ospfv2Lsa other{
      .header = {.ls_type = kLsTypeOpaqueArea, .link_state_id = {8, 0, 0, 1}},
      .body = UndecodedLsaBody{hex("0001 0000")}};
  EXPECT_EQ(parse_ospfv2_lsa_decoded(encode(other))->body, other.body);
}

TEST(Ospfv2Lsa, BodyErrorsCountFromTheLsa) {
  // The Router-LSA's link count one too many: the body codec's error at
  // its offset within the LSA, plus base_offset.
  Bytes b = kRouterLsa;
  b[20 + 3] = 4;
  auto lsa = parse_ospfv2_lsa_decoded(b, 1000);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field, "ospf.router_lsa.link_count");
  EXPECT_EQ(lsa.error().offset, 1000u + 20 + 2);
  // A header error comes first.
  b[19] = 19;
  lsa = parse_ospfv2_lsa_decoded(b);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field, "ospf.lsa.length");
  // A TE body that does not frame.
  Ospfv2Lsa te{.header = {.ls_type = kLsTypeOpaqueArea,
                          .link_state_id = {kOpaqueTypeTe, 0, 0, 1}},
               .body = TeLsa{}};
  Bytes bad = encode(te);
  bad.insert(bad.end(), {0, 1, 0, 8});
  bad[19] = static_cast<std::uint8_t>(bad.size());
  lsa = parse_ospfv2_lsa_decoded(bad);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field.rfind("ospf.te.", 0), 0u)
      << lsa.error().to_string();
  EXPECT_EQ(lsa.error().offset, 24u) << lsa.error().to_string();  // its value
}

TEST(Ospfv2Lsa, SerializeRefusesABodyOfAnotherType) {
  auto lsa = parse_ospfv2_lsa_decoded(kRouterLsa);
  ASSERT_TRUE(lsa);
  for (Ospfv2LsaBody body :
       {Ospfv2LsaBody{SummaryLsa{}}, Ospfv2LsaBody{TeLsa{}},
        Ospfv2LsaBody{ExtendedPrefixLsa{}},
        Ospfv2LsaBody{UndecodedLsaBody{}}}) {
    Ospfv2Lsa wrong = *lsa;
    wrong.body = body;
    ByteWriter out;
    auto r = serialize_ospfv2_lsa(wrong, out);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().field, "ospf.lsa.body");
  }
}

}  // namespace
}  // namespace arfabric::wire::ospf
