// Shared by the FARE link-state fuzz targets: what every route
// compute_routes() (proto/fare/link_state.h) returns must hold, whatever
// the database. Routes are ordered by prefix without repeats; every route
// has an originator and first hops that are neighbours of the computing
// router; a weighted route's weights are finite and its Path Bandwidth at
// most their sum; a route falling back has weights 1. Traps otherwise.
#pragma once

#include <tuple>
#include <vector>

#include "proto/fare/link_state.h"

namespace arfabric::fuzz {

inline void check_routes(
    const proto::fare::LinkStateDatabase& db, proto::fare::RouterKey self,
    const std::vector<proto::fare::LinkStateRoute>& routes) {
  using namespace proto::fare;
  const LinkStateRouter* me = nullptr;
  for (const LinkStateRouter& r : db.routers)
    if (r.router == self) me = &r;
  if (me == nullptr) __builtin_trap();
  for (std::size_t i = 0; i < routes.size(); ++i) {
    const LinkStateRoute& r = routes[i];
    if (i > 0) {
      const proto::fib::Prefix& a = routes[i - 1].prefix;
      if (std::tie(a.ipv6, a.address, a.length) >=
          std::tie(r.prefix.ipv6, r.prefix.address, r.prefix.length))
        __builtin_trap();  // out of order, or a prefix twice
    }
    if (r.originators.empty() || r.first_hops.empty()) __builtin_trap();
    BitsPerSecond total = 0;
    for (const WeightedFirstHop& h : r.first_hops) {
      bool neighbour = false;
      for (const LinkStateLink& l : me->links)
        neighbour |= l.neighbor == h.neighbor;
      if (!neighbour) __builtin_trap();
      if (!r.weighted && h.weight != 1) __builtin_trap();
      if (r.weighted && h.weight == kUnlimited) __builtin_trap();
      total = saturating_add(total, h.weight);
    }
    if (r.weighted && r.path_bandwidth > total) __builtin_trap();
  }
}

}  // namespace arfabric::fuzz
