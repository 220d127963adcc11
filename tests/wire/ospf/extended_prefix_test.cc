#include "wire/ospf/extended_prefix.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/ospf/ospf_gen.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// A FARE leaf's Extended Prefix Opaque LSA body (RFC 7684 section 2).
const Bytes kBody =
    hex("0001 001c"                        // Extended Prefix TLV, 28 bytes
        "01 18 00 00"                      //   intra-area, /24, AF 0, flags 0
        "0a010000"                         //   10.1.0.0
        "8000 0004 7f7fffff"               //   32768 Path Bandwidth FLT_MAX
        "0002 0007 00 00 00 00 000064 00"  // 2 Prefix SID (raw), 7 + 1 pad
        "0005 0002 abcd 0000"              // TLV 5 (unknown, raw), 2 + 2 pad
        "0001 0008 03 40 01 00 20010db8"  // Extended Prefix TLV with AF 1 (raw)
    );

std::vector<ExtendedPrefixLsaTlv> body() {
  return {
      ExtendedPrefixTlv{1,
                        24,
                        0,
                        0,
                        {10, 1, 0, 0},
                        {PathBandwidthSubTlv{{0x7f7fffff}},
                         RawTlv{2, {0, 0, 0, 0, 0, 0, 0x64}}}},
      RawTlv{5, {0xab, 0xcd}},
      RawTlv{1, {0x03, 0x40, 0x01, 0x00, 0x20, 0x01, 0x0d, 0xb8}},
  };
}

TEST(OspfExtendedPrefix, ParsesGolden) {
  auto r = parse_extended_prefix_lsa_body(kBody);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(*r, body());
}

TEST(OspfExtendedPrefix, SerializesGolden) {
  ByteWriter out;
  ASSERT_TRUE(serialize_extended_prefix_lsa_body(body(), out));
  EXPECT_EQ(to_hex(out.data()), to_hex(kBody));
  EXPECT_EQ(encoded_size(body()), kBody.size());
}

TEST(OspfExtendedPrefix, PathBandwidthTypeIsAnOption) {
  const CodecOptions opt{.ospfv2_path_bandwidth_sub_tlv_type = 2};
  auto r = parse_extended_prefix_lsa_body(
      hex("0001 0010 01 18 00 00 0a010000 0002 0004 3f800000"), 0, opt);
  ASSERT_TRUE(r);
  const auto& p = std::get<ExtendedPrefixTlv>((*r)[0]);
  EXPECT_EQ(
      std::get<PathBandwidthSubTlv>(p.sub_tlvs[0]).bandwidth.bytes_per_second(),
      1.0f);
}

TEST(OspfExtendedPrefix, TruncationAtEveryLength) {
  const std::vector<std::size_t> boundaries = {0, 32, 40};
  for (std::size_t n = 0; n < kBody.size(); ++n) {
    auto r = parse_extended_prefix_lsa_body(ByteSpan(kBody).first(n));
    if (std::find(boundaries.begin(), boundaries.end(), n) !=
        boundaries.end()) {
      EXPECT_TRUE(r) << n;
      continue;
    }
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().field.rfind("ospf.ext_prefix.", 0), 0u) << n;
    EXPECT_LE(r.error().offset, n);
  }
}

TEST(OspfExtendedPrefix, Malformed) {
  struct Case {
    const char* hex;
    const char* field;
    std::size_t offset;
  };
  const Case cases[] = {
      {"0001 0008 01 21 00 00 0a000000", "ospf.ext_prefix.prefix_length", 5},
      {"0001 0006 01 18 00 00 0a00 0000", "ospf.ext_prefix.prefix", 8},
      {"0001 0010 01 18 00 00 0a010000 8000 0002 0000 0000",
       "ospf.ext_prefix.sub_tlv.length", 14},
      {"0001 0010 01 18 00 00 0a010000 8000 0008 00000000",
       "ospf.ext_prefix.sub_tlv.value", 16},
  };
  for (const Case& c : cases) {
    auto r = parse_extended_prefix_lsa_body(hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().field, c.field)
        << c.hex << ": " << r.error().to_string();
    EXPECT_EQ(r.error().offset, c.offset) << c.hex;
  }
}

TEST(OspfExtendedPrefix, SerializeRejects) {
  ByteWriter out;
  ExtendedPrefixTlv p;
  p.address_family = 1;
  EXPECT_EQ(serialize_extended_prefix_lsa_body({p}, out).error().field,
            "ospf.ext_prefix.address_family");
  p.address_family = 0;
  p.prefix_length = 33;
  EXPECT_EQ(serialize_extended_prefix_lsa_body({p}, out).error().field,
            "ospf.ext_prefix.prefix_length");
  p.prefix_length = 8;
  p.sub_tlvs = {RawTlv{kDefaultOspfv2PathBandwidthSubTlvType, {1, 2, 3, 4}}};
  EXPECT_EQ(serialize_extended_prefix_lsa_body({p}, out).error().field,
            "ospf.ext_prefix.sub_tlv");
  EXPECT_EQ(serialize_extended_prefix_lsa_body({RawTlv{1, {1, 8, 0, 0}}}, out)
                .error()
                .field,
            "ospf.ext_prefix.tlv");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(OspfExtendedPrefix, RoundTrip, ()) {
  const auto b = testing::gen_ext_prefix_body();
  ByteWriter out;
  RC_ASSERT(serialize_extended_prefix_lsa_body(b, out).has_value());
  RC_ASSERT(out.size() == encoded_size(b));
  auto parsed = parse_extended_prefix_lsa_body(out.data());
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(*parsed == b);
}

}  // namespace
}  // namespace arfabric::wire::ospf
