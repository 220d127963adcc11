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
// that leaf, each with weight 1; and for every multi-homed host
// (Network::multihomed(), a destination of its own), at every switch but
// its leaves (which have their connected routes), the ports one hop
// closer to the nearest of its leaves. A switch that cannot reach a
// destination gets no route for it (its packets are counted as
// no_route); nothing re-routes around a failure later. Returns the
// number of routes programmed. `leaf_id[n]` is kNotLeaf for nodes that
// are not leaves. Leaves with the same switch neighbours share one
// search (see the .cc), so a 3-stage CLOS of any width costs one. When
// `stop` is set (read before each switch's routes to a class of leaves
// or to a set of multi-homed hosts) it returns early, the rest
// unprogrammed. `progress`, when set, is called with the leaves whose
// routes are done (a class of twins counts part-way as its switches are
// programmed) and the leaves in all, whenever the first number grows;
// the multi-homed hosts, programmed last, are not counted.
std::size_t program_static_routes(
    Network& network, const std::vector<proto::NodeId>& leaf_id, Time now,
    const std::atomic<bool>* stop = nullptr,
    const std::function<void(std::size_t done, std::size_t leaves)>& progress =
        {});

}  // namespace arfabric::sim
