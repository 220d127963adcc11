#include "sim/arn_control.h"

#include <gtest/gtest.h>

#include "sim/clos_fixture.h"
#include "sim/control_mux.h"
#include "sim/loss_of_signal.h"

namespace arfabric::sim {
namespace {

using testing::Clos;

// A CLOS with static routes (Clos::install_routes: leaves over every
// spine, spines straight down) and ARN on every switch; no hosts' traffic
// (the runner tests cover that).
struct ArnFabric {
  Clos clos;
  EventQueue events;
  PacketPool pool;
  Network net;
  std::vector<proto::NodeId> leaf_id;
  ControlMux mux;
  LossOfSignal los;
  std::unique_ptr<ArnControl> arn;

  ArnFabric(std::size_t spines, std::size_t leaves)
      : clos(spines, leaves, 1, gbps(400), ns(500)),
        net(*Network::create(clos.spec, events, pool)),
        leaf_id(net.node_count(), kNotLeaf),
        los(net, events, us(10), true) {
    for (std::size_t l = 0; l < leaves; ++l) {
      leaf_id[clos.leaf(l)] = static_cast<proto::NodeId>(l);
    }
    clos.install_routes(net);
    ArnControlConfig config;
    config.sample_interval = Time{};  // failures only: no congestion
    auto created =
        ArnControl::create(net, events, pool, leaf_id, config, Time{});
    EXPECT_TRUE(created) << created.error().to_string();
    arn = std::move(*created);
    mux.set_pool(pool);
    mux.set(ControlProtocol::arn, arn.get());
    net.set_control_handler(&mux);
    los.add_observer(*arn);
  }
  void run_until(Time t) {
    testing::run_control_plane_until(events, net, los, *arn, EventType::arn, t);
  }
  std::size_t cable(NodeIndex a, NodeIndex b) { return clos.cable(a, b); }
};

// A spine's 40 ports each have one leaf behind them and no other way to
// it: its buckets hold a repetition of both conditions of every port (80
// messages) with 16 to spare, and refill within a repeat interval.
TEST(ArnControl, BucketsHoldARepetitionOfEveryMonitoredPort) {
  ArnFabric f(2, 40);
  const proto::arn::ArnConfig& spine = f.arn->engine(f.clos.spine(0)).config();
  ASSERT_EQ(spine.monitored.size(), 40u);
  EXPECT_EQ(spine.bucket_capacity, 2u * 40u + 16u);
  EXPECT_EQ(spine.refill_interval, ps(us(100).ps() / 80));
  // A leaf's 2 uplinks have 39 leaves behind each.
  const proto::arn::ArnConfig& leaf = f.arn->engine(f.clos.leaf(0)).config();
  EXPECT_EQ(leaf.bucket_capacity, 2u * 2u * 39u + 16u);
}

// Twenty of a spine's ports fail at once: every leaf hears of every one of
// them, none dropped. With the engine's 16 tokens a leaf heard of 16 at
// most, the same ports at every repetition.
TEST(ArnControl, EveryPortOfASimultaneousFailureIsAnnounced) {
  ArnFabric f(2, 40);
  const NodeIndex spine0 = f.clos.spine(0);
  for (std::size_t l = 0; l < 20; ++l) {
    const std::size_t c = f.cable(spine0, f.clos.leaf(l));
    f.net.set_cable_up(c, false);
    f.los.cable_changed(c, false, us(5));
  }
  f.run_until(us(50));  // detection at 15 us; before the next repetition
  const proto::arn::Counters& c = f.arn->engine(spine0).counters();
  // The buckets are sized for it: nothing waits for a token.
  EXPECT_EQ(c.waited, 0u);
  EXPECT_EQ(c.rate_limited, 0u);
  // Each failed port's message goes to the 39 other ports' leaves.
  EXPECT_EQ(c.sent, 20u * 39u);
}

}  // namespace
}  // namespace arfabric::sim
