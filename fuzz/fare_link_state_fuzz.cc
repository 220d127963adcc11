// libFuzzer target: FARE over a link-state IGP (proto/fare/link_state.h)
// on hostile IS-IS LSPs. The input is LSPs back to back, each as it would
// arrive (parsed by wire::isis::parse_lsp, which gives its length); the
// first one's router computes its routes over the level they form.
// Invariants: no crash, sanitizer report or leak; routes are ordered by
// prefix without repeats; every route has an originator and first hops
// that are neighbours of the computing router; a weighted route's weights
// are finite and its Path Bandwidth at most their sum; a route falling
// back has weights 1.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "proto/fare/link_state.h"
#include "wire/isis/lsp.h"

using namespace arfabric;
using namespace arfabric::proto::fare;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  std::vector<wire::isis::Lsp> lsps;
  ByteSpan in(data, size);
  while (!in.empty()) {
    auto parsed = wire::isis::parse_lsp(in);
    if (!parsed || parsed->pdu_length == 0) break;
    lsps.push_back(std::move(parsed->lsp));
    in = in.subspan(parsed->pdu_length);
  }
  if (lsps.empty()) return 0;
  auto db = database_from_isis(lsps);
  if (!db) return 0;
  const RouterKey self = router_key(lsps[0].lsp_id.system_id);
  auto routes = compute_routes(*db, self);
  if (!routes) return 0;
  const LinkStateRouter* me = nullptr;
  for (const LinkStateRouter& r : db->routers)
    if (r.router == self) me = &r;
  if (me == nullptr) __builtin_trap();
  for (std::size_t i = 0; i < routes->size(); ++i) {
    const LinkStateRoute& r = (*routes)[i];
    if (i > 0) {
      const proto::fib::Prefix& a = (*routes)[i - 1].prefix;
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
  return 0;
}
