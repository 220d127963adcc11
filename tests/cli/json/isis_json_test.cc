#include "cli/json/isis_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/hex.h"

namespace arfabric::cli {
namespace {

using nlohmann::json;
namespace isis = wire::isis;

Bytes llc_lsp(const isis::Lsp& lsp) {
  ByteWriter out;
  isis::serialize_llc(out);
  EXPECT_TRUE(isis::serialize(lsp, out));
  return out.take();
}

TEST(IsisJson, LspWithFareSubTlvs) {
  isis::Lsp lsp;
  lsp.lsp_id = {{0, 0, 0, 0, 0, 1}, 0, 0};
  lsp.sequence_number = 7;
  lsp.tlvs = {
      isis::DynamicHostnameTlv{"leaf1"},
      isis::ExtendedIsReachTlv{{isis::IsNeighbor{
          {0, 0, 0, 0, 1, 1},
          0,
          10,
          {isis::MaxLinkBandwidthSubTlv{
               wire::lsr::Bandwidth32::from_bytes_per_second(5e9f)},
           isis::RawTlv{18, {0, 0, 10}}}}}},
      isis::Ipv6ReachTlv{
          {isis::Ipv6Prefix{10,
                            false,
                            true,
                            0,
                            48,
                            {0x20, 0x01, 0x0d, 0xb8, 0, 1},
                            std::vector<isis::PrefixSubTlv>{
                                isis::PathBandwidthSubTlv{{0x7fc00001}},
                                isis::PrefixAttributeFlagsSubTlv{{0x20}}}}}},
      isis::RawTlv{250, {0xab}},
  };
  const json j = isis_pdu_to_json(llc_lsp(lsp));
  ASSERT_TRUE(j.contains("isis")) << j.dump();
  const json& l = j["isis"]["lsp"];
  EXPECT_EQ(j["isis"]["pdu_type_name"], "l2_lsp");
  EXPECT_EQ(l["lsp_id"], "0000.0000.0001.00-00");
  EXPECT_EQ(l["sequence_number"], 7);
  EXPECT_TRUE(l["checksum_valid"].get<bool>());
  EXPECT_EQ(l["flags"]["is_type"], 3);
  EXPECT_EQ(l["tlvs"][0]["hostname"], "leaf1");
  const json& n = l["tlvs"][1]["neighbors"][0];
  EXPECT_EQ(n["neighbor_id"], "0000.0000.0101.00");
  EXPECT_EQ(n["sub_tlvs"][0]["bandwidth"]["bytes_per_second"], 5e9);
  EXPECT_EQ(n["sub_tlvs"][0]["bandwidth"]["raw"], "4f9502f9");
  EXPECT_EQ(n["sub_tlvs"][1]["name"], "te_default_metric");
  EXPECT_EQ(n["sub_tlvs"][1]["value"], "00000a");
  const json& p = l["tlvs"][2]["prefixes"][0];
  EXPECT_EQ(p["prefix"], "2001:db8:1::/48");
  EXPECT_TRUE(p["external"].get<bool>());
  EXPECT_EQ(p["sub_tlvs"][0]["name"], "path_bandwidth");
  EXPECT_EQ(p["sub_tlvs"][0]["type"], 31);
  EXPECT_EQ(p["sub_tlvs"][0]["bandwidth"]["bytes_per_second"], "nan");
  EXPECT_EQ(p["sub_tlvs"][0]["bandwidth"]["raw"], "7fc00001");
  EXPECT_TRUE(p["sub_tlvs"][1]["n"].get<bool>());
  EXPECT_EQ(l["tlvs"][3],
            (json{{"type", 250}, {"name", "unknown"}, {"value", "ab"}}));
}

TEST(IsisJson, ErrorsAndOtherPdus) {
  const json e = isis_pdu_to_json(*from_hex("fefe03 83 1b 01 05"));
  ASSERT_TRUE(e.contains("error"));
  EXPECT_EQ(e["error"]["field"], "isis.id_length");
  EXPECT_EQ(e["error"]["offset"], 6);
  const json h =
      isis_pdu_to_json(*from_hex("fefe03 83 14 01 00 11 01 00 00 02"));
  EXPECT_EQ(h["isis"]["pdu_type_name"], "p2p_hello");
  EXPECT_EQ(h["isis"]["pdu"], "831401001101000002");
}

TEST(IsisJson, BandwidthSpecialValues) {
  EXPECT_EQ(bandwidth_to_json({0x7f800000})["bytes_per_second"], "inf");
  EXPECT_EQ(bandwidth_to_json({0xff800000})["bytes_per_second"], "-inf");
  EXPECT_EQ(bandwidth_to_json({0xbf800000})["bytes_per_second"], -1.0);
  EXPECT_EQ(bandwidth_to_json({0x00000000})["bytes_per_second"], 0.0);
}

}  // namespace
}  // namespace arfabric::cli
