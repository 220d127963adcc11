#include <gtest/gtest.h>

#include "proto/arn/arn_engine.h"
#include "proto/arn/arn_fixtures.h"

namespace arfabric::proto::arn {
namespace {

using namespace testing;
using wire::arn::ArnType;

Bytes udp_message(ArnType type, std::uint8_t metric, std::uint32_t id,
                  IpAddress dst) {
  wire::arn::ArnMessage m;
  m.type = type;
  m.metric = metric;
  m.path_id = id;
  wire::arn::FiveTuple f;
  f.family = dst.ipv6 ? wire::arn::AddressFamily::ipv6
                      : wire::arn::AddressFamily::ipv4;
  f.mask = wire::arn::kMaskDestination;
  f.destination = dst.bytes;
  m.flow = f;
  ByteWriter w;
  EXPECT_TRUE(
      wire::arn::serialize_ipv4_udp(m, {10, 255, 0, 1}, kLeaf1Addr, {}, w));
  return w.take();
}

const std::uint32_t kId = path_id(101, 1);

TEST(Receiver, RevokedByTimeoutAndRefreshedByRepeats) {
  ArnConfig c = leaf1_config();
  c.hold_time = us(500);
  ArnEngine leaf1 = make(c);
  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  leaf1.on_message(0, det, us(0));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  EXPECT_EQ(leaf1.next_deadline(), us(500));
  leaf1.on_message(0, det, us(400));  // a repeat: refresh, no record
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(leaf1.next_deadline(), us(900));
  leaf1.on_timer(us(600));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  leaf1.on_timer(us(900));
  const Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  EXPECT_EQ(out.vetoes[0], (VetoChange{0, kLeaf2, VetoSource::arn, false}));
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  EXPECT_EQ(leaf1.next_deadline(), Time::max());
}

TEST(Receiver, EliminationMustMatchPathIdAndDestination) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_message(ArnType::congestion_detected, 130, kId, kLeaf2Addr),
      us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.congestion.size(), 1u);
  EXPECT_EQ(out.congestion[0].level, 2);  // 130 / 64 = 2
  // Another reporter's, or another destination's elimination: no effect.
  leaf1.on_message(0,
                   udp_message(ArnType::congestion_eliminated, 0,
                               path_id(102, 1), kLeaf2Addr),
                   us(1));
  leaf1.on_message(0,
                   udp_message(ArnType::congestion_eliminated, 0, kId,
                               wire::Ipv4Address{10, 0, 9, 9}),
                   us(1));
  EXPECT_TRUE(leaf1.drain().congestion.empty());
  EXPECT_EQ(leaf1.counters().stale_elimination, 2u);
  // A worse level updates the record; the right elimination revokes.
  leaf1.on_message(
      0, udp_message(ArnType::congestion_detected, 200, kId, kLeaf2Addr),
      us(2));
  leaf1.on_message(
      0, udp_message(ArnType::congestion_eliminated, 0, kId, kLeaf2Addr),
      us(3));
  out = leaf1.drain();
  ASSERT_EQ(out.congestion.size(), 2u);
  EXPECT_EQ(out.congestion[0],
            (CongestionChange{0, kLeaf2, VetoSource::arn, 3}));
  EXPECT_EQ(out.congestion[1],
            (CongestionChange{0, kLeaf2, VetoSource::arn, 0}));
}

TEST(Receiver, PrefixLookupIsLongestMatch) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId,
                               wire::Ipv4Address{10, 0, 7, 7}),
                   us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  EXPECT_EQ(out.vetoes[0].destination, 999u);  // only the /16 matches
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId,
                               wire::Ipv4Address{192, 0, 2, 1}),
                   us(0));
  EXPECT_EQ(leaf1.counters().unknown_destination, 1u);
}

TEST(Receiver, IgnoresOwnMalformedAndIncompleteMessages) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, path_id(1, 0), kLeaf2Addr),
      us(0));  // Path ID of leaf1 itself: looped back
  Bytes bad = udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  bad[28] = 9;  // ARN type 9
  leaf1.on_message(0, bad, us(0));
  wire::arn::ArnMessage no_id;
  no_id.type = ArnType::failure_detected;
  ByteWriter w;
  ASSERT_TRUE(
      wire::arn::serialize_ipv4_udp(no_id, {1, 1, 1, 1}, {2, 2, 2, 2}, {}, w));
  leaf1.on_message(0, w.data(), us(0));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(leaf1.counters().ignored, 2u);
  EXPECT_EQ(leaf1.counters().malformed, 1u);
  EXPECT_EQ(leaf1.counters().received, 3u);
}

// leaf1 has a single uplink toward leaf2 (through spine1): it cannot
// reroute, so it propagates the ARN unchanged to its own target (a host
// agent at port 2), whose engine vetoes its path through leaf1.
TEST(Receiver, PropagatesWhenItCannotReroute) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  ArnEngine leaf1 = make(c);
  const PortId only[] = {0};
  leaf1.set_next_hops(kLeaf2, only);
  ArnConfig h;
  h.node_id = 7;
  h.port_count = 1;
  h.destinations = c.destinations;
  ArnEngine host = make(h);

  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  leaf1.on_message(0, det, us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].port, 2);
  const auto fwd = parse_udp(out.transmits[0]);
  EXPECT_EQ(fwd.path_id, kId);  // the reporter's identifier is kept
  EXPECT_EQ(fwd.type, ArnType::failure_detected);
  host.on_message(0, out.transmits[0].bytes, us(1));
  EXPECT_EQ(host.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true}}));

  // A copy arriving sooner than repeat_interval is not re-sent again.
  leaf1.on_message(0, det, us(10));
  EXPECT_TRUE(leaf1.drain().transmits.empty());
  leaf1.on_message(0, det, us(100));
  EXPECT_EQ(leaf1.drain().transmits.size(), 1u);

  // The elimination follows the same way.
  leaf1.on_message(
      0, udp_message(ArnType::failure_eliminated, 0, kId, kLeaf2Addr), us(200));
  out = leaf1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  host.on_message(0, out.transmits[0].bytes, us(201));
  EXPECT_EQ(host.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, false}}));
  EXPECT_EQ(leaf1.counters().propagated, 3u);
}

// 2001:db8:<a>:<b>::<host>
IpAddress v6(std::uint8_t a, std::uint8_t b, std::uint8_t host) {
  return IpAddress::v6(
      {0x20, 0x01, 0x0d, 0xb8, 0, a, 0, b, 0, 0, 0, 0, 0, 0, 0, host});
}

// leaf1 with a mixed table: IPv4 10.0.2.0/24 and IPv6 2001:db8:0:2::/64
// are both leaf2; 2001:db8::/32 is node 999 (the IPv6 twin of the /16).
ArnConfig mixed_config() {
  ArnConfig c = leaf1_config();
  c.destinations.push_back(
      {.prefix = v6(0, 2, 0), .length = 64, .node = kLeaf2});
  c.destinations.push_back({.prefix = v6(0, 0, 0), .length = 32, .node = 999});
  return c;
}

TEST(Receiver, Ipv6DestinationActsLikeIpv4) {
  ArnEngine leaf1 = make(mixed_config());
  // The same condition reported once per family gives the same records.
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  const Outputs v4 = leaf1.drain();
  leaf1.on_message(
      0, udp_message(ArnType::failure_eliminated, 0, kId, kLeaf2Addr), us(1));
  const Outputs v4_end = leaf1.drain();
  ArnEngine other = make(mixed_config());
  other.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, v6(0, 2, 9)), us(0));
  const Outputs v6_out = other.drain();
  other.on_message(
      0, udp_message(ArnType::failure_eliminated, 0, kId, v6(0, 2, 9)), us(1));
  EXPECT_EQ(v6_out.vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true}}));
  EXPECT_EQ(v6_out.vetoes, v4.vetoes);
  EXPECT_EQ(other.drain().vetoes, v4_end.vetoes);
  EXPECT_EQ(other.counters().revoked, 1u);
  EXPECT_EQ(other.counters().ignored, 0u);
  // Congestion and the hold timer alike.
  other.on_message(
      0, udp_message(ArnType::congestion_detected, 140, kId, v6(0, 2, 1)),
      us(10));
  EXPECT_EQ(other.drain().congestion,
            (std::vector<CongestionChange>{{0, kLeaf2, VetoSource::arn, 2}}));
  other.on_timer(us(10) + other.config().hold_time);
  EXPECT_EQ(other.drain().congestion,
            (std::vector<CongestionChange>{{0, kLeaf2, VetoSource::arn, 0}}));
  EXPECT_EQ(other.counters().timed_out, 1u);
}

TEST(Receiver, MixedFamiliesLongestMatchAndNoMatch) {
  ArnEngine leaf1 = make(mixed_config());
  // 2001:db8:0:7::1 is only in the /32; 2001:db9::1 and 192.0.2.1 match
  // nothing; an IPv4 address whose bytes equal an IPv6 prefix's first
  // bytes must not match it (families are separate tables).
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, v6(0, 7, 1)), us(0));
  EXPECT_EQ(leaf1.drain().vetoes,
            (std::vector<VetoChange>{{0, 999, VetoSource::arn, true}}));
  IpAddress other_net = v6(0, 2, 1);
  other_net.bytes[3] = 0xb9;
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, other_net), us(0));
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId,
                               wire::Ipv4Address{0x20, 0x01, 0x0d, 0xb8}),
                   us(0));
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId,
                               wire::Ipv4Address{192, 0, 2, 1}),
                   us(0));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(leaf1.counters().unknown_destination, 3u);
  EXPECT_EQ(leaf1.counters().ignored, 0u);
  EXPECT_EQ(leaf1.counters().received, 4u);
}

TEST(Receiver, DuplicateDestinationPrefixIsAConfigError) {
  ArnConfig c = mixed_config();
  // Same /64 written with host bits: the same prefix.
  c.destinations.push_back({.prefix = v6(0, 2, 5), .length = 64, .node = 3});
  auto e = ArnEngine::create(c);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "destinations[4].prefix");
  // The IPv4 /24 and an IPv6 prefix of the same bits are different.
  ArnConfig d = leaf1_config();
  IpAddress same_bits = IpAddress::v6({10, 0, 2, 0});
  d.destinations.push_back({.prefix = same_bits, .length = 24, .node = 5});
  EXPECT_TRUE(ArnEngine::create(d));
}

TEST(Receiver, TableFullIsCounted) {
  ArnConfig c = leaf1_config();
  c.max_entries = 1;
  ArnEngine leaf1 = make(c);
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  leaf1.on_message(
      0,
      udp_message(ArnType::failure_detected, 255, path_id(102, 1), kLeaf2Addr),
      us(0));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  EXPECT_EQ(leaf1.counters().table_full, 1u);
}

}  // namespace
}  // namespace arfabric::proto::arn
