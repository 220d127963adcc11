#include "sim/network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "sim/clos_fixture.h"

namespace arfabric::sim {
namespace {

namespace fib = proto::fib;
using testing::Clos;
using testing::Sim;

TEST(Network, OneHopTimingIsSerialisationPlusPropagation) {
  Clos c(1, 1, 2, gbps(100), us(1));
  Sim r(c.spec);
  r.send(c.host(0, 0), c.host(0, 1), 1250, 1, Time{});
  r.run_until(sec(1));
  ASSERT_EQ(r.sink.got.size(), 1u);
  // 1250 B at 100 Gb/s = 100 ns per link, two links, 1 us each.
  EXPECT_EQ(r.sink.got[0].second, ns(100) * 2 + us(1) * 2);
  EXPECT_EQ(r.net->counters().packet_hops, 2u);
}

TEST(Network, BackToBackPacketsQueueBehindEachOther) {
  Clos c(1, 1, 2, gbps(100), us(1));
  Sim r(c.spec);
  for (int i = 0; i < 3; ++i)
    r.send(c.host(0, 0), c.host(0, 1), 1250, 1, Time{});
  r.run_until(sec(1));
  ASSERT_EQ(r.sink.got.size(), 3u);
  // Pipelined: the third leaves the host at 300 ns, the leaf at 400 ns.
  EXPECT_EQ(r.sink.got[2].second, ns(400) + us(2));
}

// A degraded cable under load: the packet being sent when the rate
// halves arrives later, its old arrival event is ignored (each packet
// arrives once), and the ones queued behind follow at the new rate.
TEST(Network, ARateChangeMovesThePacketOnTheWire) {
  Clos c(1, 1, 2, gbps(100), us(1));
  Sim r(c.spec);
  for (int i = 0; i < 3; ++i)
    r.send(c.host(0, 0), c.host(0, 1), 1250, 1, Time{});
  r.run_until(ns(50));
  const LinkIndex uplink = r.net->out_links(c.host(0, 0))[0];
  r.net->set_cable_rate(r.net->cable_of(uplink), gbps(50), ns(50));
  r.run_until(sec(1));
  ASSERT_EQ(r.sink.got.size(), 3u);
  // Off the host at 150, 350 and 550 ns; then 1 us, 100 ns at the leaf's
  // 100G and 1 us more.
  EXPECT_EQ(r.sink.got[0].second, ns(150) + ns(100) + us(2));
  EXPECT_EQ(r.sink.got[1].second, ns(350) + ns(100) + us(2));
  EXPECT_EQ(r.sink.got[2].second, ns(550) + ns(100) + us(2));
  EXPECT_EQ(r.net->counters().packet_hops, 6u);
  EXPECT_EQ(r.pool.in_use(), 0u);
}

TEST(Network, ClosDeliversEverythingAndSpreadsFlows) {
  Clos c(4, 4, 2, gbps(400), us(1));
  Sim r(c.spec);
  c.install_routes(*r.net);
  std::uint32_t sent = 0;
  for (FlowId f = 0; f < 400; ++f) {
    r.send(c.host(f % 4, 0), c.host((f + 1) % 4, 1), 4096, f, Time{});
    ++sent;
  }
  r.run_until(sec(1));
  EXPECT_EQ(r.sink.got.size(), sent);
  EXPECT_EQ(r.dropped(), 0u);
  EXPECT_EQ(r.pool.in_use(), 0u);
  // Every leaf->spine link carried some of the 400 flows.
  for (std::size_t li = 0; li < 4; ++li) {
    for (std::size_t si = 0; si < 4; ++si) {
      const auto port = *r.net->port_toward(c.leaf(li), c.spine(si));
      EXPECT_GT(r.net->link(r.net->out_links(c.leaf(li))[port - 1])
                    .counters()
                    .packets,
                10u);
    }
  }
  // Hosts -> leaf -> spine -> leaf -> host: four hops each.
  EXPECT_EQ(r.net->counters().packet_hops, 4u * sent);
}

// One flow's packets, by path selection mode (issue 5: per-flow hash,
// per-packet spray, flowlet): how many leave leaf0 toward each spine.
std::vector<std::uint64_t> one_flow_over_spines(fib::SelectMode mode,
                                                Time gap) {
  Clos c(4, 2, 1, gbps(400), us(1));
  c.spec.select_mode = mode;
  c.spec.fib.flowlet_gap = us(50);
  Sim r(c.spec);
  c.install_routes(*r.net);
  Time t{};
  for (int i = 0; i < 256; ++i, t += gap) {
    r.send(c.host(0, 0), c.host(1, 0), 4096, 7, t);
  }
  r.run_until(t + ms(1));
  EXPECT_EQ(r.sink.got.size(), 256u);
  std::vector<std::uint64_t> per_spine;
  for (std::size_t s = 0; s < 4; ++s) {
    const auto port = *r.net->port_toward(c.leaf(0), c.spine(s));
    per_spine.push_back(
        r.net->link(r.net->out_links(c.leaf(0))[port - 1]).counters().packets);
  }
  return per_spine;
}

std::size_t spines_used(const std::vector<std::uint64_t>& per_spine) {
  return static_cast<std::size_t>(
      std::count_if(per_spine.begin(), per_spine.end(),
                    [](std::uint64_t n) { return n > 0; }));
}

TEST(Network, PerFlowKeepsAFlowOnOnePath) {
  EXPECT_EQ(
      spines_used(one_flow_over_spines(fib::SelectMode::per_flow, us(100))),
      1u);
}

// Spraying walks the member table: 256 packets, one table of four equal
// members, 64 on each spine.
TEST(Network, PerPacketSprayingSpreadsAFlowEvenly) {
  EXPECT_EQ(one_flow_over_spines(fib::SelectMode::per_packet, ns(100)),
            (std::vector<std::uint64_t>{64, 64, 64, 64}));
}

// A flowlet moves only after an idle gap longer than flowlet_gap (50 us):
// back to back, the flow stays on one path; with 100 us between packets,
// every packet starts a flowlet and the flow spreads.
TEST(Network, FlowletsMoveOnlyAfterAnIdleGap) {
  EXPECT_EQ(
      spines_used(one_flow_over_spines(fib::SelectMode::flowlet, ns(100))), 1u);
  EXPECT_GT(
      spines_used(one_flow_over_spines(fib::SelectMode::flowlet, us(100))), 1u);
}

// Prefetching two or three events ahead changes speed only: a loaded
// CLOS (queues, drops, ECN, every select mode, a link failing midway)
// delivers the same packets at the same times with the same counters.
TEST(Network, PrefetchDepthChangesNothingButSpeed) {
  for (const auto mode :
       {fib::SelectMode::per_flow, fib::SelectMode::per_packet,
        fib::SelectMode::flowlet}) {
    std::vector<std::vector<std::pair<NodeIndex, Time>>> got;
    std::vector<NetworkCounters> counters;
    for (const std::uint8_t depth : {2, 3}) {
      Clos c(4, 6, 4, gbps(100), ns(300));
      c.spec.select_mode = mode;
      c.spec.prefetch_depth = depth;
      c.spec.buffer_bytes = 64 * 1024;
      c.spec.ecn_threshold_bytes = 16 * 1024;
      Sim r(c.spec);
      c.install_routes(*r.net);
      std::uint64_t x = 7;
      for (FlowId f = 0; f < 3000; ++f) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const auto from = static_cast<std::size_t>(x >> 33) % 24;
        const auto to =
            (from + 1 + static_cast<std::size_t>(x >> 45) % 23) % 24;
        r.send(c.host(from / 4, from % 4), c.host(to / 4, to % 4), 4096, f % 97,
               ns(static_cast<std::int64_t>(f) * 20));
      }
      r.run_until(us(20));
      r.net->set_cable_up(2, false);  // leaf 0 - spine 2
      r.run_until(sec(1));
      got.push_back(r.sink.got);
      counters.push_back(r.net->counters());
      EXPECT_GT(r.dropped(), 0u) << static_cast<int>(mode);
    }
    EXPECT_EQ(got[0], got[1]) << static_cast<int>(mode);
    EXPECT_EQ(counters[0], counters[1]) << static_cast<int>(mode);
  }
}

TEST(Network, DropTailAndEcnMarking) {
  Clos c(1, 2, 2, gbps(100), us(1));
  c.spec.buffer_bytes = 10 * 1000;
  c.spec.ecn_threshold_bytes = 5 * 1000;
  // The spine->leaf1 link is the bottleneck for two senders' bursts.
  Sim r(c.spec);
  c.install_routes(*r.net);
  for (int i = 0; i < 40; ++i) {
    r.send(c.host(0, i % 2), c.host(1, 0), 1000, i % 2, Time{});
  }
  r.run_until(sec(1));
  const auto overflow =
      r.net->counters()
          .dropped[static_cast<std::size_t>(DropReason::queue_overflow)];
  EXPECT_GT(overflow, 0u);
  EXPECT_EQ(r.sink.got.size() + overflow, 40u);
  std::size_t marked = 0;
  for (const Packet& p : r.sink.packets) marked += p.transport.ecn_ce;
  EXPECT_GT(marked, 0u);
  EXPECT_LT(marked, r.sink.packets.size());
}

TEST(Network, DeadLinkBlackHolesUntilRoutingMoves) {
  Clos c(2, 2, 1, gbps(100), us(1));
  Sim r(c.spec);
  c.install_routes(*r.net);
  // Cable order: leaf0-spine0 is cable 0.
  r.net->set_cable_up(0, false);
  for (FlowId f = 0; f < 100; ++f) {
    r.send(c.host(0, 0), c.host(1, 0), 1000, f, Time{});
  }
  r.run_until(sec(1));
  const auto down =
      r.net->counters()
          .dropped[static_cast<std::size_t>(DropReason::link_down)];
  EXPECT_GT(down, 0u);
  EXPECT_EQ(r.sink.got.size() + down, 100u);
  // Routing removes the dead path: nothing is lost any more.
  const fib::WeightedMember via1{*r.net->port_toward(c.leaf(0), c.spine(1)), 1};
  ASSERT_TRUE(r.net->fib(c.leaf(0)).set_route(1, {&via1, 1}, us(1)));
  const std::size_t before = r.sink.got.size();
  for (FlowId f = 0; f < 100; ++f) {
    r.send(c.host(0, 0), c.host(1, 0), 1000, f, sec(1));
  }
  r.run_until(sec(2));
  EXPECT_EQ(r.sink.got.size(), before + 100);
}

TEST(Network, InFlightPacketsAreLostWhenTheLinkDies) {
  Clos c(1, 2, 1, gbps(1), us(100));
  Sim r(c.spec);
  c.install_routes(*r.net);
  for (int i = 0; i < 10; ++i)
    r.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{});
  r.run_until(us(150));  // some are on the leaf0->spine cable
  r.net->set_cable_up(0, false);
  r.run_until(sec(1));
  const auto down =
      r.net->counters()
          .dropped[static_cast<std::size_t>(DropReason::link_down)];
  EXPECT_GT(down, 0u);
  EXPECT_EQ(r.sink.got.size() + down, 10u);
  EXPECT_EQ(r.pool.in_use(), 0u);
}

// A routing loop (leaf0 sends leaf1's traffic to the spine, which sends
// it back) ends when the TTL does: the packet reaches a switch 64 times,
// is forwarded 63 times and dropped on the 64th arrival, without a
// lookup.
TEST(Network, APacketInARoutingLoopDiesWithItsTtl) {
  Clos c(1, 2, 1, gbps(100), us(1));
  Sim r(c.spec);
  const fib::WeightedMember up{*r.net->port_toward(c.leaf(0), c.spine(0)), 1};
  const fib::WeightedMember back{*r.net->port_toward(c.spine(0), c.leaf(0)), 1};
  ASSERT_TRUE(r.net->fib(c.leaf(0)).set_route(1, {&up, 1}, Time{}));
  ASSERT_TRUE(r.net->fib(c.spine(0)).set_route(1, {&back, 1}, Time{}));
  r.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{});
  r.run_until(sec(1));
  const auto& counters = r.net->counters();
  EXPECT_EQ(counters.dropped[static_cast<std::size_t>(DropReason::ttl_expired)],
            1u);
  EXPECT_EQ(counters.packet_hops, 64u);
  EXPECT_EQ(r.sink.got.size(), 0u);
  EXPECT_EQ(r.pool.in_use(), 0u);
  const auto selections = [&](NodeIndex sw) {
    const auto& s = r.net->fib(sw).counters().selections;
    return s[static_cast<std::size_t>(fib::SelectMode::per_flow)];
  };
  EXPECT_EQ(selections(c.leaf(0)) + selections(c.spine(0)), 63u);
  EXPECT_EQ(drop_reason_name(DropReason::ttl_expired), "ttl_expired");
}

TEST(Network, NoRouteIsCounted) {
  Clos c(1, 2, 1, gbps(100), us(1));
  Sim r(c.spec);
  r.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{});
  r.run_until(sec(1));
  EXPECT_EQ(
      r.net->counters().dropped[static_cast<std::size_t>(DropReason::no_route)],
      1u);
}

TEST(Network, RandomLossIsCountedAndDeterministic) {
  auto run = [] {
    Clos c(2, 2, 1, gbps(100), us(1));
    for (auto& cable : c.spec.cables) cable.drop_probability = 0.2;
    c.spec.seed = 42;
    Sim r(c.spec);
    c.install_routes(*r.net);
    for (FlowId f = 0; f < 1000; ++f) {
      r.send(c.host(0, 0), c.host(1, 0), 1000, f, Time{});
    }
    r.run_until(sec(1));
    const auto lost =
        r.net->counters()
            .dropped[static_cast<std::size_t>(DropReason::link_error)];
    EXPECT_EQ(r.sink.got.size() + lost, 1000u);
    EXPECT_EQ(r.pool.in_use(), 0u);
    return lost;
  };
  const auto lost = run();
  // Four hops at 20 %: 1 - 0.8^4 = 59 % lost on average.
  EXPECT_GT(lost, 500u);
  EXPECT_LT(lost, 680u);
  EXPECT_EQ(run(), lost);
}

// Nodes with different port counts (spines, leaves, hosts; cables given
// out of node order): port p of every node is its p-th cable's link away
// from it, arriving at the far end on the port that leads back; ports
// past the last are refused.
TEST(Network, EveryNodesPortsAreItsOwnLinksInCableOrder) {
  EventQueue e;
  PacketPool p;
  NetworkSpec s;
  // 0, 1: spines; 2, 3: leaves; 4, 5, 6: hosts (two on leaf 2).
  s.nodes = {{false, 0}, {false, 0}, {false, 0}, {false, 1},
             {true, 0},  {true, 0},  {true, 0}};
  s.cables = {{4, 2, gbps(100), us(1)}, {2, 0, gbps(100), us(1)},
              {3, 1, gbps(100), us(1)}, {6, 3, gbps(100), us(1)},
              {2, 1, gbps(100), us(1)}, {0, 3, gbps(100), us(1)},
              {5, 2, gbps(100), us(1)}};
  auto net = Network::create(s, e, p);
  ASSERT_TRUE(net) << net.error().to_string();
  const std::vector<std::size_t> ports = {2, 2, 4, 3, 1, 1, 1};
  for (NodeIndex n = 0; n < s.nodes.size(); ++n) {
    const auto out = net->out_links(n);
    ASSERT_EQ(out.size(), ports[n]) << "node " << n;
    ASSERT_EQ(net->neighbours(n).size(), ports[n]) << "node " << n;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const Link& l = net->link(out[i]);
      EXPECT_EQ(l.config().from, n);
      EXPECT_EQ(l.config().to, net->neighbours(n)[i]);
      EXPECT_EQ(l.from_host(), net->is_host(n));
      EXPECT_EQ(l.to_host(), net->is_host(l.to()));
      EXPECT_EQ(net->port_toward(l.config().to, n), l.config().to_port);
    }
    if (net->is_host(n)) continue;
    const PacketIndex beyond = p.allocate();
    p[beyond].kind = PacketKind::control;
    EXPECT_FALSE(net->send_control(n, static_cast<proto::PortId>(ports[n] + 1),
                                   beyond, Time{}));
    EXPECT_FALSE(net->send_control(n, 0, beyond, Time{}));
    EXPECT_TRUE(net->send_control(n, static_cast<proto::PortId>(ports[n]),
                                  beyond, Time{}));
  }
  // Leaf 2's ports in cable order: host 4, spine 0, spine 1, host 5.
  EXPECT_EQ(net->neighbours(2), (std::vector<NodeIndex>{4, 0, 1, 5}));
}

// Host 4 is on leaf 0 only; host 5 on leaves 0 and 1 (leaf 1 has no
// other host, so its id is in routing but not among the hosts' leaves).
TEST(Network, AMultiHomedHostIsADestinationAfterEveryLeaf) {
  NetworkSpec s;
  s.nodes = {{false, 0}, {false, 0}, {false, 1}, {false, 2},
             {true, 0},  {true, 0}};  // spine 0; leaves 1, 2, 3 (ids 0, 1, 2)
  s.cables = {{1, 0, gbps(100), us(1)}, {2, 0, gbps(100), us(1)},
              {3, 0, gbps(100), us(1)}, {4, 1, gbps(100), us(1)},
              {5, 1, gbps(100), us(1)}, {5, 2, gbps(100), us(1)}};
  s.fib.table_size = 64;
  Sim r(s);
  ASSERT_EQ(r.net->multihomed().size(), 1u);
  const auto& m = r.net->multihomed()[0];
  EXPECT_EQ(m.host, 5u);
  EXPECT_EQ(m.destination, 3u);  // after leaf ids 0..2, not after 0
  EXPECT_EQ(m.leaves, (std::vector<NodeIndex>{1, 2}));
  EXPECT_EQ(r.net->fib_destination(5), 3u);
  EXPECT_EQ(r.net->fib_destination(4), 0u);
  EXPECT_TRUE(r.net->is_host(5));
  // Its leaves reach it over their own port from the start.
  for (NodeIndex leaf : {1u, 2u}) {
    EXPECT_EQ(r.net->fib(leaf).routing_ports(3),
              std::vector<proto::PortId>{*r.net->port_toward(leaf, 5)});
  }
  // Host 4 -> host 5 through leaf 1's connected route; host 5 sends each
  // flow on one uplink, both in use over many flows.
  for (FlowId f = 0; f < 64; ++f) r.send(4, 5, 1000, f, Time{});
  for (FlowId f = 0; f < 64; ++f) r.send(5, 4, 1000, f, Time{});
  // Leaf 2 reaches host 4 through the spine.
  const fib::WeightedMember up{*r.net->port_toward(2, 0), 1};
  ASSERT_TRUE(r.net->fib(2).set_route(0, {&up, 1}, Time{}));
  const fib::WeightedMember down{*r.net->port_toward(0, 1), 1};
  ASSERT_TRUE(r.net->fib(0).set_route(0, {&down, 1}, Time{}));
  r.run_until(sec(1));
  EXPECT_EQ(r.sink.got.size(), 128u);
  EXPECT_EQ(r.dropped(), 0u);
  const auto uplink_packets = [&](NodeIndex leaf) {
    const auto out = r.net->out_links(5);
    return r.net->link(out[*r.net->port_toward(5, leaf) - 1])
        .counters()
        .packets;
  };
  EXPECT_GT(uplink_packets(1), 0u);
  EXPECT_GT(uplink_packets(2), 0u);
  EXPECT_EQ(uplink_packets(1) + uplink_packets(2), 64u);
}

TEST(Network, BadSpecsAreRejected) {
  EventQueue e;
  PacketPool p;
  NetworkSpec s;
  s.nodes = {{false, 0}, {true, 0}};
  s.cables = {{0, 5, gbps(1), us(1)}};
  EXPECT_EQ(Network::create(s, e, p).error().field, "cables[0]");
  s.cables = {{0, 1, 0, us(1)}};
  EXPECT_EQ(Network::create(s, e, p).error().field, "cables[0].rate");
  s.cables = {{0, 1, gbps(1), us(1), 1.5}};
  EXPECT_EQ(Network::create(s, e, p).error().field,
            "cables[0].drop_probability");
  s.cables = {};
  EXPECT_EQ(Network::create(s, e, p).error().field, "nodes[1]");
  s.cables = {{0, 1, gbps(1), us(1)}};
  s.prefetch_depth = 1;
  const auto depth = Network::create(s, e, p);
  ASSERT_FALSE(depth);
  EXPECT_EQ(depth.error().to_string(),
            "prefetch_depth: is 1; must be 2, 3 or 0 (automatic)");
}

TEST(EventQueue, OrdersByTimeThenInsertion) {
  EventQueue q;
  std::mt19937 rng(7);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    q.push(ns(rng() % 50), EventType::flow_timer, i, 0);
  }
  Time last{};
  std::uint32_t last_seq_at_time = 0;
  bool first = true;
  while (!q.empty()) {
    const Event e = q.pop();
    ASSERT_GE(e.at, last);
    if (!first && e.at == last) {
      ASSERT_GT(e.a, last_seq_at_time);
    }
    last = e.at;
    last_seq_at_time = e.a;
    first = false;
  }
}

}  // namespace
}  // namespace arfabric::sim
