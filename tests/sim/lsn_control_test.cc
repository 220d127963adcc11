#include "sim/lsn_control.h"

#include <gtest/gtest.h>

#include <set>

#include "sim/clos_fixture.h"
#include "sim/control_mux.h"
#include "sim/loss_of_signal.h"

namespace arfabric::sim {
namespace {

using testing::Clos;

// A CLOS with static ECMP routes, loss-of-signal detection and LSN on
// every switch; no hosts' traffic (the runner tests cover that).
struct LsnFabric {
  Clos clos;
  EventQueue events;
  PacketPool pool;
  Network net;
  std::vector<proto::NodeId> leaf_id;
  ControlMux mux;
  LossOfSignal los;
  std::unique_ptr<LsnControl> lsn;
  std::vector<proto::NodeId> destinations;

  void install_routes(Time now) {
    for (std::size_t l = 0; l < clos.leaves; ++l) {
      const NodeIndex leaf = clos.leaf(l);
      std::vector<proto::fib::WeightedMember> up;
      for (std::size_t s = 0; s < clos.spines; ++s) {
        up.push_back({*net.port_toward(leaf, clos.spine(s)), 1});
      }
      for (proto::NodeId d : destinations) {
        if (d == l) continue;
        ASSERT_TRUE(net.fib(leaf).set_route(d, up, now));
      }
    }
  }

  // Leaves get equal-cost routes over every spine toward `destinations`
  // only (all of them would make set-up slow under the sanitizers, and
  // spines need none: nothing but LSN frames moves here).
  LsnFabric(std::size_t spines, std::size_t leaves,
            std::vector<proto::NodeId> destinations)
      : clos(spines, leaves, 1, gbps(400), ns(500)),
        net(*Network::create(clos.spec, events, pool)),
        leaf_id(net.node_count(), kNotLeaf),
        los(net, events, us(10), true),
        destinations(std::move(destinations)) {
    for (std::size_t l = 0; l < leaves; ++l) {
      leaf_id[clos.leaf(l)] = static_cast<proto::NodeId>(l);
    }
    install_routes(Time{});
    // A long period: the triggered frames are what the tests look at,
    // and 65,536 periodic frames per period are slow under the sanitizers.
    LsnControlConfig config;
    config.period = ms(1);
    auto created = LsnControl::create(net, events, pool, leaf_id, config);
    EXPECT_TRUE(created) << created.error().to_string();
    lsn = std::move(*created);
    mux.set_pool(pool);
    mux.set(ControlProtocol::lsn, lsn.get());
    net.set_control_handler(&mux);
    los.add_observer(*lsn);
    lsn->start(Time{});
  }
  void run_until(Time t) {
    testing::run_control_plane_until(events, net, los, *lsn, EventType::lsn, t);
  }
  std::size_t cable(NodeIndex a, NodeIndex b) { return clos.cable(a, b); }
  void set_cable(std::size_t c, bool up, Time now) {
    net.set_cable_up(c, up);
    los.cable_changed(c, up, now);
  }
  // Distinct ports in the member table of `node` toward leaf `dest`.
  std::set<proto::PortId> members(NodeIndex node, proto::NodeId dest) {
    std::set<proto::PortId> ports;
    const auto* table = net.fib(node).table(dest);
    if (table == nullptr || table->empty()) return ports;
    for (proto::PortId p : table->entries()) ports.insert(p);
    return ports;
  }
};

// draft-camarillo-rtgwg-lsn-00 §4 at full size: 256 spines, 256 leaves.
// Spine_A (spine 0) loses its link to Leaf_5. Every other leaf's group
// for Leaf_5 drops to 255 members (Spine_A is out); their groups for every
// other leaf keep all 256. After the link returns, the path stays out until
// routing re-installs it (§4.2).
TEST(LsnControl, Section4IllustrationAtFullSize) {
  LsnFabric f(256, 256, {0, 4, 5, 6, 255});
  f.run_until(us(50));
  const NodeIndex spine_a = f.clos.spine(0), leaf5 = f.clos.leaf(5);
  const NodeIndex ingress = f.clos.leaf(200);
  const proto::PortId via_a = *f.net.port_toward(ingress, spine_a);
  ASSERT_EQ(f.members(ingress, 5).size(), 256u);
  const std::size_t c = f.cable(spine_a, leaf5);
  f.set_cable(c, false, us(50));
  // Detection 10 us, one hop 0.5 us + 1.7 ns, processing 1 us.
  f.run_until(us(62));
  for (std::size_t l = 0; l < 256; ++l) {
    if (l == 5) continue;
    const NodeIndex leaf = f.clos.leaf(l);
    const auto five = f.members(leaf, 5);
    ASSERT_EQ(five.size(), 255u) << "leaf " << l;
    EXPECT_EQ(five.count(*f.net.port_toward(leaf, spine_a)), 0u);
    for (proto::NodeId d : {0u, 4u, 6u, 255u}) {
      if (d == l) continue;
      EXPECT_EQ(f.members(leaf, d).size(), 256u) << l << "->" << d;
    }
  }
  // Leaf_5 took its own dead port out (fast failover), for every leaf.
  EXPECT_EQ(f.members(leaf5, 0).size(), 255u);
  EXPECT_GT(f.lsn->counters().vetoes, 254u);

  // Recovery: reachable again, but nothing re-installs the route.
  f.set_cable(c, true, us(100));
  f.run_until(us(400));
  EXPECT_EQ(f.members(ingress, 5).size(), 255u);
  EXPECT_TRUE(f.net.fib(ingress).vetoed(5, via_a));
  // Routing re-installs it: the path returns.
  f.install_routes(us(400));
  EXPECT_EQ(f.members(ingress, 5).size(), 256u);
  EXPECT_FALSE(f.net.fib(ingress).vetoed(5, via_a));
}

// More than 256 leaves: the spines send one frame per Dev-Range, and a
// failure in the second range (leaf 280 = range 1, bit 24) is applied.
TEST(LsnControl, SeveralDevRanges) {
  LsnFabric f(2, 300, {24, 280});
  f.run_until(us(150));
  // Two ranges, per period, from 2 spines to 300 leaves: 2 x 300 x 2
  // frames per period at least.
  EXPECT_GE(f.lsn->counters().frames, 2u * 300u * 2u);
  const NodeIndex spine0 = f.clos.spine(0), leaf280 = f.clos.leaf(280);
  f.set_cable(f.cable(spine0, leaf280), false, us(150));
  f.run_until(us(200));
  for (std::size_t l : {0u, 100u, 299u}) {
    const NodeIndex leaf = f.clos.leaf(l);
    EXPECT_EQ(f.members(leaf, 280).size(), 1u) << l;
    EXPECT_TRUE(f.net.fib(leaf).vetoed(280, *f.net.port_toward(leaf, spine0)));
    EXPECT_EQ(f.members(leaf, 24).size(), 2u) << l;  // same bit, range 0
  }
}

TEST(LsnControl, RefusesAFabricWithoutLeaves) {
  Clos clos(2, 2, 1, gbps(100), ns(500));
  EventQueue events;
  PacketPool pool;
  Network net = *Network::create(clos.spec, events, pool);
  std::vector<proto::NodeId> none(net.node_count(), kNotLeaf);
  auto r = LsnControl::create(net, events, pool, none, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "lsn");
}

}  // namespace
}  // namespace arfabric::sim
