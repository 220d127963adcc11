#include <gtest/gtest.h>

#include "proto/arn/arn_engine.h"
#include "proto/arn/arn_fixtures.h"

namespace arfabric::proto::arn {
namespace {

using namespace testing;
using wire::arn::ArnType;

Bytes udp_tuple_message(ArnType type, std::uint8_t metric, std::uint32_t id,
                        const wire::arn::FiveTuple& f) {
  wire::arn::ArnMessage m;
  m.type = type;
  m.metric = metric;
  m.path_id = id;
  m.flow = f;
  ByteWriter w;
  EXPECT_TRUE(
      wire::arn::serialize_ipv4_udp(m, {10, 255, 0, 1}, kLeaf1Addr, {}, w));
  return w.take();
}

Bytes udp_message(ArnType type, std::uint8_t metric, std::uint32_t id,
                  IpAddress dst) {
  wire::arn::FiveTuple f;
  f.family = dst.ipv6 ? wire::arn::AddressFamily::ipv6
                      : wire::arn::AddressFamily::ipv4;
  f.mask = wire::arn::kMaskDestination;
  f.destination = dst.bytes;
  return udp_tuple_message(type, metric, id, f);
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

// A relayed message waits for a token like the node's own, in its turn:
// behind what already waits, ahead of what comes after it.
TEST(Receiver, ARelayWaitsItsTurnForATarget) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  c.monitored = {{.port = 1,
                  .affected = {wire::Ipv4Address{10, 0, 5, 1},
                               wire::Ipv4Address{10, 0, 6, 1}}}};
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  ArnEngine leaf1 = make(c);
  const PortId only[] = {0};
  leaf1.set_next_hops(kLeaf2, only);
  leaf1.link_state(1, false, us(0));  // 10.0.5 goes, 10.0.6 waits
  EXPECT_EQ(leaf1.drain().transmits.size(), 1u);
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(1));
  EXPECT_TRUE(leaf1.drain().transmits.empty());
  EXPECT_EQ(leaf1.counters().propagated, 1u);
  std::vector<int> order;
  for (Time t = us(10); t <= us(20); t += us(10)) {
    EXPECT_EQ(leaf1.next_deadline(), t);
    leaf1.on_timer(t);
    for (const Transmit& x : leaf1.drain().transmits)
      order.push_back(parse_udp(x).flow->destination[2]);
  }
  EXPECT_EQ(order, (std::vector<int>{6, 2}));
}

// leaf1 with one target (port 2), one token every 10 us and room for one
// waiting relay, `monitored` its own ports; it reaches leaf2 and node 999
// only through port 0, so what arrives there is passed on.
ArnEngine relaying_leaf1(std::vector<MonitoredPort> monitored) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  c.monitored = std::move(monitored);
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  c.max_waiting_relays = 1;
  ArnEngine leaf1 = make(c);
  const PortId only[] = {0};
  leaf1.set_next_hops(kLeaf2, only);
  leaf1.set_next_hops(999, only);
  return leaf1;
}

// Relayed messages beyond max_waiting_relays a target are dropped and
// counted, so that neighbours cannot grow the queue without bound; the
// node's own messages still wait.
TEST(Receiver, RelaysBeyondTheLimitAreDropped) {
  ArnEngine leaf1 = relaying_leaf1(
      {{.port = 1, .affected = {wire::Ipv4Address{10, 0, 5, 1}}}});
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  EXPECT_EQ(leaf1.drain().transmits.size(), 1u);  // the bucket's token
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId,
                               wire::Ipv4Address{10, 0, 7, 1}),
                   us(1));  // waits: the one relay allowed
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId + 1,
                               wire::Ipv4Address{10, 0, 8, 1}),
                   us(2));            // dropped
  leaf1.link_state(1, false, us(3));  // ours: waits
  EXPECT_TRUE(leaf1.drain().transmits.empty());
  EXPECT_EQ(leaf1.counters().rate_limited, 1u);
  EXPECT_EQ(leaf1.counters().waited, 2u);
  std::vector<int> order;
  for (Time t = us(10); t <= us(20); t += us(10)) {
    leaf1.on_timer(t);
    for (const Transmit& x : leaf1.drain().transmits)
      order.push_back(parse_udp(x).flow->destination[2]);
  }
  EXPECT_EQ(order, (std::vector<int>{7, 5}));
}

// Strict priority may hold a relayed congestion message back for long, so
// a relayed failure that finds the relays' quota full takes the place of
// the newest relayed congestion message rather than being dropped.
TEST(Receiver, ARelayedFailureTakesTheNewestCongestionRelaysPlace) {
  ArnEngine leaf1 = relaying_leaf1({});
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  EXPECT_EQ(leaf1.drain().transmits.size(), 1u);  // the bucket's token
  leaf1.on_message(0,
                   udp_message(ArnType::congestion_detected, 130, kId,
                               wire::Ipv4Address{10, 0, 7, 1}),
                   us(1));  // waits: the one relay allowed
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId + 1,
                               wire::Ipv4Address{10, 0, 8, 1}),
                   us(2));  // takes its place
  EXPECT_EQ(leaf1.counters().rate_limited, 1u);
  std::vector<std::pair<ArnType, int>> sent;
  for (Time t = us(10); t <= us(30); t += us(10)) {
    leaf1.on_timer(t);
    for (const Transmit& x : leaf1.drain().transmits) {
      const auto m = parse_udp(x);
      sent.emplace_back(m.type, m.flow->destination[2]);
    }
  }
  EXPECT_EQ(
      sent,
      (std::vector<std::pair<ArnType, int>>{{ArnType::failure_detected, 8}}));
  // A relayed congestion message finds no congestion relay to replace
  // when the quota is full of failures: it is dropped.
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId + 2,
                               wire::Ipv4Address{10, 0, 9, 1}),
                   us(31));  // the token
  leaf1.on_message(0,
                   udp_message(ArnType::failure_detected, 255, kId + 3,
                               wire::Ipv4Address{10, 0, 10, 1}),
                   us(32));  // waits
  leaf1.on_message(0,
                   udp_message(ArnType::congestion_detected, 130, kId + 4,
                               wire::Ipv4Address{10, 0, 11, 1}),
                   us(33));
  EXPECT_EQ(leaf1.counters().rate_limited, 2u);
}

// leaf1 reaches leaf2 through ports 0 and 1. A failure held on port 1
// leaves port 0: no propagation. A second failure, arriving on port 0,
// leaves none: it propagates. Once the first is eliminated, a third on
// port 0 finds port 1 free again. (Debug builds also check, at each
// question, the count of held path vetoes that spares the table scan
// when there are none.)
TEST(Receiver, ReroutesAroundOnlyTheVetoesItHolds) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  ArnEngine leaf1 = make(c);
  const PortId both[] = {0, 1};
  leaf1.set_next_hops(kLeaf2, both);
  const std::uint32_t a = path_id(101, 1), b = path_id(102, 1),
                      d = path_id(103, 1);

  leaf1.on_message(
      1, udp_message(ArnType::failure_detected, 255, a, kLeaf2Addr), us(0));
  Outputs out = leaf1.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{1, kLeaf2, VetoSource::arn, true}}));
  EXPECT_TRUE(out.transmits.empty());

  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, b, kLeaf2Addr), us(10));
  out = leaf1.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true}}));
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).path_id, b);

  leaf1.on_message(
      1, udp_message(ArnType::failure_eliminated, 0, a, kLeaf2Addr), us(20));
  out = leaf1.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{1, kLeaf2, VetoSource::arn, false}}));
  EXPECT_TRUE(out.transmits.empty());

  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, d, kLeaf2Addr), us(30));
  out = leaf1.drain();
  EXPECT_TRUE(out.transmits.empty());
  EXPECT_EQ(leaf1.counters().propagated, 1u);
}

// One failure, propagated by two neighbours (super-spines of one plane,
// seen from a spine of another PoD): the same Path ID and destination
// through ports 0 and 1 are two broken paths. The first copy vetoes port 0
// and leaves port 1; the second vetoes port 1 and leaves nothing, so it
// propagates. An elimination revokes only its own port's veto. (When the
// copies shared one entry, the second only refreshed the first's port:
// the spine kept sending into the dead plane.)
TEST(Receiver, OneMessageThroughTwoPortsVetoesBothPaths) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  ArnEngine spine = make(c);
  const PortId both[] = {0, 1};
  spine.set_next_hops(kLeaf2, both);
  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);

  spine.on_message(0, det, us(0));
  Outputs out = spine.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true}}));
  EXPECT_TRUE(out.transmits.empty());

  spine.on_message(1, det, us(1));
  out = spine.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{1, kLeaf2, VetoSource::arn, true}}));
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).path_id, kId);

  // A repeat through port 0 refreshes its own entry: nothing new.
  spine.on_message(0, det, us(2));
  out = spine.drain();
  EXPECT_TRUE(out.vetoes.empty());

  const Bytes elim =
      udp_message(ArnType::failure_eliminated, 0, kId, kLeaf2Addr);
  spine.on_message(1, elim, us(3));
  out = spine.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{1, kLeaf2, VetoSource::arn, false}}));
  EXPECT_EQ(out.transmits.size(), 1u);
  // Its copy through port 0 revokes that path, and is not passed on twice.
  spine.on_message(0, elim, us(4));
  out = spine.drain();
  EXPECT_EQ(out.vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, false}}));
  EXPECT_TRUE(out.transmits.empty());
  EXPECT_EQ(spine.counters().propagated, 2u);  // one detection, one elimination
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

// Entries that expire at one timer are revoked in table order, whatever
// order they were held or refreshed in, and next_deadline() follows the
// earliest expiry still held through refreshes and reuse.
TEST(Receiver, ExpiriesAtOneTimerAreRevokedInTableOrder) {
  ArnConfig c = leaf1_config();
  c.hold_time = us(500);
  ArnEngine leaf1 = make(c);
  auto detect = [&](PortId arrival, std::uint32_t reporter, Time now) {
    leaf1.on_message(arrival,
                     udp_message(ArnType::failure_detected, 255,
                                 path_id(reporter, 1), kLeaf2Addr),
                     now);
  };
  detect(0, 101, us(0));   // entry 0, until 500
  detect(1, 102, us(10));  // entry 1, until 510
  detect(2, 103, us(20));  // entry 2, until 520
  leaf1.on_timer(us(500));
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  EXPECT_EQ(leaf1.next_deadline(), us(510));
  detect(1, 102, us(501));  // entry 1 refreshed: until 1001
  detect(0, 104, us(502));  // entry 0 taken again: until 1002
  detect(2, 103, us(503));  // entry 2 refreshed: until 1003
  EXPECT_EQ(leaf1.next_deadline(), us(1001));
  (void)leaf1.drain();
  leaf1.on_timer(us(1000));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  leaf1.on_timer(us(1003));
  const Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 3u);
  EXPECT_EQ(out.vetoes[0].port, 0);  // 104's
  EXPECT_EQ(out.vetoes[1].port, 1);
  EXPECT_EQ(out.vetoes[2].port, 2);
  EXPECT_EQ(leaf1.counters().timed_out, 4u);
  EXPECT_EQ(leaf1.next_deadline(), Time::max());
}

// Copies of one detection arriving at the same time hold one entry once:
// it expires once, and the entry taken next is not freed with it.
TEST(Receiver, CopiesAtOneTimeExpireOnce) {
  ArnConfig c = leaf1_config();
  c.hold_time = us(500);
  ArnEngine leaf1 = make(c);
  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  for (int copy = 0; copy < 3; ++copy) leaf1.on_message(1, det, us(10));
  EXPECT_EQ(leaf1.counters().refreshed, 2u);
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  leaf1.on_timer(us(510));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  // The same entry, taken again by another reporter, lives its own time.
  leaf1.on_message(
      1,
      udp_message(ArnType::failure_detected, 255, path_id(102, 1), kLeaf2Addr),
      us(520));
  leaf1.on_timer(us(1000));
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  EXPECT_EQ(leaf1.next_deadline(), us(1020));
  leaf1.on_timer(us(1020));
  EXPECT_EQ(leaf1.counters().timed_out, 2u);
  EXPECT_EQ(leaf1.next_deadline(), Time::max());
}

// Entries freed at expiry are taken again, whether they sat in the middle
// of the table or at its end, and the table still holds max_entries.
TEST(Receiver, ExpiredEntriesAreReusedAnywhereInTheTable) {
  ArnConfig c = leaf1_config();
  c.max_entries = 2;
  c.hold_time = us(500);
  ArnEngine leaf1 = make(c);
  auto detect = [&](std::uint32_t reporter, Time now) {
    leaf1.on_message(0,
                     udp_message(ArnType::failure_detected, 255,
                                 path_id(reporter, 1), kLeaf2Addr),
                     now);
  };
  detect(101, us(0));    // the first entry
  detect(102, us(100));  // the second
  detect(103, us(200));  // the table is full
  EXPECT_EQ(leaf1.counters().table_full, 1u);
  leaf1.on_timer(us(500));  // the first entry expires; the second holds
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  EXPECT_EQ(leaf1.next_deadline(), us(600));
  detect(103, us(510));  // takes the first entry again
  EXPECT_EQ(leaf1.counters().table_full, 1u);
  // 101's entry is gone: its elimination finds nothing, not 103's entry
  // in the same slot.
  leaf1.on_message(
      0,
      udp_message(ArnType::failure_eliminated, 0, path_id(101, 1), kLeaf2Addr),
      us(515));
  EXPECT_EQ(leaf1.counters().stale_elimination, 1u);
  EXPECT_EQ(leaf1.counters().revoked, 0u);
  detect(104, us(520));  // full again
  EXPECT_EQ(leaf1.counters().table_full, 2u);
  leaf1.on_timer(us(600));  // the entry at the end expires
  EXPECT_EQ(leaf1.counters().timed_out, 2u);
  EXPECT_EQ(leaf1.next_deadline(), us(1010));  // the reused one is held
  detect(104, us(610));                        // takes the end again
  detect(105, us(620));                        // full
  EXPECT_EQ(leaf1.counters().table_full, 3u);
  EXPECT_EQ(leaf1.next_deadline(), us(1010));
  leaf1.on_timer(us(1010));
  EXPECT_EQ(leaf1.next_deadline(), us(1110));  // 104's, at the end
  leaf1.on_timer(us(1110));
  EXPECT_EQ(leaf1.counters().timed_out, 4u);
  EXPECT_EQ(leaf1.next_deadline(), Time::max());
  // Empty again: two new conditions fit.
  detect(106, us(1200));
  detect(107, us(1200));
  EXPECT_EQ(leaf1.counters().table_full, 3u);
}

// --- Flow objects (§3.1 "identifiers of flows").

// RoCEv2 (UDP 4791) from 10.0.1.5 to leaf2's 10.0.2.9, any source port.
wire::arn::FiveTuple roce_flow() {
  wire::arn::FiveTuple f;
  f.mask = wire::arn::kMaskProtocol | wire::arn::kMaskSource |
           wire::arn::kMaskDestination | wire::arn::kMaskDestinationPort;
  f.protocol = 17;
  f.source = {10, 0, 1, 5};
  f.destination = {10, 0, 2, 9};
  f.destination_port = 4791;
  return f;
}

FlowMatch roce_match() {
  FlowMatch m;
  m.fields =
      kMatchProtocol | kMatchSource | kMatchDestination | kMatchDestinationPort;
  m.key.protocol = 17;
  m.key.source = {10, 0, 1, 5};
  m.key.destination = {10, 0, 2, 9};
  m.key.destination_port = 4791;
  return m;
}

FlowOverrideChange flow_change(bool vetoed, std::uint8_t level,
                               PortId port = 0) {
  return {kLeaf2, roce_match(), port, VetoSource::arn, vetoed, level};
}

TEST(ReceiverFlow, FailureOfAFlowIsAFlowOverride) {
  ArnEngine leaf1 = make(leaf1_config());
  const Bytes det =
      udp_tuple_message(ArnType::failure_detected, 255, kId, roce_flow());
  leaf1.on_message(0, det, us(0));
  Outputs out = leaf1.drain();
  EXPECT_TRUE(out.vetoes.empty());  // the destination keeps the port
  EXPECT_TRUE(out.congestion.empty());
  EXPECT_EQ(out.flows, (std::vector<FlowOverrideChange>{flow_change(true, 0)}));
  EXPECT_EQ(leaf1.counters().flow_objects, 1u);
  leaf1.on_message(0, det, us(100));  // a repeat: refresh only
  EXPECT_TRUE(leaf1.drain().flows.empty());
  EXPECT_EQ(leaf1.counters().refreshed, 1u);
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_eliminated, 0, kId, roce_flow()),
      us(200));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{flow_change(false, 0)}));
  EXPECT_EQ(leaf1.counters().revoked, 1u);
}

TEST(ReceiverFlow, EliminationMustNameTheSameFiveTuple) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_detected, 255, kId, roce_flow()),
      us(0));
  // The destination object of the same Path ID is another condition.
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  Outputs out = leaf1.drain();
  EXPECT_EQ(out.flows.size(), 1u);
  EXPECT_EQ(out.vetoes.size(), 1u);
  wire::arn::FiveTuple other_port = roce_flow();
  other_port.destination_port = 4792;
  wire::arn::FiveTuple fewer_bits = roce_flow();
  fewer_bits.mask &= static_cast<std::uint8_t>(~wire::arn::kMaskSource);
  fewer_bits.source = {};
  for (const auto& f : {other_port, fewer_bits})
    leaf1.on_message(
        0, udp_tuple_message(ArnType::failure_eliminated, 0, kId, f), us(1));
  leaf1.on_message(0,
                   udp_tuple_message(ArnType::failure_eliminated, 0,
                                     path_id(102, 1), roce_flow()),
                   us(1));
  EXPECT_TRUE(leaf1.drain().flows.empty());
  EXPECT_EQ(leaf1.counters().stale_elimination, 3u);
  // Eliminating the destination object leaves the flow's override alone.
  leaf1.on_message(
      0, udp_message(ArnType::failure_eliminated, 0, kId, kLeaf2Addr), us(2));
  out = leaf1.drain();
  EXPECT_EQ(out.vetoes.size(), 1u);
  EXPECT_TRUE(out.flows.empty());
  // A wildcard field sent non-zero still names the same flow (normalised).
  wire::arn::FiveTuple noisy = roce_flow();
  noisy.source_port = 999;  // Mask says wildcard
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_eliminated, 0, kId, noisy), us(3));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{flow_change(false, 0)}));
}

TEST(ReceiverFlow, CongestionLevelAndTimeout) {
  ArnConfig c = leaf1_config();
  c.hold_time = us(300);
  ArnEngine leaf1 = make(c);
  leaf1.on_message(
      1, udp_tuple_message(ArnType::congestion_detected, 130, kId, roce_flow()),
      us(0));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{flow_change(false, 2, 1)}));
  leaf1.on_message(
      1, udp_tuple_message(ArnType::congestion_detected, 200, kId, roce_flow()),
      us(100));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{flow_change(false, 3, 1)}));
  EXPECT_EQ(leaf1.next_deadline(), us(400));
  leaf1.on_timer(us(399));
  EXPECT_TRUE(leaf1.drain().flows.empty());
  leaf1.on_timer(us(400));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{flow_change(false, 0, 1)}));
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
}

// Two reporters announce the same flow through the same port: the Fib has
// one override for (flow, port), which must hold until both are gone.
TEST(ReceiverFlow, ConditionsOfTwoReportersMerge) {
  ArnEngine leaf1 = make(leaf1_config());
  const std::uint32_t a = kId, b = path_id(102, 1);
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_detected, 255, a, roce_flow()),
      us(0));
  leaf1.on_message(
      0, udp_tuple_message(ArnType::congestion_detected, 64, b, roce_flow()),
      us(1));
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_eliminated, 0, a, roce_flow()),
      us(2));
  leaf1.on_message(
      0, udp_tuple_message(ArnType::congestion_eliminated, 0, b, roce_flow()),
      us(3));
  EXPECT_EQ(leaf1.drain().flows,
            (std::vector<FlowOverrideChange>{
                flow_change(true, 0), flow_change(true, 1),
                flow_change(false, 1), flow_change(false, 0)}));
}

TEST(ReceiverFlow, Ipv6FlowObject) {
  ArnEngine leaf1 = make(mixed_config());
  wire::arn::FiveTuple f;
  f.family = wire::arn::AddressFamily::ipv6;
  f.mask = wire::arn::kMaskAll;
  f.protocol = 6;
  f.source = v6(0, 1, 5).bytes;
  f.destination = v6(0, 2, 9).bytes;
  f.source_port = 40000;
  f.destination_port = 443;
  leaf1.on_message(0, udp_tuple_message(ArnType::failure_detected, 255, kId, f),
                   us(0));
  const Outputs out = leaf1.drain();
  ASSERT_EQ(out.flows.size(), 1u);
  const FlowOverrideChange& c = out.flows[0];
  EXPECT_EQ(c.destination, kLeaf2);  // 2001:db8:0:2::/64
  EXPECT_EQ(c.match.fields, kMatchAll);
  EXPECT_EQ(c.match.key.source, f.source);
  EXPECT_EQ(c.match.key.destination, f.destination);
  EXPECT_EQ(c.match.key.source_port, 40000);
  EXPECT_EQ(c.match.key.destination_port, 443);
  EXPECT_EQ(c.match.key.protocol, 6);
  EXPECT_TRUE(c.vetoed);
  // A flow to no known prefix: counted like a destination.
  f.destination = v6(0, 2, 9).bytes;
  f.destination[0] = 0x30;
  leaf1.on_message(0, udp_tuple_message(ArnType::failure_detected, 255, kId, f),
                   us(0));
  EXPECT_EQ(leaf1.counters().unknown_destination, 1u);
}

TEST(ReceiverFlow, TableFullMalformedAndIgnored) {
  ArnConfig c = leaf1_config();
  c.max_entries = 1;
  ArnEngine leaf1 = make(c);
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_detected, 255, kId, roce_flow()),
      us(0));
  wire::arn::FiveTuple second = roce_flow();
  second.source[3] = 6;
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_detected, 255, kId, second), us(0));
  EXPECT_EQ(leaf1.drain().flows.size(), 1u);
  EXPECT_EQ(leaf1.counters().table_full, 1u);
  // Opcode 3 (neither IPv4 nor IPv6): a parse error, as before.
  Bytes bad =
      udp_tuple_message(ArnType::failure_detected, 255, kId, roce_flow());
  bad[28 + 4] = static_cast<std::uint8_t>(3 << 4 | (bad[28 + 4] & 0x0f));
  leaf1.on_message(0, bad, us(0));
  EXPECT_EQ(leaf1.counters().malformed, 1u);
  // A flow without Destination: no group to act on.
  wire::arn::FiveTuple no_dst = roce_flow();
  no_dst.mask &= static_cast<std::uint8_t>(~wire::arn::kMaskDestination);
  leaf1.on_message(
      0, udp_tuple_message(ArnType::failure_detected, 255, kId, no_dst), us(0));
  EXPECT_EQ(leaf1.counters().ignored, 1u);
  EXPECT_TRUE(leaf1.drain().flows.empty());
}

}  // namespace
}  // namespace arfabric::proto::arn
