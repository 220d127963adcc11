#include <gtest/gtest.h>

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

TEST(Sender, TokenBucketLimitsEachTarget) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = {wire::Ipv4Address{10, 0, 2, 1},
                             wire::Ipv4Address{10, 0, 3, 1},
                             wire::Ipv4Address{10, 0, 4, 1}};
  c.bucket_capacity = 2;
  c.refill_interval = us(50);
  c.repeat_interval = us(100);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(spine1.drain().transmits.size(), 2u);  // 3 wanted, 2 tokens
  EXPECT_EQ(spine1.counters().rate_limited, 1u);
  // 100 us later two tokens have come back (one per 50 us).
  spine1.on_timer(us(100));
  EXPECT_EQ(spine1.drain().transmits.size(), 2u);
  EXPECT_EQ(spine1.counters().rate_limited, 2u);
  EXPECT_EQ(spine1.counters().sent, 4u);
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
