#include "sim/static_routes.h"

#include <algorithm>
#include <cstdint>

namespace arfabric::sim {

std::size_t program_static_routes(
    Network& network, const std::vector<proto::NodeId>& leaf_id, Time now,
    const std::atomic<bool>* stop,
    const std::function<void(std::size_t done, std::size_t leaves)>& progress) {
  constexpr std::uint32_t kUnreached = 0xffffffff;
  const std::size_t nodes = network.node_count();
  std::vector<std::uint32_t> hops(nodes);
  std::vector<NodeIndex> frontier, next;
  std::vector<proto::fib::WeightedMember> members;
  std::size_t routes = 0;
  // Read once: the per-leaf passes below walk every port of every switch,
  // and the neighbour lists are dense where Link objects are not.
  std::vector<std::uint8_t> host(nodes);
  for (NodeIndex n = 0; n < nodes; ++n) host[n] = network.is_host(n);
  const auto leaves = static_cast<std::size_t>(std::ranges::count_if(
      leaf_id, [](proto::NodeId id) { return id != kNotLeaf; }));
  std::size_t done = 0;
  for (NodeIndex leaf = 0; leaf < nodes; ++leaf) {
    if (leaf_id[leaf] == kNotLeaf) continue;
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) break;
    // Hop counts to `leaf` over switches only (hosts do not forward).
    hops.assign(nodes, kUnreached);
    hops[leaf] = 0;
    frontier.assign(1, leaf);
    while (!frontier.empty()) {
      next.clear();
      for (NodeIndex n : frontier) {
        for (NodeIndex m : network.neighbours(n)) {
          if (host[m] || hops[m] != kUnreached) continue;
          hops[m] = hops[n] + 1;
          next.push_back(m);
        }
      }
      frontier.swap(next);
    }
    for (NodeIndex n = 0; n < nodes; ++n) {
      if (n == leaf || host[n] || hops[n] == kUnreached) continue;
      members.clear();
      const auto& neighbours = network.neighbours(n);
      for (std::size_t p = 0; p < neighbours.size(); ++p) {
        const NodeIndex m = neighbours[p];
        if (!host[m] && hops[m] + 1 == hops[n]) {
          members.push_back({static_cast<proto::PortId>(p + 1), 1});
        }
      }
      if (network.fib(n).set_route(leaf_id[leaf], members, now)) ++routes;
    }
    if (progress) progress(++done, leaves);
  }
  return routes;
}

}  // namespace arfabric::sim
