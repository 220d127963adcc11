// Encodes the UPDATE messages for one peer: announcements packed many
// prefixes per message when they share attributes (RFC 4271 section 9.2),
// withdrawals packed likewise, End-of-RIB markers (RFC 4724 section 2).
//
// The Loc-RIB's exported attributes are common to every peer; what differs
// per peer is added here: the NEXT_HOP (or the MP_REACH_NLRI next hop for
// IPv6, RFC 4760 / RFC 2545), the ADD-PATH identifier when negotiated for
// sending (RFC 7911), and for a peer without 4-octet AS support the
// AS_TRANS substitution with AS4_PATH (RFC 6793 section 4.2.2).
#pragma once

#include <expected>
#include <vector>

#include "common/error.h"
#include "proto/bgp/route.h"
#include "wire/bgp/options.h"
#include "wire/bgp/update.h"

namespace arfabric::proto::bgp {

struct ExportTarget {
  wire::bgp::SessionCodecOptions send;  // negotiated for sending
  Bytes next_hop_ipv4;                  // 4 bytes
  Bytes next_hop_ipv6;                  // 16 (or 32 with link-local) bytes
};

// Prefixes that share one exported attribute set.
struct AnnouncementGroup {
  AttributesRef attributes;
  std::vector<Destination> destinations;  // one address family
};

// Appends whole UPDATE messages (header included) to `out`, each within
// the negotiated maximum length. Errors: an attribute set too large to fit
// one message with a single prefix, a missing next hop for the family, or
// any encoding error of the codec; nothing is appended for the failing
// group.
std::expected<void, EncodeError> build_announcements(
    const AnnouncementGroup& group, const ExportTarget& target,
    std::vector<Bytes>& out);
std::expected<void, EncodeError> build_withdrawals(
    std::uint16_t afi, const std::vector<Destination>& destinations,
    const ExportTarget& target, std::vector<Bytes>& out);
// The End-of-RIB marker for `afi` (RFC 4724 section 2).
Bytes end_of_rib(std::uint16_t afi);
// True when `update` is an End-of-RIB marker.
bool is_end_of_rib(const wire::bgp::Update& update);

}  // namespace arfabric::proto::bgp
