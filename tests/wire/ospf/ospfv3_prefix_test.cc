#include "wire/ospf/ospfv3_prefix.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/ospf/ospf_gen.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// RFC 8362 prefix TLVs, each with the FARE Path Bandwidth sub-TLV.
const Bytes kTlvs =
    hex("0003 0018"           // Inter-Area-Prefix TLV, 24 bytes
        "00 00000a"           //   reserved, metric 10
        "40 00 0000"          //   /64, options 0, reserved
        "20010db8 00010000"   //   2001:db8:1::/64 (2 words)
        "8000 0004 7f7fffff"  //   Path Bandwidth FLT_MAX
        "0006 0020"           // Intra-Area-Prefix TLV, 32 bytes
        "0000 0001"           //   reserved, metric 1
        "80 02 0000"          //   /128, options LA (0x02), reserved
        "20010db8 00000000 00000000 00000001"  // 2001:db8::1
        "8000 0004 513a43b7"                   //   Path Bandwidth 5e10
        "0005 0018"                            // External-Prefix TLV, 24 bytes
        "04 000014"                            //   E bit, metric 20
        "00 00 0000"                           //   ::/0 (no address words)
        "8000 0004 4e6e6b28"                   //   Path Bandwidth 1e9
        "0003 0004 00000007"                   //   Route Tag sub-TLV 3 (raw)
        "0008 0001 fe 000000"  // TLV 8 (IPv4 link-local, kept raw), padded
    );

std::vector<Ospfv3Tlv> tlvs() {
  return {
      InterAreaPrefixTlv{0,
                         10,
                         {64, 0, 0, {0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0}},
                         {PathBandwidthSubTlv{{0x7f7fffff}}}},
      IntraAreaPrefixTlv{
          0,
          1,
          {128,
           0x02,
           0,
           {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
          {PathBandwidthSubTlv{{0x513a43b7}}}},
      ExternalPrefixTlv{
          kV3ExternalFlagE,
          20,
          {0, 0, 0, {}},
          {PathBandwidthSubTlv{{0x4e6e6b28}}, RawTlv{3, {0, 0, 0, 7}}}},
      RawTlv{8, {0xfe}},
  };
}

TEST(Ospfv3Prefix, ParsesGolden) {
  auto r = parse_ospfv3_tlvs(kTlvs);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(*r, tlvs());
}

TEST(Ospfv3Prefix, SerializesGolden) {
  ByteWriter out;
  ASSERT_TRUE(serialize_ospfv3_tlvs(tlvs(), out));
  EXPECT_EQ(to_hex(out.data()), to_hex(kTlvs));
  EXPECT_EQ(encoded_size(tlvs()), kTlvs.size());
}

TEST(Ospfv3Prefix, TruncationAtEveryLength) {
  const std::vector<std::size_t> boundaries = {0, 28, 64, 92};
  for (std::size_t n = 0; n < kTlvs.size(); ++n) {
    auto r = parse_ospfv3_tlvs(ByteSpan(kTlvs).first(n));
    if (std::find(boundaries.begin(), boundaries.end(), n) !=
        boundaries.end()) {
      EXPECT_TRUE(r) << n;
      continue;
    }
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().field.rfind("ospfv3.", 0), 0u) << n;
    EXPECT_LE(r.error().offset, n);
  }
}

TEST(Ospfv3Prefix, Malformed) {
  struct Case {
    const char* hex;
    const char* field;
    std::size_t offset;
  };
  const Case cases[] = {
      // prefix length 129
      {"0003 0008 00 00000a 81 00 0000", "ospfv3.prefix_length", 8},
      // /64 needs 8 address bytes, TLV has 4
      {"0003 000c 00 00000a 40 00 0000 20010db8", "ospfv3.prefix", 12},
      // path bandwidth of 8 bytes
      {"0006 0014 0000 0001 00 00 0000 8000 0008 00000000 00000000",
       "ospfv3.sub_tlv.length", 14},
      // sub-TLV running past its TLV
      {"0005 000c 04 000014 00 00 0000 0003 0004", "ospfv3.sub_tlv.value", 16},
  };
  for (const Case& c : cases) {
    auto r = parse_ospfv3_tlvs(hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().field, c.field)
        << c.hex << ": " << r.error().to_string();
    EXPECT_EQ(r.error().offset, c.offset) << c.hex;
  }
}

TEST(Ospfv3Prefix, SerializeRejects) {
  ByteWriter out;
  EXPECT_EQ(
      serialize_ospfv3_tlvs({InterAreaPrefixTlv{0, 0x1000000, {}, {}}}, out)
          .error()
          .field,
      "ospfv3.inter_area_prefix.metric");
  EXPECT_EQ(serialize_ospfv3_tlvs(
                {IntraAreaPrefixTlv{0, 0, {129, 0, 0, {}}, {}}}, out)
                .error()
                .field,
            "ospfv3.prefix_length");
  EXPECT_EQ(serialize_ospfv3_tlvs({RawTlv{5, {}}}, out).error().field,
            "ospfv3.tlv");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(Ospfv3Prefix, RoundTrip, ()) {
  const auto t = testing::gen_v3_tlvs();
  ByteWriter out;
  RC_ASSERT(serialize_ospfv3_tlvs(t, out).has_value());
  RC_ASSERT(out.size() == encoded_size(t));
  auto parsed = parse_ospfv3_tlvs(out.data());
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(*parsed == t);
}

}  // namespace
}  // namespace arfabric::wire::ospf
