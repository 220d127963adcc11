// The OPEN exchange of one session: the OPEN this speaker sends, the checks
// on the peer's OPEN, and what the two agree on (RFC 4271 sections 4.2, 6.2
// and 10; RFC 5492 capabilities; RFC 4760 section 8; RFC 6793; RFC 7911;
// RFC 8654; RFC 2918).
//
// Kept apart from the FSM (session.h) because it is pure: values in, values
// out, and each rule can be tested on its own. Interpretations, with their
// RFC sections, are in docs/protocols/bgp_session.md.
#pragma once

#include <cstdint>
#include <expected>
#include <vector>

#include "proto/bgp/session_config.h"
#include "wire/bgp/notification.h"
#include "wire/bgp/open.h"
#include "wire/bgp/options.h"

namespace arfabric::proto::bgp {

// OPEN Message Error subcode 7 (RFC 5492 section 3); the wire codec never
// produces it, so its constant lives here.
inline constexpr std::uint8_t kSubcodeUnsupportedCapability = 7;

// What both OPENs agree on; fixed when the session reaches Established.
struct Negotiated {
  wire::bgp::Open remote_open;
  std::uint32_t remote_as = 0;  // 4-octet capability's ASN when present
  wire::Ipv4Address remote_id{};
  std::uint16_t hold_time_s = 0;  // min(ours, theirs); 0 = no keepalives
  // In common, sorted; a side without any multiprotocol capability means IPv4
  // unicast only (RFC 4760 section 8).
  std::vector<wire::bgp::AfiSafi> families;
  bool route_refresh = false;  // both advertised RFC 2918
  // Parse options for what the peer sends (ADD-PATH receive, RFC 7911
  // section 4; 4-octet AS and extended message when both advertise them).
  wire::bgp::SessionCodecOptions receive;
  // Serialize options: ADD-PATH only for families where we offered send and
  // the peer offered receive.
  wire::bgp::SessionCodecOptions send;
};

// Capabilities the peer refused with NOTIFICATION OPEN Message Error /
// Unsupported Capability (2/7, RFC 5492 section 3). They are left out of
// the next OPEN so that the next attempt can succeed.
struct CapabilityFilter {
  std::vector<std::uint8_t> codes;  // whole capabilities (not multiprotocol)
  std::vector<wire::bgp::AfiSafi> families;  // multiprotocol, per AFI/SAFI

  bool empty() const { return codes.empty() && families.empty(); }
  bool drops_code(std::uint8_t code) const;
  bool drops_family(wire::bgp::AfiSafi f) const;
  // Adds what a 2/7 NOTIFICATION's data names (capability tuples). Returns
  // false, changing nothing, when the data do not parse as capabilities or
  // `n` is not 2/7.
  bool add_from(const wire::bgp::Notification& n);
};

// The OPEN this speaker sends: version 4, My AS (AS_TRANS above 65535),
// proposed hold time, BGP Identifier and one Capabilities parameter with
// multiprotocol per family, route refresh, extended message, 4-octet AS and
// ADD-PATH as configured, minus what `filter` drops.
wire::bgp::Open local_open(const SessionConfig& config,
                           const CapabilityFilter& filter = {});

// The families an OPEN advertises; none means IPv4 unicast (RFC 4760
// section 8).
std::vector<wire::bgp::AfiSafi> advertised_families(const wire::bgp::Open& o);

// Checks the peer's OPEN (which already passed parse_open: version 4, hold
// time not 1 or 2, identifier not 0) against the configuration and our OPEN,
// and negotiates. Errors, as the NOTIFICATION to send (RFC 4271 section
// 6.2): an optional parameter other than Capabilities -> 2/4; the peer AS
// (4-octet capability's ASN, else My AS) not remote_as -> 2/2; for an
// internal peer, its BGP Identifier equal to ours -> 2/3 (RFC 6286 section
// 2.2); hold time 1 or 2 -> 2/6 (kept for OPENs built by hand); no AFI/SAFI
// in common -> 2/7 with our multiprotocol capabilities as data (RFC 5492
// section 3).
std::expected<Negotiated, wire::bgp::Notification> accept_open(
    const SessionConfig& config, const wire::bgp::Open& local,
    const wire::bgp::Open& remote);

}  // namespace arfabric::proto::bgp
