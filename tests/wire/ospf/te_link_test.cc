#include "wire/ospf/te_link.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/ospf/ospf_gen.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// A FARE spine's TE LSA body (RFC 3630 section 2.4): its router address and
// the Link TLV of a 400G point-to-point link to a leaf.
const Bytes kTeBody =
    hex("0001 0004 c0000201"   // Router Address TLV: 192.0.2.1
        "0002 0038"            // Link TLV, 56 bytes
        "0001 0001 01 000000"  //   1 link type: point-to-point, 3 pad
        "0002 0004 c0000202"   //   2 link ID 192.0.2.2
        "0003 0004 0a010100"   //   3 local interface 10.1.1.0
        "0004 0004 0a010101"   //   4 remote interface 10.1.1.1
        "0006 0004 513a43b7"   //   6 maximum bandwidth 5e10 B/s (400G)
        "0005 0004 0000000a"   //   5 TE metric 10 (raw)
        "8002 0003 aabbcc 00"  //   32770 unknown, 3 bytes + 1 pad (raw)
    );

std::vector<TeTlv> te_body() {
  return {
      TeRouterAddressTlv{{192, 0, 2, 1}},
      TeLinkTlv{{
          LinkTypeSubTlv{1},
          LinkIdSubTlv{{192, 0, 2, 2}},
          LocalAddressSubTlv{{{10, 1, 1, 0}}},
          RemoteAddressSubTlv{{{10, 1, 1, 1}}},
          MaxBandwidthSubTlv{lsr::Bandwidth32::from_bytes_per_second(5e10f)},
          RawTlv{5, {0, 0, 0, 10}},
          RawTlv{0x8002, {0xaa, 0xbb, 0xcc}},
      }},
  };
}

TEST(OspfTeLink, ParsesGolden) {
  auto body = parse_te_lsa_body(kTeBody);
  ASSERT_TRUE(body) << body.error().to_string();
  EXPECT_EQ(*body, te_body());
  const auto* bw = find_max_bandwidth(std::get<TeLinkTlv>((*body)[1]));
  ASSERT_NE(bw, nullptr);
  EXPECT_EQ(bw->bandwidth.bits, 0x513a43b7u);
}

TEST(OspfTeLink, SerializesGoldenWithPadding) {
  ByteWriter out;
  ASSERT_TRUE(serialize_te_lsa_body(te_body(), out));
  EXPECT_EQ(to_hex(out.data()), to_hex(kTeBody));
  EXPECT_EQ(encoded_size(te_body()), kTeBody.size());
}

TEST(OspfTeLink, TruncationAtEveryLength) {
  for (std::size_t n = 0; n < kTeBody.size(); ++n) {
    auto r = parse_te_lsa_body(ByteSpan(kTeBody).first(n));
    if (n == 0 || n == 8) {  // TLV boundaries
      EXPECT_TRUE(r) << n;
      continue;
    }
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().field.rfind("ospf.te.", 0), 0u) << n;
    EXPECT_LE(r.error().offset, n);
  }
}

TEST(OspfTeLink, MalformedLengths) {
  struct Case {
    const char* hex;
    const char* field;
    std::size_t offset;
  };
  const Case cases[] = {
      // sub-TLV longer than its Link TLV
      {"0002 0008 0006 0008 00000000", "ospf.te.link.sub_tlv.value", 8},
      // maximum bandwidth of 3 bytes
      {"0002 0008 0006 0003 000000 00", "ospf.te.link.sub_tlv.length", 6},
      // link type of 2 bytes
      {"0002 0008 0001 0002 0100 0000", "ospf.te.link.sub_tlv.length", 6},
      // local address of 6 bytes
      {"0002 000c 0003 0006 0a0000010000 0000", "ospf.te.link.sub_tlv.length",
       6},
      // remote address empty
      {"0002 0004 0004 0000", "ospf.te.link.sub_tlv.length", 6},
      // router address of 8 bytes
      {"0001 0008 c0000201 c0000202", "ospf.te.router_address.length", 2},
      // padding missing after a 3-byte value
      {"8000 0003 aabbcc", "ospf.te.tlv.padding", 7},
      // length field cut
      {"0002 00", "ospf.te.tlv.length", 2},
  };
  for (const Case& c : cases) {
    auto r = parse_te_lsa_body(hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().field, c.field)
        << c.hex << ": " << r.error().to_string();
    EXPECT_EQ(r.error().offset, c.offset) << c.hex;
  }
}

TEST(OspfTeLink, NonZeroPaddingIsIgnoredAndRewrittenAsZero) {
  const Bytes in = hex("0002 0008 0001 0001 02 ffffff");
  auto r = parse_te_lsa_body(in);
  ASSERT_TRUE(r);
  ByteWriter out;
  ASSERT_TRUE(serialize_te_lsa_body(*r, out));
  EXPECT_EQ(out.data(), hex("0002 0008 0001 0001 02 000000"));
}

TEST(OspfTeLink, SerializeRejectsAmbiguousOrEmptyItems) {
  ByteWriter out;
  EXPECT_EQ(serialize_te_lsa_body({RawTlv{2, {}}}, out).error().field,
            "ospf.te.tlv");
  EXPECT_EQ(serialize_te_lsa_body({TeLinkTlv{{RawTlv{6, {0, 0, 0, 0}}}}}, out)
                .error()
                .field,
            "ospf.te.link.sub_tlv");
  EXPECT_EQ(serialize_te_lsa_body({TeLinkTlv{{LocalAddressSubTlv{}}}}, out)
                .error()
                .field,
            "ospf.te.link.local_address");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(OspfTeLink, RoundTrip, ()) {
  const std::vector<TeTlv> body = testing::gen_te_body();
  ByteWriter out;
  RC_ASSERT(serialize_te_lsa_body(body, out).has_value());
  RC_ASSERT(out.size() == encoded_size(body));
  RC_ASSERT(out.size() % 4 == 0u);
  auto parsed = parse_te_lsa_body(out.data());
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(*parsed == body);
}

}  // namespace
}  // namespace arfabric::wire::ospf
