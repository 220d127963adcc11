// FARE over OSPFv2 (draft-xu-lsr-fare-04 §3, §4): the link-state database
// of one area, for compute_routes() (proto/fare/link_state.h), from the
// area's LSAs.
//
// What is read (RFC 2328 A.4, RFC 3630, RFC 7684):
//   - Router-LSAs (LS type 1): one router each, keyed by its router ID.
//     Point-to-point links (type 1) to the neighbour named by the Link ID
//     at the link's metric; stub networks (type 3) as the router's own
//     prefixes (Link ID masked by Link Data) at their metric. Transit
//     links (LANs) and virtual links are skipped: LANs are not supported,
//     and virtual links belong to the backbone's own SPF (RFC 2328
//     §16.1). RFC 8770's H-bit makes the router `overloaded` (no transit).
//   - Summary-LSAs of LS type 3 from those routers: inter-area prefixes
//     (LinkStatePrefix::inter_area) at the Summary-LSA's metric; those at
//     LSInfinity are withdrawn and left out (RFC 2328 §16.2). Type 4
//     (ASBR) summaries are not prefixes and are ignored.
//   - TE opaque LSAs (opaque type 1): each Link TLV of link type 1 (or
//     without a type) gives its Maximum Bandwidth to the point-to-point
//     link of its router whose neighbour is the TLV's Link ID and whose
//     Link Data is among the TLV's local interface addresses; a TLV
//     without local addresses names the router's one link to that
//     neighbour, if it has exactly one. The first TLV to name a link wins.
//   - Extended Prefix opaque LSAs (opaque type 7): the Path Bandwidth
//     sub-TLV of an Extended Prefix TLV (the last one in it wins) goes to
//     the same router's advertisement of the prefix: its stub network for
//     route type 1 (intra-area), its Summary-LSA for route type 3
//     (inter-area), both for route type 0 (unspecified, RFC 7684 §2.1).
//     Route types 5 and 7 (external) are ignored: external routes are not
//     modelled.
//   - Every other LSA (Network-LSAs, AS-external LSAs, other opaque types)
//     is ignored. A router without a Router-LSA is left out, its other
//     LSAs with it.
// Which LSAs are current (checksum, sequence number, age, area) is the
// caller's to decide: every LSA given is used.
#pragma once

#include <expected>
#include <span>

#include "proto/config_error.h"
#include "proto/fare/link_state.h"
#include "wire/inet/ipv4.h"
#include "wire/ospf/ospfv2_lsa.h"

namespace arfabric::proto::fare {

// Errors (naming LSAs by index, "lsas[3]"): the same LSA (LS type, Link
// State ID, advertising router) given twice ("lsas[j]"); a Router-LSA
// whose Link State ID is not its advertising router
// ("lsas[i].link_state_id"); a stub network's or Summary-LSA's mask that
// is not contiguous ("lsas[i].links[j].link_data",
// "lsas[i].network_mask").
std::expected<LinkStateDatabase, ConfigError> database_from_ospfv2(
    std::span<const wire::ospf::Ospfv2Lsa> lsas);

// The key of an OSPF router ID, and back (the low 32 bits, big-endian).
RouterKey router_key(const wire::Ipv4Address& router_id);
wire::Ipv4Address ospf_router_id(RouterKey key);

}  // namespace arfabric::proto::fare
