#include "wire/ospf/summary_lsa.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"

namespace arfabric::wire::ospf {
namespace {

Bytes hex(std::string_view s) { return *from_hex(s); }

// The Summary-LSA body of packet_test.cc's golden LS Update (tshark 4.0:
// netmask 255.255.0.0, metric 30), with a TOS entry added.
const Bytes kBody = hex("ffff0000 00 00001e 08 000028");

TEST(OspfSummaryLsa, ParsesGolden) {
  auto lsa = parse_summary_lsa_body(kBody);
  ASSERT_TRUE(lsa) << lsa.error().to_string();
  EXPECT_EQ(lsa->network_mask, (Ipv4Address{255, 255, 0, 0}));
  EXPECT_EQ(lsa->metric, 30u);
  EXPECT_EQ(lsa->tos,
            (std::vector<SummaryTosMetric>{{.tos = 8, .metric = 40}}));
  ByteWriter out;
  ASSERT_TRUE(serialize_summary_lsa_body(*lsa, out));
  EXPECT_EQ(out.data(), kBody);
  EXPECT_EQ(encoded_size(*lsa), kBody.size());
}

TEST(OspfSummaryLsa, TruncationAtEveryLength) {
  for (std::size_t n = 0; n < kBody.size(); ++n) {
    if (n == 8) continue;  // without the TOS entry: well formed
    auto lsa = parse_summary_lsa_body(ByteSpan(kBody).first(n), 20);
    ASSERT_FALSE(lsa) << n;
    EXPECT_EQ(lsa.error().field.rfind("ospf.summary_lsa.", 0), 0u)
        << lsa.error().to_string();
  }
  EXPECT_TRUE(parse_summary_lsa_body(ByteSpan(kBody).first(8)));
}

TEST(OspfSummaryLsa, SerializeRefusesMetricsOver24Bits) {
  ByteWriter out;
  auto r = serialize_summary_lsa_body({.metric = 0x1000000}, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ospf.summary_lsa.metric");
  SummaryLsa tos;
  tos.tos = {{.tos = 0, .metric = 1}, {.tos = 8, .metric = 0x1000000}};
  r = serialize_summary_lsa_body(tos, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ospf.summary_lsa.tos[1].metric");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(OspfSummaryLsa, RoundTrip, ()) {
  SummaryLsa lsa;
  lsa.network_mask = *rc::gen::arbitrary<Ipv4Address>();
  lsa.reserved = *rc::gen::arbitrary<std::uint8_t>();
  lsa.metric = *rc::gen::inRange<std::uint32_t>(0, 0x1000000);
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i)
    lsa.tos.push_back({*rc::gen::arbitrary<std::uint8_t>(),
                       *rc::gen::inRange<std::uint32_t>(0, 0x1000000)});
  ByteWriter out;
  RC_ASSERT(serialize_summary_lsa_body(lsa, out).has_value());
  RC_ASSERT(out.size() == encoded_size(lsa));
  auto back = parse_summary_lsa_body(out.data());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == lsa);
}

}  // namespace
}  // namespace arfabric::wire::ospf
