#include "sim/bgp_control.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

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
  // With `multihome`, leaf 0's host also has a cable to leaf 1 (the last
  // cable): it is multi-homed, FIB destination `leaves`.
  BgpRun(std::size_t spines, std::size_t leaves, BgpControlConfig config = {},
         BitsPerSecond rate = gbps(400), bool multihome = false)
      : clos(spines, leaves, 1, rate, us(1)) {
    if (multihome) {
      clos.spec.cables.push_back({clos.host(0, 0), clos.leaf(1), rate, us(1)});
    }
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
  r.net->set_cable_rate(3, gbps(200), ms(100));
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
  r.net->set_cable_rate(3, gbps(200), ms(100));
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

// FARE-BGP section 4.1: a host multi-homed to leaf0 and leaf1, seen from
// leaf2. Leaf1-spine0 runs at 100G, everything else at 400G. Spine0
// weighs leaf0 400G : leaf1 100G and re-advertises their sum, 500G;
// spine1, 800G. Leaf2 divides what it receives by the two leaves before
// the minimum with its links: min(400G, 250G) : min(400G, 400G).
TEST(BgpControl, AMultiHomedHostsPathBandwidthIsDividedByItsLeaves) {
  BgpRun r(2, 3, {}, gbps(400), /*multihome=*/true);
  ASSERT_EQ(r.net->multihomed().size(), 1u);
  const proto::NodeId d = r.net->multihomed()[0].destination;
  EXPECT_EQ(d, 3u);
  EXPECT_EQ(r.net->fib_destination(r.clos.host(0, 0)), d);
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  // Cables per leaf: spine0, spine1, host. Leaf1-spine0 is cable 3.
  r.net->set_cable_rate(3, gbps(100), ms(100));
  r.bgp->cable_rate(3, gbps(100), ms(100));
  r.run_until(ms(200));

  const auto port = [&](NodeIndex from, NodeIndex to) {
    return *r.net->port_toward(from, to);
  };
  const auto* at_spine0 = r.bgp->installed(r.clos.spine(0), d);
  ASSERT_NE(at_spine0, nullptr);
  std::map<proto::PortId, std::uint32_t> s0(at_spine0->begin(),
                                            at_spine0->end());
  ASSERT_EQ(s0.size(), 2u);
  EXPECT_EQ(s0.at(port(r.clos.spine(0), r.clos.leaf(0))), 65535u);
  EXPECT_EQ(s0.at(port(r.clos.spine(0), r.clos.leaf(1))), 16383u);

  const auto* at_leaf2 = r.bgp->installed(r.clos.leaf(2), d);
  ASSERT_NE(at_leaf2, nullptr);
  std::map<proto::PortId, std::uint32_t> l2(at_leaf2->begin(), at_leaf2->end());
  ASSERT_EQ(l2.size(), 2u);
  EXPECT_EQ(l2.at(port(r.clos.leaf(2), r.clos.spine(1))), 65535u);
  EXPECT_EQ(l2.at(port(r.clos.leaf(2), r.clos.spine(0))), 40959u);  // 250/400

  // The host's own leaves keep their connected route: BGP (which sees
  // the other leaf's origination) never replaces it.
  EXPECT_EQ(r.bgp->installed(r.clos.leaf(0), d), nullptr);
  EXPECT_EQ(
      r.net->fib(r.clos.leaf(0)).routing_ports(d),
      std::vector<proto::PortId>{port(r.clos.leaf(0), r.clos.host(0, 0))});
  EXPECT_EQ(
      r.net->fib(r.clos.leaf(1)).routing_ports(d),
      std::vector<proto::PortId>{port(r.clos.leaf(1), r.clos.host(0, 0))});

  // Flows to and from it complete, over both of its uplinks.
  std::vector<FlowId> ids;
  for (int k = 0; k < 16; ++k) {
    ids.push_back(
        r.flows->start(r.clos.host(2, 0), r.clos.host(0, 0), 20'000, ms(200)));
    ids.push_back(
        r.flows->start(r.clos.host(0, 0), r.clos.host(2, 0), 20'000, ms(200)));
  }
  r.run_until(ms(300));
  for (FlowId f : ids) {
    EXPECT_NE(r.flows->stats(f).completed, Time::max()) << "flow " << f;
  }
  const auto uplink = [&](NodeIndex leaf) {
    return r.net
        ->link(r.net->out_links(
            r.clos.host(0, 0))[port(r.clos.host(0, 0), leaf) - 1])
        .counters()
        .packets;
  };
  EXPECT_GT(uplink(r.clos.leaf(0)), 0u);
  EXPECT_GT(uplink(r.clos.leaf(1)), 0u);
}

// FARE-BGP section 4.1 (Figure 1) exactly as the FARE engine's worked
// example computes it by hand (tests/proto/fare/policy_examples_test.cc):
// 4 spines, 8 leaves, every link 400G but L1-S1 at 200G, prefix P on a host
// multi-homed to L1 and L2. Here the numbers come out of real UPDATEs
// between simulated switches. S1 weighs L1 200G : L2 400G and re-advertises
// 600G; S2..S4 800G. L8 divides by the two leaves and takes the minimum
// with its 400G links: 300G : 400G : 400G : 400G, i.e. 3:4:4:4. The
// simulator scales a route's largest weight to 65535.
TEST(BgpControl, FareWeightsMatchTheDraftsThreeStageExample) {
  BgpRun r(4, 8, {}, gbps(400), /*multihome=*/true);
  const proto::NodeId p = r.net->multihomed()[0].destination;
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  // Cables per leaf: spine0..spine3, host; L1-S1 is cable 0.
  r.net->set_cable_rate(0, gbps(200), ms(100));
  r.bgp->cable_rate(0, gbps(200), ms(100));
  r.run_until(ms(200));
  const auto weights = [&](NodeIndex node) {
    std::map<NodeIndex, std::uint32_t> by_neighbour;
    const auto* route = r.bgp->installed(node, p);
    EXPECT_NE(route, nullptr);
    if (route == nullptr) return by_neighbour;
    for (const auto& [port, weight] : *route) {
      const LinkIndex link = r.net->out_links(node)[port - 1];
      by_neighbour[r.net->link(link).config().to] = weight;
    }
    return by_neighbour;
  };
  const std::map<NodeIndex, std::uint32_t> s1{{r.clos.leaf(0), 32767},
                                              {r.clos.leaf(1), 65535}};
  EXPECT_EQ(weights(r.clos.spine(0)), s1);
  for (std::size_t s = 1; s < 4; ++s) {
    const std::map<NodeIndex, std::uint32_t> equal{{r.clos.leaf(0), 65535},
                                                   {r.clos.leaf(1), 65535}};
    EXPECT_EQ(weights(r.clos.spine(s)), equal) << "spine " << s;
  }
  // 300/400 of 65535, rounded down.
  const std::map<NodeIndex, std::uint32_t> l8{{r.clos.spine(0), 49151},
                                              {r.clos.spine(1), 65535},
                                              {r.clos.spine(2), 65535},
                                              {r.clos.spine(3), 65535}};
  for (std::size_t l = 2; l < 8; ++l) {
    EXPECT_EQ(weights(r.clos.leaf(l)), l8) << "leaf " << l;
  }
}

// With every link equal and no event, FARE installs what ECMP does: the
// same members with the same weights, at every switch.
TEST(BgpControl, FareAndEcmpInstallTheSameRoutesOnEqualLinks) {
  BgpControlConfig ecmp;
  ecmp.fare = false;
  BgpRun f(4, 4), e(4, 4, ecmp);
  f.run_until(ms(100));
  e.run_until(ms(100));
  ASSERT_TRUE(f.bgp->all_established() && e.bgp->all_established());
  std::size_t routes = 0;
  for (NodeIndex n = 0; n < f.net->node_count(); ++n) {
    if (f.net->is_host(n)) continue;
    for (proto::NodeId d = 0; d < 4; ++d) {
      const auto* a = f.bgp->installed(n, d);
      const auto* b = e.bgp->installed(n, d);
      ASSERT_EQ(a == nullptr, b == nullptr) << "node " << n << " dest " << d;
      if (a == nullptr) continue;
      EXPECT_EQ(*a, *b) << "node " << n << " dest " << d;
      if (!a->empty()) ++routes;
    }
  }
  EXPECT_EQ(routes, 4u * 4u + 4u * 3u);  // spines: 4 each; leaves: 3 each
}

// The multi-homed host's cable to leaf0 fails: leaf0 withdraws the host's
// prefix and reaches it through the spines and leaf1 meanwhile; back up,
// its connected route returns and it originates the prefix again.
TEST(BgpControl, AMultiHomedHostsLeafWithdrawsItWhileItsCableIsDown) {
  BgpControlConfig c;
  c.update_processing = us(200);
  c.fib_programming = ms(10);
  BgpRun r(2, 3, c, gbps(400), /*multihome=*/true);
  const proto::NodeId d = r.net->multihomed()[0].destination;
  r.run_until(ms(100));
  ASSERT_TRUE(r.bgp->all_established());
  const auto port = [&](NodeIndex from, NodeIndex to) {
    return *r.net->port_toward(from, to);
  };
  const auto ports_of = [&](NodeIndex sw) {
    std::vector<proto::PortId> ports;
    for (const auto& [p, w] : *r.bgp->installed(sw, d)) ports.push_back(p);
    std::sort(ports.begin(), ports.end());
    return ports;
  };
  const NodeIndex host = r.clos.host(0, 0);
  EXPECT_EQ(ports_of(r.clos.spine(0)).size(), 2u);  // leaf0 and leaf1

  // Cables per leaf: spine0, spine1, host; the host-leaf0 cable is 2.
  r.net->set_cable_up(2, false);
  r.bgp->cable_down(2, ms(100));
  r.run_until(ms(200));
  EXPECT_EQ(ports_of(r.clos.spine(0)),
            std::vector<proto::PortId>{port(r.clos.spine(0), r.clos.leaf(1))});
  std::vector<proto::PortId> up{port(r.clos.leaf(0), r.clos.spine(0)),
                                port(r.clos.leaf(0), r.clos.spine(1))};
  std::sort(up.begin(), up.end());
  EXPECT_EQ(ports_of(r.clos.leaf(0)), up);
  EXPECT_EQ(r.net->fib(r.clos.leaf(0)).routing_ports(d), up);
  // Flows from leaf2's host reach it through leaf1.
  std::vector<FlowId> ids;
  for (int k = 0; k < 8; ++k) {
    ids.push_back(r.flows->start(r.clos.host(2, 0), host, 20'000, ms(200)));
  }
  r.run_until(ms(300));
  for (FlowId f : ids) {
    EXPECT_NE(r.flows->stats(f).completed, Time::max()) << "flow " << f;
  }

  r.net->set_cable_up(2, true);
  r.bgp->cable_up(2, ms(300));
  r.run_until(ms(400));
  EXPECT_EQ(r.net->fib(r.clos.leaf(0)).routing_ports(d),
            std::vector<proto::PortId>{port(r.clos.leaf(0), host)});
  EXPECT_EQ(ports_of(r.clos.spine(0)).size(), 2u);
  EXPECT_TRUE(r.bgp->quiet());
}

}  // namespace
}  // namespace arfabric::sim
