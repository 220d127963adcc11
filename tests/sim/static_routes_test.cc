#include "sim/static_routes.h"

#include <gtest/gtest.h>

#include <atomic>

#include "sim/clos_fixture.h"

namespace arfabric::sim {
namespace {

using testing::Clos;

std::vector<proto::PortId> sorted(std::vector<proto::PortId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// 3 spines, 4 leaves with a host each, no routes yet; leaf l has id l.
struct SmallClos {
  Clos clos{3, 4, 1, gbps(100), ns(500)};
  EventQueue events;
  PacketPool pool;
  Network net = *Network::create(clos.spec, events, pool);
  std::vector<proto::NodeId> leaf_id =
      std::vector<proto::NodeId>(net.node_count(), kNotLeaf);
  SmallClos() {
    for (std::size_t l = 0; l < 4; ++l) {
      leaf_id[clos.leaf(l)] = static_cast<proto::NodeId>(l);
    }
  }
};

TEST(StaticRoutes, ShortestPathEcmpInAClos) {
  SmallClos c;
  auto& [clos, events, pool, net, leaf_id] = c;
  // Each leaf: 3 other leaves; each spine: 4 leaves.
  EXPECT_EQ(program_static_routes(net, leaf_id, Time{}), 4u * 3u + 3u * 4u);
  const NodeIndex leaf0 = clos.leaf(0);
  std::vector<proto::PortId> up;
  for (std::size_t s = 0; s < 3; ++s) {
    up.push_back(*net.port_toward(leaf0, clos.spine(s)));
  }
  EXPECT_EQ(net.fib(leaf0).routing_ports(2), sorted(up));
  EXPECT_TRUE(net.fib(leaf0).routing_ports(0).empty());  // its own hosts
  EXPECT_EQ(net.fib(clos.spine(1)).routing_ports(3),
            std::vector<proto::PortId>{
                *net.port_toward(clos.spine(1), clos.leaf(3))});
}

// Asked to stop, it programs no further leaf; else it reports each leaf
// done.
TEST(StaticRoutes, StopsWhenAsked) {
  SmallClos c;
  auto& [clos, events, pool, net, leaf_id] = c;
  const std::atomic<bool> stop{true};
  EXPECT_EQ(program_static_routes(net, leaf_id, Time{}, &stop), 0u);
  EXPECT_TRUE(net.fib(clos.leaf(0)).routing_ports(2).empty());
  const std::atomic<bool> go{false};
  std::vector<std::size_t> done;
  EXPECT_EQ(program_static_routes(net, leaf_id, Time{}, &go,
                                  [&](std::size_t d, std::size_t leaves) {
                                    EXPECT_EQ(leaves, 4u);
                                    done.push_back(d);
                                  }),
            24u);
  EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3, 4}));
}

TEST(StaticRoutes, AnUnreachableLeafGetsNoRoute) {
  // Two leaves, one spine, and leaf 1's only uplink is missing: a lone
  // leaf with its host.
  NetworkSpec spec;
  spec.nodes = {{false, 0}, {false, 0}, {false, 1}, {true, 0}, {true, 0}};
  spec.cables = {{1, 0, gbps(100), ns(500)},
                 {3, 1, gbps(100), ns(100)},
                 {4, 2, gbps(100), ns(100)}};
  spec.fib.table_size = 256;
  EventQueue events;
  PacketPool pool;
  Network net = *Network::create(spec, events, pool);
  std::vector<proto::NodeId> leaf_id = {kNotLeaf, 0, 1, kNotLeaf, kNotLeaf};
  EXPECT_EQ(program_static_routes(net, leaf_id, Time{}), 1u);  // spine -> 0
  EXPECT_TRUE(net.fib(1).routing_ports(1).empty());
}

}  // namespace
}  // namespace arfabric::sim
