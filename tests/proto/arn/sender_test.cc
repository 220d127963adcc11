#include <gtest/gtest.h>

#include <set>

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

// The destinations of a message, as their last address byte.
std::vector<int> objects(const Outputs& out) {
  std::vector<int> v;
  for (const Transmit& t : out.transmits)
    v.push_back(parse_udp(t).flow->destination[2]);
  return v;
}

ArnConfig three_destinations_behind_port_1() {
  ArnConfig c = spine1_config();
  c.monitored[0].affected = {wire::Ipv4Address{10, 0, 2, 1},
                             wire::Ipv4Address{10, 0, 3, 1},
                             wire::Ipv4Address{10, 0, 4, 1}};
  return c;
}

// A message without a token waits for one instead of being dropped, and
// what waits goes before what a repetition adds: every object is heard of,
// in turn, however small the bucket.
TEST(Sender, MessagesWithoutATokenWaitTheirTurn) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 2;
  c.refill_interval = us(50);
  c.repeat_interval = us(100);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2, 3}));
  EXPECT_EQ(spine1.counters().waited, 1u);
  EXPECT_EQ(spine1.next_deadline(), us(50));  // the next token
  spine1.on_timer(us(50));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{4}));
  // The repetition at 100 us has one token: 2 goes, 3 and 4 wait, and
  // go at 150 and 200 us, before the next repetition's 2.
  EXPECT_EQ(spine1.next_deadline(), us(100));
  spine1.on_timer(us(100));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  spine1.on_timer(us(150));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{3}));
  spine1.on_timer(us(200));  // a token, and the repetition's three objects
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{4}));
  EXPECT_EQ(spine1.counters().rate_limited, 0u);
  EXPECT_EQ(spine1.counters().sent, 6u);
}

// A target's own refill interval (a slow link's): tokens earned at the
// old interval are kept, and the next ones come at the new one.
TEST(Sender, ATargetsRefillIntervalCanBeLengthened) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  ArnEngine spine1 = make(c);
  ASSERT_TRUE(spine1.set_refill_interval(0, us(40), us(0)));
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  EXPECT_EQ(spine1.next_deadline(), us(40));
  spine1.on_timer(us(40));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{3}));
  // At 50 us, back to 10 us: the 10 us since the last token count, so
  // the next is due at once, and goes.
  ASSERT_TRUE(spine1.set_refill_interval(0, us(10), us(50)));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{4}));
  EXPECT_EQ(spine1.counters().sent, 3u);
}

// The same interval again changes nothing: a degradation that keeps a
// link's rate must not restart the time toward its next token (set every
// 8 us with a 10 us interval, no token ever came).
TEST(Sender, TheSameRefillIntervalAgainChangesNothing) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  std::vector<int> sent;
  for (Time t = us(8); t <= us(24); t += us(8)) {
    while (spine1.next_deadline() <= t) {
      spine1.on_timer(spine1.next_deadline());
      for (int o : objects(spine1.drain())) sent.push_back(o);
    }
    ASSERT_TRUE(spine1.set_refill_interval(0, us(10), t));
    EXPECT_TRUE(spine1.drain().transmits.empty());
  }
  EXPECT_EQ(sent, (std::vector<int>{3, 4}));  // at 10 and 20 us
}

// A faster pace set long into a slow interval counts at most one new
// interval of that time: the deadline is never before the change.
TEST(Sender, AFasterRefillIntervalNeverDatesTheNextTokenBack) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  c.repeat_interval = ms(10);  // no repetition in the way
  c.hold_time = ms(50);
  ArnEngine spine1 = make(c);
  ASSERT_TRUE(spine1.set_refill_interval(0, us(720), us(0)));
  spine1.link_state(1, false, us(0));  // 2 goes, 3 and 4 wait
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  // 700 us into a 720 us interval, a 10 us one: one token's worth of
  // that time counts (3 goes at once), and the next token is 10 us on.
  ASSERT_TRUE(spine1.set_refill_interval(0, us(10), us(700)));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{3}));
  EXPECT_EQ(spine1.next_deadline(), us(710));
  spine1.on_timer(us(710));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{4}));
}

TEST(Sender, ARefillIntervalNeedsATargetAndAPositiveTime) {
  ArnEngine spine1 = make(spine1_config());
  const auto no_target = spine1.set_refill_interval(1, us(10), us(0));
  ASSERT_FALSE(no_target);
  EXPECT_EQ(no_target.error().field, "port");
  const auto zero = spine1.set_refill_interval(0, Time(), us(0));
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().field, "refill_interval");
  // Nothing changed: the default 5 us interval refills the one token.
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
}

// A newer message about a waiting object takes its place in the queue:
// the link's return turns the waiting detection into its elimination,
// sent when the waiting detection would have been.
TEST(Sender, ANewerMessageReplacesTheWaitingOne) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 1;
  c.refill_interval = us(50);
  c.elimination_repeats = 1;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  spine1.link_state(1, true, us(10));  // 3 and 4's detections still wait
  EXPECT_TRUE(spine1.drain().transmits.empty());
  EXPECT_EQ(spine1.counters().superseded, 2u);
  std::vector<std::pair<ArnType, int>> sent;
  for (Time t = us(50); t <= us(150); t += us(50)) {
    spine1.on_timer(t);
    for (const Transmit& x : spine1.drain().transmits) {
      const auto m = parse_udp(x);
      sent.emplace_back(m.type, m.flow->destination[2]);
    }
  }
  const std::vector<std::pair<ArnType, int>> want = {
      {ArnType::failure_eliminated, 3},
      {ArnType::failure_eliminated, 4},
      {ArnType::failure_eliminated, 2}};
  EXPECT_EQ(sent, want);
  EXPECT_EQ(spine1.next_deadline(), Time::max());
}

// The node's own messages are never dropped for want of a token, however
// many objects wait and however much faster repetitions come than tokens:
// each object waits once, in turn, and every one is heard of.
TEST(Sender, EveryObjectIsSentWhenRepetitionsOutrunTheTokens) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected.clear();
  for (std::uint8_t i = 0; i < 50; ++i)
    c.monitored[0].affected.push_back(wire::Ipv4Address{10, 1, i, 1});
  c.bucket_capacity = 1;
  c.refill_interval = us(1);
  c.repeat_interval = us(10);  // five repetitions for each drain
  c.max_waiting_relays = 0;    // relays only: ours still wait
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  std::set<int> heard;
  for (Time t = us(0); t <= us(60); t = spine1.next_deadline()) {
    spine1.on_timer(t);
    for (const Transmit& x : spine1.drain().transmits)
      heard.insert(parse_udp(x).flow->destination[2]);
  }
  EXPECT_EQ(heard.size(), 50u);
  EXPECT_EQ(spine1.counters().rate_limited, 0u);
}

// Each target has its own bucket and queue: messages waiting for one
// target do not hold back another's.
TEST(Sender, OneTargetsQueueDoesNotHoldBackAnother) {
  ArnConfig c = three_destinations_behind_port_1();
  c.port_count = 3;
  c.monitored.push_back({.port = 2, .affected = {kLeaf2Addr}});
  c.targets.push_back({.port = 1, .address = {10, 0, 9, 1}});
  c.bucket_capacity = 1;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));  // three for port 0's target only
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].port, 0u);
  spine1.link_state(2, false, us(1));  // to both targets
  out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].port, 1u);
  EXPECT_EQ(spine1.counters().waited, 3u);
}

// A failure on a congested port goes before the congestion messages that
// wait for the target (a failure black-holes traffic; congestion only
// slows it), and a repetition replaces its waiting messages in place.
// Strict priority: while failures' repetitions outrun the tokens,
// congestion waits.
TEST(Sender, AFailureGoesBeforeWaitingCongestion) {
  ArnConfig c = three_destinations_behind_port_1();
  c.bucket_capacity = 1;
  c.refill_interval = us(10);
  ArnEngine spine1 = make(c);
  spine1.observe(1, 1 << 20, 0.0, us(0));  // congested: 2 goes, 3 and 4 wait
  EXPECT_EQ(objects(spine1.drain()), (std::vector<int>{2}));
  spine1.link_state(1, false, us(1));  // the failure's 2, 3 and 4 wait
  std::vector<std::pair<ArnType, int>> sent;
  for (Time t = us(10); t <= us(60); t += us(10)) {
    spine1.on_timer(t);
    for (const Transmit& x : spine1.drain().transmits) {
      const auto m = parse_udp(x);
      sent.emplace_back(m.type, m.flow->destination[2]);
    }
  }
  const std::vector<std::pair<ArnType, int>> want = {
      {ArnType::failure_detected, 2},
      {ArnType::failure_detected, 3},
      {ArnType::failure_detected, 4},
      {ArnType::congestion_detected, 3},
      {ArnType::congestion_detected, 4}};
  EXPECT_EQ(sent, want);
}

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

// The repeated eliminations of an ended condition name the flows it
// announced: set_flows() while they repeat neither drops one of those
// (its receivers would wait hold_time) nor eliminates a flow never
// announced.
TEST(SenderFlow, EliminationsNameTheFlowsTheConditionAnnounced) {
  wire::arn::FiveTuple a;
  a.mask = wire::arn::kMaskDestination | wire::arn::kMaskSourcePort;
  a.destination = {10, 0, 2, 9};
  a.source_port = 5000;
  wire::arn::FiveTuple b = a;
  b.source_port = 5001;
  ArnConfig c = spine1_config();
  c.monitored[0].affected.clear();
  c.monitored[0].flows = {a};
  c.elimination_repeats = 2;
  ArnEngine spine1 = make(c);
  spine1.link_state(1, false, us(0));
  (void)spine1.drain();
  // b joins the list, to be announced from the next repetition; the
  // condition ends before it: b is eliminated nowhere.
  const wire::arn::FiveTuple both[] = {a, b};
  ASSERT_TRUE(spine1.set_flows(1, both, us(5)));
  spine1.link_state(1, true, us(10));  // the first elimination, of a
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(parse_udp(out.transmits[0]).flow->source_port, 5000);
  const wire::arn::FiveTuple next[] = {b};
  ASSERT_TRUE(spine1.set_flows(1, next, us(20)));
  EXPECT_TRUE(spine1.drain().transmits.empty());
  spine1.on_timer(us(110));
  out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  const auto m = parse_udp(out.transmits[0]);
  EXPECT_EQ(m.type, ArnType::failure_eliminated);
  EXPECT_EQ(m.flow->source_port, 5000);
  // A new condition announces the list as it is now.
  spine1.link_state(1, false, us(200));
  EXPECT_EQ(parse_udp(spine1.drain().transmits.at(0)).flow->source_port, 5001);
}

// Flow lists that change faster than the tokens allow cannot grow a
// queue without bound: messages about flows no longer listed are dropped
// first (counted `evicted`), and once the churn and the condition end,
// the queue drains in bounded time.
TEST(SenderFlow, ChurningFlowListsCannotGrowTheQueue) {
  ArnConfig c = spine1_config();
  c.monitored[0].affected.clear();
  c.repeat_interval = us(100);
  c.elimination_repeats = 1;
  ArnEngine spine1 = make(c);
  auto flows = [](int generation) {
    std::vector<wire::arn::FiveTuple> v(30);
    for (int i = 0; i < 30; ++i) {
      v[i].mask = wire::arn::kMaskDestination | wire::arn::kMaskSourcePort;
      v[i].destination = {10, 0, 2, 9};
      v[i].source_port = static_cast<std::uint16_t>(generation * 100 + i);
    }
    return v;
  };
  ASSERT_TRUE(spine1.set_flows(1, flows(0), us(0)));
  spine1.link_state(1, false, us(0));
  // 30 new flows every 50 us: 60 messages a repetition (30 detections,
  // then 30 eliminations), 20 tokens.
  Time now = us(0);
  for (int generation = 1; generation <= 40; ++generation) {
    const Time next = us(50 * generation);
    while (spine1.next_deadline() <= next) {
      now = spine1.next_deadline();
      spine1.on_timer(now);
    }
    now = next;
    ASSERT_TRUE(spine1.set_flows(1, flows(generation), now));
    (void)spine1.drain();
  }
  EXPECT_GT(spine1.counters().evicted, 0u);
  spine1.link_state(1, true, now);
  // Bounded: what waits (at most two messages a listed flow, 60) and the
  // one elimination drain in well under a millisecond at 5 us a token;
  // without the bound some 800 messages would wait 4 ms.
  const Time quiet_by = now + c.repeat_interval + us(500);
  while (spine1.next_deadline() <= quiet_by)
    spine1.on_timer(spine1.next_deadline());
  EXPECT_EQ(spine1.next_deadline(), Time::max());
}

}  // namespace
}  // namespace arfabric::proto::arn
