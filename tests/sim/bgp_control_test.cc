#include "sim/bgp_control.h"

#include <gtest/gtest.h>

#include "sim/clos_fixture.h"
#include "sim/flows.h"

namespace arfabric::sim {
namespace {

using testing::Clos;

// A 3-stage CLOS whose FIBs are filled by real BGP speakers (RFC 7938
// ASNs: leaves 65001.., spines 65100) over the simulated links.
struct BgpRun {
  Clos clos;
  EventQueue events;
  PacketPool pool;
  std::optional<Network> net;
  std::unique_ptr<BgpControl> bgp;
  std::optional<Flows> flows;
  BgpRun(std::size_t spines, std::size_t leaves, BgpControlConfig config = {},
         BitsPerSecond rate = gbps(400))
      : clos(spines, leaves, 1, rate, us(1)) {
    auto n = Network::create(clos.spec, events, pool);
    EXPECT_TRUE(n) << n.error().to_string();
    net.emplace(std::move(*n));
    std::vector<BgpSwitch> switches;
    for (std::size_t s = 0; s < spines; ++s) {
      switches.push_back({clos.spine(s), 65100,
                          static_cast<std::uint32_t>(0x0a000001 + s),
                          proto::fare::Role::spine, false, 0});
    }
    for (std::size_t l = 0; l < leaves; ++l) {
      switches.push_back({clos.leaf(l), static_cast<std::uint32_t>(65001 + l),
                          static_cast<std::uint32_t>(0x0a000101 + l),
                          proto::fare::Role::leaf, true,
                          static_cast<proto::NodeId>(l)});
    }
    auto b = BgpControl::create(*net, events, pool, switches, config);
    EXPECT_TRUE(b) << b.error().to_string();
    bgp = std::move(*b);
    net->set_control_handler(bgp.get());
    flows.emplace(*net, events, pool, transport::TransportConfig{});
    net->set_host_handler(&*flows);
    bgp->start(Time{});
  }
  void run_until(Time t) {
    while (!events.empty() && events.top().at <= t) {
      const Event e = events.pop();
      net->on_event(e);
      flows->on_event(e);
      bgp->on_event(e);
    }
  }
};

TEST(BgpControl, SessionsComeUpAndFibsFillWithEqualFareWeights) {
  BgpRun r(4, 3);
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  for (std::size_t l = 0; l < 3; ++l) {
    for (std::size_t d = 0; d < 3; ++d) {
      if (d == l) continue;
      const auto* route = r.bgp->installed(r.clos.leaf(l), d);
      ASSERT_NE(route, nullptr) << l << "->" << d;
      ASSERT_EQ(route->size(), 4u);
      for (const auto& [port, weight] : *route) EXPECT_EQ(weight, 65535u);
    }
  }
  // Traffic flows over the routes BGP installed.
  const FlowId f =
      r.flows->start(r.clos.host(0, 0), r.clos.host(2, 0), 1 << 20, ms(100));
  r.run_until(ms(200));
  EXPECT_NE(r.flows->stats(f).completed, Time::max());
  EXPECT_GT(r.bgp->counters().messages, 0u);
}

TEST(BgpControl, DegradedLinkChangesTheFarLeafsWeights) {
  BgpRun r(2, 2);
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  // Cable order per leaf: spine0, spine1, host. Leaf1-spine0 is cable 3.
  r.net->set_cable_rate(3, gbps(200));
  r.bgp->cable_rate(3, gbps(200), ms(100));
  r.run_until(ms(200));
  const auto* route = r.bgp->installed(r.clos.leaf(0), 1);
  ASSERT_NE(route, nullptr);
  ASSERT_EQ(route->size(), 2u);
  // Via spine0: min(400G, 200G) = 200G; via spine1: 400G -> 1:2.
  std::map<proto::PortId, std::uint32_t> w(route->begin(), route->end());
  const auto p0 = *r.net->port_toward(r.clos.leaf(0), r.clos.spine(0));
  const auto p1 = *r.net->port_toward(r.clos.leaf(0), r.clos.spine(1));
  EXPECT_EQ(w.at(p1), 65535u);
  EXPECT_EQ(w.at(p0), 32767u);
}

TEST(BgpControl, EcmpModeIgnoresTheDegradation) {
  BgpControlConfig c;
  c.fare = false;
  BgpRun r(2, 2, c);
  r.run_until(ms(100));
  r.net->set_cable_rate(3, gbps(200));
  r.bgp->cable_rate(3, gbps(200), ms(100));
  r.run_until(ms(200));
  const auto* route = r.bgp->installed(r.clos.leaf(0), 1);
  ASSERT_NE(route, nullptr);
  for (const auto& [port, weight] : *route) EXPECT_EQ(weight, 65535u);
}

TEST(BgpControl, LinkFailureConvergesInMillisecondsOfCpuAndFibDelay) {
  BgpControlConfig c;
  c.update_processing = us(200);
  c.fib_programming = ms(10);
  BgpRun r(2, 2, c);
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  const Time fail = ms(100);
  r.net->set_cable_up(3, false);  // leaf1 - spine0
  r.bgp->cable_down(3, fail);
  r.run_until(ms(300));
  const auto* route = r.bgp->installed(r.clos.leaf(0), 1);
  ASSERT_NE(route, nullptr);
  ASSERT_EQ(route->size(), 1u);
  EXPECT_EQ(route->front().first,
            *r.net->port_toward(r.clos.leaf(0), r.clos.spine(1)));
  // Detection + spine0's withdrawal (CPU) + leaf0's processing + FIB
  // programming: more than 10 ms, well under 100 ms.
  const Time converged = r.bgp->last_fib_change() - fail;
  EXPECT_GT(converged, ms(10));
  EXPECT_LT(converged, ms(100));
  // Messages lost with the link left nothing behind.
  EXPECT_TRUE(r.bgp->quiet());
}

}  // namespace
}  // namespace arfabric::sim
