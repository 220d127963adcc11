// FARE over OSPFv2 (draft-xu-lsr-fare-04 §3, §4): the link-state database
// of one area, for compute_routes() (proto/fare/link_state.h), from the
// area's LSAs.
//
// What is read (RFC 2328 A.4, RFC 3630, RFC 4203, RFC 7684):
//   - Router-LSAs (LS type 1): one router each, keyed by its router ID.
//     Point-to-point links (type 1) to the neighbour named by the Link ID
//     at the link's metric; stub networks (type 3) as the router's own
//     prefixes (Link ID masked by Link Data) at their metric. RFC 8770's
//     H-bit makes the router `overloaded` (no transit).
//   - Summary-LSAs of LS type 3 from area border routers (B bit): inter-
//     area prefixes (LinkStatePrefix::inter_area) at the Summary-LSA's
//     metric. As RFC 2328 §16.2 has it, those at LSInfinity are withdrawn,
//     the computing router's own are not routes, and an area border router
//     computing outside the backbone uses none. Type 4 (ASBR) summaries
//     are not prefixes and are ignored.
//   - TE opaque LSAs (opaque type 1): each Link TLV of link type 1 (or
//     without a type) gives its Maximum Bandwidth to a point-to-point link
//     of its router to the TLV's Link ID: the one whose Link Data (the
//     local interface address) is among the TLV's local addresses, else
//     the one whose Link Data (an unnumbered link's ifIndex) is the TLV's
//     Link Local Identifier (RFC 4203 sub-TLV 11), else the router's one
//     link to that neighbour if it has exactly one. The first TLV to name
//     a link wins.
//   - Extended Prefix opaque LSAs (opaque type 7): the Path Bandwidth
//     sub-TLV of an Extended Prefix TLV (the last one in it wins) goes to
//     the same router's advertisement of the prefix: its stub network for
//     route type 1 (intra-area), its Summary-LSA for route type 3
//     (inter-area), both for route type 0 (unspecified, RFC 7684 §2.1).
//     Route types 5 and 7 (external) are ignored.
//   - A router without a Router-LSA is left out, its other LSAs with it.
// What cannot be used is left out and said (OspfNote): LANs (transit links
// and Network-LSAs), virtual links, external routes (AS-external and NSSA
// LSAs), a Router-LSA whose Link State ID is not its advertising router,
// a mask that is not contiguous, a Summary-LSA from a router without the B
// bit, summaries an ABR does not use outside the backbone, a TE Link TLV
// that names no link. Which LSAs are current (checksum, sequence number,
// age, area) is the caller's to decide: every LSA given is considered.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proto/config_error.h"
#include "proto/fare/link_state.h"
#include "wire/inet/ipv4.h"
#include "wire/ospf/ospfv2_lsa.h"

namespace arfabric::proto::fare {

// What was left out, and why.
enum class OspfNoteKind : std::uint8_t {
  lan,                       // a transit link or a Network-LSA
  virtual_link,              // a virtual link (not supported)
  external,                  // an AS-external or NSSA LSA (not modelled)
  router_lsa_id,             // a Router-LSA's Link State ID is not its router
  mask,                      // a stub network's or Summary-LSA's mask has holes
  summary_not_from_abr,      // a Summary-LSA from a router without the B bit
  summary_outside_backbone,  // an ABR outside area 0 uses no summaries
  te_link_unmatched,         // a TE Link TLV naming no link of its router
};
struct OspfNote {
  std::size_t lsa = 0;  // index into the LSAs given
  OspfNoteKind kind = OspfNoteKind::lan;
  std::string detail;  // e.g. "links[2]: mask 255.0.255.0"
};

// Who computes, where: `self`'s own Summary-LSAs are not routes, and when
// it is an area border router (the B bit) outside the backbone it uses no
// Summary-LSA (RFC 2328 §16.2). Without `self`, the Summary-LSAs of every
// ABR count.
struct OspfView {
  std::optional<RouterKey> self;
  bool backbone = true;  // the area is 0.0.0.0
};

struct OspfDatabase {
  LinkStateDatabase database;
  std::vector<OspfNote> notes;  // in the order of the LSAs
};

// Error: the same LSA (LS type, Link State ID, advertising router) given
// twice ("lsas[j]", naming the first).
std::expected<OspfDatabase, ConfigError> database_from_ospfv2(
    std::span<const wire::ospf::Ospfv2Lsa> lsas, const OspfView& view = {});

// The key of an OSPF router ID, and back (the low 32 bits, big-endian).
RouterKey router_key(const wire::Ipv4Address& router_id);
wire::Ipv4Address ospf_router_id(RouterKey key);

}  // namespace arfabric::proto::fare
