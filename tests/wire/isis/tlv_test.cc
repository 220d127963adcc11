#include "wire/isis/tlv.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/isis/isis_gen.h"

namespace arfabric::wire::isis {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

TEST(IsisTlv, MtIpv6ReachWithPathBandwidthAndRawSubTlv) {
  const Bytes b =
      hex("ed 1a"                    // TLV 237, 26 bytes
          "00 02"                    // reserved 0, MT ID 2 (IPv6 unicast)
          "00 00 00 14"              // metric 20
          "e0"                       // U=1 X=1 S=1
          "40"                       // prefix length 64
          "20 01 0d b8 00 00 00 07"  // 2001:db8:0:7::/64
          "09"                       // sub-TLVs length 9
          "1f 04 4e 6e 6b 28"        // 31 path bandwidth 1e9 B/s
          "01 01 aa");               // 1 (32-bit admin tag, kept raw here)
  auto tlvs = parse_tlvs(b);
  ASSERT_TRUE(tlvs) << tlvs.error().to_string();
  ASSERT_EQ(tlvs->size(), 1u);
  const auto& t = std::get<MtIpv6ReachTlv>((*tlvs)[0]);
  EXPECT_EQ(t.mt_id, 2);
  ASSERT_EQ(t.prefixes.size(), 1u);
  const Ipv6Prefix& p = t.prefixes[0];
  EXPECT_EQ(p.metric, 20u);
  EXPECT_TRUE(p.up_down);
  EXPECT_TRUE(p.external);
  EXPECT_EQ(p.prefix_length, 64);
  ASSERT_TRUE(p.sub_tlvs);
  ASSERT_EQ(p.sub_tlvs->size(), 2u);
  EXPECT_EQ(std::get<PathBandwidthSubTlv>((*p.sub_tlvs)[0])
                .bandwidth.bytes_per_second(),
            1e9f);
  EXPECT_EQ(std::get<RawTlv>((*p.sub_tlvs)[1]), (RawTlv{1, {0xaa}}));
  ByteWriter out;
  ASSERT_TRUE(serialize(*tlvs, out));
  EXPECT_EQ(out.data(), b);
}

TEST(IsisTlv, MtIpReachKeepsReservedBitsAndHostBits) {
  const Bytes b =
      hex("eb 09"        // TLV 235, 9 bytes
          "f0 03"        // reserved 0xf, MT ID 3
          "00 00 00 05"  // metric 5
          "8f"           // U=1 S=0 prefix length 15
          "0a 03");      // 10.3.0.0/15 with a host bit set in 0x03
  auto tlvs = parse_tlvs(b);
  ASSERT_TRUE(tlvs);
  const auto& t = std::get<MtIpReachTlv>((*tlvs)[0]);
  EXPECT_EQ(t.mt_reserved, 0xf);
  EXPECT_EQ(t.mt_id, 3);
  EXPECT_EQ(t.prefixes[0].prefix, (Ipv4Address{10, 3, 0, 0}));
  EXPECT_FALSE(t.prefixes[0].sub_tlvs);
  ByteWriter out;
  ASSERT_TRUE(serialize(*tlvs, out));
  EXPECT_EQ(out.data(), b);
}

TEST(IsisTlv, PathBandwidthTypeIsAnOption) {
  const Bytes b = hex("87 0f 00000001 58 0a0000 06 f0 04 3f800000");
  CodecOptions opt{.path_bandwidth_sub_tlv_type = 0xf0};
  auto with = parse_tlvs(b, 0, opt);
  ASSERT_TRUE(with);
  const auto& p = std::get<ExtendedIpReachTlv>((*with)[0]).prefixes[0];
  EXPECT_EQ(std::get<PathBandwidthSubTlv>((*p.sub_tlvs)[0]).bandwidth.bits,
            0x3f800000u);
  // With the default type, 0xf0 is just an unknown sub-TLV.
  auto without = parse_tlvs(b);
  ASSERT_TRUE(without);
  const auto& q = std::get<ExtendedIpReachTlv>((*without)[0]).prefixes[0];
  EXPECT_TRUE(std::holds_alternative<RawTlv>((*q.sub_tlvs)[0]));
  EXPECT_EQ(prefix_sub_tlv_name(0xf0, opt), "path_bandwidth");
  EXPECT_EQ(prefix_sub_tlv_name(31), "path_bandwidth");
  EXPECT_EQ(prefix_sub_tlv_name(4), "prefix_attribute_flags");
}

TEST(IsisTlv, NanPayloadSurvivesByteExact) {
  // A signalling NaN with payload: kept as bits, never through a float.
  const Bytes b = hex("16 11 000000000202 00 000001 06 09 04 7f800001");
  auto tlvs = parse_tlvs(b);
  ASSERT_TRUE(tlvs);
  const auto& n = std::get<ExtendedIsReachTlv>((*tlvs)[0]).neighbors[0];
  const auto& bw = std::get<MaxLinkBandwidthSubTlv>(n.sub_tlvs[0]).bandwidth;
  EXPECT_EQ(bw.bits, 0x7f800001u);
  EXPECT_FALSE(bw.usable());
  ByteWriter out;
  ASSERT_TRUE(serialize(*tlvs, out));
  EXPECT_EQ(out.data(), b);
}

TEST(IsisTlv, MalformedLengthsNameTheField) {
  struct Case {
    const char* hex;
    const char* field;
    std::size_t offset;
  };
  const Case cases[] = {
      // TLV value longer than the buffer
      {"89 05 6c 65", "isis.tlv.value", 2},
      // sub-TLV block longer than its TLV 22 entry
      {"16 0d 000000000202 00 00000a 08 09 04", "isis.tlv22.sub_tlvs", 13},
      // sub-TLV longer than its sub-TLV block
      {"16 11 000000000202 00 00000a 06 09 05 00000000",
       "isis.tlv22.sub_tlv.value", 15},
      // max link bandwidth of 3 bytes
      {"16 10 000000000202 00 00000a 05 09 03 000000",
       "isis.tlv22.sub_tlv.length", 14},
      // IPv4 interface address sub-TLV of 5 bytes
      {"16 12 000000000202 00 00000a 07 06 05 0000000000",
       "isis.tlv22.sub_tlv.length", 14},
      // TLV 132 not a multiple of 4
      {"84 03 0a0000", "isis.tlv132.length", 1},
      // TLV 135 prefix length 33
      {"87 09 00000001 21 0a000001", "isis.tlv135.prefix_length", 6},
      // TLV 135 prefix cut by the TLV length
      {"87 07 00000001 18 0a00", "isis.tlv135.prefix", 7},
      // TLV 135 S bit but no sub-TLV length
      {"87 08 00000001 58 0a0000", "isis.tlv135.sub_tlvs_length", 10},
      // path bandwidth sub-TLV of 2 bytes
      {"87 0d 00000001 58 0a0000 04 1f 02 0000", "isis.prefix.sub_tlv.length",
       12},
      // TLV 236 prefix length 129
      {"ec 06 00000001 00 81", "isis.tlv236.prefix_length", 7},
      // TLV 237 without room for its MT ID
      {"ed 01 00", "isis.tlv237.mt_id", 2},
      // TLV 22 entry cut inside the metric
      {"16 08 000000000202 00 00", "isis.tlv22.metric", 9},
  };
  for (const Case& c : cases) {
    auto r = parse_tlvs(hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().field, c.field)
        << c.hex << ": " << r.error().to_string();
    EXPECT_EQ(r.error().offset, c.offset) << c.hex;
  }
}

TEST(IsisTlv, SerializeRejectsOutOfRangeValues) {
  ByteWriter out;
  EXPECT_EQ(
      serialize(Tlv{ExtendedIsReachTlv{{IsNeighbor{{}, 0, 0x1000000, {}}}}},
                out)
          .error()
          .field,
      "isis.tlv22.metric");
  EXPECT_EQ(
      serialize(Tlv{ExtendedIpReachTlv{{Ipv4Prefix{0, false, 33, {}, {}}}}},
                out)
          .error()
          .field,
      "isis.tlv135.prefix_length");
  EXPECT_EQ(serialize(Tlv{MtIpReachTlv{0, 0x1000, {}}}, out).error().field,
            "isis.tlv235.mt_id");
  EXPECT_EQ(serialize(Tlv{RawTlv{1, Bytes(256, 0)}}, out).error().field,
            "isis.tlv");
  EXPECT_EQ(serialize(Tlv{RawTlv{135, {}}}, out).error().field, "isis.tlv");
  EXPECT_EQ(serialize(Tlv{ExtendedIsReachTlv{
                          {IsNeighbor{{}, 0, 1, {RawTlv{9, {0, 0, 0, 0}}}}}}},
                      out)
                .error()
                .field,
            "isis.tlv22.sub_tlv");
  EXPECT_EQ(
      serialize(Tlv{Ipv6ReachTlv{{Ipv6Prefix{
                    0,
                    false,
                    false,
                    0,
                    0,
                    {},
                    std::vector<PrefixSubTlv>{RawTlv{31, {1, 2, 3, 4}}}}}}},
                out)
          .error()
          .field,
      "isis.prefix.sub_tlv");
  EXPECT_FALSE(serialize(Tlv{ProtocolsSupportedTlv{}}, out,
                         {.path_bandwidth_sub_tlv_type = 4}));
  EXPECT_EQ(out.size(), 0u);
}

TEST(IsisTlv, RegistryNames) {
  EXPECT_EQ(tlv_name(22), "extended_is_reachability");
  EXPECT_EQ(tlv_name(236), "ipv6_reachability");
  EXPECT_EQ(tlv_name(7), "unknown");
  EXPECT_EQ(is_reach_sub_tlv_name(9), "max_link_bandwidth");
}

RC_GTEST_PROP(IsisTlv, ParseSerializeRoundTrip, ()) {
  const Tlv tlv = *testing::gen_tlv();
  ByteWriter out;
  RC_ASSERT(serialize(tlv, out).has_value());
  RC_ASSERT(out.size() == encoded_size(tlv));
  auto parsed = parse_tlvs(out.data());
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->size() == 1u);
  RC_ASSERT((*parsed)[0] == tlv);
}

RC_GTEST_PROP(IsisTlv, EveryPrefixOfATlvParsesOrFailsCleanly, ()) {
  const Tlv tlv = *testing::gen_tlv();
  ByteWriter out;
  RC_ASSERT(serialize(tlv, out).has_value());
  for (std::size_t n = 1; n < out.size(); ++n) {
    auto r = parse_tlvs(ByteSpan(out.data()).first(n));
    RC_ASSERT(!r.has_value());  // one TLV: any cut leaves it short
    RC_ASSERT(r.error().field.rfind("isis.tlv", 0) == 0u);
  }
}

}  // namespace
}  // namespace arfabric::wire::isis
