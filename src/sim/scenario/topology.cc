#include "sim/scenario/topology.h"

#include <array>

#include "common/strformat.h"

namespace arfabric::sim {
namespace {

constexpr std::array<std::string_view, 5> kRoleNames = {
    "host", "leaf", "spine", "super_spine", "dragonfly_router"};

}  // namespace

std::string_view role_name(NodeRole role) {
  return kRoleNames[static_cast<std::size_t>(role)];
}

std::optional<NodeRole> parse_role(std::string_view name) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i)
    if (kRoleNames[i] == name) return static_cast<NodeRole>(i);
  return std::nullopt;
}

std::vector<NodeIndex> Topology::hosts() const {
  return nodes_with_role(NodeRole::host);
}

std::vector<NodeIndex> Topology::nodes_with_role(NodeRole role) const {
  std::vector<NodeIndex> out;
  for (NodeIndex i = 0; i < nodes.size(); ++i)
    if (nodes[i].role == role) out.push_back(i);
  return out;
}

std::size_t Topology::count(NodeRole role) const {
  std::size_t n = 0;
  for (const NodeSpec& node : nodes) n += node.role == role;
  return n;
}

std::optional<NodeIndex> Topology::find(std::string_view name) const {
  for (NodeIndex i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == name) return i;
  return std::nullopt;
}

std::optional<std::uint32_t> Topology::find_link(NodeIndex a,
                                                 NodeIndex b) const {
  for (std::uint32_t i = 0; i < links.size(); ++i)
    if ((links[i].a == a && links[i].b == b) ||
        (links[i].a == b && links[i].b == a))
      return i;
  return std::nullopt;
}

std::vector<std::vector<std::uint32_t>> Topology::ports() const {
  std::vector<std::vector<std::uint32_t>> out(nodes.size());
  for (std::uint32_t i = 0; i < links.size(); ++i) {
    out[links[i].a].push_back(i);
    out[links[i].b].push_back(i);
  }
  return out;
}

bool Topology::connected() const {
  if (nodes.empty()) return true;
  const auto adjacency = ports();
  std::vector<bool> seen(nodes.size(), false);
  std::vector<NodeIndex> stack{0};
  seen[0] = true;
  std::size_t reached = 1;
  while (!stack.empty()) {
    const NodeIndex n = stack.back();
    stack.pop_back();
    for (std::uint32_t link : adjacency[n]) {
      const NodeIndex m = peer(link, n);
      if (!seen[m]) {
        seen[m] = true;
        ++reached;
        stack.push_back(m);
      }
    }
  }
  return reached == nodes.size();
}

std::string Topology::summary() const {
  struct Names {
    NodeRole role;
    std::string_view one, many;
  };
  static constexpr std::array<Names, 5> kNames{
      {{NodeRole::super_spine, "super-spine", "super-spines"},
       {NodeRole::spine, "spine", "spines"},
       {NodeRole::leaf, "leaf", "leaves"},
       {NodeRole::dragonfly_router, "router", "routers"},
       {NodeRole::host, "host", "hosts"}}};
  std::string out = kind + ":";
  bool first = true;
  for (const Names& names : kNames) {
    const std::size_t n = count(names.role);
    if (n == 0) continue;
    out += strformat("{} {} {}", first ? "" : ",", n,
                     n == 1 ? names.one : names.many);
    first = false;
  }
  return out + strformat("; {} {}", links.size(),
                         links.size() == 1 ? "link" : "links");
}

}  // namespace arfabric::sim
