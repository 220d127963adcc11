// FARE over a link-state IGP (draft-xu-lsr-fare-04 §4, §5): weighted ECMP
// from the link capacities (TE Maximum Bandwidth, RFC 5305 §3.4 / RFC 3630
// §2.5.6) and the Path Bandwidth of prefixes in one IS-IS level or OSPF
// area, and the Path Bandwidth a level-1-2 router or ABR re-advertises when
// it leaks a prefix into the other level or area.
//
// Pure computation over a link-state database (no flooding, adjacencies or
// timers): compute_routes() runs SPF from one node with equal-cost
// multipath and, per prefix, weights each first hop by the capacity of
// its paths:
//   - a path's capacity is the minimum of the Maximum Bandwidth of every
//     link along it, each in the direction of travel, and of the Path
//     Bandwidth its originator advertises with the prefix (§4.1: "the
//     minimum value among the capacity of the upstream link, the capacity
//     of the downstream link ... and the path bandwidth associated with
//     that prefix"; §5: "the capacity of each SPF path");
//   - a first hop's weight is the largest capacity among the shortest
//     paths through it (in a CLOS one path a first hop; where several
//     continue from it, the widest, not their sum: ours, §5 names no rule);
//   - the route's Path Bandwidth to re-advertise when leaking (§4.2, both
//     directions) is min(the largest Path Bandwidth among its originators,
//     the sum of the first hops' path capacities). From L1 to L2 the one
//     first hop is "the link towards the originating router"; from L2 to
//     L1 the sum is "the total bandwidth of all paths towards the
//     advertising router".
// Weighted ECMP needs every path's capacity known: when a path has no
// link with a Maximum Bandwidth and its prefix no Path Bandwidth, the
// route falls back to equal weights (as FARE over BGP does without the
// community, §4.1), and so it does when every weight is 0.
//
// Interpretations (docs/PROTOCOLS.md, "FARE over link-state routing"):
// links are used only when both ends list each other (the two-way check
// of ISO 10589 §7.2.8 / RFC 2328 §16.1); parallel links to one neighbour
// at the least metric are one link whose capacity is their sum; a
// bandwidth that is NaN or negative is absent, +Inf and anything at or
// above 2^64 - 1 bit/s is unlimited; binary32 bytes per second become
// bits per second rounded toward zero.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <vector>

#include "common/units.h"
#include "proto/config_error.h"
#include "proto/fare/bandwidth.h"
#include "proto/fib/prefix_table.h"
#include "wire/isis/lsp.h"
#include "wire/lsr/bandwidth.h"

namespace arfabric::proto::fare {

// A router of the level or area: an IS-IS system ID (48 bits) or an OSPF
// router ID, as the database's source numbers them.
using RouterKey = std::uint64_t;

struct LinkStateLink {
  RouterKey neighbor = 0;
  std::uint32_t metric = 0;
  // Maximum Bandwidth in the direction away from the advertising router;
  // nullopt when not advertised (or not usable).
  std::optional<BitsPerSecond> max_bandwidth;
};

struct LinkStatePrefix {
  fib::Prefix prefix;
  std::uint32_t metric = 0;
  std::optional<BitsPerSecond> path_bandwidth;  // the Path Bandwidth sub-TLV
  // Advertised into the level or area from another one, and so less
  // preferred than the level's or area's own advertisements at any cost:
  // the IS-IS up/down bit (RFC 5302 §3.3: leaked down from level 2, and
  // not to be leaked up again), or an OSPF inter-area prefix (a
  // Summary-LSA, RFC 2328 §11 and §16.2).
  bool inter_area = false;
  bool operator==(const LinkStatePrefix&) const = default;
};

struct LinkStateRouter {
  RouterKey router = 0;
  // Not to be used for transit (the IS-IS LSP overload bit, RFC 8770's
  // H-bit in an OSPF Router-LSA): it and its
  // prefixes are reached, routers beyond it only through others.
  bool overloaded = false;
  std::vector<LinkStateLink> links;
  std::vector<LinkStatePrefix> prefixes;
};

// One level or area. Errors of compute_routes() name routers by index
// here ("routers[3]").
struct LinkStateDatabase {
  std::vector<LinkStateRouter> routers;
};

struct WeightedFirstHop {
  RouterKey neighbor = 0;
  // The first hop's path capacity in bit/s when the route is weighted,
  // else 1.
  BitsPerSecond weight = 0;
  bool operator==(const WeightedFirstHop&) const = default;
};

enum class WeightFallback : std::uint8_t {
  none,
  unknown_capacity,  // a path with no Maximum Bandwidth and no Path Bandwidth
  zero_total,        // every first hop's capacity is 0
};

struct LinkStateRoute {
  fib::Prefix prefix;
  std::uint32_t metric = 0;                  // to the nearest originators
  std::vector<RouterKey> originators;        // those at that metric, ascending
  std::vector<WeightedFirstHop> first_hops;  // ascending by neighbor
  bool weighted = false;
  WeightFallback fallback = WeightFallback::none;
  // What to re-advertise with the prefix when leaking it (see the top);
  // kUnlimited when nothing bounds it.
  BitsPerSecond path_bandwidth = kUnlimited;
  // The route is to inter_area advertisements (an IS-IS prefix with the
  // up/down bit, which must not be leaked up again; an OSPF inter-area
  // route, which an ABR advertises only into non-backbone areas, RFC 2328
  // §12.4.3): there is none of the level's or area's own, which would be
  // preferred at any cost.
  bool inter_area = false;
};

// The routes of `self` to every prefix another router advertises and SPF
// reaches, ordered by prefix (IPv4 before IPv6, then address, then
// length). Prefixes `self` advertises itself are not routed. Among a
// prefix's advertisements, those not inter_area come first (RFC 5302
// §3.3, RFC 2328 §11), then the least cost.
// Errors: "self" not in the database; "routers[i].router" listed twice;
// "routers[i].prefixes[j].prefix" with host bits set or a length beyond
// its family.
std::expected<std::vector<LinkStateRoute>, ConfigError> compute_routes(
    const LinkStateDatabase& database, RouterKey self);

// A Maximum Bandwidth or Path Bandwidth as a rate (see the top): nullopt
// for NaN and negative values other than -0.
std::optional<BitsPerSecond> to_bits_per_second(wire::lsr::Bandwidth32 bw);
// The value to advertise for `rate`, rounded toward zero so that a
// bottleneck is never overstated; kUnlimited gives FLT_MAX, the finite
// "maximum bandwidth value" docs/PROTOCOLS.md suggests.
wire::lsr::Bandwidth32 to_bandwidth32(BitsPerSecond rate);

// The database of one IS-IS level from its routers' LSPs (every fragment
// of each; pseudonode LSPs are not supported). Reads TLV 22 (neighbours,
// metric, sub-TLV 9 Maximum Link Bandwidth; neighbours that are
// pseudonodes are skipped, and links at the maximum metric 2^24 - 1,
// which RFC 5305 §3 keeps out of SPF), the overload bit of fragment 0
// (RFC 3787 §4), and the prefixes of TLVs 135 and 236 with the Path
// Bandwidth sub-TLV and the up/down bit, host bits cleared, those above
// MAX_PATH_METRIC 0xFE000000 left out (RFC 5305 §4). A router without
// fragment 0 is left out, its other fragments with it (ISO 10589
// §7.2.5). Multi-topology TLVs 235 and 237 are ignored (the standard
// topology only). Which LSPs are current (checksum, sequence number, remaining
// lifetime) is the caller's to decide: every one given is used. Errors:
// "lsps[i].lsp_id.pseudonode" not 0 (a LAN's pseudonode: not supported).
std::expected<LinkStateDatabase, ConfigError> database_from_isis(
    std::span<const wire::isis::Lsp> lsps);

// The key of an IS-IS system ID, and back (the low 48 bits).
RouterKey router_key(const wire::isis::SystemId& id);
wire::isis::SystemId system_id(RouterKey key);

}  // namespace arfabric::proto::fare
