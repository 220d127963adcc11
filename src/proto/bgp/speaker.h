// The BGP speaker: sessions, RIBs, decision process with eBGP multipath and
// FARE weights, and UPDATE generation, as one sans-I/O engine (issue 3).
//
// The host (the simulator, or the daemon's event loop) owns the transport
// and the clock. It feeds connection events and received bytes per peer,
// calls on_timer() when next_deadline() passes, and drains outputs():
// connect / send / close requests for the transport, FIB updates (a
// destination and its weighted next hops, for the simulator's FIB or for
// rtnetlink), and peer status changes. Nothing here blocks, allocates
// threads or reads a clock, so two speakers can be wired back to back in a
// test with an in-memory byte pipe.
//
// Work is batched per input: an UPDATE of 1,000 prefixes updates the RIB,
// runs the decision once per changed destination, then each established
// peer gets packed UPDATEs when its MRAI allows (RFC 4271 section 9.2.1.1).
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <variant>
#include <vector>

#include "common/units.h"
#include "proto/bgp/rib.h"
#include "proto/bgp/session.h"
#include "proto/bgp/update_builder.h"
#include "proto/config_error.h"

namespace arfabric::proto::bgp {

struct PeerConfig {
  std::string name;  // for reports: "spine1", "10.0.0.1"
  // Transport, timers and capabilities; local_as and router_id are filled
  // in from SpeakerConfig.
  SessionConfig session;
  fare::Role role = fare::Role::leaf;  // the peer's role (FARE import rule)
  BitsPerSecond link_bandwidth = 0;    // link toward the peer
  // Our address on the link, used as NEXT_HOP toward this peer (every eBGP
  // route is re-advertised next-hop-self).
  // 4 bytes, or empty: then no IPv4 route is sent to this peer, even in a
  // negotiated IPv4 family (routes are still received).
  Bytes next_hop_ipv4;
  // 16 bytes, 32 (global, then link-local: RFC 2545 section 3), or empty:
  // then no IPv6 route is sent to this peer (they are still received).
  Bytes next_hop_ipv6;
  // Minimum Route Advertisement Interval (RFC 4271 section 9.2.1.1); 0
  // sends at once. RFC 7938 section 6.1 recommends 0 inside a data center.
  Time mrai = Time{};
  std::uint32_t address_rank = 0;  // last tie-break: lower wins
};

struct SpeakerConfig {
  std::uint32_t local_as = 0;
  wire::Ipv4Address router_id{};
  std::vector<PeerConfig> peers;
  std::vector<Destination> networks;  // originated from configuration
  // draft-xu-idr-fare section 4.1: prefixes multi-homed to several leaves.
  std::vector<std::pair<Destination, std::uint32_t>> multihomed;
  RibConfig rib;  // local_as is taken from above
  // false: no FibUpdate outputs, for a host with no FIB to program (it can
  // read the installed sets from rib()); saves a copy per route change.
  bool fib_updates = true;
};

using SpeakerConfigError = ConfigError;

// Errors name the field: "peers[3].session.hold_time_s: ...".
std::expected<void, SpeakerConfigError> validate(const SpeakerConfig& config);

// Outputs.
struct ConnectRequest {  // open a TCP connection to the peer
  PeerId peer = 0;
};
struct SendRequest {
  PeerId peer = 0;
  ConnectionId connection = 0;
  Bytes bytes;
};
struct CloseRequest {
  PeerId peer = 0;
  ConnectionId connection = 0;
};
// The installed route for a destination changed; empty next_hops removes
// it. Weights are FARE path bandwidths in bit/s (or 1 each for ECMP).
struct FibUpdate {
  Destination destination;
  std::vector<NextHopWeight> next_hops;
  fare::FallbackReason fare_reason = fare::FallbackReason::none;
};
struct PeerStatus {
  PeerId peer = 0;
  bool established = false;
  std::string reason;  // why it went down
};
using SpeakerOutput = std::variant<ConnectRequest, SendRequest, CloseRequest,
                                   FibUpdate, PeerStatus>;

struct PeerCounters {
  std::uint64_t updates_in = 0, prefixes_in = 0, withdrawals_in = 0;
  std::uint64_t updates_out = 0, prefixes_out = 0, withdrawals_out = 0;
  std::uint64_t treat_as_withdraw = 0, attributes_discarded = 0;
  std::uint64_t as_loops = 0, end_of_rib_in = 0, encode_errors = 0;
  std::uint64_t established_transitions = 0;
};

class Speaker {
 public:
  // `config` must pass validate().
  explicit Speaker(SpeakerConfig config);

  // Starts every peer's session (ManualStart).
  void start(Time now);
  // Starts one peer's session again after stop_peer (ManualStart; ignored
  // outside Idle and for removed peers).
  void start_peer(PeerId peer, Time now);
  // Stops one peer (ManualStop, NOTIFICATION Cease) or all.
  void stop_peer(PeerId peer, Time now);
  void stop(Time now);

  // Transport events for peer `peer`.
  void on_connected(PeerId peer, ConnectionId connection, Direction direction,
                    Time now);
  void on_connect_failed(PeerId peer, Time now);
  void on_bytes(PeerId peer, ConnectionId connection, ByteSpan data, Time now);
  void on_closed(PeerId peer, ConnectionId connection, Time now);

  void on_timer(Time now);
  Time next_deadline() const;

  // Run-time reconfiguration (the daemon's SIGHUP reload): other peers'
  // sessions are untouched. add_peer appends the peer (its PeerId is the
  // next index, never a reused one) and starts its session. Errors: the
  // peer fails the checks of validate(SpeakerConfig), field "peer.<...>".
  std::expected<PeerId, SpeakerConfigError> add_peer(PeerConfig peer, Time now);
  // Stops the peer for good (NOTIFICATION Cease / Administrative Shutdown
  // when a session is up, its routes withdrawn); its PeerId stays allocated
  // and later transport events for it are refused. Idempotent.
  void remove_peer(PeerId peer, Time now);
  bool peer_removed(PeerId peer) const { return peers_[peer].removed; }

  // The link toward `peer` changed speed (degraded, restored, down = 0):
  // weights are recomputed and routes re-advertised with new ECs.
  void set_link_bandwidth(PeerId peer, BitsPerSecond bandwidth, Time now);
  // Starts / stops originating a destination at run time.
  void originate(const Destination& d, Time now);
  void withdraw_origin(const Destination& d, Time now);

  std::vector<SpeakerOutput>& outputs() { return outputs_; }

  const SpeakerConfig& config() const { return config_; }
  const Rib& rib() const { return rib_; }
  std::size_t peer_count() const { return peers_.size(); }
  SessionState peer_state(PeerId peer) const;
  const Session& session(PeerId peer) const { return peers_[peer].session; }
  const PeerCounters& counters(PeerId peer) const {
    return peers_[peer].counters;
  }
  // Destinations advertised to `peer` right now (its Adj-RIB-Out).
  std::size_t advertised_count(PeerId peer) const;
  // Whether some established peer has changes waiting to be sent (held
  // back by its MRAI): next_deadline() is then when the first goes out.
  bool exports_pending() const;

 private:
  struct PeerRuntime {
    explicit PeerRuntime(const SessionConfig& c)
        : session(c), remote_as(c.remote_as) {}
    Session session;
    std::uint32_t remote_as;
    bool established = false;
    bool removed = false;  // remove_peer(): never started again
    ExportTarget target;
    std::vector<wire::bgp::AfiSafi> families;
    // The AFIs of the negotiated families that routes are sent in, as
    // afi_bit() bits: those the peer's configuration gives a next hop for
    // (no IPv4 routes without next_hop_ipv4, none over an IPv6 next hop).
    std::uint8_t export_afis = 0;
    std::vector<std::uint16_t> disabled_afis;  // RFC 7606 AFI/SAFI disable
    // Adj-RIB-Out: a bit per RIB entry, and the entries to (re)consider.
    std::vector<bool> advertised;
    std::vector<bool> pending_mark;
    std::vector<std::uint32_t> pending;
    bool end_of_rib_due = false;
    Time last_flush = Time::from_ps(std::numeric_limits<std::int64_t>::min());
    PeerCounters counters;
  };

  void drain_session(PeerId peer);
  void on_session_up(PeerId peer, const Negotiated& negotiated);
  void on_session_down(PeerId peer, const std::string& reason);
  void apply_update(PeerId peer, const wire::bgp::UpdateParseResult& result);
  void mark_pending(PeerRuntime& p, std::uint32_t index);
  void mark_all_pending(PeerRuntime& p, std::optional<std::uint16_t> afi);
  // Runs the decision process, emits FIB updates, and sends what MRAI
  // allows.
  void settle(Time now);
  void flush(PeerId peer, Time now);
  bool flush_due(const PeerRuntime& p, Time now) const;
  // Whether `peer` may be sent `exported` (of family `afi`): the family is
  // negotiated and the peer's AS is not in the path.
  bool exportable(PeerId peer, const RouteAttributes& exported,
                  std::uint16_t afi) const;
  // The peers that settle() must queue a changed entry for.
  void mark_changed_export(std::uint32_t index, const RibEntry& e);
  bool held_anywhere(std::uint32_t index) const;

  SpeakerConfig config_;
  Rib rib_;
  std::vector<PeerRuntime> peers_;
  AttributesRef local_attributes_;
  std::vector<SpeakerOutput> outputs_;
  std::vector<Bytes> scratch_;
};

}  // namespace arfabric::proto::bgp
