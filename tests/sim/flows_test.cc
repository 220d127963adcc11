#include "sim/flows.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/clos_fixture.h"

namespace arfabric::sim {
namespace {

using testing::Clos;
namespace fib = proto::fib;

struct FlowRun {
  EventQueue events;
  PacketPool pool;
  std::optional<Network> net;
  std::optional<Flows> flows;
  FlowRun(const Clos& c, transport::TransportConfig tc = {}) {
    auto n = Network::create(c.spec, events, pool);
    EXPECT_TRUE(n) << n.error().to_string();
    net.emplace(std::move(*n));
    c.install_routes(*net);
    EXPECT_TRUE(transport::validate(tc));
    flows.emplace(*net, events, pool, tc);
    net->set_host_handler(&*flows);
  }
  void run_until(Time t) {
    while (!events.empty() && events.top().at <= t) {
      const Event e = events.pop();
      net->on_event(e);
      flows->on_event(e);
    }
  }
};

TEST(Flows, OneFlowCompletesNearLineRate) {
  Clos c(2, 2, 1, gbps(100), us(1));
  FlowRun r(c);
  const FlowId f = r.flows->start(c.host(0, 0), c.host(1, 0), 4 << 20, Time{});
  r.run_until(sec(1));
  const FlowStats& s = r.flows->stats(f);
  ASSERT_NE(s.completed, Time::max());
  EXPECT_EQ(r.flows->payload_delivered(), 4u << 20);
  EXPECT_EQ(r.flows->receiver(f), nullptr);  // freed with the flow
  // 4 MiB at 100 Gb/s is 335.5 us of payload (plus headers and slow start);
  // it must finish within 2x that and not faster than the wire allows.
  EXPECT_GT(s.completed, us(335));
  EXPECT_LT(s.completed, us(700));
  EXPECT_EQ(r.pool.in_use(), 0u);
}

// A complete flow has freed its Receiver, but a late copy of its data
// (a retransmission still in the network) is answered as the receiver
// would: one ACK back to the sender, which is gone and ignores it.
TEST(Flows, ACompleteFlowStillAcksALateCopy) {
  Clos c(2, 2, 1, gbps(100), us(1));
  FlowRun r(c);
  const NodeIndex from = c.host(0, 0), to = c.host(1, 0);
  const FlowId f = r.flows->start(from, to, 64 << 10, Time{});
  r.run_until(sec(1));
  ASSERT_NE(r.flows->stats(f).completed, Time::max());
  ASSERT_EQ(r.flows->receiver(f), nullptr);
  const NetworkCounters before = r.net->counters();

  const PacketIndex copy = r.pool.allocate();
  Packet& p = r.pool[copy];
  p.kind = PacketKind::transport;
  p.source = from;
  p.destination = to;
  p.transport.flow = f;
  p.transport.seq = 3;
  p.transport.payload_bytes = 4096;
  r.flows->on_packet(to, copy, sec(1));
  EXPECT_EQ(r.net->counters().injected, before.injected + 1);  // the ACK
  r.run_until(sec(2));
  EXPECT_EQ(r.net->counters().delivered, before.delivered + 1);  // at `from`
  EXPECT_EQ(r.pool.in_use(), 0u);
  EXPECT_EQ(r.flows->payload_delivered(), 64u << 10);  // nothing new
}

// A completed flow's last timer event (its RTO, far away) is stale: many
// short flows one after another do not pile their timers up in the queue,
// and the ones left fire without effect.
TEST(Flows, CompletedFlowsLeaveNoTimersBehind) {
  Clos c(2, 2, 1, gbps(100), us(1));
  // A floor far beyond the whole run, so that no completed flow's timer
  // fires on its own meanwhile.
  transport::TransportConfig tc;
  tc.min_rto = ms(50);
  tc.initial_rto = ms(50);
  tc.max_rto = ms(100);
  FlowRun r(c, tc);
  Time now{};
  for (int i = 0; i < 3000; ++i) {
    const FlowId f = r.flows->start(c.host(0, 0), c.host(1, 0), 1000, now);
    // Run to its completion, not to its timer.
    while (r.flows->stats(f).completed == Time::max()) {
      const Event e = r.events.pop();
      r.net->on_event(e);
      r.flows->on_event(e);
    }
    now = r.events.now();
    // Live: nothing but (at most) the stale ones, purged at half the queue.
    ASSERT_LE(r.events.size(), 2100u) << "after flow " << i;
  }
  EXPECT_EQ(r.flows->active(), 0u);
  ASSERT_LT(now, ms(50));
  r.run_until(sec(10));  // what is left fires without effect
  EXPECT_TRUE(r.events.empty());
  EXPECT_EQ(r.pool.in_use(), 0u);
}

// A complete flow frees its Sender; its counters stay in the totals, and
// a running flow's count there too.
TEST(Flows, CompleteFlowsFreeTheirSendersAndKeepTheirCounts) {
  Clos c(2, 2, 1, gbps(100), us(1));
  FlowRun r(c);
  const FlowId small =
      r.flows->start(c.host(0, 0), c.host(1, 0), 64 << 10, Time{});
  const FlowId large =
      r.flows->start(c.host(1, 0), c.host(0, 0), 64 << 20, Time{});
  r.run_until(us(200));
  ASSERT_NE(r.flows->stats(small).completed, Time::max());
  ASSERT_EQ(r.flows->stats(large).completed, Time::max());
  EXPECT_EQ(r.flows->sender(small), nullptr);
  ASSERT_NE(r.flows->sender(large), nullptr);
  const std::uint64_t running = r.flows->sender(large)->counters().bytes_acked;
  EXPECT_GT(running, 0u);
  EXPECT_EQ(r.flows->sender_totals().bytes_acked, (64u << 10) + running);
  EXPECT_EQ(r.flows->sender_totals().packets_sent,
            16 + r.flows->sender(large)->counters().packets_sent);
  EXPECT_EQ(r.flows->receiver(small), nullptr);
  ASSERT_NE(r.flows->receiver(large), nullptr);
  EXPECT_EQ(r.flows->payload_delivered(),
            (64u << 10) + r.flows->receiver(large)->bytes_delivered());
  r.run_until(sec(1));
  EXPECT_EQ(r.flows->sender(large), nullptr);
  EXPECT_EQ(r.flows->sender_totals().bytes_acked, (64u << 10) + (64u << 20));
  EXPECT_EQ(r.flows->active(), 0u);
}

TEST(Flows, IncastSharesTheBottleneckAndDeliversEverything) {
  Clos c(2, 2, 4, gbps(100), us(1));
  c.spec.buffer_bytes = 512 * 1024;
  c.spec.ecn_threshold_bytes = 64 * 1024;
  FlowRun r(c);
  std::vector<FlowId> ids;
  for (std::size_t h = 0; h < 4; ++h) {
    ids.push_back(r.flows->start(c.host(0, h), c.host(1, 0), 2 << 20, Time{}));
  }
  r.run_until(sec(1));
  Time last{};
  for (FlowId f : ids) {
    ASSERT_NE(r.flows->stats(f).completed, Time::max());
    last = std::max(last, r.flows->stats(f).completed);
  }
  EXPECT_EQ(r.flows->payload_delivered(), 4u * (2u << 20));
  // 8 MiB through one 100G host link: at least 671 us.
  EXPECT_GT(last, us(671));
  // DCTCP reacted to the marks on the shared link.
  EXPECT_GT(r.flows->sender_totals().ecn_echoes, 0u);
  EXPECT_EQ(r.pool.in_use(), 0u);
}

// An incast onto one spine-leaf cable: each sender's source port is
// chosen so that its flow crosses spine2 -> leaf3 (the scenario's incast
// event does this). Unsteered, the same flows spread over every spine.
TEST(Flows, ASteeredIncastCrossesTheNamedCable) {
  Clos c(4, 4, 2, gbps(100), us(1));
  const std::size_t cable = 3 * (4 + 2) + 2;  // leaf3 - spine2
  const NodeIndex receiver = c.host(3, 0);
  // Packets that came down each spine's cable to leaf3.
  auto down_to_leaf3 = [&](bool steer) {
    FlowRun r(c);
    EXPECT_EQ(r.net->link(r.net->cable_links(cable)[0]).config().to,
              c.spine(2));
    // A host on leaf3 itself never crosses a spine's cable.
    EXPECT_FALSE(r.net->flow_hash_across(c.host(3, 1), receiver, cable));
    std::vector<FlowId> ids;
    for (std::size_t l = 0; l < 3; ++l) {
      for (std::size_t h = 0; h < 2; ++h) {
        const auto hash =
            r.net->flow_hash_across(c.host(l, h), receiver, cable);
        EXPECT_TRUE(hash) << "host " << l << "." << h;
        ids.push_back(r.flows->start(c.host(l, h), receiver, 64 << 10, Time{},
                                     steer ? hash.value_or(0) : 0));
      }
    }
    r.run_until(ms(10));
    for (FlowId f : ids) {
      EXPECT_NE(r.flows->stats(f).completed, Time::max()) << "flow " << f;
    }
    std::vector<std::uint64_t> packets;
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t k = 3 * (4 + 2) + s;
      packets.push_back(
          r.net->link(r.net->cable_links(k)[1]).counters().packets);
    }
    return packets;
  };
  const std::vector<std::uint64_t> steered = down_to_leaf3(true);
  EXPECT_EQ(steered[0], 0u);
  EXPECT_EQ(steered[1], 0u);
  EXPECT_GE(steered[2], 6u * ((64u << 10) / 4096u));
  EXPECT_EQ(steered[3], 0u);
  const std::vector<std::uint64_t> spread = down_to_leaf3(false);
  EXPECT_GE(std::count_if(spread.begin(), spread.end(),
                          [](std::uint64_t n) { return n > 0; }),
            2);
}

TEST(Flows, NothingIsSteeredWhenEveryPacketChoosesItsPath) {
  Clos c(4, 4, 2, gbps(100), us(1));
  c.spec.select_mode = fib::SelectMode::per_packet;
  FlowRun r(c);
  EXPECT_FALSE(
      r.net->flow_hash_across(c.host(0, 0), c.host(3, 0), 3 * (4 + 2) + 2));
}

TEST(Flows, LossOnADeadLinkIsRecoveredAfterRoutingMoves) {
  Clos c(2, 2, 1, gbps(100), us(1));
  FlowRun r(c);
  const FlowId f = r.flows->start(c.host(0, 0), c.host(1, 0), 8 << 20, Time{});
  r.run_until(us(100));
  // Cut both leaf0 uplinks' first spine: the flow's path may be either;
  // cut the one it uses and repair routing 50 us later.
  const auto port = *r.net->port_toward(c.leaf(0), c.spine(0));
  const bool uses_spine0 =
      r.net->link(r.net->out_links(c.leaf(0))[port - 1]).counters().packets > 0;
  const std::size_t cable = uses_spine0 ? 0 : 1;  // leaf0-spine0 / -spine1
  r.net->set_cable_up(cable, false);
  r.run_until(us(150));
  const fib::WeightedMember other{
      *r.net->port_toward(c.leaf(0), c.spine(uses_spine0 ? 1 : 0)), 1};
  ASSERT_TRUE(r.net->fib(c.leaf(0)).set_route(1, {&other, 1}, us(150)));
  // ACKs from leaf1 must avoid the dead spine too.
  const fib::WeightedMember back{
      *r.net->port_toward(c.leaf(1), c.spine(uses_spine0 ? 1 : 0)), 1};
  ASSERT_TRUE(r.net->fib(c.leaf(1)).set_route(0, {&back, 1}, us(150)));
  const fib::WeightedMember down{
      *r.net->port_toward(c.spine(uses_spine0 ? 1 : 0), c.leaf(0)), 1};
  ASSERT_TRUE(r.net->fib(c.spine(uses_spine0 ? 1 : 0))
                  .set_route(0, {&down, 1}, us(150)));
  r.run_until(sec(1));
  ASSERT_NE(r.flows->stats(f).completed, Time::max());
  EXPECT_EQ(r.flows->payload_delivered(), 8u << 20);
  EXPECT_GT(r.net->counters()
                .dropped[static_cast<std::size_t>(DropReason::link_down)],
            0u);
  EXPECT_GT(r.flows->sender_totals().retransmissions, 0u);
}

}  // namespace
}  // namespace arfabric::sim
