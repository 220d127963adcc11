#include "sim/scenario/generators.h"

#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/quantity.h"
#include "common/strformat.h"

namespace arfabric::sim {
namespace {

std::optional<ParamError> check_count(std::string_view key, std::uint32_t v) {
  if (v == 0) return ParamError{std::string(key), "must be at least 1"};
  return std::nullopt;
}

std::optional<ParamError> check_link(std::string_view key, const LinkClass& c) {
  if (c.rate == 0) return ParamError{strformat("{}.rate", key), "must be > 0"};
  if (!(c.drop_probability >= 0 && c.drop_probability < 1))
    return ParamError{strformat("{}.drop_probability", key),
                      "must be in [0, 1)"};
  return std::nullopt;
}

std::optional<ParamError> check_size(std::uint64_t nodes, std::uint64_t links) {
  if (nodes > kMaxNodes)
    return ParamError{"", strformat("{} nodes: the simulator's limit is {}",
                                    nodes, kMaxNodes)};
  if (links > kMaxLinks)
    return ParamError{"", strformat("{} links: the simulator's limit is {}",
                                    links, kMaxLinks)};
  return std::nullopt;
}

#define ARF_CHECK(expr) \
  if (auto e = (expr)) return e

NodeIndex add_node(Topology& t, std::string name, NodeRole role) {
  NodeSpec n;
  n.name = std::move(name);
  n.role = role;
  t.nodes.push_back(std::move(n));
  return static_cast<NodeIndex>(t.nodes.size() - 1);
}

void add_link(Topology& t, NodeIndex a, NodeIndex b, const LinkClass& c) {
  t.links.push_back(LinkSpec{a, b, c.rate, c.delay, c.drop_probability});
}

// Hosts `hosts_per_leaf` under each of `leaves`, named host<leaf>.<k>.
void add_hosts(Topology& t, const std::vector<NodeIndex>& leaves,
               std::uint32_t hosts_per_leaf, const LinkClass& c) {
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    for (std::uint32_t k = 0; k < hosts_per_leaf; ++k) {
      const NodeIndex h =
          add_node(t, strformat("host{}.{}", i, k), NodeRole::host);
      t.nodes[h].pod = t.nodes[leaves[i]].pod;
      add_link(t, h, leaves[i], c);
    }
  }
}

// A dragonfly's global cables, as pairs of indices into its group-major
// router list: `per_pair` rounds over all group pairs; each cable takes,
// among the routers of its two groups with a global port free, the first
// pair (lowest router of the first group, then of the second) not joined
// already, so a group's ports go out router by router (ARN §2's figure)
// and no two cables join the same routers (events name a cable by its
// ends). Error: two groups that only routers joined already could link.
struct GlobalCables {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cables;
  std::optional<ParamError> error;
};
GlobalCables global_cables(const DragonflyParams& p) {
  const std::uint32_t a = p.routers_per_group;
  const std::uint64_t per_pair =
      std::uint64_t{a} * p.global_links_per_router / (p.groups - 1);
  GlobalCables out;
  std::vector<std::uint32_t> used(std::size_t{p.groups} * a, 0);
  std::unordered_set<std::uint64_t> joined;
  const auto key = [](std::uint32_t x, std::uint32_t y) {
    return std::uint64_t{x} << 32 | y;
  };
  for (std::uint64_t round = 0; round < per_pair; ++round) {
    for (std::uint32_t g = 0; g < p.groups; ++g) {
      for (std::uint32_t h = g + 1; h < p.groups; ++h) {
        std::optional<std::pair<std::uint32_t, std::uint32_t>> pick;
        for (std::uint32_t x = g * a; x < (g + 1) * a && !pick; ++x) {
          if (used[x] == p.global_links_per_router) continue;
          for (std::uint32_t y = h * a; y < (h + 1) * a && !pick; ++y) {
            if (used[y] < p.global_links_per_router &&
                !joined.contains(key(x, y))) {
              pick.emplace(x, y);
            }
          }
        }
        if (!pick) {
          out.error = ParamError{
              "global_links_per_router",
              strformat("{} routers x {} global links give groups {} and {} "
                        "{} cables, more than distinct router pairs with "
                        "free global ports can carry (parallel cables are "
                        "not modelled: events name a cable by its ends)",
                        a, p.global_links_per_router, g, h, per_pair)};
          return out;
        }
        ++used[pick->first];
        ++used[pick->second];
        joined.insert(key(pick->first, pick->second));
        out.cables.push_back(*pick);
      }
    }
  }
  return out;
}

}  // namespace

std::optional<ParamError> check(const Clos3Params& p) {
  ARF_CHECK(check_count("spines", p.spines));
  ARF_CHECK(check_count("leaves", p.leaves));
  ARF_CHECK(check_count("hosts_per_leaf", p.hosts_per_leaf));
  ARF_CHECK(check_link("host_link", p.host_link));
  ARF_CHECK(check_link("leaf_spine_link", p.leaf_spine_link));
  const std::uint64_t hosts = std::uint64_t{p.leaves} * p.hosts_per_leaf;
  return check_size(hosts + p.leaves + p.spines,
                    hosts + std::uint64_t{p.leaves} * p.spines);
}

std::optional<ParamError> check(const Clos5Params& p) {
  ARF_CHECK(check_count("pods", p.pods));
  if (p.pods > kLeafAsnBase - kSpineAsnBase)
    return ParamError{"pods", "at most 999999 (one spine ASN per PoD)"};
  ARF_CHECK(check_count("leaves_per_pod", p.leaves_per_pod));
  ARF_CHECK(check_count("spines_per_pod", p.spines_per_pod));
  ARF_CHECK(check_count("super_spines_per_plane", p.super_spines_per_plane));
  ARF_CHECK(check_count("hosts_per_leaf", p.hosts_per_leaf));
  ARF_CHECK(check_link("host_link", p.host_link));
  ARF_CHECK(check_link("leaf_spine_link", p.leaf_spine_link));
  ARF_CHECK(check_link("spine_super_spine_link", p.spine_super_spine_link));
  const std::uint64_t leaves = std::uint64_t{p.pods} * p.leaves_per_pod;
  const std::uint64_t spines = std::uint64_t{p.pods} * p.spines_per_pod;
  const std::uint64_t supers =
      std::uint64_t{p.spines_per_pod} * p.super_spines_per_plane;
  const std::uint64_t hosts = leaves * p.hosts_per_leaf;
  return check_size(
      hosts + leaves + spines + supers,
      hosts + leaves * p.spines_per_pod + spines * p.super_spines_per_plane);
}

std::optional<ParamError> check(const RailParams& p) {
  ARF_CHECK(check_count("servers", p.servers));
  ARF_CHECK(check_count("gpus_per_server", p.gpus_per_server));
  ARF_CHECK(check_count("spines", p.spines));
  ARF_CHECK(check_link("host_link", p.host_link));
  ARF_CHECK(check_link("leaf_spine_link", p.leaf_spine_link));
  const std::uint64_t hosts = std::uint64_t{p.servers} * p.gpus_per_server;
  return check_size(hosts + p.gpus_per_server + p.spines,
                    hosts + std::uint64_t{p.gpus_per_server} * p.spines);
}

std::optional<ParamError> check(const DragonflyParams& p) {
  ARF_CHECK(check_count("groups", p.groups));
  if (p.groups < 2) return ParamError{"groups", "must be at least 2"};
  ARF_CHECK(check_count("routers_per_group", p.routers_per_group));
  ARF_CHECK(check_count("hosts_per_router", p.hosts_per_router));
  ARF_CHECK(check_count("global_links_per_router", p.global_links_per_router));
  ARF_CHECK(check_link("host_link", p.host_link));
  ARF_CHECK(check_link("local_link", p.local_link));
  ARF_CHECK(check_link("global_link", p.global_link));
  const std::uint64_t ports =
      std::uint64_t{p.routers_per_group} * p.global_links_per_router;
  if (ports < p.groups - 1)
    return ParamError{
        "global_links_per_router",
        strformat("{} routers x {} global links = {} per group cannot "
                  "reach the other {} groups",
                  p.routers_per_group, p.global_links_per_router, ports,
                  p.groups - 1)};
  const std::uint64_t routers = std::uint64_t{p.groups} * p.routers_per_group;
  const std::uint64_t hosts = routers * p.hosts_per_router;
  const std::uint64_t local = std::uint64_t{p.groups} * p.routers_per_group *
                              (p.routers_per_group - 1) / 2;
  const std::uint64_t global =
      std::uint64_t{p.groups} * (p.groups - 1) / 2 * (ports / (p.groups - 1));
  ARF_CHECK(check_size(hosts + routers, hosts + local + global));
  return global_cables(p).error;
}

Topology make_clos3(const Clos3Params& p) {
  Topology t;
  t.kind = "clos3";
  std::vector<NodeIndex> spines, leaves;
  for (std::uint32_t j = 0; j < p.spines; ++j)
    spines.push_back(add_node(t, strformat("spine{}", j), NodeRole::spine));
  for (std::uint32_t i = 0; i < p.leaves; ++i)
    leaves.push_back(add_node(t, strformat("leaf{}", i), NodeRole::leaf));
  for (NodeIndex leaf : leaves)
    for (NodeIndex spine : spines) add_link(t, leaf, spine, p.leaf_spine_link);
  add_hosts(t, leaves, p.hosts_per_leaf, p.host_link);
  assign_identifiers(t);
  return t;
}

Topology make_clos5(const Clos5Params& p) {
  Topology t;
  t.kind = "clos5";
  // supers[plane][k], spines[pod][plane], leaves in pod order.
  std::vector<std::vector<NodeIndex>> supers(p.spines_per_pod);
  std::vector<std::vector<NodeIndex>> spines(p.pods);
  std::vector<NodeIndex> leaves;
  for (std::uint32_t plane = 0; plane < p.spines_per_pod; ++plane) {
    for (std::uint32_t k = 0; k < p.super_spines_per_plane; ++k) {
      const NodeIndex n = add_node(t, strformat("superspine{}.{}", plane, k),
                                   NodeRole::super_spine);
      t.nodes[n].plane = plane;
      supers[plane].push_back(n);
    }
  }
  for (std::uint32_t pod = 0; pod < p.pods; ++pod) {
    for (std::uint32_t j = 0; j < p.spines_per_pod; ++j) {
      const NodeIndex n =
          add_node(t, strformat("spine{}.{}", pod, j), NodeRole::spine);
      t.nodes[n].pod = pod;
      t.nodes[n].plane = j;
      spines[pod].push_back(n);
    }
  }
  for (std::uint32_t pod = 0; pod < p.pods; ++pod) {
    for (std::uint32_t i = 0; i < p.leaves_per_pod; ++i) {
      const NodeIndex n =
          add_node(t, strformat("leaf{}", leaves.size()), NodeRole::leaf);
      t.nodes[n].pod = pod;
      leaves.push_back(n);
    }
  }
  for (NodeIndex leaf : leaves)
    for (NodeIndex spine : spines[t.nodes[leaf].pod])
      add_link(t, leaf, spine, p.leaf_spine_link);
  for (std::uint32_t pod = 0; pod < p.pods; ++pod)
    for (std::uint32_t plane = 0; plane < p.spines_per_pod; ++plane)
      for (NodeIndex super : supers[plane])
        add_link(t, spines[pod][plane], super, p.spine_super_spine_link);
  add_hosts(t, leaves, p.hosts_per_leaf, p.host_link);
  assign_identifiers(t);
  return t;
}

Topology make_rail(const RailParams& p) {
  Topology t;
  t.kind = "rail";
  std::vector<NodeIndex> spines, leaves;
  for (std::uint32_t j = 0; j < p.spines; ++j)
    spines.push_back(add_node(t, strformat("spine{}", j), NodeRole::spine));
  for (std::uint32_t rail = 0; rail < p.gpus_per_server; ++rail) {
    const NodeIndex n = add_node(t, strformat("leaf{}", rail), NodeRole::leaf);
    t.nodes[n].plane = rail;
    leaves.push_back(n);
  }
  for (NodeIndex leaf : leaves)
    for (NodeIndex spine : spines) add_link(t, leaf, spine, p.leaf_spine_link);
  for (std::uint32_t server = 0; server < p.servers; ++server) {
    for (std::uint32_t gpu = 0; gpu < p.gpus_per_server; ++gpu) {
      const NodeIndex h =
          add_node(t, strformat("host{}.{}", server, gpu), NodeRole::host);
      t.nodes[h].group = server;
      t.nodes[h].plane = gpu;
      add_link(t, h, leaves[gpu], p.host_link);
    }
  }
  assign_identifiers(t);
  return t;
}

Topology make_dragonfly(const DragonflyParams& p) {
  Topology t;
  t.kind = "dragonfly";
  const std::uint32_t a = p.routers_per_group;
  std::vector<NodeIndex> routers;  // group-major
  for (std::uint32_t g = 0; g < p.groups; ++g) {
    for (std::uint32_t r = 0; r < a; ++r) {
      const NodeIndex n = add_node(t, strformat("router{}.{}", g, r),
                                   NodeRole::dragonfly_router);
      t.nodes[n].group = g;
      routers.push_back(n);
    }
  }
  for (std::uint32_t g = 0; g < p.groups; ++g)
    for (std::uint32_t r = 0; r < a; ++r)
      for (std::uint32_t s = r + 1; s < a; ++s)
        add_link(t, routers[g * a + r], routers[g * a + s], p.local_link);
  for (const auto& [x, y] : global_cables(p).cables) {
    add_link(t, routers[x], routers[y], p.global_link);
  }
  for (NodeIndex router : routers) {
    for (std::uint32_t k = 0; k < p.hosts_per_router; ++k) {
      const NodeSpec& rs = t.nodes[router];
      const std::uint32_t g = rs.group;
      const std::uint32_t r = router - g * a;
      const NodeIndex host =
          add_node(t, strformat("host{}.{}.{}", g, r, k), NodeRole::host);
      t.nodes[host].group = g;
      add_link(t, host, router, p.host_link);
    }
  }
  assign_identifiers(t);
  return t;
}

void assign_identifiers(Topology& t) {
  std::uint32_t ordinals[5] = {};
  std::uint32_t switches = 0, edge_switches = 0;
  for (NodeSpec& n : t.nodes) {
    n.ordinal = ordinals[static_cast<std::size_t>(n.role)]++;
    if (!is_switch(n.role)) {
      n.lsn_node_id = kNoLsnId;
      continue;
    }
    if (n.router_id == 0) n.router_id = kRouterIdBase + switches + 1;
    ++switches;
    if (is_edge_switch(n.role)) {
      n.lsn_node_id = static_cast<std::uint16_t>(edge_switches++);
    } else {
      n.lsn_node_id = kNoLsnId;
    }
    if (n.asn != 0) continue;
    switch (n.role) {
      case NodeRole::super_spine:
        n.asn = kSuperSpineAsn;
        break;
      case NodeRole::spine:
        n.asn = kSpineAsnBase + n.pod;
        break;
      case NodeRole::leaf:
        n.asn = kLeafAsnBase + n.ordinal;
        break;
      case NodeRole::dragonfly_router:
        n.asn = kRouterAsnBase + n.ordinal;
        break;
      case NodeRole::host:
        break;
    }
  }
}

}  // namespace arfabric::sim
