// Topology generators: the fabrics of the drafts' figures, from a few
// counts, plus an explicit node and edge list.
//
//   clos3      FARE-BGP §4.1 Figure 1, LSN §4.1: every leaf to every spine.
//   clos5      FARE-BGP §4.2 Figure 2: PoDs of leaves and spines; spine j of
//              every PoD to every super-spine of plane j.
//   rail       rail-optimised: GPU i of every server to leaf i (rail i),
//              every leaf to every spine.
//   dragonfly  ARN §2 Figure "ARN Example in Dragonfly": routers of a group
//              fully meshed, groups joined by direct global links.
//   edges      explicit nodes (with roles) and cables.
//
// Identities follow RFC 7938 §5.2 with private 4-byte ASNs (RFC 6996,
// 4200000000-4294967294): all super-spines share one ASN (Tier 1), the
// spines of a PoD share one (Tier 2; clos3 and rail have one PoD), every
// leaf and dragonfly router has its own. See assign_identifiers().
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/topology.h"

namespace arfabric::sim {

// The private 4-byte ASN plan (RFC 7938 §5.2.1, RFC 6996).
inline constexpr std::uint32_t kSuperSpineAsn = 4'200'000'000;
inline constexpr std::uint32_t kSpineAsnBase = 4'200'000'001;   // + pod
inline constexpr std::uint32_t kLeafAsnBase = 4'201'000'000;    // + leaf
inline constexpr std::uint32_t kRouterAsnBase = 4'202'000'000;  // + router
// Router IDs: 10.0.0.0/8 + (switch number + 1), switches numbered in node
// order, so 10.0.0.1 is the first switch.
inline constexpr std::uint32_t kRouterIdBase = 0x0a000000;
// LSN Dev-Range is 6 bits of 256-device ranges (LSN §3.1).
inline constexpr std::uint32_t kMaxLsnNodes = 16'384;
// Generators refuse fabrics above these sizes (memory, not protocol).
inline constexpr std::uint64_t kMaxNodes = 4'000'000;
inline constexpr std::uint64_t kMaxLinks = 16'000'000;

struct LinkClass {
  BitsPerSecond rate = 400'000'000'000;
  Time delay = ns(500);
  double drop_probability = 0;
};

struct Clos3Params {
  std::uint32_t spines = 0, leaves = 0, hosts_per_leaf = 0;
  LinkClass host_link, leaf_spine_link;
};

struct Clos5Params {
  std::uint32_t pods = 0, leaves_per_pod = 0;
  std::uint32_t spines_per_pod = 0;  // = the number of planes
  std::uint32_t super_spines_per_plane = 0, hosts_per_leaf = 0;
  LinkClass host_link, leaf_spine_link, spine_super_spine_link;
};

struct RailParams {
  std::uint32_t servers = 0, gpus_per_server = 8, spines = 0;
  LinkClass host_link, leaf_spine_link;
};

struct DragonflyParams {
  std::uint32_t groups = 0, routers_per_group = 0, hosts_per_router = 0;
  // At most this many global cables per router; every pair of groups gets
  // floor(routers_per_group * global_links_per_router / (groups - 1)).
  std::uint32_t global_links_per_router = 0;
  LinkClass host_link, local_link, global_link;
};

// A parameter that makes the generator impossible: the key (relative to
// the topology section, e.g. "spines") and why.
struct ParamError {
  std::string key;
  std::string message;
};

// Errors: any count 0 (a fabric without hosts carries no traffic), a link
// rate of 0, drop_probability outside [0, 1), more than kMaxNodes nodes or
// kMaxLinks cables (key ""); clos5: pods above 999,999 (the spine ASNs
// would reach the leaf ASNs); dragonfly: groups < 2, routers_per_group *
// global_links_per_router < groups - 1, or more cables per group pair
// than distinct router pairs can carry (global_links_per_router).
std::optional<ParamError> check(const Clos3Params& p);
std::optional<ParamError> check(const Clos5Params& p);
std::optional<ParamError> check(const RailParams& p);
std::optional<ParamError> check(const DragonflyParams& p);

// Build the fabric, identities assigned. Preconditions: check() passed.
// Node order: hosts of leaf 0, 1, ... are listed after all switches, so that
// switch node indices do not depend on hosts_per_leaf.
Topology make_clos3(const Clos3Params& p);
Topology make_clos5(const Clos5Params& p);
Topology make_rail(const RailParams& p);
Topology make_dragonfly(const DragonflyParams& p);

// Fills asn, router_id and lsn_node_id where they are 0 (edges topologies
// may set them), and ordinal for every node. LSN IDs go to edge switches
// (leaves, dragonfly routers) 0..N-1 in node order, kNoLsnId elsewhere;
// they wrap past 65,535 (the scenario parser refuses more than 16,384
// edge switches when an LSN mode runs).
void assign_identifiers(Topology& t);

}  // namespace arfabric::sim
