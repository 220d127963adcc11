// The draft's two worked examples, end to end between engines.
#include "proto/arn/arn_engine.h"

#include <gtest/gtest.h>

#include <random>

#include "proto/arn/arn_fixtures.h"
#include "proto/fib/fib.h"
#include "proto/fib/flow_hash.h"

namespace arfabric::proto::arn {
namespace {

using namespace testing;
using wire::arn::ArnType;

// §2 Figure 3: spine1 loses its link to leaf2 and has no local backup, so
// it tells leaf1, which vetoes (port to spine1, leaf2) and reroutes via
// spine2; the elimination restores the path.
TEST(SpineLeaf, Figure3FailureRerouteAndElimination) {
  ArnEngine spine1 = make(spine1_config());
  ArnEngine leaf1 = make(leaf1_config());
  const PortId kToSpine1 = 0, kToSpine2 = 1;
  const PortId leaf2_hops[] = {kToSpine1, kToSpine2};
  leaf1.set_next_hops(kLeaf2, leaf2_hops);

  spine1.link_state(1, false, us(10));
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].port, 0);  // toward leaf1
  const auto msg = parse_udp(out.transmits[0]);
  EXPECT_EQ(msg.type, ArnType::failure_detected);
  EXPECT_EQ(msg.metric, 255);
  EXPECT_EQ(msg.path_id, path_id(101, 1));  // 101 << 16 | 1 = 0x00650001
  ASSERT_TRUE(msg.flow);
  EXPECT_EQ(msg.flow->mask, wire::arn::kMaskDestination);
  EXPECT_EQ(msg.flow->destination[2], 2);  // 10.0.2.1

  leaf1.on_message(kToSpine1, out.transmits[0].bytes, us(11));
  Outputs got = leaf1.drain();
  ASSERT_EQ(got.vetoes.size(), 1u);
  EXPECT_EQ(got.vetoes[0],
            (VetoChange{kToSpine1, kLeaf2, VetoSource::arn, true}));
  EXPECT_TRUE(got.transmits.empty());  // leaf1 can reroute: no propagation
  EXPECT_TRUE(got.congestion.empty());

  // The link comes back: eliminations revoke the veto exactly once.
  spine1.link_state(1, true, us(50));
  EXPECT_EQ(deliver(spine1, 0, leaf1, kToSpine1, us(51)), 1u);
  got = leaf1.drain();
  ASSERT_EQ(got.vetoes.size(), 1u);
  EXPECT_EQ(got.vetoes[0],
            (VetoChange{kToSpine1, kLeaf2, VetoSource::arn, false}));
  for (Time t = us(150); t <= us(250); t += us(100)) {
    spine1.on_timer(t);
    EXPECT_EQ(deliver(spine1, 0, leaf1, kToSpine1, t), 1u);
  }
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(spine1.counters().sent, 4u);  // 1 detection + 3 eliminations
  EXPECT_EQ(spine1.next_deadline(), Time::max());
}

// §2 Figure 2: node1's link to group2 is congested; node1 notifies the
// other group1 nodes; node2 deprioritises (port to node1, group2
// destinations), so its group2 traffic prefers the path via node4 and
// group3, until the elimination.
TEST(Dragonfly, Figure2CongestionMovesTrafficUntilElimination) {
  constexpr NodeId kG2a = 21, kG2b = 22;
  ArnConfig n1;
  n1.node_id = 1;
  n1.port_count = 4;  // 0 node2, 1 node3, 2 node4, 3 group2
  n1.router_address = {10, 1, 0, 1};
  n1.monitored = {{.port = 3,
                   .affected = {wire::Ipv4Address{10, 2, 0, 1},
                                wire::Ipv4Address{10, 2, 0, 2}},
                   .queue_high_bytes = 100'000,
                   .queue_low_bytes = 20'000}};
  n1.targets = {{0, {10, 1, 0, 2}}, {1, {10, 1, 0, 3}}, {2, {10, 1, 0, 4}}};
  ArnEngine node1 = make(n1);

  ArnConfig n2;
  n2.node_id = 2;
  n2.port_count = 2;  // 0 node1, 1 node4 (toward group3)
  n2.router_address = {10, 1, 0, 2};
  n2.destinations = {{wire::Ipv4Address{10, 2, 0, 1}, 32, kG2a},
                     {wire::Ipv4Address{10, 2, 0, 2}, 32, kG2b}};
  ArnEngine node2 = make(n2);
  const PortId hops[] = {0, 1};
  node2.set_next_hops(kG2a, hops);
  node2.set_next_hops(kG2b, hops);

  // Queue at 2.5x the high mark: Metric = floor(64 * 2.5) = 160, level 2.
  node1.observe(3, 250'000, 0.5, us(0));
  Outputs out = node1.drain();
  ASSERT_EQ(out.transmits.size(), 6u);  // 2 destinations x 3 targets
  std::size_t to_node2 = 0;
  for (const Transmit& t : out.transmits) {
    const auto m = parse_udp(t);
    EXPECT_EQ(m.type, ArnType::congestion_detected);
    EXPECT_EQ(m.metric, 160);
    if (t.port != 0) continue;
    node2.on_message(0, t.bytes, us(1));
    ++to_node2;
  }
  EXPECT_EQ(to_node2, 2u);
  Outputs got = node2.drain();
  EXPECT_TRUE(got.vetoes.empty());  // congestion never removes a path
  ASSERT_EQ(got.congestion.size(), 2u);
  EXPECT_EQ(got.congestion[0], (CongestionChange{0, kG2a, VetoSource::arn, 2}));
  EXPECT_EQ(got.congestion[1], (CongestionChange{0, kG2b, VetoSource::arn, 2}));
  EXPECT_TRUE(got.transmits.empty());  // node2 reroutes via group3

  // Repetition refreshes without new records.
  node1.on_timer(us(100));
  EXPECT_EQ(deliver(node1, 0, node2, 0, us(101)), 2u);
  EXPECT_TRUE(node2.drain().congestion.empty());
  EXPECT_EQ(node2.counters().refreshed, 2u);

  // The queue drains below the low mark: elimination, level 0.
  node1.observe(3, 10'000, 0.1, us(150));
  EXPECT_EQ(deliver(node1, 0, node2, 0, us(151)), 2u);
  got = node2.drain();
  ASSERT_EQ(got.congestion.size(), 2u);
  EXPECT_EQ(got.congestion[0], (CongestionChange{0, kG2a, VetoSource::arn, 0}));
  EXPECT_EQ(got.congestion[1], (CongestionChange{0, kG2b, VetoSource::arn, 0}));
  EXPECT_EQ(node2.counters().revoked, 2u);
}

TEST(SpineLeaf, RawEthernetTransport) {
  ArnConfig s = spine1_config();
  s.transport = Transport::l2;
  s.mac = {0x02, 0, 0, 0, 1, 1};
  ArnConfig l = leaf1_config();
  l.transport = Transport::l2;
  ArnEngine spine1 = make(s);
  ArnEngine leaf1 = make(l);
  spine1.link_state(1, false, us(0));
  Outputs out = spine1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].transport, Transport::l2);
  auto frame = wire::arn::parse_l2(out.transmits[0].bytes);
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->destination, wire::arn::kDefaultGroupAddress);
  EXPECT_EQ(frame->source, s.mac);
  leaf1.on_message(0, out.transmits[0].bytes, us(1));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
}

// Flow-granular failure, sender to receiver to Fib: spine1 announces only
// RoCEv2 traffic to leaf2 (the host's choice of affected flows); leaf1
// moves exactly that traffic off spine1; other traffic to leaf2 stays.
TEST(SpineLeaf, FlowGranularNotificationMovesOnlyMatchingTraffic) {
  wire::arn::FiveTuple roce;
  roce.mask = wire::arn::kMaskProtocol | wire::arn::kMaskDestination |
              wire::arn::kMaskDestinationPort;
  roce.protocol = 17;
  roce.destination = {10, 0, 2, 1};
  roce.destination_port = 4791;
  ArnConfig s = spine1_config();
  s.monitored[0].affected.clear();
  s.monitored[0].flows = {roce};
  ArnEngine spine1 = make(s);
  ArnEngine leaf1 = make(leaf1_config());
  const PortId kToSpine1 = 0, kToSpine2 = 1;
  const fib::FibConfig fc{.max_destinations = kLeaf2 + 1, .table_size = 256};
  auto fib = fib::Fib::create(fc);
  auto reference = fib::Fib::create(fc);
  ASSERT_TRUE(fib && reference);
  const fib::WeightedMember spines[] = {{kToSpine1, 1}, {kToSpine2, 1}};
  ASSERT_TRUE(fib->set_route(kLeaf2, spines, Time()));
  ASSERT_TRUE(reference->set_route(kLeaf2, spines, Time()));
  auto apply_all = [&](const Outputs& out) {
    EXPECT_TRUE(out.vetoes.empty());
    for (const FlowOverrideChange& c : out.flows) ASSERT_TRUE(fib->apply(c));
  };

  spine1.link_state(1, false, us(0));
  EXPECT_EQ(deliver(spine1, 0, leaf1, kToSpine1, us(1)), 1u);
  const Outputs got = leaf1.drain();
  ASSERT_EQ(got.flows.size(), 1u);
  apply_all(got);
  EXPECT_EQ(fib->flow_override_count(), 1u);
  std::mt19937_64 rng(1);
  int roce_flows = 0;
  for (int i = 0; i < 4000; ++i) {
    FlowKey k;
    k.source = {10, 0, 1, static_cast<std::uint8_t>(rng())};
    k.destination = {10, 0, 2, 1};
    k.source_port = static_cast<std::uint16_t>(rng());
    const bool is_roce = rng() % 2;
    k.protocol = is_roce ? 17 : 6;
    k.destination_port = is_roce ? 4791 : 443;
    const auto h = fib::flow_hash(k, 0);
    const auto p = fib->select(kLeaf2, k, h, us(2), fib::SelectMode::per_flow);
    if (is_roce) {
      ++roce_flows;
      ASSERT_EQ(p, kToSpine2);
    } else {
      ASSERT_EQ(p,
                reference->select(kLeaf2, h, us(2), fib::SelectMode::per_flow));
    }
  }
  EXPECT_GT(roce_flows, 1000);
  // The link returns: the elimination removes the override.
  spine1.link_state(1, true, us(50));
  EXPECT_EQ(deliver(spine1, 0, leaf1, kToSpine1, us(51)), 1u);
  apply_all(leaf1.drain());
  EXPECT_EQ(fib->flow_override_count(), 0u);
}

}  // namespace
}  // namespace arfabric::proto::arn
