// Test support: IS-IS LSPs of small point-to-point fabrics, for the FARE
// link-state tests (proto/fare/link_state, cli/fare_lsr).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "wire/isis/lsp.h"

namespace arfabric::testing {

// System ID 0000.0000.00nn (nn in hex).
inline wire::isis::SystemId isis_system(std::uint8_t n) {
  return {0, 0, 0, 0, 0, n};
}

// Router n's LSP (fragment 0, sequence number 1) with one TLV 22: each
// neighbour at metric 10 with the Maximum Link Bandwidth (bytes/s) toward
// it. Callers add prefixes.
inline wire::isis::Lsp isis_router_lsp(
    std::uint8_t n, const std::vector<std::pair<std::uint8_t, float>>& links) {
  namespace isis = wire::isis;
  isis::Lsp l;
  l.lsp_id.system_id = isis_system(n);
  isis::ExtendedIsReachTlv reach;
  for (const auto& [m, bytes_per_second] : links)
    reach.neighbors.push_back(
        {isis_system(m),
         0,
         10,
         {isis::MaxLinkBandwidthSubTlv{
             wire::lsr::Bandwidth32::from_bytes_per_second(
                 bytes_per_second)}}});
  l.tlvs.push_back(reach);
  return l;
}

}  // namespace arfabric::testing
