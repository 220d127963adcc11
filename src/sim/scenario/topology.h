// The fabric as plain data: nodes with their routing identities and the
// full-duplex cables between them. The simulator core builds switches, hosts
// and two link directions per cable from this; nothing here simulates.
//
// Roles say which ports face hosts: a port is host-facing when the cable's
// other end is a NodeRole::host, a fabric port otherwise (FARE-BGP §4.1:
// leaves originate the host prefixes; LSN §3.2.1: leaves are the
// destination devices that carry Global Node IDs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/units.h"
#include "sim/packet.h"

namespace arfabric::sim {

enum class NodeRole : std::uint8_t {
  host,
  leaf,
  spine,
  super_spine,
  dragonfly_router
};

// "host", "leaf", "spine", "super_spine", "dragonfly_router".
std::string_view role_name(NodeRole role);
std::optional<NodeRole> parse_role(std::string_view name);

// A switch (any role but host).
inline bool is_switch(NodeRole role) { return role != NodeRole::host; }

// Switches that attach hosts and originate their prefixes: leaves, and the
// routers of a dragonfly (which are their groups' edge devices).
inline bool is_edge_switch(NodeRole role) {
  return role == NodeRole::leaf || role == NodeRole::dragonfly_router;
}

inline constexpr std::uint32_t kNoPosition = 0xffffffff;

struct NodeSpec {
  std::string name;  // unique: "leaf3", "spine0", "host3.5"
  NodeRole role = NodeRole::host;
  std::uint32_t asn = 0;        // switches: RFC 7938 §5.2 private 4-byte
  std::uint32_t router_id = 0;  // switches: BGP Identifier, 10.x.y.z
  // Edge switches only: the LSN Global Node ID (LSN §3.2.1), 0..N-1 in
  // node order. kNoLsnId for other roles.
  std::uint16_t lsn_node_id = 0;
  // Position in the generator's structure, 0 where it has none: clos5 pod
  // (leaves, spines) and plane (spines, super-spines); rail: group = server,
  // plane = rail; dragonfly: group.
  std::uint32_t pod = 0, plane = 0, group = 0;
  // Index of this node among the nodes of its role (leaf 5 -> 5).
  std::uint32_t ordinal = 0;
};

inline constexpr std::uint16_t kNoLsnId = 0xffff;

// A full-duplex cable; the core makes one LinkIndex per direction.
struct LinkSpec {
  NodeIndex a = 0, b = 0;
  BitsPerSecond rate = 0;
  Time delay{};                 // propagation, one way
  double drop_probability = 0;  // per packet, each direction
};

struct Topology {
  std::string kind;  // "clos3", "clos5", "rail", "dragonfly", "edges"
  std::vector<NodeSpec> nodes;
  std::vector<LinkSpec> links;

  // Hosts in node order.
  std::vector<NodeIndex> hosts() const;
  // Nodes of `role` in node order.
  std::vector<NodeIndex> nodes_with_role(NodeRole role) const;
  std::size_t count(NodeRole role) const;
  // Linear scans (set-up time only); nullopt when absent.
  std::optional<NodeIndex> find(std::string_view name) const;
  // The cable joining a and b in either orientation.
  std::optional<std::uint32_t> find_link(NodeIndex a, NodeIndex b) const;
  // Cable indices at each node, in cable order: a node's ports.
  std::vector<std::vector<std::uint32_t>> ports() const;
  // The other end of cable `link` seen from `node`.
  NodeIndex peer(std::uint32_t link, NodeIndex node) const {
    return links[link].a == node ? links[link].b : links[link].a;
  }
  // A cable to a host (host-facing port at its switch end).
  bool is_host_link(std::uint32_t link) const {
    return nodes[links[link].a].role == NodeRole::host ||
           nodes[links[link].b].role == NodeRole::host;
  }
  // Every node reachable from node 0 (an empty topology is connected).
  bool connected() const;
  // One line for banners and reports: "clos3: 16 spines, 32 leaves, 256
  // hosts; 768 links".
  std::string summary() const;
};

}  // namespace arfabric::sim
