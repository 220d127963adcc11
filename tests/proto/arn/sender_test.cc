#include <gtest/gtest.h>

#include <map>

#include "proto/arn/arn_engine.h"
#include "proto/arn/arn_fixtures.h"

namespace arfabric::proto::arn {
namespace {

using namespace testing;
using wire::arn::ArnType;

TEST(Sender, NoNotificationWhenALocalAlternativeExists) {
  ArnEngine spine1 = make(spine1_config());
  spine1.set_local_alternatives(1, true, us(0));
  spine1.link_state(1, false, us(1));
  EXPECT_TRUE(spine1.drain().transmits.empty());
  EXPECT_EQ(spine1.counters().suppressed, 1u);
  EXPECT_EQ(spine1.next_deadline(), Time::max());
  spine1.on_timer(us(500));
  EXPECT_TRUE(spine1.drain().transmits.empty());
  // Recovery of a suppressed failure announces nothing either.
  spine1.link_state(1, true, us(600));
  EXPECT_TRUE(spine1.drain().transmits.empty());
}

TEST(Sender, LosingTheAlternativeStartsNotifying) {
  ArnEngine spine1 = make(spine1_config());
  spine1.set_local_alternatives(1, true, us(0));
  spine1.link_state(1, false, us(1));
  spine1.set_local_alternatives(1, false, us(7));
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).type, ArnType::failure_detected);
  EXPECT_EQ(spine1.next_deadline(), us(107));
}

TEST(Sender, RepeatsWhileTheConditionLastsThenEliminates) {
  ArnConfig c = spine1_config();
  c.repeat_interval = us(100);
  c.elimination_repeats = 2;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  std::vector<ArnType> types;
  auto collect = [&] {
    for (const Transmit& t : spine1.drain().transmits)
      types.push_back(parse_udp(t).type);
  };
  collect();
  for (int step = 1; step <= 3; ++step) {
    EXPECT_EQ(spine1.next_deadline(), us(100 * step));
    spine1.on_timer(us(100 * step));
    collect();
  }
  spine1.on_timer(us(350));  // not due: nothing
  collect();
  EXPECT_EQ(types.size(), 4u);  // at 0, 100, 200, 300
  spine1.link_state(1, true, us(360));
  collect();
  EXPECT_EQ(spine1.next_deadline(), us(460));
  spine1.on_timer(us(460));
  collect();
  EXPECT_EQ(spine1.next_deadline(), Time::max());
  const std::vector<ArnType> want = {
      ArnType::failure_detected,   ArnType::failure_detected,
      ArnType::failure_detected,   ArnType::failure_detected,
      ArnType::failure_eliminated, ArnType::failure_eliminated};
  EXPECT_EQ(types, want);
}

// The deadline follows every change of phase: a failure that returns
// while its elimination is being repeated, now with a local alternative,
// is suppressed, and nothing is left to send.
TEST(Sender, ASuppressedReturnLeavesNoDeadline) {
  ArnConfig c = spine1_config();
  c.repeat_interval = us(100);
  c.elimination_repeats = 3;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  spine1.link_state(1, true, us(50));  // eliminating: due again at 150
  EXPECT_EQ(spine1.next_deadline(), us(150));
  spine1.set_local_alternatives(1, true, us(60));
  spine1.link_state(1, false, us(70));  // suppressed
  EXPECT_EQ(spine1.counters().suppressed, 1u);
  EXPECT_EQ(spine1.next_deadline(), Time::max());
  (void)spine1.drain();
  spine1.on_timer(us(150));
  EXPECT_TRUE(spine1.drain().transmits.empty());
}

// The third octet of each message's destination: which object it names.
std::vector<int> objects_sent(ArnEngine& e) {
  std::vector<int> out;
  for (const Transmit& t : e.drain().transmits) {
    const auto m = parse_udp(t);
    out.push_back(m.flow ? m.flow->destination[2] : -1);
  }
  return out;
}

// 10.0.k.1 for k in [first, first + n): a port's affected destinations.
std::vector<IpAddress> destinations(int first, int n) {
  std::vector<IpAddress> out;
  for (int k = first; k < first + n; ++k)
    out.push_back(wire::Ipv4Address{10, 0, static_cast<std::uint8_t>(k), 1});
  return out;
}

// A round the bucket cannot pay for waits for the next token and goes on
// where it stopped; the next round begins after the last object sent. A
// round leaves one token for messages that cannot wait.
TEST(Sender, TokenBucketHoldsARoundUntilATokenIsBack) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = destinations(2, 3);
  c.bucket_capacity = 3;
  c.refill_interval = us(50);
  c.repeat_interval = us(100);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects_sent(spine1), (std::vector<int>{2, 3}));  // 3 - 1 kept
  EXPECT_EQ(spine1.counters().rounds_held, 1u);
  EXPECT_EQ(spine1.next_deadline(), us(50));  // a token is back
  spine1.on_timer(us(50));
  EXPECT_EQ(objects_sent(spine1), (std::vector<int>{4}));
  EXPECT_EQ(spine1.next_deadline(), us(100));  // the next round
  spine1.on_timer(us(100));
  EXPECT_EQ(objects_sent(spine1), (std::vector<int>{2}));  // one token
  EXPECT_EQ(spine1.next_deadline(), us(150));
  EXPECT_EQ(spine1.counters().sent, 4u);
  EXPECT_EQ(spine1.counters().rate_limited, 0u);  // nothing dropped
}

// More objects behind a port than a bucket holds: every one is announced,
// in every round, where the bucket's first 16 used to be all there ever
// was (the same 16 first, the rest dropped, at every repetition).
TEST(Sender, EveryObjectIsAnnouncedWhenThereAreMoreThanTheBucketHolds) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = destinations(2, 40);  // the bucket holds 16
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  std::vector<int> counts(42, 0);
  for (int k : objects_sent(spine1)) ++counts[k];
  while (spine1.next_deadline() <= us(1000)) {
    spine1.on_timer(spine1.next_deadline());
    for (int k : objects_sent(spine1)) ++counts[k];
  }
  // One token each 5 us: 15 (one kept) + 200 messages in 1 ms, rounds
  // of 40.
  EXPECT_EQ(spine1.counters().sent, 215u);
  for (int k = 2; k < 42; ++k) {
    EXPECT_GE(counts[k], 5) << "10.0." << k << ".1";
    EXPECT_LE(counts[k], 6) << "10.0." << k << ".1";
  }
}

// Ports that detect together share the targets' tokens in turn: neither
// is starved by the other coming first.
TEST(Sender, PortsDetectingTogetherShareTheTokens) {
  ArnConfig c = spine1_config();
  c.port_count = 3;
  c.monitored = {{.port = 1, .affected = destinations(10, 30)},
                 {.port = 2, .affected = destinations(50, 30)}};
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  spine1.link_state(2, false, us(0));
  int first = 0, second = 0;
  auto count = [&] {
    for (int k : objects_sent(spine1)) (k < 50 ? first : second) += 1;
  };
  count();
  EXPECT_EQ(first, 15);  // port 1 came first and took the bucket
  EXPECT_EQ(second, 0);
  while (spine1.next_deadline() <= us(2000)) {
    spine1.on_timer(spine1.next_deadline());
    count();
  }
  EXPECT_EQ(first + second, 15 + 400);  // one token each 5 us
  EXPECT_GE(second, 200);
  EXPECT_GE(first, 200);
}

// Detections at other times, and idle ports between the busy ones: the
// waiting conditions still wake together, at the token's time, and take
// the tokens in turn. (Waking each at its own detection time plus the
// refill interval, the first always got the token: 411 messages to 5.)
TEST(Sender, ConditionsWaitingAtOtherTimesShareTheTokens) {
  ArnConfig c = spine1_config();
  c.port_count = 12;
  c.monitored.clear();
  for (PortId p = 1; p <= 10; ++p) {
    c.monitored.push_back({.port = p, .affected = destinations(10 * p, 1)});
  }
  c.monitored[0].affected = destinations(100, 30);
  c.monitored[6].affected = destinations(150, 30);
  c.monitored[8].affected = destinations(200, 30);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  spine1.link_state(7, false, us(1));
  spine1.link_state(9, false, ns(3500));
  std::map<int, int> by_port;
  auto count = [&] {
    for (int k : objects_sent(spine1)) by_port[k / 50] += 1;
  };
  count();
  while (spine1.next_deadline() <= us(3000)) {
    spine1.on_timer(spine1.next_deadline());
    count();
  }
  // 15 + 600 messages over three ports: each has at least 180.
  EXPECT_EQ(by_port[2] + by_port[3] + by_port[4], 615);
  EXPECT_GE(by_port[2], 180);
  EXPECT_GE(by_port[3], 180);
  EXPECT_GE(by_port[4], 180);
}

// While a round waits for tokens, messages that cannot wait still find
// the one it leaves: the eliminations of the flows set_flows() drops.
TEST(Sender, ARoundLeavesATokenForEliminationsOfDroppedFlows) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = destinations(2, 40);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  (void)spine1.drain();  // 15 sent; the round waits
  wire::arn::FiveTuple flow;
  flow.family = wire::arn::AddressFamily::ipv4;
  flow.mask = wire::arn::kMaskDestination | wire::arn::kMaskDestinationPort;
  flow.destination = IpAddress(wire::Ipv4Address{10, 0, 2, 9}).bytes;
  flow.destination_port = 4791;
  ASSERT_TRUE(spine1.set_flows(1, std::vector{flow}, us(1)));
  (void)spine1.drain();
  ASSERT_TRUE(spine1.set_flows(1, {}, us(2)));  // its elimination goes
  const Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).type, ArnType::failure_eliminated);
  EXPECT_EQ(spine1.counters().rate_limited, 0u);
}

// Eliminations go round the objects the same way.
TEST(Sender, EliminationsOfManyObjectsAreHeldUpNotLost) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = destinations(2, 20);
  c.elimination_repeats = 1;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  while (spine1.next_deadline() <= us(200))
    spine1.on_timer(spine1.next_deadline());
  (void)spine1.drain();
  spine1.link_state(1, true, us(250));
  std::vector<int> eliminated;
  for (const Transmit& t : spine1.drain().transmits) {
    EXPECT_EQ(parse_udp(t).type, ArnType::failure_eliminated);
    eliminated.push_back(parse_udp(t).flow->destination[2]);
  }
  while (spine1.next_deadline() != Time::max()) {
    spine1.on_timer(spine1.next_deadline());
    for (const Transmit& t : spine1.drain().transmits)
      eliminated.push_back(parse_udp(t).flow->destination[2]);
  }
  std::ranges::sort(eliminated);
  std::vector<int> want;
  for (int k = 2; k < 22; ++k) want.push_back(k);
  EXPECT_EQ(eliminated, want);  // each once: one elimination round
}

// An IPv6 destination behind the port travels with Opcode 2 (IPv6) and
// reaches a receiver whose table has the IPv6 prefix, next to an IPv4 one.
TEST(Sender, Ipv6AffectedDestinationsEndToEnd) {
  const IpAddress leaf2_v6 = IpAddress::v6(
      {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1});
  ArnConfig s = spine1_config();
  s.monitored[0].affected = {leaf2_v6, kLeaf2Addr};
  ArnEngine spine1 = make(s);
  ArnConfig l = leaf1_config();
  l.destinations = {{.prefix = leaf2_v6, .length = 64, .node = kLeaf2},
                    {.prefix = kLeaf2Addr, .length = 24, .node = kLeaf2 + 1}};
  ArnEngine leaf1 = make(l);
  spine1.link_state(1, false, us(0));
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 2u);
  const auto m = parse_udp(out.transmits[0]);
  ASSERT_TRUE(m.flow);
  EXPECT_EQ(m.flow->family, wire::arn::AddressFamily::ipv6);
  EXPECT_EQ(m.flow->mask, wire::arn::kMaskDestination);
  EXPECT_EQ(m.flow->destination, leaf2_v6.bytes);
  EXPECT_EQ(parse_udp(out.transmits[1]).flow->family,
            wire::arn::AddressFamily::ipv4);
  for (const Transmit& t : out.transmits) leaf1.on_message(0, t.bytes, us(1));
  EXPECT_EQ(leaf1.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true},
                                     {0, kLeaf2 + 1, VetoSource::arn, true}}));
  spine1.link_state(1, true, us(5));
  EXPECT_EQ(deliver(spine1, 0, leaf1, 0, us(6)), 2u);
  EXPECT_EQ(leaf1.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, false},
                                     {0, kLeaf2 + 1, VetoSource::arn, false}}));
}

TEST(Sender, CongestionMetricAndUnmonitoredPorts) {
  ArnEngine spine1 = make(spine1_config());
  EXPECT_FALSE(spine1.observe(0, 1'000'000, 1.0, us(0)));
  EXPECT_FALSE(spine1.link_state(7, false, us(0)));
  EXPECT_TRUE(spine1.drain().transmits.empty());
  // Default marks: 256 KiB high; 3x the mark -> Metric 192 (level 3).
  EXPECT_TRUE(spine1.observe(1, 3 * 256 * 1024, 0.0, us(0)));
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  const auto m = parse_udp(out.transmits[0]);
  EXPECT_EQ(m.type, ArnType::congestion_detected);
  EXPECT_EQ(m.metric, 192);
}

// Flow objects: announced with the port's conditions, wildcards zeroed;
// set_flows() replaces them and eliminates dropped ones at once.
TEST(SenderFlow, FlowObjectsAreAnnouncedAndReplaced) {
  wire::arn::FiveTuple a;
  a.mask = wire::arn::kMaskDestination | wire::arn::kMaskSourcePort;
  a.destination = {10, 0, 2, 9};
  a.source_port = 5000;
  a.destination_port = 77;  // a wildcard: sent as zero
  wire::arn::FiveTuple b = a;
  b.source_port = 5001;
  ArnConfig c = spine1_config();
  c.monitored[0].affected.clear();
  c.monitored[0].flows = {a};
  ArnEngine spine1 = make(c);
  spine1.observe(1, 1 << 20, 0.0, us(0));  // congested
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  auto m = parse_udp(out.transmits[0]);
  EXPECT_EQ(m.type, ArnType::congestion_detected);
  ASSERT_TRUE(m.flow);
  EXPECT_EQ(m.flow->mask, a.mask);
  EXPECT_EQ(m.flow->source_port, 5000);
  EXPECT_EQ(m.flow->destination_port, 0);
  // The host's top flows change: a is eliminated now, b is announced from
  // the next repetition on.
  const wire::arn::FiveTuple next[] = {b};
  ASSERT_TRUE(spine1.set_flows(1, next, us(10)));
  out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  m = parse_udp(out.transmits[0]);
  EXPECT_EQ(m.type, ArnType::congestion_eliminated);
  EXPECT_EQ(m.flow->source_port, 5000);
  spine1.on_timer(us(100));
  out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  m = parse_udp(out.transmits[0]);
  EXPECT_EQ(m.type, ArnType::congestion_detected);
  EXPECT_EQ(m.flow->source_port, 5001);
  // Errors leave the flows as they were.
  EXPECT_EQ(spine1.set_flows(0, next, us(101)).error().field, "port");
  wire::arn::FiveTuple no_dst = b;
  no_dst.mask = wire::arn::kMaskSourcePort;
  const wire::arn::FiveTuple bad[] = {b, no_dst};
  EXPECT_EQ(spine1.set_flows(1, bad, us(101)).error().field, "flows[1].mask");
  spine1.on_timer(us(200));
  out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).flow->source_port, 5001);
}

}  // namespace
}  // namespace arfabric::proto::arn
