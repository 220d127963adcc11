#include "sim/static_routes.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>

namespace arfabric::sim {
namespace {

constexpr std::uint32_t kUnreached = 0xffffffff;

// The switches' ports toward other switches, in port order: routes never
// lead through hosts, which do not forward. Node n's entries are
// [first[n], first[n + 1]).
struct SwitchGraph {
  std::vector<std::uint32_t> first;
  std::vector<NodeIndex> peer;
  std::vector<proto::PortId> port;  // n's port toward peer[i]

  explicit SwitchGraph(const Network& network) {
    const std::size_t nodes = network.node_count();
    first.reserve(nodes + 1);
    for (NodeIndex n = 0; n < nodes; ++n) {
      first.push_back(static_cast<std::uint32_t>(peer.size()));
      if (network.is_host(n)) continue;
      const auto& neighbours = network.neighbours(n);
      for (std::size_t p = 0; p < neighbours.size(); ++p) {
        if (network.is_host(neighbours[p])) continue;
        peer.push_back(neighbours[p]);
        port.push_back(static_cast<proto::PortId>(p + 1));
      }
    }
    first.push_back(static_cast<std::uint32_t>(peer.size()));
  }
  std::span<const NodeIndex> peers(NodeIndex n) const {
    return {peer.data() + first[n], peer.data() + first[n + 1]};
  }
  std::span<const proto::PortId> ports(NodeIndex n) const {
    return {port.data() + first[n], port.data() + first[n + 1]};
  }
};

// Hop counts over the switch graph from a set of switches (one leaf, or
// a multi-homed host's leaves), and each switch's ports one hop closer.
class Search {
 public:
  explicit Search(const SwitchGraph& graph)
      : graph_(graph), hops_(graph.first.size() - 1) {}

  void from(std::span<const NodeIndex> sources) {
    hops_.assign(hops_.size(), kUnreached);
    frontier_.assign(sources.begin(), sources.end());
    for (NodeIndex n : sources) hops_[n] = 0;
    while (!frontier_.empty()) {
      next_.clear();
      for (NodeIndex n : frontier_) {
        for (NodeIndex m : graph_.peers(n)) {
          if (hops_[m] != kUnreached) continue;
          hops_[m] = hops_[n] + 1;
          next_.push_back(m);
        }
      }
      frontier_.swap(next_);
    }
  }
  // Appends x's ports toward switches one hop closer, in port order, each
  // of weight 1: none for a source or a switch not reached, at least one
  // (toward the switch that reached it) for any other.
  void append_closer(NodeIndex x,
                     std::vector<proto::fib::WeightedMember>& members) const {
    if (hops_[x] == 0 || hops_[x] == kUnreached) return;
    const auto peers = graph_.peers(x);
    const auto ports = graph_.ports(x);
    for (std::size_t i = 0; i < peers.size(); ++i) {
      if (hops_[peers[i]] + 1 == hops_[x]) members.push_back({ports[i], 1});
    }
  }

 private:
  const SwitchGraph& graph_;
  std::vector<std::uint32_t> hops_;
  std::vector<NodeIndex> frontier_, next_;
};

// The nodes, sorted, each once.
std::vector<NodeIndex> sorted_set(std::vector<NodeIndex> nodes) {
  std::ranges::sort(nodes);
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

// Leaves with the same set of switch neighbours ("twins": every leaf of a
// 3-stage CLOS, those of a pod in a 5-stage one), in node order; classes
// in the order of their first leaf.
std::vector<std::vector<NodeIndex>> twin_classes(
    const SwitchGraph& graph, const std::vector<proto::NodeId>& leaf_id) {
  std::vector<std::vector<NodeIndex>> classes;
  std::map<std::vector<NodeIndex>, std::size_t> by_neighbours;
  for (NodeIndex leaf = 0; leaf < leaf_id.size(); ++leaf) {
    if (leaf_id[leaf] == kNotLeaf) continue;
    auto [at, added] = by_neighbours.try_emplace(
        sorted_set({graph.peers(leaf).begin(), graph.peers(leaf).end()}),
        classes.size());
    if (added) classes.emplace_back();
    classes[at->second].push_back(leaf);
  }
  return classes;
}

}  // namespace

// Why twins share one search: let leaves d1 and d2 have the same switch
// neighbours N. They are not neighbours of each other (d2 would be in
// N(d2)), so every other node's distance to d2 equals its distance to d1,
// and so do its members (the ports toward neighbours one hop closer),
// except for
//   - the switches in N, whose members toward d2 are their ports to d2;
//   - d1, two hops from d2 over every switch port of its own (all go
//     into N);
//   - d2 itself, which needs no route to itself.
// So one breadth-first search from a class's first leaf gives every
// switch's route to every leaf of the class, and a wide CLOS costs one
// search instead of one per leaf.
std::size_t program_static_routes(
    Network& network, const std::vector<proto::NodeId>& leaf_id, Time now,
    const std::atomic<bool>* stop,
    const std::function<void(std::size_t done, std::size_t leaves)>& progress) {
  const std::size_t nodes = network.node_count();
  const SwitchGraph graph(network);
  const std::vector<std::vector<NodeIndex>> classes =
      twin_classes(graph, leaf_id);
  std::vector<NodeIndex> switches;
  for (NodeIndex n = 0; n < nodes; ++n) {
    if (!network.is_host(n)) switches.push_back(n);
  }
  const std::size_t leaves = static_cast<std::size_t>(std::ranges::count_if(
      leaf_id, [](proto::NodeId id) { return id != kNotLeaf; }));
  const auto stopped = [stop] {
    return stop != nullptr && stop->load(std::memory_order_relaxed);
  };

  Search search(graph);
  // The first leaf's members at each switch: [first[n], first[n + 1]).
  std::vector<std::uint32_t> first(nodes + 1);
  std::vector<proto::fib::WeightedMember> members;
  // For the switch being programmed: its ports toward each neighbour
  // that is a leaf (toward[m], empty for others).
  std::vector<std::vector<proto::fib::WeightedMember>> toward(nodes);
  std::vector<proto::fib::WeightedMember> uplinks;
  std::size_t routes = 0, done = 0, reported = 0;
  for (const std::vector<NodeIndex>& twins : classes) {
    const NodeIndex d1 = twins.front();
    if (graph.peers(d1).empty()) {  // reaches nothing, reached by nothing
      done += twins.size();
      if (progress) progress(reported = done, leaves);
      continue;
    }
    search.from({&d1, 1});
    members.clear();
    for (NodeIndex n = 0; n < nodes; ++n) {
      first[n] = static_cast<std::uint32_t>(members.size());
      search.append_closer(n, members);
    }
    first[nodes] = static_cast<std::uint32_t>(members.size());
    uplinks.clear();
    for (proto::PortId p : graph.ports(d1)) uplinks.push_back({p, 1});
    // A lone leaf (say, a dragonfly's router) has its search's routes.
    const bool twinned = twins.size() > 1;

    for (std::size_t k = 0; k < switches.size(); ++k) {
      if (stopped()) return routes;
      const NodeIndex x = switches[k];
      const auto peers = graph.peers(x);
      const auto ports = graph.ports(x);
      for (std::size_t i = 0; twinned && i < peers.size(); ++i) {
        if (leaf_id[peers[i]] != kNotLeaf)
          toward[peers[i]].push_back({ports[i], 1});
      }
      const std::span<const proto::fib::WeightedMember> closer(
          members.data() + first[x], members.data() + first[x + 1]);
      for (NodeIndex d : twins) {
        if (d == x) continue;
        std::span<const proto::fib::WeightedMember> route;
        if (x == d1) {
          route = uplinks;
        } else if (d != d1 && !toward[d].empty()) {
          route = toward[d];
        } else if (!closer.empty()) {  // empty: x does not reach d1
          route = closer;
        } else {
          continue;
        }
        if (network.fib(x).set_route(leaf_id[d], route, now)) ++routes;
      }
      if (twinned) {
        for (NodeIndex m : peers) toward[m].clear();
      }
      if (progress) {
        const std::size_t part =
            done + twins.size() * (k + 1) / switches.size();
        if (part != reported) progress(reported = part, leaves);
      }
    }
    done += twins.size();
  }
  if (progress && done != reported) progress(done, leaves);

  // Multi-homed hosts, FIB destinations of their own: their leaves have
  // the connected routes the network gave them, and every other switch
  // the ports toward the nearest of those leaves. Hosts on the same
  // leaves have the same routes: one search (from all those leaves at
  // once) per set of leaves.
  std::map<std::vector<NodeIndex>, std::vector<proto::NodeId>> by_leaves;
  for (const Network::MultiHomedHost& m : network.multihomed()) {
    by_leaves[sorted_set(m.leaves)].push_back(m.destination);
  }
  for (const auto& [sources, destinations] : by_leaves) {
    search.from(sources);
    for (NodeIndex x : switches) {
      if (stopped()) return routes;
      members.clear();
      search.append_closer(x, members);
      if (members.empty()) continue;  // a source, or not reached
      for (proto::NodeId d : destinations) {
        if (network.fib(x).set_route(d, members, now)) ++routes;
      }
    }
  }
  return routes;
}

}  // namespace arfabric::sim
