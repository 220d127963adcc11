// libFuzzer target: FARE over a link-state IGP (proto/fare/link_state.h)
// on hostile IS-IS LSPs. The input is LSPs back to back, each as it would
// arrive (parsed by wire::isis::parse_lsp, which gives its length); the
// first one's router computes its routes over the level they form.
// Invariants: no crash, sanitizer report or leak; those of
// fuzz/route_invariants.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "proto/fare/link_state.h"
#include "route_invariants.h"
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
  fuzz::check_routes(*db, self, *routes);
  return 0;
}
