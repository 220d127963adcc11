#include "cli/json/ospf_json.h"

#include <gtest/gtest.h>

#include "common/hex.h"

namespace arfabric::cli {
namespace {

using nlohmann::json;

TEST(OspfJson, TeLinkWithMaxBandwidth) {
  const json j = ospf_te_lsa_body_to_json(*from_hex(
      "0001 0004 c0000201"
      "0002 0018 0001 0001 01 000000 0006 0004 4f9502f9 0005 0004 0000000a"));
  ASSERT_TRUE(j.contains("tlvs")) << j.dump();
  EXPECT_EQ(j["tlvs"][0]["address"], "192.0.2.1");
  const json& subs = j["tlvs"][1]["sub_tlvs"];
  EXPECT_EQ(subs[0]["link_type"], 1);
  EXPECT_EQ(subs[1]["name"], "max_bandwidth");
  EXPECT_EQ(subs[1]["bandwidth"]["bytes_per_second"], 5e9);
  EXPECT_EQ(subs[2], (json{{"type", 5}, {"value", "0000000a"}}));
}

TEST(OspfJson, ExtendedPrefixAndV3) {
  const json v2 = ospf_extended_prefix_lsa_body_to_json(
      *from_hex("0001 0010 01 20 00 40 0aff0001 8000 0004 3f800000"));
  ASSERT_TRUE(v2.contains("tlvs")) << v2.dump();
  EXPECT_EQ(v2["tlvs"][0]["prefix"], "10.255.0.1/32");
  EXPECT_TRUE(v2["tlvs"][0]["node"].get<bool>());
  EXPECT_EQ(v2["tlvs"][0]["sub_tlvs"][0]["bandwidth"]["bytes_per_second"], 1.0);

  const json v3 = ospfv3_prefix_tlvs_body_to_json(
      *from_hex("0005 0010 04 000014 00 00 0000 8000 0004 4e6e6b28"));
  ASSERT_TRUE(v3.contains("tlvs")) << v3.dump();
  EXPECT_EQ(v3["tlvs"][0]["prefix"], "::/0");
  EXPECT_TRUE(v3["tlvs"][0]["e"].get<bool>());
  EXPECT_EQ(v3["tlvs"][0]["metric"], 20);
  EXPECT_EQ(v3["tlvs"][0]["sub_tlvs"][0]["bandwidth"]["bytes_per_second"], 1e9);

  const json err = ospfv3_prefix_tlvs_body_to_json(*from_hex("0003 00"));
  EXPECT_EQ(err["error"]["field"], "ospfv3.tlv.length");
}

}  // namespace
}  // namespace arfabric::cli

namespace arfabric::cli {
namespace {

TEST(OspfJson, WholeLsas) {
  const json v2 = ospfv2_lsa_to_json(*from_hex(
      "0003 02 0a 01000000 c0000201 80000001 0000 0030"
      "0001 0004 c0000201 0002 0010 0001 0001 01 000000 0006 0004 4f9502f9"));
  ASSERT_TRUE(v2.contains("lsa")) << v2.dump();
  EXPECT_EQ(v2["lsa"]["opaque_type"], 1);
  EXPECT_FALSE(v2["lsa"]["checksum_valid"].get<bool>());  // 0000
  EXPECT_EQ(v2["lsa"]["tlvs"][1]["sub_tlvs"][1]["bandwidth"]["raw"],
            "4f9502f9");

  // A Link TLV whose sub-TLV runs past it: the error offset is in the LSA.
  const json bad = ospfv2_lsa_to_json(
      *from_hex("0003 02 0a 01000000 c0000201 80000001 0000 001c"
                "0002 0004 0006 0004"));
  EXPECT_EQ(bad["lsa"]["body_error"]["field"], "ospf.te.link.sub_tlv.value");
  EXPECT_EQ(bad["lsa"]["body_error"]["offset"], 28);

  const json v3 = ospfv3_lsa_to_json(*from_hex(
      "0001 a023 00000005 c0000201 80000002 747b 0030"
      "0003 0018 00 00000a 40 00 0000 20010db8 00010000 8000 0004 7f7fffff"));
  ASSERT_TRUE(v3.contains("lsa")) << v3.dump();
  EXPECT_TRUE(v3["lsa"]["checksum_valid"].get<bool>());
  EXPECT_EQ(v3["lsa"]["function_code"], 35);
  EXPECT_EQ(v3["lsa"]["tlvs"][0]["prefix"], "2001:db8:1::/64");

  EXPECT_EQ(ospfv3_lsa_to_json(*from_hex("0001 a0"))["error"]["field"],
            "ospf.lsa.ls_type");
}

}  // namespace
}  // namespace arfabric::cli
