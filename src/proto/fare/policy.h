// The FARE path-bandwidth policy (draft-xu-idr-fare-04 §4.1, §4.2): pure
// arithmetic used by the BGP speaker on import (weights of the equal-cost
// routes of one prefix) and on export (the Path Bandwidth extended
// communities to attach). No session state; every interpretation is listed
// in docs/protocols/fare.md.
//
// Per candidate route, its path bandwidth is
//   - min(link, transitive EC)        from a leaf or a spine (§4.1, §4.2),
//                                     at a leaf with the multi-homing rule;
//   - min(link, non-transitive EC)    at a spine, from a super-spine (§4.2),
//                                     and everywhere when the configured
//                                     path community is non-transitive (§3).
// Weighted ECMP only when every candidate carries the community its rule
// needs (§4.1 "SHOULD NOT be performed unless all equal-cost routes ...
// carry", §4.2 "Otherwise, it would perform ECMP"); otherwise equal weights
// and the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "common/units.h"
#include "proto/fare/bandwidth.h"
#include "proto/fare/fare_config.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::proto::fare {

// One equal-cost route for a prefix, as received. The speaker decodes the
// communities with wire::fare::decode_path_bandwidth(ec, config.sub_type);
// an invalid one (PathBandwidth::valid() false) may be passed as nullopt or
// as is: both count as absent.
struct Candidate {
  BitsPerSecond link_bandwidth = 0;  // toward the advertising peer, current
  Role peer_role = Role::leaf;       // from configuration
  std::optional<wire::fare::PathBandwidth> transitive;
  std::optional<wire::fare::PathBandwidth> non_transitive;
};

enum class FallbackReason : std::uint8_t {
  none,
  missing_path_bandwidth,  // a candidate has no transitive EC (§4.1)
  missing_non_transitive,  // a route read by it without one (§3, §4.2)
  zero_total,              // every path bandwidth is 0 (all links down)
  no_candidates,           // empty span
  invalid_path_bandwidth,  // a transitive EC that is NaN or negative
  invalid_non_transitive,  // a non-transitive EC that is NaN or negative
};

struct ImportResult {
  // One per candidate, same order. Path bandwidths in bit/s when weighted,
  // 1 each otherwise. A weight may be 0 (link down) when weighted.
  std::vector<BitsPerSecond> weights;
  // Per candidate min(...) of its rule (after the multi-homing rule at a
  // leaf), also when falling back; 0 when its community is missing.
  std::vector<BitsPerSecond> path_bandwidth;
  bool weighted = false;
  FallbackReason reason = FallbackReason::none;
  std::size_t offending_candidate = 0;  // first one lacking the community
  // True when the multi-homing rule changed path_bandwidth (leaf, N > 1):
  // readvertise() then recomputes the unadjusted minima.
  bool multihoming_applied = false;
};

// `multihomed_leaves`: number of leaves the prefix is multi-homed to, from
// configuration; read only when config.role == leaf (§4.1 and §4.2 give the
// rule to the far leaf only); 0 is treated as 1. No error case: missing or
// invalid communities and an all-zero result are reported in `reason`.
ImportResult import_weights(const FareConfig& config,
                            std::span<const Candidate> candidates,
                            std::uint32_t multihomed_leaves = 1);

// The same, into `out`, reusing its vectors' capacity: no allocation once
// they have held as many candidates (for a speaker recomputing many
// prefixes).
void import_weights(const FareConfig& config,
                    std::span<const Candidate> candidates,
                    std::uint32_t multihomed_leaves, ImportResult& out);

struct ExportResult {
  std::optional<wire::fare::PathBandwidth> transitive;  // nullopt: none
  // Only ever one we attach, for direct eBGP neighbours: a super-spine's
  // link (§4.2), or the path community when path_bandwidth_transitive is
  // false (§3). A received non-transitive community is never re-exported.
  std::optional<wire::fare::PathBandwidth> non_transitive;
};

// The route this node originates (§4.1, §4.2: a leaf's own prefix): the
// transitive community (non-transitive when path_bandwidth_transitive is
// false) with the maximum value (65504 GB/s), our router ID.
// Any role may originate; the value is the same. No error case.
ExportResult originate(const FareConfig& config);

// Re-advertising the selected route(s). `selected`: the candidates the
// decision process kept, best path first (size 1 without multipath);
// `import`: import_weights(config, selected, N). With multipath == false
// only selected[0] counts. Rules by role (docs/protocols/fare.md):
//   - leaf, or spine whose best path is from a leaf/spine: transitive =
//     min(link, EC) (single) or the saturating sum of the per-route minima
//     (multipath), our router ID; none when a counted route lacks a valid
//     transitive community.
//   - super-spine: transitive of the first counted route carrying a valid
//     one, unchanged; plus, when super_spine_attach_link_ec, non-transitive
//     = link toward the advertising spine (sum of links with multipath).
//   - spine whose best path is from a super-spine: transitive unchanged;
//     with spine_lower_to_next_next_hop and every counted route carrying a
//     valid non-transitive community, replaced by the total of
//     min(link, non-transitive) (our router ID) when that is smaller.
// With path_bandwidth_transitive false (leaf and spine only): the first
// rule for every route, reading and writing the non-transitive community.
// Empty `selected`: nothing. No error case.
ExportResult readvertise(const FareConfig& config,
                         std::span<const Candidate> selected,
                         const ImportResult& import, bool multipath);

std::string_view fallback_reason_name(FallbackReason reason);

}  // namespace arfabric::proto::fare
