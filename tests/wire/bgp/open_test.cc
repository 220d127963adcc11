#include "wire/bgp/open.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "wire/bgp/bgp_test_util.h"
#include "wire/bgp/message.h"

namespace arfabric::wire::bgp {
namespace {

using testing::hex;

const Bytes kOpen =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "004c"                              // length 76
        "01"                                // type OPEN
        "04"                                // version 4
        "fde9"                              // my AS 65001
        "00b4"                              // hold time 180
        "0a000001"                          // BGP identifier 10.0.0.1
        "2f"                                // optional parameters length 47
        "0229"                              // parameter: Capabilities, 41 bytes
        "010400010001"                      //   MP IPv4 unicast
        "010400020001"                      //   MP IPv6 unicast
        "0200"                              //   route refresh
        "41040000fde9"                      //   4-octet AS 65001
        "0600"                              //   extended message
        "450400010103"                      //   ADD-PATH IPv4 unicast send+recv
        "4006807800010180"                  //   GR: R, 120 s, IPv4 unicast F
        "4903010203"                        //   FQDN (73): kept raw
        "7f02aabb");                        // parameter type 127: kept raw

TEST(BgpOpen, GoldenDecodesEveryField) {
  auto o = parse_open(kOpen);
  ASSERT_TRUE(o) << o.error().to_string();
  EXPECT_EQ(o->version, 4);
  EXPECT_EQ(o->my_as, 65001);
  EXPECT_EQ(o->hold_time, 180);
  EXPECT_EQ(o->identifier, (Ipv4Address{10, 0, 0, 1}));
  EXPECT_FALSE(o->extended_parameters);
  ASSERT_EQ(o->parameters.size(), 2u);
  EXPECT_EQ(o->parameters[1].type, 127);
  EXPECT_EQ(o->parameters[1].raw, (Bytes{0xaa, 0xbb}));
  const auto caps = o->capabilities();
  ASSERT_EQ(caps.size(), 8u);
  EXPECT_EQ(std::get<MultiprotocolCapability>(caps[1].value).family,
            (AfiSafi{kAfiIpv6, kSafiUnicast}));
  EXPECT_TRUE(std::holds_alternative<RouteRefreshCapability>(caps[2].value));
  EXPECT_EQ(o->four_octet_as(), 65001u);
  EXPECT_TRUE(std::holds_alternative<ExtendedMessageCapability>(caps[4].value));
  const auto& ap = std::get<AddPathCapability>(caps[5].value);
  ASSERT_EQ(ap.entries.size(), 1u);
  EXPECT_EQ(ap.entries[0].send_receive, 3);
  const auto& gr = std::get<GracefulRestartCapability>(caps[6].value);
  EXPECT_EQ(gr.flags, 0x8);
  EXPECT_EQ(gr.restart_time, 120);
  ASSERT_EQ(gr.entries.size(), 1u);
  EXPECT_EQ(gr.entries[0].flags, 0x80);
  EXPECT_EQ(caps[7].code, 73);
  EXPECT_EQ(std::get<RawCapability>(caps[7].value).value, (Bytes{1, 2, 3}));
  EXPECT_EQ(capability_name(73), "FQDN");
}

TEST(BgpOpen, GoldenRoundTripsByteExact) {
  auto o = parse_open(kOpen);
  ASSERT_TRUE(o);
  ByteWriter w;
  ASSERT_TRUE(serialize(*o, w));
  EXPECT_EQ(to_hex(w.data()), to_hex(kOpen));
  EXPECT_EQ(encoded_size(*o), kOpen.size());
}

TEST(BgpOpen, NegotiateBothSides) {
  auto local = *parse_open(kOpen);
  auto o = negotiate(local, local);
  EXPECT_TRUE(o.four_octet_as);
  EXPECT_TRUE(o.extended_message);
  EXPECT_EQ(o.add_path, (std::vector<AfiSafi>{{kAfiIpv4, kSafiUnicast}}));
  Open bare;
  o = negotiate(local, bare);
  EXPECT_FALSE(o.four_octet_as);
  EXPECT_FALSE(o.extended_message);
  EXPECT_TRUE(o.add_path.empty());
}

TEST(BgpOpen, Rfc9072ExtendedParametersRoundTrip) {
  Open o = *parse_open(kOpen);
  o.extended_parameters = true;
  ByteWriter w;
  ASSERT_TRUE(serialize(o, w));
  // Non-Ext OP Len 255, Non-Ext OP Type 255, Extended Opt. Parm. Length.
  EXPECT_EQ(to_hex(ByteSpan(w.data()).subspan(28, 4)), "ffff0031");
  // Each parameter length is 2 bytes: Capabilities, 41.
  EXPECT_EQ(to_hex(ByteSpan(w.data()).subspan(32, 3)), "020029");
  auto back = parse_open(w.data());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, o);
}

TEST(BgpOpen, Rfc9072ChosenWhenParametersExceed255) {
  Open o;
  o.my_as = 1;
  o.identifier = {1, 1, 1, 1};
  o.parameters = {OptionalParameter{100, {}, Bytes(300, 7)}};
  ByteWriter w;
  ASSERT_TRUE(serialize(o, w));
  auto back = parse_open(w.data());
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->extended_parameters);
  EXPECT_EQ(back->parameters, o.parameters);
}

TEST(BgpOpen, Rfc4271Sec6_2_BadVersion) {
  Bytes m = kOpen;
  m[19] = 3;
  auto r = parse_open(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kOpenMessage);
  EXPECT_EQ(r.error().subcode, subcode::kUnsupportedVersion);
  EXPECT_EQ(r.error().data, (Bytes{0, 4}));
  EXPECT_EQ(r.error().decode.offset, 19u);
}

TEST(BgpOpen, Rfc4271Sec6_2_UnacceptableHoldTime) {
  Bytes m = kOpen;
  m[22] = 0;
  m[23] = 2;
  auto r = parse_open(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kUnacceptableHoldTime);
}

TEST(BgpOpen, Rfc6286_ZeroIdentifierIsBadBgpIdentifier) {
  Bytes m = kOpen;
  m[24] = m[25] = m[26] = m[27] = 0;
  auto r = parse_open(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kBadBgpIdentifier);
}

TEST(BgpOpen, Rfc4271Sec6_2_MalformedCapabilityIsUnspecific) {
  Bytes m = kOpen;
  m[32] = 3;  // MP capability length 3 (then 3 stray bytes)
  auto r = parse_open(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kUnspecific);
  EXPECT_EQ(r.error().decode.field, "bgp.open.capability.value");
}

TEST(BgpOpen, TruncationAtEveryLengthFailsCleanly) {
  for (std::size_t n = 0; n < kOpen.size(); ++n) {
    auto r = parse_message(ByteSpan(kOpen).first(n));
    ASSERT_FALSE(r) << n;
    EXPECT_FALSE(r.error().decode.field.empty());
  }
  // With the length field shortened too, so inner fields are cut.
  for (std::size_t n = 29; n < kOpen.size(); ++n) {
    Bytes cut(kOpen.begin(), kOpen.begin() + n);
    cut[17] = static_cast<std::uint8_t>(n);
    auto r = parse_open(cut);
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().code, error_code::kOpenMessage) << n;
    EXPECT_FALSE(r.error().decode.field.empty());
  }
}

TEST(BgpOpen, OpenOver4096IsRejectedEvenWithExtendedMessage) {
  // RFC 8654 section 4: the capability does not apply to OPEN.
  Bytes m = kOpen;
  m[16] = 0x10;
  m[17] = 0x01;  // 4097
  m.resize(4097);
  SessionCodecOptions o;
  o.extended_message = true;
  auto r = parse_open(m, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kBadMessageLength);
  EXPECT_EQ(r.error().data, (Bytes{0x10, 0x01}));
}

RC_GTEST_PROP(BgpOpen, ParseOfSerializeIsIdentity, ()) {
  const Open o = testing::gen_open();
  ByteWriter w;
  auto s = serialize(o, w);
  RC_ASSERT(s.has_value());
  RC_ASSERT(w.size() == encoded_size(o));
  auto back = parse_open(w.data());
  if (!back) RC_LOG() << back.error().to_string() << " " << to_hex(w.data());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == o);
}

}  // namespace
}  // namespace arfabric::wire::bgp
