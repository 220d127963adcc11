// Configuration of one BGP peer session (RFC 4271 section 8 and 10) and the
// capabilities it offers (RFC 5492, RFC 4760, RFC 2918, RFC 8654, RFC 6793,
// RFC 7911).
//
// The session FSM (session.h) trusts a configuration that passed validate():
// timers are positive, the hold time is 0 or at least 3 (RFC 4271 section
// 4.2), every family is one this speaker implements (IPv4 or IPv6 unicast)
// and every ADD-PATH entry names one of those families. Interpretations are
// written down in docs/protocols/bgp_session.md.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "common/units.h"
#include "proto/config_error.h"
#include "wire/bgp/capability.h"
#include "wire/bgp/options.h"
#include "wire/inet/ipv4.h"

namespace arfabric::proto::bgp {

struct SessionConfig {
  // 4-octet ASN; the OPEN carries AS_TRANS in My AS when it exceeds 65535
  // (RFC 6793 section 4.2.2).
  std::uint32_t local_as = 0;
  wire::Ipv4Address router_id{};  // BGP Identifier (RFC 6286)
  // The peer's AS we expect; a different one is answered with OPEN error
  // Bad Peer AS (RFC 4271 section 6.2).
  std::uint32_t remote_as = 0;
  // Never initiate a TCP connection (ManualStart/AutomaticStart with
  // PassiveTcpEstablishment, RFC 4271 section 8.1.1).
  bool passive = false;
  std::uint16_t hold_time_s = 90;  // proposed; 0 or >= 3
  Time connect_retry_time = sec(120);
  // Delay before the automatic restart (AutomaticStart, RFC 4271 section
  // 8.1.3 AllowAutomaticStart) after the session went to Idle; 0 restarts at
  // the same instant (on the next on_timer call).
  Time idle_hold_time = sec(1);
  // Advertised in the multiprotocol capability (RFC 4760): IPv4 and/or IPv6
  // unicast.
  std::vector<wire::bgp::AfiSafi> families = {
      {wire::bgp::kAfiIpv4, wire::bgp::kSafiUnicast}};
  bool route_refresh = true;      // RFC 2918
  bool extended_message = false;  // RFC 8654
  // ADD-PATH we offer (RFC 7911): 1 receive, 2 send, 3 both.
  std::vector<wire::bgp::AddPathCapability::Entry> add_path;
};

// Errors name the field, e.g. "hold_time_s", "add_path[1].family".
using SessionConfigError = ConfigError;

// Errors (the field named): local_as or remote_as 0 or AS_TRANS (23456,
// RFC 6793 section 4.2.2: not assignable); router_id 0.0.0.0 (RFC 6286
// section 2.2); hold_time_s 1 or 2 (RFC 4271 section 4.2); connect_retry_time
// not positive; idle_hold_time negative; families empty, duplicated or
// other than IPv4/IPv6 unicast; add_path entries with send_receive outside
// 1..3, a family not in families, or a family listed twice.
std::expected<void, SessionConfigError> validate(const SessionConfig& config);

}  // namespace arfabric::proto::bgp
