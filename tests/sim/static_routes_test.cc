#include "sim/static_routes.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
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

// Asked to stop, it programs no further leaf; else it reports the leaves
// done as they grow (here one class of four twins over seven switches).
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

// Stopped part-way (here when half the leaves are done, after the three
// spines and leaf 0 are programmed), the switches after that get none.
TEST(StaticRoutes, StopsPartWay) {
  SmallClos c;
  auto& [clos, events, pool, net, leaf_id] = c;
  std::atomic<bool> stop{false};
  EXPECT_EQ(program_static_routes(net, leaf_id, Time{}, &stop,
                                  [&](std::size_t d, std::size_t) {
                                    if (d == 2) stop = true;
                                  }),
            3u * 4u + 3u);
  EXPECT_FALSE(net.fib(clos.leaf(0)).routing_ports(3).empty());
  EXPECT_TRUE(net.fib(clos.leaf(1)).routing_ports(0).empty());
  EXPECT_TRUE(net.fib(clos.leaf(3)).routing_ports(0).empty());
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

constexpr std::uint32_t kFar = 0xffffffff;  // not reached

// Hop counts from `sources` over switches (hosts do not forward).
std::vector<std::uint32_t> hop_counts(const Network& net,
                                      std::vector<NodeIndex> frontier) {
  std::vector<std::uint32_t> hops(net.node_count(), kFar);
  for (NodeIndex n : frontier) hops[n] = 0;
  while (!frontier.empty()) {
    std::vector<NodeIndex> next;
    for (NodeIndex n : frontier) {
      for (NodeIndex m : net.neighbours(n)) {
        if (net.is_host(m) || hops[m] != kFar) continue;
        hops[m] = hops[n] + 1;
        next.push_back(m);
      }
    }
    frontier = std::move(next);
  }
  return hops;
}

// Switch x's ports toward switches one hop closer (none if x is not
// reached or is a source).
std::vector<proto::PortId> closer(const Network& net,
                                  const std::vector<std::uint32_t>& hops,
                                  NodeIndex x) {
  std::vector<proto::PortId> ports;
  if (hops[x] == 0 || hops[x] == kFar) return ports;
  const auto& nb = net.neighbours(x);
  for (std::size_t p = 0; p < nb.size(); ++p) {
    if (!net.is_host(nb[p]) && hops[nb[p]] + 1 == hops[x]) {
      ports.push_back(static_cast<proto::PortId>(p + 1));
    }
  }
  return ports;
}

// The routes of one breadth-first search per leaf, as the issue's
// shortest-path ECMP reads: at each switch that reaches the leaf, the
// ports toward switches one hop closer; and for a multi-homed host, of
// one search from all its leaves. Twin leaves, parallel cables,
// leaves that forward, switches that reach nothing: whatever the graph,
// the shared searches program exactly these.
RC_GTEST_PROP(StaticRoutes, EveryRouteIsThatOfASearchFromItsLeaf, ()) {
  const auto switches = *rc::gen::inRange<std::size_t>(2, 11);
  const auto leaves = *rc::gen::inRange<std::size_t>(1, switches + 1);
  std::vector<std::pair<NodeIndex, NodeIndex>> edges;
  const auto count = *rc::gen::inRange<std::size_t>(0, 3 * switches);
  for (std::size_t i = 0; i < count; ++i) {
    const auto a = *rc::gen::inRange<NodeIndex>(0, switches);
    const auto b = *rc::gen::inRange<NodeIndex>(0, switches);
    if (a != b) edges.emplace_back(a, b);
  }
  // Make some leaves twins of others: leaf j takes leaf i's cables.
  const auto twin_ops = *rc::gen::inRange(0, 4);
  for (int k = 0; k < twin_ops && leaves > 1; ++k) {
    const auto i = *rc::gen::inRange<NodeIndex>(0, leaves);
    const auto j = *rc::gen::inRange<NodeIndex>(0, leaves);
    if (i == j) continue;
    std::erase_if(edges,
                  [&](const auto& e) { return e.first == j || e.second == j; });
    const auto of_i = edges;
    for (const auto& [a, b] : of_i) {
      if (a == i) edges.emplace_back(j, b);
      if (b == i) edges.emplace_back(a, j);
    }
  }
  NetworkSpec spec;
  std::vector<proto::NodeId> leaf_id(switches + leaves, kNotLeaf);
  for (std::size_t n = 0; n < switches; ++n) {
    spec.nodes.push_back(
        {false, n < leaves ? static_cast<proto::NodeId>(n) : 0});
    if (n < leaves) leaf_id[n] = static_cast<proto::NodeId>(n);
  }
  for (std::size_t l = 0; l < leaves; ++l) {
    spec.nodes.push_back({true, 0});
    spec.cables.push_back({static_cast<NodeIndex>(switches + l),
                           static_cast<NodeIndex>(l), gbps(100), ns(100)});
  }
  // Multi-homed hosts, each on two or more switches: leaves, or switches
  // with no host of their own.
  const auto multihomed = *rc::gen::inRange(0, 3);
  for (int h = 0; h < multihomed; ++h) {
    const auto host = static_cast<NodeIndex>(spec.nodes.size());
    spec.nodes.push_back({true, 0});
    leaf_id.push_back(kNotLeaf);
    const auto first = *rc::gen::inRange<NodeIndex>(0, switches);
    const auto second =
        *rc::gen::distinctFrom(rc::gen::inRange<NodeIndex>(0, switches), first);
    for (NodeIndex l = 0; l < switches; ++l) {
      if (l == first || l == second || *rc::gen::arbitrary<bool>()) {
        spec.cables.push_back({host, l, gbps(100), ns(100)});
      }
    }
    if (*rc::gen::arbitrary<bool>()) {  // two cables to one of its leaves
      spec.cables.push_back({host, first, gbps(100), ns(100)});
    }
  }
  for (const auto& [a, b] : edges) {
    spec.cables.push_back({a, b, gbps(100), ns(500)});
  }
  spec.fib.table_size = 256;
  EventQueue events;
  PacketPool pool;
  auto created = Network::create(spec, events, pool);
  RC_ASSERT(created.has_value());
  Network& net = *created;
  std::vector<std::size_t> done;
  const std::size_t programmed = program_static_routes(
      net, leaf_id, Time{}, nullptr, [&](std::size_t d, std::size_t all) {
        RC_ASSERT(all == leaves);
        done.push_back(d);
      });
  // Progress grows at each call and ends with every leaf.
  RC_ASSERT(!done.empty());
  RC_ASSERT(std::ranges::adjacent_find(done, std::greater_equal<>()) ==
            done.end());
  RC_ASSERT(done.back() == leaves);

  std::size_t expected_routes = 0;
  for (NodeIndex d = 0; d < leaves; ++d) {
    const std::vector<std::uint32_t> hops = hop_counts(net, {d});
    for (NodeIndex x = 0; x < switches; ++x) {
      if (x == d) continue;
      if (hops[x] != kFar) ++expected_routes;
      RC_ASSERT(net.fib(x).routing_ports(leaf_id[d]) == closer(net, hops, x));
    }
  }
  // A multi-homed host: its leaves keep their connected routes, every
  // other switch has the ports toward the nearest of them.
  for (const Network::MultiHomedHost& m : net.multihomed()) {
    const std::vector<std::uint32_t> hops = hop_counts(net, m.leaves);
    for (NodeIndex x = 0; x < switches; ++x) {
      std::vector<proto::PortId> expected;
      if (hops[x] == 0) {
        expected.push_back(*net.port_toward(x, m.host));
      } else if (hops[x] != kFar) {
        ++expected_routes;
        expected = closer(net, hops, x);
      }
      RC_ASSERT(net.fib(x).routing_ports(m.destination) == expected);
    }
  }
  RC_ASSERT(net.multihomed().size() == static_cast<std::size_t>(multihomed));
  RC_ASSERT(programmed == expected_routes);
}

}  // namespace
}  // namespace arfabric::sim
