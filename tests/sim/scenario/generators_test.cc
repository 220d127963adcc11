#include "sim/scenario/generators.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>

#include "common/strformat.h"

namespace arfabric::sim {
namespace {

// Parameter structs with the default link classes.
Clos3Params clos3(std::uint32_t spines, std::uint32_t leaves,
                  std::uint32_t hosts_per_leaf) {
  Clos3Params p;
  p.spines = spines;
  p.leaves = leaves;
  p.hosts_per_leaf = hosts_per_leaf;
  return p;
}

Clos5Params clos5(std::uint32_t pods, std::uint32_t leaves_per_pod,
                  std::uint32_t spines_per_pod,
                  std::uint32_t super_spines_per_plane,
                  std::uint32_t hosts_per_leaf) {
  Clos5Params p;
  p.pods = pods;
  p.leaves_per_pod = leaves_per_pod;
  p.spines_per_pod = spines_per_pod;
  p.super_spines_per_plane = super_spines_per_plane;
  p.hosts_per_leaf = hosts_per_leaf;
  return p;
}

RailParams rail(std::uint32_t servers, std::uint32_t gpus,
                std::uint32_t spines) {
  RailParams p;
  p.servers = servers;
  p.gpus_per_server = gpus;
  p.spines = spines;
  return p;
}

DragonflyParams dragonfly(std::uint32_t groups, std::uint32_t routers,
                          std::uint32_t hosts, std::uint32_t global) {
  DragonflyParams p;
  p.groups = groups;
  p.routers_per_group = routers;
  p.hosts_per_router = hosts;
  p.global_links_per_router = global;
  return p;
}

// Number of cables at each node.
std::vector<std::size_t> degrees(const Topology& t) {
  std::vector<std::size_t> d(t.nodes.size(), 0);
  for (const LinkSpec& l : t.links) {
    ++d[l.a];
    ++d[l.b];
  }
  return d;
}

TEST(Clos3, DefaultSizeCountsDegreesAndIdentities) {
  Clos3Params p;
  p.spines = 16;
  p.leaves = 32;
  p.hosts_per_leaf = 8;
  ASSERT_FALSE(check(p));
  const Topology t = make_clos3(p);
  EXPECT_EQ(t.kind, "clos3");
  EXPECT_EQ(t.count(NodeRole::spine), 16U);
  EXPECT_EQ(t.count(NodeRole::leaf), 32U);
  EXPECT_EQ(t.hosts().size(), 256U);
  // 32 leaves x 16 spines fabric cables + 256 host cables.
  std::size_t fabric = 0, host = 0;
  for (std::uint32_t i = 0; i < t.links.size(); ++i)
    (t.is_host_link(i) ? host : fabric)++;
  EXPECT_EQ(fabric, 32U * 16);
  EXPECT_EQ(host, 256U);
  const auto d = degrees(t);
  std::set<std::uint32_t> leaf_asns, spine_asns, router_ids;
  std::set<std::uint16_t> lsn_ids;
  for (NodeIndex i = 0; i < t.nodes.size(); ++i) {
    const NodeSpec& n = t.nodes[i];
    switch (n.role) {
      case NodeRole::spine:
        EXPECT_EQ(d[i], 32U) << n.name;
        spine_asns.insert(n.asn);
        EXPECT_EQ(n.lsn_node_id, kNoLsnId);
        break;
      case NodeRole::leaf:
        EXPECT_EQ(d[i], 16U + 8) << n.name;
        leaf_asns.insert(n.asn);
        lsn_ids.insert(n.lsn_node_id);
        break;
      case NodeRole::host:
        EXPECT_EQ(d[i], 1U) << n.name;
        EXPECT_EQ(n.asn, 0U);
        EXPECT_EQ(n.router_id, 0U);
        continue;
      default:
        ADD_FAILURE() << n.name;
    }
    EXPECT_TRUE(router_ids.insert(n.router_id).second) << n.name;
  }
  EXPECT_EQ(leaf_asns.size(), 32U);
  EXPECT_EQ(spine_asns, std::set<std::uint32_t>{kSpineAsnBase});
  EXPECT_EQ(*leaf_asns.begin(), kLeafAsnBase);
  EXPECT_EQ(lsn_ids.size(), 32U);
  EXPECT_EQ(*lsn_ids.rbegin(), 31);
  EXPECT_TRUE(t.connected());
  EXPECT_EQ(t.summary(), "clos3: 16 spines, 32 leaves, 256 hosts; 768 links");
}

// One of a kind is named in the singular.
TEST(Clos3, SummaryCountsOneInTheSingular) {
  EXPECT_EQ(make_clos3(clos3(1, 1, 1)).summary(),
            "clos3: 1 spine, 1 leaf, 1 host; 2 links");
  EXPECT_EQ(make_clos3(clos3(1, 2, 1)).summary(),
            "clos3: 1 spine, 2 leaves, 2 hosts; 4 links");
}

TEST(Clos3, NamesAndLookups) {
  const Clos3Params p = clos3(2, 4, 6);
  const Topology t = make_clos3(p);
  // Switches first (spines, then leaves), then hosts leaf by leaf.
  EXPECT_EQ(t.nodes[0].name, "spine0");
  EXPECT_EQ(t.nodes[2].name, "leaf0");
  const auto h = t.find("host3.5");
  ASSERT_TRUE(h);
  EXPECT_EQ(*h, 2U + 4 + 3 * 6 + 5);
  const auto leaf3 = t.find("leaf3");
  ASSERT_TRUE(leaf3);
  EXPECT_EQ(t.nodes[*leaf3].lsn_node_id, 3);
  EXPECT_EQ(t.nodes[*leaf3].asn, kLeafAsnBase + 3);
  // Router IDs 10.0.0.1.. over switches in node order: leaf3 is switch 5.
  EXPECT_EQ(t.nodes[*leaf3].router_id, 0x0a000006U);
  const auto link = t.find_link(*t.find("spine1"), *leaf3);
  ASSERT_TRUE(link);
  EXPECT_FALSE(t.is_host_link(*link));
  EXPECT_TRUE(t.find_link(*leaf3, *t.find("spine1")));
  EXPECT_FALSE(t.find_link(*leaf3, *t.find("leaf2")));
  EXPECT_FALSE(t.find("host4.0"));
}

TEST(Clos5, PlanesWireSpineJToPlaneJ) {
  const Clos5Params p = clos5(3, 4, 2, 5, 2);
  ASSERT_FALSE(check(p));
  const Topology t = make_clos5(p);
  EXPECT_EQ(t.count(NodeRole::super_spine), 10U);
  EXPECT_EQ(t.count(NodeRole::spine), 6U);
  EXPECT_EQ(t.count(NodeRole::leaf), 12U);
  EXPECT_EQ(t.hosts().size(), 24U);
  // host + leaf-spine + spine-super cables.
  EXPECT_EQ(t.links.size(), 24U + 12 * 2 + 6 * 5);
  const auto d = degrees(t);
  std::set<std::uint32_t> spine_asns, super_asns;
  for (const LinkSpec& l : t.links) {
    const NodeSpec& a = t.nodes[l.a];
    const NodeSpec& b = t.nodes[l.b];
    if (a.role == NodeRole::leaf && b.role == NodeRole::spine) {
      EXPECT_EQ(a.pod, b.pod);  // leaves only reach their PoD's spines
    }
    if (a.role == NodeRole::spine && b.role == NodeRole::super_spine) {
      EXPECT_EQ(a.plane, b.plane);  // spine j -> plane j
    }
  }
  for (NodeIndex i = 0; i < t.nodes.size(); ++i) {
    const NodeSpec& n = t.nodes[i];
    if (n.role == NodeRole::super_spine) {
      EXPECT_EQ(d[i], 3U);  // one spine per PoD
      super_asns.insert(n.asn);
    }
    if (n.role == NodeRole::spine) {
      EXPECT_EQ(d[i], 4U + 5);
      EXPECT_EQ(n.asn, kSpineAsnBase + n.pod);
      spine_asns.insert(n.asn);
    }
    if (n.role == NodeRole::leaf) {
      EXPECT_EQ(d[i], 2U + 2);
    }
  }
  EXPECT_EQ(super_asns, std::set<std::uint32_t>{kSuperSpineAsn});
  EXPECT_EQ(spine_asns.size(), 3U);  // one per PoD
  EXPECT_TRUE(t.find("spine2.1"));
  EXPECT_TRUE(t.find("superspine1.4"));
  EXPECT_TRUE(t.find("leaf11"));
  EXPECT_TRUE(t.connected());
}

TEST(Rail, GpuIGoesToLeafI) {
  const RailParams p = rail(3, 8, 2);
  ASSERT_FALSE(check(p));
  const Topology t = make_rail(p);
  EXPECT_EQ(t.count(NodeRole::leaf), 8U);
  EXPECT_EQ(t.hosts().size(), 24U);
  EXPECT_EQ(t.links.size(), 24U + 8 * 2);
  for (std::uint32_t server = 0; server < 3; ++server) {
    for (std::uint32_t gpu = 0; gpu < 8; ++gpu) {
      const auto h = t.find(strformat("host{}.{}", server, gpu));
      ASSERT_TRUE(h);
      EXPECT_TRUE(t.find_link(*h, *t.find(strformat("leaf{}", gpu))));
      EXPECT_EQ(t.nodes[*h].plane, gpu);
      EXPECT_EQ(t.nodes[*h].group, server);
    }
  }
  EXPECT_TRUE(t.connected());
}

TEST(Dragonfly, FullMeshGroupsAndOneGlobalLinkPerGroupPair) {
  // 5 groups x 4 routers x 1 global link: 4 global ports per group for the
  // 4 other groups, so exactly one cable per group pair.
  const DragonflyParams p = dragonfly(5, 4, 2, 1);
  ASSERT_FALSE(check(p));
  const Topology t = make_dragonfly(p);
  EXPECT_EQ(t.count(NodeRole::dragonfly_router), 20U);
  EXPECT_EQ(t.hosts().size(), 40U);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> between;
  std::size_t local = 0;
  for (const LinkSpec& l : t.links) {
    const NodeSpec& a = t.nodes[l.a];
    const NodeSpec& b = t.nodes[l.b];
    if (a.role == NodeRole::host || b.role == NodeRole::host) continue;
    if (a.group == b.group) {
      ++local;
    } else {
      ++between[{std::min(a.group, b.group), std::max(a.group, b.group)}];
    }
  }
  EXPECT_EQ(local, 5U * 6);        // C(4,2) per group
  EXPECT_EQ(between.size(), 10U);  // C(5,2)
  for (const auto& [pair, n] : between) EXPECT_EQ(n, 1) << pair.first;
  const auto d = degrees(t);
  for (NodeIndex r : t.nodes_with_role(NodeRole::dragonfly_router))
    EXPECT_EQ(d[r], 3U + 1 + 2) << t.nodes[r].name;
  // Routers are edge switches: own ASNs and LSN IDs.
  std::set<std::uint32_t> asns;
  for (NodeIndex r : t.nodes_with_role(NodeRole::dragonfly_router)) {
    asns.insert(t.nodes[r].asn);
    EXPECT_NE(t.nodes[r].lsn_node_id, kNoLsnId);
  }
  EXPECT_EQ(asns.size(), 20U);
  EXPECT_TRUE(t.find_link(*t.find("router0.0"), *t.find("router1.0")));
  EXPECT_TRUE(t.find("host4.3.1"));
  EXPECT_TRUE(t.connected());
}

// More cables per group pair than one: they join distinct routers (two
// cables between the same routers could not be named by an event), and
// where the routers cannot carry that many, check() says so.
TEST(Dragonfly, SeveralCablesPerGroupPairJoinDistinctRouters) {
  // 2 groups x 2 routers x 2 global links: 4 cables, the 4 router pairs.
  const DragonflyParams p = dragonfly(2, 2, 1, 2);
  ASSERT_FALSE(check(p));
  const Topology t = make_dragonfly(p);
  for (const char* a : {"router0.0", "router0.1"}) {
    for (const char* b : {"router1.0", "router1.1"}) {
      EXPECT_TRUE(t.find_link(*t.find(a), *t.find(b))) << a << "-" << b;
    }
  }
  // One router a group with 2 global links: 2 cables, 1 router pair.
  const auto e = check(dragonfly(2, 1, 1, 2));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, "global_links_per_router");
  EXPECT_NE(e->message.find("parallel cables are not modelled"),
            std::string::npos)
      << e->message;
}

RC_GTEST_PROP(DragonflyProperty, DistinctCablesWithinEachRoutersPorts, ()) {
  const auto groups = *rc::gen::inRange<std::uint32_t>(2, 9);
  const auto routers = *rc::gen::inRange<std::uint32_t>(1, 6);
  const auto global = *rc::gen::inRange<std::uint32_t>(1, 7);
  const DragonflyParams p = dragonfly(groups, routers, 1, global);
  RC_PRE(!check(p));
  const Topology t = make_dragonfly(p);
  std::set<std::pair<NodeIndex, NodeIndex>> cables;
  std::map<NodeIndex, std::uint32_t> global_ports;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> between;
  for (const LinkSpec& l : t.links) {
    RC_ASSERT(cables.insert({std::min(l.a, l.b), std::max(l.a, l.b)}).second);
    const NodeSpec& a = t.nodes[l.a];
    const NodeSpec& b = t.nodes[l.b];
    if (a.role == NodeRole::host || b.role == NodeRole::host) continue;
    if (a.group == b.group) continue;
    ++global_ports[l.a];
    ++global_ports[l.b];
    ++between[{std::min(a.group, b.group), std::max(a.group, b.group)}];
  }
  for (const auto& [router, n] : global_ports) RC_ASSERT(n <= global);
  RC_ASSERT(between.size() == std::size_t{groups} * (groups - 1) / 2);
  for (const auto& [pair, n] : between) {
    RC_ASSERT(n == routers * global / (groups - 1));
  }
  RC_ASSERT(t.connected());
}

TEST(Check, NamesTheBadParameter) {
  EXPECT_EQ(check(clos3(0, 1, 1))->key, "spines");
  Clos3Params zero_rate = clos3(1, 1, 1);
  zero_rate.leaf_spine_link.rate = 0;
  EXPECT_EQ(check(zero_rate)->key, "leaf_spine_link.rate");
  const Clos3Params huge = clos3(1000, 100000, 1);
  ASSERT_TRUE(check(huge));
  EXPECT_EQ(check(huge)->key, "");
  // 2 routers x 4 global links = 8 ports for 9 other groups.
  EXPECT_EQ(check(dragonfly(10, 2, 1, 4))->key, "global_links_per_router");
  EXPECT_EQ(check(dragonfly(1, 2, 1, 4))->key, "groups");
  EXPECT_EQ(check(rail(1, 0, 1))->key, "gpus_per_server");
  EXPECT_EQ(check(clos5(1, 1, 1, 0, 1))->key, "super_spines_per_plane");
  EXPECT_EQ(check(clos5(1'000'000, 1, 1, 1, 1))->key, "pods");
}

RC_GTEST_PROP(Clos3Property, ConnectedWithTheRightDegrees, ()) {
  Clos3Params p;
  p.spines = *rc::gen::inRange<std::uint32_t>(1, 20);
  p.leaves = *rc::gen::inRange<std::uint32_t>(1, 40);
  p.hosts_per_leaf = *rc::gen::inRange<std::uint32_t>(1, 10);
  RC_ASSERT(!check(p));
  const Topology t = make_clos3(p);
  RC_ASSERT(t.connected());
  RC_ASSERT(t.links.size() ==
            std::size_t{p.leaves} * (p.spines + p.hosts_per_leaf));
  const auto d = degrees(t);
  for (NodeIndex i = 0; i < t.nodes.size(); ++i) {
    switch (t.nodes[i].role) {
      case NodeRole::spine:
        RC_ASSERT(d[i] == p.leaves);
        break;
      case NodeRole::leaf:
        RC_ASSERT(d[i] == std::size_t{p.spines} + p.hosts_per_leaf);
        break;
      case NodeRole::host:
        RC_ASSERT(d[i] == 1U);
        break;
      default:
        RC_FAIL("unexpected role");
    }
  }
}

RC_GTEST_PROP(Clos5Property, ConnectedWithTheRightDegrees, ()) {
  Clos5Params p;
  p.pods = *rc::gen::inRange<std::uint32_t>(1, 6);
  p.leaves_per_pod = *rc::gen::inRange<std::uint32_t>(1, 6);
  p.spines_per_pod = *rc::gen::inRange<std::uint32_t>(1, 6);
  p.super_spines_per_plane = *rc::gen::inRange<std::uint32_t>(1, 6);
  p.hosts_per_leaf = *rc::gen::inRange<std::uint32_t>(1, 4);
  RC_ASSERT(!check(p));
  const Topology t = make_clos5(p);
  RC_ASSERT(t.connected());
  const auto d = degrees(t);
  std::set<std::string> names;
  for (NodeIndex i = 0; i < t.nodes.size(); ++i) {
    RC_ASSERT(names.insert(t.nodes[i].name).second);
    switch (t.nodes[i].role) {
      case NodeRole::super_spine:
        RC_ASSERT(d[i] == p.pods);
        break;
      case NodeRole::spine:
        RC_ASSERT(d[i] ==
                  std::size_t{p.leaves_per_pod} + p.super_spines_per_plane);
        break;
      case NodeRole::leaf:
        RC_ASSERT(d[i] == std::size_t{p.spines_per_pod} + p.hosts_per_leaf);
        break;
      case NodeRole::host:
        RC_ASSERT(d[i] == 1U);
        break;
      default:
        RC_FAIL("unexpected role");
    }
  }
}

}  // namespace
}  // namespace arfabric::sim
