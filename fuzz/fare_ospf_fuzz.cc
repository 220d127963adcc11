// libFuzzer target: FARE over OSPFv2 (proto/fare/link_state_ospf.h) on
// hostile LSAs. The input is LSAs back to back, each as it would arrive
// (parsed by wire::ospf::parse_ospfv2_lsa_decoded; its header gives its
// length); the first one's advertising router computes its routes over
// the area they form. Invariants: no crash, sanitizer report or leak;
// notes name LSAs given; those of fuzz/route_invariants.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "proto/fare/link_state_ospf.h"
#include "route_invariants.h"
#include "wire/ospf/ospfv2_lsa.h"

using namespace arfabric;
using namespace arfabric::proto::fare;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  std::vector<wire::ospf::Ospfv2Lsa> lsas;
  ByteSpan in(data, size);
  while (!in.empty()) {
    auto lsa = wire::ospf::parse_ospfv2_lsa_decoded(in);
    if (!lsa) break;
    const std::size_t length = lsa->header.length;
    lsas.push_back(std::move(*lsa));
    in = in.subspan(length);
  }
  if (lsas.empty()) return 0;
  const RouterKey self = router_key(lsas[0].header.advertising_router);
  // The first LSA's options bit 0 picks the backbone or another area.
  const bool backbone = (lsas[0].header.options & 1) == 0;
  auto db = database_from_ospfv2(lsas, {.self = self, .backbone = backbone});
  if (!db) return 0;
  for (const OspfNote& n : db->notes)
    if (n.lsa >= lsas.size()) __builtin_trap();
  auto routes = compute_routes(db->database, self);
  if (!routes) return 0;  // self without a Router-LSA
  fuzz::check_routes(db->database, self, *routes);
  return 0;
}
