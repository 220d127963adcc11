#include "wire/ospf/router_lsa.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// The Router-LSA body of packet_test.cc's golden LS Update (tshark 4.0
// shows the same links, flags and TOS entry).
const Bytes kBody =
    hex("01 00 0003"
        "c0000202 0a010100 01 00 000a"
        "0a010100 fffffffe 03 00 000a"
        "0a000100 ffffff00 03 01 0001 08 00 0014");

TEST(OspfRouterLsa, ParsesGolden) {
  auto lsa = parse_router_lsa_body(kBody);
  ASSERT_TRUE(lsa) << lsa.error().to_string();
  EXPECT_EQ(lsa->flags, kRouterFlagBorder);
  ASSERT_EQ(lsa->links.size(), 3u);
  EXPECT_EQ(lsa->links[0], (RouterLsaLink{.link_id = {192, 0, 2, 2},
                                          .link_data = {10, 1, 1, 0},
                                          .type = kRouterLinkPointToPoint,
                                          .metric = 10,
                                          .tos = {}}));
  EXPECT_EQ(lsa->links[1].type, kRouterLinkStub);
  EXPECT_EQ(lsa->links[1].link_data, (Ipv4Address{255, 255, 255, 254}));
  EXPECT_EQ(lsa->links[2].metric, 1);
  EXPECT_EQ(lsa->links[2].tos,
            (std::vector<TosMetric>{{.tos = 8, .reserved = 0, .metric = 20}}));
  ByteWriter out;
  ASSERT_TRUE(serialize_router_lsa_body(*lsa, out));
  EXPECT_EQ(out.data(), kBody);
  EXPECT_EQ(encoded_size(*lsa), kBody.size());
}

TEST(OspfRouterLsa, TruncationAtEveryLength) {
  for (std::size_t n = 0; n < kBody.size(); ++n) {
    auto lsa = parse_router_lsa_body(ByteSpan(kBody).first(n), 20);
    ASSERT_FALSE(lsa) << n;
    EXPECT_EQ(lsa.error().field.rfind("ospf.router_lsa.", 0), 0u)
        << lsa.error().to_string();
    EXPECT_GE(lsa.error().offset, 20u);
  }
}

TEST(OspfRouterLsa, LinkCountMustMatch) {
  Bytes more = kBody;
  more[3] = 4;
  auto lsa = parse_router_lsa_body(more, 20);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field, "ospf.router_lsa.link_count");
  EXPECT_EQ(lsa.error().offset, 22u);
  Bytes fewer = kBody;
  fewer[3] = 2;
  lsa = parse_router_lsa_body(fewer, 20);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field, "ospf.router_lsa.link_count");
  EXPECT_NE(lsa.error().reason.find("bytes follow"), std::string::npos);
  // A TOS count beyond the body.
  Bytes tos = kBody;
  tos[4 + 2 * 12 + 9] = 2;
  lsa = parse_router_lsa_body(tos);
  ASSERT_FALSE(lsa);
  EXPECT_EQ(lsa.error().field.rfind("ospf.router_lsa.link.tos", 0), 0u);
}

TEST(OspfRouterLsa, UnknownLinkTypesAndFlagsAreKept) {
  Bytes b = kBody;
  b[0] = 0xff;
  b[1] = 0x5a;
  b[4 + 8] = 9;
  auto lsa = parse_router_lsa_body(b);
  ASSERT_TRUE(lsa);
  EXPECT_EQ(lsa->flags, 0xff);
  EXPECT_EQ(lsa->reserved, 0x5a);
  EXPECT_EQ(lsa->links[0].type, 9);
  ByteWriter out;
  ASSERT_TRUE(serialize_router_lsa_body(*lsa, out));
  EXPECT_EQ(out.data(), b);
}

TEST(OspfRouterLsa, SerializeRefusesCountsBeyondTheirFields) {
  RouterLsa many;
  many.links.resize(0x10000);
  ByteWriter out;
  auto r = serialize_router_lsa_body(many, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ospf.router_lsa.link_count");
  RouterLsa tos;
  tos.links.resize(2);
  tos.links[1].tos.resize(256);
  r = serialize_router_lsa_body(tos, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ospf.router_lsa.links[1].tos");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(OspfRouterLsa, RoundTrip, ()) {
  RouterLsa lsa;
  lsa.flags = *rc::gen::arbitrary<std::uint8_t>();
  lsa.reserved = *rc::gen::arbitrary<std::uint8_t>();
  const int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) {
    RouterLsaLink link;
    link.link_id = *rc::gen::arbitrary<Ipv4Address>();
    link.link_data = *rc::gen::arbitrary<Ipv4Address>();
    link.type = *rc::gen::arbitrary<std::uint8_t>();
    link.metric = *rc::gen::arbitrary<std::uint16_t>();
    const int t = *rc::gen::inRange(0, 3);
    for (int k = 0; k < t; ++k)
      link.tos.push_back({*rc::gen::arbitrary<std::uint8_t>(),
                          *rc::gen::arbitrary<std::uint8_t>(),
                          *rc::gen::arbitrary<std::uint16_t>()});
    lsa.links.push_back(link);
  }
  ByteWriter out;
  RC_ASSERT(serialize_router_lsa_body(lsa, out).has_value());
  RC_ASSERT(out.size() == encoded_size(lsa));
  auto back = parse_router_lsa_body(out.data());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == lsa);
}

}  // namespace
}  // namespace arfabric::wire::ospf
