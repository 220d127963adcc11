// The per-peer BGP session: the finite state machine of RFC 4271 section 8
// (Idle, Connect, Active, OpenSent, OpenConfirm, Established), its timers
// (ConnectRetry, Hold, Keepalive: section 10, plus the automatic-restart
// delay), connection collision (section 6.8) and the NOTIFICATION for every
// error section 6 names.
//
// Sans-I/O: the host (simulator or daemon) owns the TCP connections, names
// them with ConnectionId, feeds bytes and events in with the current time,
// calls on_timer() at next_deadline(), and drains outputs(): connect
// requests, bytes to send, connections to close, and the session's
// up/down/UPDATE events for the speaker. Nothing here allocates per byte
// beyond the receive buffer of a partial message.
//
// Collision: at most two connections per peer, one outgoing and one
// incoming. Each runs its own OpenSent/OpenConfirm sub-FSM; when the second
// OPEN arrives the BGP Identifiers decide which connection survives (the
// one initiated by the higher Identifier); the other gets NOTIFICATION
// Cease / Connection Collision Resolution. state() reports the most advanced
// connection. Every interpretation (DelayOpen, DampPeerOscillations and
// CollisionDetectEstablishedState are not implemented) is written down in
// docs/protocols/bgp_session.md with its RFC section.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "common/units.h"
#include "proto/bgp/open_negotiation.h"
#include "proto/bgp/session_config.h"
#include "wire/bgp/message.h"
#include "wire/bgp/notification.h"
#include "wire/bgp/update.h"

namespace arfabric::proto::bgp {

using ConnectionId = std::uint32_t;  // chosen by the host
enum class Direction : std::uint8_t { outgoing, incoming };
enum class SessionState : std::uint8_t {
  idle,
  connect,
  active,
  open_sent,
  open_confirm,
  established,
};
std::string_view session_state_name(SessionState s);

// Cease subcodes this FSM sends (RFC 4486 section 4).
namespace cease {
inline constexpr std::uint8_t kAdministrativeShutdown = 2;
inline constexpr std::uint8_t kConnectionRejected = 5;
inline constexpr std::uint8_t kConnectionCollisionResolution = 7;
}  // namespace cease
// FSM Error subcodes (RFC 6608 section 4).
namespace fsm_error {
inline constexpr std::uint8_t kUnexpectedInOpenSent = 1;
inline constexpr std::uint8_t kUnexpectedInOpenConfirm = 2;
inline constexpr std::uint8_t kUnexpectedInEstablished = 3;
}  // namespace fsm_error

// RFC 4271 section 8.2.2: "a large value" for the HoldTimer in OpenSent.
inline constexpr Time kOpenSentHoldTime = sec(240);

// ---- Output records, drained by the host/speaker ----
// Start a TCP connection to the peer, abandoning any attempt still pending;
// answer with on_connected(id, Direction::outgoing) or on_connect_failed().
struct OpenConnection {};
struct SendBytes {
  ConnectionId connection;
  Bytes bytes;  // one whole BGP message
};
// Close the connection (after sending the bytes queued before this record).
struct CloseConnection {
  ConnectionId connection;
};
struct SessionUp {  // entered Established
  Negotiated negotiated;
};
// Left Established: routes learnt from this peer must be flushed.
struct SessionDown {
  std::string reason;
  std::optional<wire::bgp::Notification> sent, received;
};
// Only in Established. Session-reset errors never reach here: the FSM sends
// the NOTIFICATION itself; non-fatal RFC 7606 errors are in the result.
struct UpdateReceived {
  wire::bgp::UpdateParseResult update;
};
// Only in Established, only for a negotiated family (RFC 2918 section 4).
struct RouteRefreshReceived {
  wire::bgp::AfiSafi family;
  std::uint8_t subtype = 0;  // RFC 7313: 0 request, 1 BoRR, 2 EoRR
};
using SessionOutput =
    std::variant<OpenConnection, SendBytes, CloseConnection, SessionUp,
                 SessionDown, UpdateReceived, RouteRefreshReceived>;

struct SessionCounters {
  // Indexed by BGP message type (1 OPEN .. 5 ROUTE-REFRESH); 0 unused.
  std::array<std::uint64_t, 6> messages_in{};
  std::array<std::uint64_t, 6> messages_out{};
  std::uint64_t notifications_in = 0;
  std::uint64_t notifications_out = 0;
  std::uint64_t established_transitions = 0;
  std::uint64_t connect_retry_counter = 0;  // RFC 4271 section 8 attribute
  std::uint64_t connections_rejected = 0;   // refused or collision losers
  std::uint64_t collisions = 0;             // section 6.8 resolutions
};

class Session {
 public:
  // `config` must have passed validate().
  explicit Session(SessionConfig config);

  // ManualStart (event 1), or ManualStart_with_PassiveTcpEstablishment
  // (event 4) when config.passive. Ignored outside Idle. Clears the
  // capabilities dropped after an Unsupported Capability NOTIFICATION.
  void start(Time now);
  // ManualStop (event 2): NOTIFICATION Cease/`cease_subcode` on every open
  // connection, close them, Idle, and no automatic restart.
  void stop(Time now,
            std::uint8_t cease_subcode = cease::kAdministrativeShutdown);
  // TcpConnection_Valid + TcpConnectionConfirmed (incoming) or
  // Tcp_CR_Acked (outgoing). Refused (CloseConnection) in Idle; rejected
  // with a Cease NOTIFICATION when Established (subcode 7) or when a
  // connection of that direction already exists (subcode 5).
  void on_connected(ConnectionId id, Direction direction, Time now);
  // TcpConnectionFails for the pending outgoing attempt; ignored when none.
  void on_connect_failed(Time now);
  // Bytes of a TCP stream; messages may be split or coalesced arbitrarily.
  // Bytes for an unknown connection are ignored.
  void on_bytes(ConnectionId id, ByteSpan data, Time now);
  // TcpConnectionFails on an established TCP connection (peer closed).
  void on_closed(ConnectionId id, Time now);
  // Fires every timer due at or before `now`.
  void on_timer(Time now);
  // Earliest pending timer; Time::max() when none.
  Time next_deadline() const;

  // Established only: sends an encoded UPDATE or ROUTE-REFRESH and restarts
  // the KeepaliveTimer (RFC 4271 section 10). Returns false (nothing sent)
  // when not Established.
  bool send(Bytes message, Time now);

  SessionState state() const;
  // nullptr unless Established.
  const Negotiated* negotiated() const;
  // The OPEN the next connection will send.
  const wire::bgp::Open& local_open() const { return local_open_; }
  const CapabilityFilter& dropped_capabilities() const { return filter_; }
  const SessionConfig& config() const { return config_; }
  const SessionCounters& counters() const { return counters_; }
  // The caller drains (clear()) after each call.
  std::vector<SessionOutput>& outputs() { return outputs_; }

 private:
  struct Connection {
    bool in_use = false;
    ConnectionId id = 0;
    SessionState state = SessionState::idle;  // open_sent.. established
    Bytes rx;                                 // a partial message
    Time hold_deadline = Time::max();
    Time keepalive_deadline = Time::max();
    Time hold_interval{};                  // negotiated; 0 = no hold timer
    Time keepalive_interval{};             // hold / 3
    wire::bgp::Open sent_open;             // our OPEN on this connection
    std::optional<Negotiated> negotiated;  // from OpenConfirm on
  };
  enum class Cause : std::uint8_t { tcp_failed, error, notification, other };

  Connection& slot(Direction d) { return conns_[static_cast<int>(d)]; }
  Connection* find(ConnectionId id);
  Connection* other(const Connection& c);
  bool any_connection() const;

  void enter_idle(Time now);
  void reject(ConnectionId id, std::uint8_t cease_subcode);
  void unexpected(Connection& c, std::size_t type, Time now);
  void do_start(Time now);
  void request_connection(Time now);
  void send_message(Connection& c, Bytes bytes);
  void send_keepalive(Connection& c, Time now);
  void send_notification(Connection& c, wire::bgp::Notification n);
  // Closes `c`; when it was the last connection the session goes to Active
  // (OpenSent with TCP failure) or Idle (everything else).
  void drop(Connection& c, Time now, Cause cause, std::string reason,
            std::optional<wire::bgp::Notification> sent,
            std::optional<wire::bgp::Notification> received);
  void fail(Connection& c, Time now, wire::bgp::Notification n,
            std::string reason);
  void process(Connection& c, Time now);
  void handle(Connection& c, wire::bgp::ParsedMessage m, Time now);
  void handle_open(Connection& c, wire::bgp::Open open, Time now);
  void establish(Connection& c, Time now);
  void restart_hold(Connection& c, Time now);
  // The connection §6.8 keeps when both have the peer's OPEN.
  Direction collision_winner(const wire::bgp::Open& remote) const;

  SessionConfig config_;
  CapabilityFilter filter_;
  wire::bgp::Open local_open_;
  wire::bgp::ParseOptions default_options_;  // before the OPEN exchange
  SessionState state_ = SessionState::idle;  // without any connection
  bool outgoing_pending_ = false;
  bool auto_start_ = false;  // AllowAutomaticStart after the first start()
  Time connect_retry_deadline_ = Time::max();
  Time idle_hold_deadline_ = Time::max();
  std::array<Connection, 2> conns_;  // [outgoing, incoming]
  std::vector<SessionOutput> outputs_;
  SessionCounters counters_;
};

}  // namespace arfabric::proto::bgp
