// Routes without a routing protocol: shortest-path ECMP over the switch
// graph (hop count), for fabrics too large to warm BGP up
// (scenario `switches.routing: static`).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/network.h"

namespace arfabric::sim {

// Programs, in every switch's FIB and for every leaf (FIB destination =
// `leaf_id[leaf node]`), the ports toward the neighbours one hop closer to
// that leaf, each with weight 1. A switch that cannot reach a leaf gets no
// route for it (its packets are counted as no_route). Returns the number of
// routes programmed. `leaf_id[n]` is kNotLeaf for nodes that are not
// leaves. A wide fabric's routes take minutes: when `stop` is set (read
// before each leaf) it returns early, the rest unprogrammed, and
// `progress`, when set, is called after each leaf with the leaves done
// and the leaves in all.
std::size_t program_static_routes(
    Network& network, const std::vector<proto::NodeId>& leaf_id, Time now,
    const std::atomic<bool>* stop = nullptr,
    const std::function<void(std::size_t done, std::size_t leaves)>& progress =
        {});

}  // namespace arfabric::sim
