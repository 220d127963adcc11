#include "cli/json/bgp_json.h"

#include <gtest/gtest.h>

#include "common/hex.h"

namespace arfabric::cli {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

const std::string kMarker = "ffffffffffffffffffffffffffffffff";

// An UPDATE with a 4-octet AS_PATH (AS_SEQUENCE 4200000001) and one NLRI.
const std::string kUpdate4 = kMarker +
                             "0036"
                             "02"
                             "0000"
                             "001b"
                             "40010100"
                             "4002060201fa56ea01"
                             "4003040a000001"
                             "c0080400010002"  // 1:2
                             "180a0101";

// The same with a 2-octet AS_PATH (AS_SEQUENCE 65001 65002).
const std::string kUpdate2 = kMarker +
                             "002f"
                             "02"
                             "0000"
                             "0014"
                             "40010100"
                             "40020602020000fde9"  // 2 ASNs: 0, 65001
                             "4003040a000001"
                             "180a0101";

TEST(BgpJson, FourOctetAsPathDetected) {
  auto j = bgp_messages_to_json(hex(kUpdate4));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["type"], "UPDATE");
  EXPECT_EQ(j[0]["four_octet_as"], true);
  EXPECT_EQ(j[0]["attributes"][1]["name"], "AS_PATH");
  EXPECT_EQ(j[0]["attributes"][1]["value"][0]["asns"][0], 4200000001u);
  EXPECT_EQ(j[0]["attributes"][3]["value"][0], "1:2");
  EXPECT_EQ(j[0]["nlri"][0], "10.1.1.0/24");
  EXPECT_FALSE(j[0].contains("attribute_errors"));
}

TEST(BgpJson, TwoOctetAsPathFallsBack) {
  // 4-octet reading: one ASN 0x0000fde9 needs 4 bytes but the segment says
  // 2 ASNs = 8 bytes in a 6-byte attribute -> error; 2-octet reading fits.
  auto j = bgp_messages_to_json(hex(kUpdate2));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["four_octet_as"], false);
  EXPECT_EQ(j[0]["attributes"][1]["value"][0]["asns"],
            nlohmann::json::array({0, 65001}));
}

TEST(BgpJson, StreamOfSeveralMessages) {
  const std::string keepalive = kMarker +
                                "0013"
                                "04";
  const std::string notification = kMarker +
                                   "0015"
                                   "03"
                                   "0602";
  auto j = bgp_messages_to_json(hex(keepalive + notification + kUpdate4));
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["type"], "KEEPALIVE");
  EXPECT_EQ(j[1]["code_name"], "Cease");
  EXPECT_EQ(j[1]["subcode_name"], "Administrative Shutdown");
  EXPECT_EQ(j[2]["type"], "UPDATE");
}

TEST(BgpJson, HardErrorCarriesNotificationAndAction) {
  const std::string bad_type = kMarker +
                               "0013"
                               "09";
  auto j = bgp_messages_to_json(hex(bad_type));
  ASSERT_EQ(j.size(), 1u);
  const auto& e = j[0]["error"];
  EXPECT_EQ(e["field"], "bgp.header.type");
  EXPECT_EQ(e["offset"], 18);
  EXPECT_EQ(e["notification"]["code"], 1);
  EXPECT_EQ(e["notification"]["subcode"], 3);
  EXPECT_EQ(e["rfc7606"], "session_reset");
}

TEST(BgpJson, SoftErrorListedWithRfc7606Action) {
  // ATOMIC_AGGREGATE with length 1: attribute-discard (RFC 7606 7.6).
  const std::string msg = kMarker +
                          "0028"
                          "02"
                          "0000"
                          "0011"
                          "40010100"
                          "4002060201fa56ea01"
                          "40060100";
  auto j = bgp_messages_to_json(hex(msg));
  ASSERT_EQ(j.size(), 1u);
  ASSERT_TRUE(j[0].contains("attribute_errors")) << j.dump();
  EXPECT_EQ(j[0]["rfc7606"], "attribute_discard");
  EXPECT_EQ(j[0]["attribute_errors"][0]["attribute_type"], 6);
  EXPECT_EQ(j[0]["attribute_errors"][0]["notification"]["subcode"], 5);
}

TEST(BgpJson, TruncatedStreamStopsWithAnError) {
  const Bytes b = hex(kUpdate4);
  auto j = bgp_messages_to_json(ByteSpan(b).first(30));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["error"]["field"], "bgp.header.length");
}

}  // namespace
}  // namespace arfabric::cli
