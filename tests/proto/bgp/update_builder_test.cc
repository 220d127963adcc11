#include "proto/bgp/update_builder.h"

#include <gtest/gtest.h>

#include "wire/bgp/message.h"
#include "wire/bgp/update.h"

namespace arfabric::proto::bgp {
namespace {

namespace wb = wire::bgp;

AttributesRef attributes(std::vector<std::uint32_t> as_path) {
  std::vector<wb::PathAttribute> attrs{
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(
          wb::attr_type::kAsPath,
          wb::AsPath{{{wb::segment_type::kAsSequence, std::move(as_path)}}})};
  return make_route_attributes(std::move(attrs), {}, 0xaa);
}

std::vector<Destination> v4_prefixes(std::size_t n) {
  std::vector<Destination> out;
  for (std::size_t i = 0; i < n; ++i) {
    Destination d;
    d.length = 24;
    d.address[0] = 10;
    d.address[1] = static_cast<std::uint8_t>(i >> 8);
    d.address[2] = static_cast<std::uint8_t>(i);
    out.push_back(d);
  }
  return out;
}

ExportTarget target() {
  ExportTarget t;
  t.send.four_octet_as = true;
  t.next_hop_ipv4 = {192, 0, 2, 1};
  t.next_hop_ipv6 = Bytes(16, 0);
  t.next_hop_ipv6[0] = 0x20;
  t.next_hop_ipv6[15] = 1;
  return t;
}

std::vector<wb::UpdateParseResult> parse_all(const std::vector<Bytes>& msgs,
                                             const ExportTarget& t) {
  std::vector<wb::UpdateParseResult> out;
  for (const Bytes& m : msgs) {
    EXPECT_LE(m.size(), t.send.max_message_length());
    wb::ParseOptions options = t.send;
    auto r = wb::parse_update(m, options);
    EXPECT_TRUE(r) << r.error().to_string();
    if (!r) continue;
    EXPECT_TRUE(r->attribute_errors.empty());
    out.push_back(*r);
  }
  return out;
}

TEST(UpdateBuilder, PacksThousandsOfIpv4PrefixesWithinTheLimit) {
  const auto dests = v4_prefixes(3000);
  std::vector<Bytes> msgs;
  ASSERT_TRUE(
      build_announcements({attributes({65001}), dests}, target(), msgs));
  // 3000 x 4 bytes = 12,000 bytes of NLRI: at least three 4 KB messages,
  // and packing means no more than four.
  EXPECT_GE(msgs.size(), 3u);
  EXPECT_LE(msgs.size(), 4u);
  std::size_t seen = 0;
  for (const auto& r : parse_all(msgs, target())) {
    const auto* nh = r.update.get<wb::NextHop>(wb::attr_type::kNextHop);
    ASSERT_TRUE(nh);
    EXPECT_EQ(nh->address, (wire::Ipv4Address{192, 0, 2, 1}));
    for (const auto& p : r.update.nlri) {
      EXPECT_EQ(destination_of(wb::kAfiIpv4, p), dests[seen]);
      ++seen;
    }
  }
  EXPECT_EQ(seen, dests.size());
}

TEST(UpdateBuilder, ExtendedMessagesHoldMore) {
  ExportTarget t = target();
  t.send.extended_message = true;
  std::vector<Bytes> msgs;
  ASSERT_TRUE(
      build_announcements({attributes({65001}), v4_prefixes(3000)}, t, msgs));
  EXPECT_EQ(msgs.size(), 1u);
  EXPECT_EQ(parse_all(msgs, t).at(0).update.nlri.size(), 3000u);
}

TEST(UpdateBuilder, Ipv6GoesInMpReachWithTheIpv6NextHop) {
  std::vector<Destination> dests;
  for (int i = 0; i < 600; ++i) {
    Destination d;
    d.afi = wb::kAfiIpv6;
    d.length = 64;
    d.address[0] = 0x20;
    d.address[1] = 0x01;
    d.address[6] = static_cast<std::uint8_t>(i >> 8);
    d.address[7] = static_cast<std::uint8_t>(i);
    dests.push_back(d);
  }
  std::vector<Bytes> msgs;
  ASSERT_TRUE(
      build_announcements({attributes({65001}), dests}, target(), msgs));
  EXPECT_GE(msgs.size(), 2u);  // 600 x 9 bytes > 4096
  std::size_t seen = 0;
  for (const auto& r : parse_all(msgs, target())) {
    EXPECT_TRUE(r.update.nlri.empty());
    EXPECT_EQ(r.update.find(wb::attr_type::kNextHop), nullptr);
    const auto* mp = r.update.get<wb::MpReachNlri>(wb::attr_type::kMpReachNlri);
    ASSERT_TRUE(mp);
    EXPECT_EQ(mp->next_hop, target().next_hop_ipv6);
    for (const auto& p : mp->nlri) {
      EXPECT_EQ(destination_of(wb::kAfiIpv6, p), dests[seen++]);
    }
  }
  EXPECT_EQ(seen, dests.size());
}

TEST(UpdateBuilder, WithdrawalsPerFamily) {
  std::vector<Bytes> msgs;
  ASSERT_TRUE(
      build_withdrawals(wb::kAfiIpv4, v4_prefixes(2000), target(), msgs));
  std::size_t seen = 0;
  for (const auto& r : parse_all(msgs, target())) {
    EXPECT_TRUE(r.update.attributes.empty());
    seen += r.update.withdrawn.size();
  }
  EXPECT_EQ(seen, 2000u);

  Destination v6;
  v6.afi = wb::kAfiIpv6;
  v6.length = 48;
  v6.address[0] = 0x20;
  msgs.clear();
  ASSERT_TRUE(build_withdrawals(wb::kAfiIpv6, {v6}, target(), msgs));
  const auto parsed = parse_all(msgs, target());
  ASSERT_EQ(parsed.size(), 1u);
  const auto* un =
      parsed[0].update.get<wb::MpUnreachNlri>(wb::attr_type::kMpUnreachNlri);
  ASSERT_TRUE(un);
  ASSERT_EQ(un->withdrawn.size(), 1u);
  EXPECT_EQ(destination_of(wb::kAfiIpv6, un->withdrawn[0]), v6);
}

TEST(UpdateBuilder, TwoOctetPeerGetsAsTransAndAs4Path) {
  ExportTarget t = target();
  t.send.four_octet_as = false;
  std::vector<Bytes> msgs;
  ASSERT_TRUE(build_announcements(
      {attributes({4200000001u, 65001}), v4_prefixes(1)}, t, msgs));
  const auto parsed = parse_all(msgs, t);
  ASSERT_EQ(parsed.size(), 1u);
  const auto* path = parsed[0].update.get<wb::AsPath>(wb::attr_type::kAsPath);
  const auto* as4 = parsed[0].update.get<wb::AsPath>(wb::attr_type::kAs4Path);
  ASSERT_TRUE(path && as4);
  EXPECT_EQ(path->segments[0].asns,
            (std::vector<std::uint32_t>{wb::kAsTrans, 65001}));
  EXPECT_EQ(as4->segments[0].asns,
            (std::vector<std::uint32_t>{4200000001u, 65001}));
}

TEST(UpdateBuilder, AddPathSendCarriesPathIdentifiers) {
  ExportTarget t = target();
  t.send.add_path = {{wb::kAfiIpv4, wb::kSafiUnicast}};
  std::vector<Bytes> msgs;
  ASSERT_TRUE(
      build_announcements({attributes({65001}), v4_prefixes(3)}, t, msgs));
  const auto parsed = parse_all(msgs, t);
  ASSERT_EQ(parsed.size(), 1u);
  for (const auto& p : parsed[0].update.nlri) EXPECT_EQ(p.path_id, 1u);
}

TEST(UpdateBuilder, MissingNextHopIsAnErrorAndAppendsNothing) {
  ExportTarget t = target();
  t.next_hop_ipv4.clear();
  std::vector<Bytes> msgs{Bytes{1}};
  auto r = build_announcements({attributes({65001}), v4_prefixes(2)}, t, msgs);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "next_hop_ipv4");
  EXPECT_EQ(msgs.size(), 1u);
}

TEST(UpdateBuilder, EndOfRibMarkers) {
  const Bytes v4 = end_of_rib(wb::kAfiIpv4);
  EXPECT_EQ(v4.size(), 23u);  // RFC 4724 section 2: an empty UPDATE
  auto r4 = wb::parse_update(v4);
  ASSERT_TRUE(r4);
  EXPECT_TRUE(is_end_of_rib(r4->update));
  auto r6 = wb::parse_update(end_of_rib(wb::kAfiIpv6));
  ASSERT_TRUE(r6);
  EXPECT_TRUE(is_end_of_rib(r6->update));
  std::vector<Bytes> msgs;
  ASSERT_TRUE(build_withdrawals(wb::kAfiIpv4, v4_prefixes(1), target(), msgs));
  EXPECT_FALSE(is_end_of_rib(wb::parse_update(msgs[0])->update));
}

}  // namespace
}  // namespace arfabric::proto::bgp
