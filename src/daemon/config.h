// Configuration of `arfabric bgpd` (issue 6): one YAML file read at start
// and again on SIGHUP, turned into the engine's SpeakerConfig plus what
// only the host needs (sockets, interfaces, FIB, logging).
//
//   asn: 65001                  # 1..4294967295, not 23456 (AS_TRANS)
//   router_id: 10.0.0.1
//   role: leaf                  # leaf | spine | super-spine (FARE rule)
//   listen: {address: 0.0.0.0, port: 179}   # port 0: no listening socket;
//                               # "::" takes IPv4 and IPv6 connections
//   control_socket: /run/arfabric-bgpd.sock # bgpctl talks to it
//   log_level: info             # error | warning | info | debug
//   prefixes: [10.1.0.0/24, "2001:db8:1::/64"]
//   multipath: {maximum_paths: 64, relax: true}
//   fare: {enabled: true, sub_type: 0xaa, multihoming: divide,
//          transitivity: transitive,  # or non-transitive (3-stage only)
//          super_spine_attach_link_ec: true,
//          spine_lower_to_next_next_hop: false,
//          multihomed: [{prefix: 10.9.0.0/24, leaves: 2}]}
//   timers: {hold: 9, connect_retry: 5, idle_hold: 1, mrai_ms: 0}
//   fib: {install: true, remove_on_exit: true, protocol: 186, metric: 20}
//   interface_poll_ms: 1000     # how often interface speeds are re-read
//   peers:
//     - name: spine1            # default: the address (fe80::2%eth1)
//       address: 10.0.1.2       # IPv4 or IPv6
//       asn: 65100
//       port: 179
//       local_address: 10.0.1.1 # bind; also our NEXT_HOP toward the peer
//       next_hop_ipv6: "2001:db8::1"   # global; needed to send IPv6 routes
//       interface: eth1         # link bandwidth source and route device
//                               #   (and the link of a link-local address)
//       link_bandwidth: 400G    # or "interface" (sysfs speed, re-read)
//       role: spine
//       passive: false
//       families: [ipv4, ipv6]
//       hold: 9                 # per-peer timer overrides (hold 0: no
//                               #   keepalives; left out: timers.hold)
//
// IPv6 link-local sessions (fe80::/10): a link-local `address` or
// `local_address` belongs to the peer's `interface`, which is then
// required (written as its own key, not as "fe80::2%eth1"); a link-local
// peer needs local_address too; two peers may share a link-local address
// on different interfaces. Toward such a peer
// the IPv6 NEXT_HOP carries next_hop_ipv6 (global) and the link-local
// local_address, 32 bytes (RFC 2545 section 3), or the link-local address
// alone when no global one is given.
//
// Every error names the file, line, column and dotted key, like the
// simulator's scenarios: "bgpd.yaml:12:7: peers[1].asn: must be ...".
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/units.h"
#include "proto/bgp/speaker.h"
#include "proto/fare/fare_config.h"

namespace arfabric::daemon {

struct ConfigFileError {
  std::string file;
  int line = 0;  // 1-based; 0 when unknown (file not readable)
  int column = 0;
  std::string key;  // dotted path: "peers[2].link_bandwidth"
  std::string message;
  // "bgpd.yaml:12:7: peers[2].link_bandwidth: expected a rate, ..."
  std::string to_string() const;
};

enum class LogLevel : std::uint8_t { error, warning, info, debug };
std::string_view log_level_name(LogLevel level);

// An IPv4 or IPv6 address as parsed from text.
struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};  // IPv4 in the first 4
  bool operator==(const IpAddress&) const = default;
  std::string to_string() const;
  Bytes to_bytes() const;  // 4 or 16 bytes
  // 4 bytes (IPv4) or 16 (IPv6), as the wire carries them; nullopt for
  // any other length.
  static std::optional<IpAddress> from_bytes(ByteSpan b);
  // 0.0.0.0 or ::, no host's address.
  bool unspecified() const { return bytes == decltype(bytes){}; }
  // IPv6 fe80::/10: meaningful only together with an interface.
  bool link_local() const {
    return v6 && bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80;
  }
};
// Errors: not an IPv4 or IPv6 literal (message names the text; an IPv6
// zone such as "%eth1" is not part of one, and the message says so).
std::expected<IpAddress, std::string> parse_ip(std::string_view text);

struct DaemonPeer {
  std::string name;
  IpAddress address;
  std::uint32_t asn = 0;
  std::uint16_t port = 179;
  std::optional<IpAddress> local_address;
  std::optional<IpAddress> next_hop_ipv6;
  std::string interface;  // empty: none
  bool bandwidth_from_interface = false;
  BitsPerSecond link_bandwidth = 0;  // when not from the interface
  proto::fare::Role role = proto::fare::Role::leaf;
  bool passive = false;
  bool ipv4 = true, ipv6 = true;  // multiprotocol families offered
  // The hold time (0: no keepalives, RFC 4271 section 4.2); unset: the
  // global timers.hold.
  std::optional<std::uint16_t> hold_s;
  std::uint32_t connect_retry_s = 0;  // 0: the global timer
  std::uint32_t mrai_ms = 0;
  bool mrai_set = false;
  bool operator==(const DaemonPeer&) const = default;
};

// Whether `a` and `b` name the same neighbour: the same address, and for
// a link-local address the same interface (its link).
inline bool same_neighbor(const DaemonPeer& a, const DaemonPeer& b) {
  return a.address == b.address &&
         (!a.address.link_local() || a.interface == b.interface);
}

struct DaemonConfig {
  std::string file;  // where it was read from (reload reads it again)
  std::uint32_t asn = 0;
  wire::Ipv4Address router_id{};
  proto::fare::Role role = proto::fare::Role::leaf;
  IpAddress listen_address;  // 0.0.0.0
  std::uint16_t listen_port = 179;
  std::string control_socket;  // empty: no control socket
  LogLevel log_level = LogLevel::info;
  // Set by `bgpd --log-level`, whose level a reload keeps (the file's is
  // then not read).
  bool log_level_fixed = false;
  std::vector<proto::bgp::Destination> prefixes;
  std::uint32_t maximum_paths = 64;
  bool multipath_relax = true;
  bool fare_enabled = true;
  proto::fare::FareConfig fare;  // router_id filled in by the speaker
  std::vector<std::pair<proto::bgp::Destination, std::uint32_t>> multihomed;
  std::uint16_t hold_s = 9;
  std::uint32_t connect_retry_s = 5;
  std::uint32_t idle_hold_s = 1;
  std::uint32_t mrai_ms = 0;
  bool fib_install = true;
  bool fib_remove_on_exit = true;
  std::uint8_t fib_protocol = 186;  // rtnetlink rtm_protocol of our routes
  // Their metric (RTA_PRIORITY): part of a route's identity, so that a
  // connected or static route to the same prefix (metric 0) is neither
  // replaced nor deleted; 20, as FRR's zebra gives BGP routes.
  std::uint32_t fib_metric = 20;
  std::uint32_t interface_poll_ms = 1000;
  std::vector<DaemonPeer> peers;
};

// Reads and checks `path`. Errors: the file cannot be read, is not UTF-8
// (line and column of the first such byte), is not YAML or holds a second
// YAML document, has an unknown or repeated key (with a "did you mean"
// hint), a prefix with bits set past its length (10.1.1.1/24) or listed
// twice in `prefixes`, a missing required key (asn, router_id,
// peers[i].address, peers[i].asn), a value of the wrong kind or out of
// range, two peers with the same address or name (a link-local address
// only on the same interface), a link-local address or local_address
// without the peer's interface, a link-local address without
// local_address, a link-local next_hop_ipv6 or listen
// address, a peer address no speaker has (unspecified, broadcast,
// multicast), an IPv4-mapped one, or our own (local_address, listen
// address), a local_address or next_hop_ipv6 no interface has
// (unspecified, multicast, broadcast, loopback), a multicast or broadcast
// listen address, a prefix in a block no route is originated for
// (multicast, loopback, link-local, IPv4-mapped, ::1 and ::), a peer
// name with a control character, an interface name Linux would refuse, a
// control_socket path longer than 107 bytes, a link_bandwidth without its
// unit (400 would be 400 b/s), a peer
// without a link bandwidth source (neither
// link_bandwidth nor interface), or an IPv4 peer without a NEXT_HOP
// source (local_address, or a specific IPv4 listen address). Engine
// checks (validate(SpeakerConfig)) are reported at the key they come from.
std::expected<DaemonConfig, ConfigFileError> load_config(
    const std::string& path);
// The same from text; `file` names it in errors.
std::expected<DaemonConfig, ConfigFileError> parse_config(
    std::string_view text, const std::string& file);

// The engine configuration of `config`. `bandwidth[i]` is the link
// bandwidth of peer i now (from configuration or its interface).
proto::bgp::PeerConfig peer_config(const DaemonConfig& config,
                                   const DaemonPeer& peer,
                                   BitsPerSecond bandwidth);
proto::bgp::SpeakerConfig speaker_config(
    const DaemonConfig& config, const std::vector<BitsPerSecond>& bandwidth);

// What a valid configuration cannot do for peer `p`, as warnings (bgpd
// logs them at start and when a reload adds the peer), each starting
// "peer NAME: ":
// - it cannot connect to the listening socket: none (listen.port 0, said
//   only of passive peers: the daemon chose not to listen), one of the
//   other family (an IPv4 socket takes no IPv6 connection; a specific IPv6
//   address no IPv4 one, while "::" takes both), or one bound to a
//   specific address other than our local_address toward the peer, which
//   is where it connects. Only our connections can then bring its session
//   up, and a passive peer's never comes up.
// - it offers a family whose routes it will not be sent for want of a
//   next hop (the engine sends none): said when that family is the peer's
//   own address family or the only one it offers; an IPv4 peer offered
//   IPv6 as well without an IPv6 next hop is the usual IPv4-only session.
std::vector<std::string> peer_warnings(const DaemonPeer& p,
                                       const DaemonConfig& config);
// Every peer's warnings, in order (what bgpd logs at start).
std::vector<std::string> peer_warnings(const DaemonConfig& config);

}  // namespace arfabric::daemon
