#include "proto/bgp/session.h"

#include <algorithm>
#include <string>
#include <utility>

#include "wire/bgp/header.h"

namespace arfabric::proto::bgp {
namespace {

namespace wb = wire::bgp;

Bytes encode(const wb::Message& m) {
  ByteWriter w;
  // Our own messages are built within the codec's limits, so this cannot
  // fail; a failure would leave `w` empty and be caught by the tests.
  (void)wb::serialize(m, wb::SessionCodecOptions{}, w);
  return w.take();
}

std::uint32_t id_value(const wire::Ipv4Address& a) {
  return std::uint32_t{a[0]} << 24 | std::uint32_t{a[1]} << 16 |
         std::uint32_t{a[2]} << 8 | a[3];
}

std::string describe(const wb::Notification& n) {
  return std::to_string(n.code) + "/" + std::to_string(n.subcode) + " " +
         std::string(wb::notification_code_name(n.code)) + " / " +
         std::string(wb::notification_subcode_name(n.code, n.subcode));
}

wb::Notification cease_notification(std::uint8_t subcode) {
  return {wb::error_code::kCease, subcode, {}};
}

}  // namespace

std::string_view session_state_name(SessionState s) {
  switch (s) {
    case SessionState::idle:
      return "Idle";
    case SessionState::connect:
      return "Connect";
    case SessionState::active:
      return "Active";
    case SessionState::open_sent:
      return "OpenSent";
    case SessionState::open_confirm:
      return "OpenConfirm";
    case SessionState::established:
      return "Established";
  }
  return "unknown";
}

Session::Session(SessionConfig config)
    : config_(std::move(config)),
      local_open_(bgp::local_open(config_, filter_)) {}

SessionState Session::state() const {
  SessionState s = state_;
  bool any = false;
  for (const Connection& c : conns_) {
    if (!c.in_use) continue;
    s = any ? std::max(s, c.state) : c.state;
    any = true;
  }
  return s;
}

const Negotiated* Session::negotiated() const {
  for (const Connection& c : conns_) {
    if (c.in_use && c.state == SessionState::established) return &*c.negotiated;
  }
  return nullptr;
}

Session::Connection* Session::find(ConnectionId id) {
  for (Connection& c : conns_) {
    if (c.in_use && c.id == id) return &c;
  }
  return nullptr;
}

Session::Connection* Session::other(const Connection& c) {
  Connection& o = &c == &conns_[0] ? conns_[1] : conns_[0];
  return o.in_use ? &o : nullptr;
}

bool Session::any_connection() const {
  return conns_[0].in_use || conns_[1].in_use;
}

// ---- Events from the operator ----

void Session::start(Time now) {
  if (state() != SessionState::idle) return;  // ignored (section 8.2.2)
  filter_ = {};
  local_open_ = bgp::local_open(config_, filter_);
  auto_start_ = true;
  counters_.connect_retry_counter = 0;
  do_start(now);
}

void Session::do_start(Time now) {
  idle_hold_deadline_ = Time::max();
  if (config_.passive) {
    // PassiveTcpEstablishment: the ConnectRetryTimer would only lead to a
    // connection attempt, which a passive peer never makes.
    state_ = SessionState::active;
    connect_retry_deadline_ = Time::max();
    return;
  }
  state_ = SessionState::connect;
  connect_retry_deadline_ = now + config_.connect_retry_time;
  request_connection(now);
}

void Session::request_connection(Time) {
  outgoing_pending_ = true;
  outputs_.emplace_back(OpenConnection{});
}

void Session::stop(Time now, std::uint8_t cease_subcode) {
  auto_start_ = false;
  for (Connection& c : conns_) {
    if (!c.in_use) continue;
    const wb::Notification n = cease_notification(cease_subcode);
    send_notification(c, n);
    drop(c, now, Cause::other,
         "manual stop (NOTIFICATION " + describe(n) + " sent)", n,
         std::nullopt);
  }
  enter_idle(now);
  counters_.connect_retry_counter = 0;
}

void Session::enter_idle(Time now) {
  state_ = SessionState::idle;
  connect_retry_deadline_ = Time::max();
  outgoing_pending_ = false;
  idle_hold_deadline_ =
      auto_start_ ? now + config_.idle_hold_time : Time::max();
}

// ---- TCP events ----

void Session::reject(ConnectionId id, std::uint8_t subcode) {
  const Bytes b = encode(cease_notification(subcode));
  ++counters_.messages_out[static_cast<int>(wb::MessageType::notification)];
  ++counters_.notifications_out;
  ++counters_.connections_rejected;
  outputs_.emplace_back(SendBytes{id, b});
  outputs_.emplace_back(CloseConnection{id});
}

void Session::on_connected(ConnectionId id, Direction direction, Time now) {
  if (direction == Direction::outgoing) outgoing_pending_ = false;
  if (state() == SessionState::idle) {
    // Idle refuses every connection (section 8.2.2, Idle state).
    ++counters_.connections_rejected;
    outputs_.emplace_back(CloseConnection{id});
    return;
  }
  if (state() == SessionState::established) {
    // Section 6.8: a collision with an Established connection closes the
    // new one (CollisionDetectEstablishedState is not implemented).
    reject(id, cease::kConnectionCollisionResolution);
    return;
  }
  Connection& c = slot(direction);
  if (c.in_use) {
    reject(id, cease::kConnectionRejected);
    return;
  }
  c = Connection{};
  c.in_use = true;
  c.id = id;
  c.state = SessionState::open_sent;
  c.sent_open = local_open_;
  c.hold_deadline = now + kOpenSentHoldTime;
  connect_retry_deadline_ = Time::max();
  send_message(c, encode(c.sent_open));
}

void Session::on_connect_failed(Time now) {
  if (!outgoing_pending_) return;
  outgoing_pending_ = false;
  // With a connection in OpenSent/OpenConfirm this was only the second
  // attempt of a possible collision: nothing changes.
  if (any_connection()) return;
  // Connect and Active, event 18 without DelayOpen: Idle. Active also
  // counts the failure.
  if (state_ == SessionState::active) ++counters_.connect_retry_counter;
  if (state_ == SessionState::connect || state_ == SessionState::active)
    enter_idle(now);
}

void Session::on_closed(ConnectionId id, Time now) {
  Connection* c = find(id);
  if (c == nullptr) return;
  drop(*c, now, Cause::tcp_failed, "TCP connection closed", std::nullopt,
       std::nullopt);
}

// ---- Connection teardown ----

void Session::drop(Connection& c, Time now, Cause cause, std::string reason,
                   std::optional<wb::Notification> sent,
                   std::optional<wb::Notification> received) {
  const SessionState was = c.state;
  const ConnectionId id = c.id;
  c = Connection{};
  if (cause != Cause::tcp_failed) outputs_.emplace_back(CloseConnection{id});
  if (was == SessionState::established) {
    outputs_.emplace_back(
        SessionDown{std::move(reason), std::move(sent), std::move(received)});
  }
  if (any_connection()) return;  // the other connection carries on
  if (was == SessionState::open_sent && cause == Cause::tcp_failed) {
    // OpenSent, event 18: back to Active, listening, ConnectRetryTimer on.
    state_ = SessionState::active;
    connect_retry_deadline_ =
        config_.passive ? Time::max() : now + config_.connect_retry_time;
    return;
  }
  ++counters_.connect_retry_counter;
  enter_idle(now);
}

void Session::fail(Connection& c, Time now, wb::Notification n,
                   std::string reason) {
  send_notification(c, n);
  drop(c, now, Cause::error,
       std::move(reason) + " (NOTIFICATION " + describe(n) + " sent)",
       std::move(n), std::nullopt);
}

// ---- Sending ----

void Session::send_message(Connection& c, Bytes bytes) {
  if (bytes.size() >= wb::kHeaderSize && bytes[18] >= 1 && bytes[18] <= 5)
    ++counters_.messages_out[bytes[18]];
  outputs_.emplace_back(SendBytes{c.id, std::move(bytes)});
}

void Session::send_keepalive(Connection& c, Time now) {
  send_message(c, encode(wb::Keepalive{}));
  if (c.keepalive_interval > Time{})
    c.keepalive_deadline = now + c.keepalive_interval;
}

void Session::send_notification(Connection& c, wb::Notification n) {
  ++counters_.notifications_out;
  send_message(c, encode(n));
}

bool Session::send(Bytes message, Time now) {
  for (Connection& c : conns_) {
    if (!c.in_use || c.state != SessionState::established) continue;
    send_message(c, std::move(message));
    if (c.keepalive_interval > Time{})
      c.keepalive_deadline = now + c.keepalive_interval;
    return true;
  }
  return false;
}

// ---- Receiving ----

void Session::on_bytes(ConnectionId id, ByteSpan data, Time now) {
  Connection* c = find(id);
  if (c == nullptr) return;
  c->rx.insert(c->rx.end(), data.begin(), data.end());
  process(*c, now);
}

void Session::process(Connection& c, Time now) {
  const ConnectionId id = c.id;
  std::size_t pos = 0;
  while (c.rx.size() - pos >= wb::kHeaderSize) {
    const wb::ParseOptions& options =
        c.negotiated ? c.negotiated->receive : default_options_;
    const ByteSpan rest = ByteSpan(c.rx).subspan(pos);
    // The header is checked before the whole message is here, so a bad
    // marker or an oversized length is answered at once (section 6.1).
    auto header = wb::parse_header(rest, options);
    if (!header) {
      fail(c, now, wb::notification_for(header.error()),
           "message header error");
      return;
    }
    if (header->length > rest.size()) break;
    auto parsed = wb::parse_message(rest.first(header->length), options);
    pos += header->length;
    if (!parsed) {
      const char* what = "message error";
      switch (parsed.error().code) {
        case wb::error_code::kOpenMessage:
          what = "OPEN message error";
          break;
        case wb::error_code::kUpdateMessage:
          what = "UPDATE message error";
          break;
        case wb::error_code::kMessageHeader:
          what = "message header error";
          break;
        default:
          break;
      }
      fail(c, now, wb::notification_for(parsed.error()), what);
      return;
    }
    handle(c, std::move(*parsed), now);
    if (!c.in_use || c.id != id) return;  // closed (or slot reused)
  }
  c.rx.erase(c.rx.begin(), c.rx.begin() + static_cast<std::ptrdiff_t>(pos));
}

void Session::unexpected(Connection& c, std::size_t type, Time now) {
  std::uint8_t sub = fsm_error::kUnexpectedInEstablished;
  if (c.state == SessionState::open_sent)
    sub = fsm_error::kUnexpectedInOpenSent;
  if (c.state == SessionState::open_confirm)
    sub = fsm_error::kUnexpectedInOpenConfirm;
  fail(c, now,
       wb::Notification{
           wb::error_code::kFsm, sub, {static_cast<std::uint8_t>(type)}},
       std::string(wb::message_type_name(static_cast<std::uint8_t>(type))) +
           " unexpected in " + std::string(session_state_name(c.state)));
}

void Session::handle(Connection& c, wb::ParsedMessage m, Time now) {
  const std::size_t type = m.message.index() + 1;  // Message order = types
  ++counters_.messages_in[type];
  if (auto* n = std::get_if<wb::Notification>(&m.message)) {
    ++counters_.notifications_in;
    if (c.state != SessionState::established && filter_.add_from(*n)) {
      local_open_ = bgp::local_open(config_, filter_);
    }
    wb::Notification received = std::move(*n);
    drop(c, now, Cause::notification,
         "NOTIFICATION " + describe(received) + " received", std::nullopt,
         std::move(received));
    return;
  }
  switch (c.state) {
    case SessionState::open_sent:
      if (auto* o = std::get_if<wb::Open>(&m.message)) {
        handle_open(c, std::move(*o), now);
      } else {
        unexpected(c, type, now);
      }
      return;
    case SessionState::open_confirm:
      if (std::holds_alternative<wb::Keepalive>(m.message)) {
        establish(c, now);
      } else {
        unexpected(c, type, now);
      }
      return;
    case SessionState::established:
      break;
    default:
      return;
  }
  if (std::holds_alternative<wb::Open>(m.message)) {
    unexpected(c, type, now);
    return;
  }
  // Section 8.2.2 restarts the HoldTimer on KEEPALIVE and UPDATE; a
  // ROUTE-REFRESH is just as much a sign of life.
  restart_hold(c, now);
  if (auto* u = std::get_if<wb::Update>(&m.message)) {
    outputs_.emplace_back(UpdateReceived{wb::UpdateParseResult{
        std::move(*u), std::move(m.attribute_errors), m.worst}});
  } else if (auto* rr = std::get_if<wb::RouteRefresh>(&m.message)) {
    const Negotiated& n = *c.negotiated;
    // RFC 2918 section 4: ignore a family not advertised.
    if (n.route_refresh && std::find(n.families.begin(), n.families.end(),
                                     rr->family) != n.families.end()) {
      outputs_.emplace_back(RouteRefreshReceived{rr->family, rr->subtype});
    }
  }
}

Direction Session::collision_winner(const wb::Open& remote) const {
  const std::uint32_t local_id = id_value(config_.router_id);
  const std::uint32_t remote_id = id_value(remote.identifier);
  bool local_wins = local_id > remote_id;
  if (local_id == remote_id) {
    // RFC 6286 section 2.3: equal Identifiers, the larger AS number wins.
    local_wins = config_.local_as > config_.remote_as;
  }
  return local_wins ? Direction::outgoing : Direction::incoming;
}

void Session::handle_open(Connection& c, wb::Open open, Time now) {
  auto n = accept_open(config_, c.sent_open, open);
  if (!n) {
    fail(c, now, std::move(n).error(), "OPEN rejected");
    return;
  }
  if (Connection* o = other(c); o && o->state == SessionState::open_confirm) {
    // Section 6.8: both connections now carry the peer's OPEN.
    ++counters_.collisions;
    const Direction mine =
        &c == &conns_[0] ? Direction::outgoing : Direction::incoming;
    Connection& loser = collision_winner(open) == mine ? *o : c;
    const bool lost_here = &loser == &c;
    const wb::Notification nc =
        cease_notification(cease::kConnectionCollisionResolution);
    ++counters_.connections_rejected;
    send_notification(loser, nc);
    drop(loser, now, Cause::other,
         "connection collision (NOTIFICATION " + describe(nc) + " sent)", nc,
         std::nullopt);
    if (lost_here) return;
  }
  c.state = SessionState::open_confirm;
  const std::uint16_t hold = n->hold_time_s;
  c.negotiated = std::move(*n);
  if (hold > 0) {
    c.hold_interval = sec(hold);
    c.keepalive_interval = ps(sec(hold).ps() / 3);
    c.hold_deadline = now + c.hold_interval;
  } else {
    c.hold_deadline = Time::max();
  }
  send_keepalive(c, now);
}

void Session::establish(Connection& c, Time now) {
  c.state = SessionState::established;
  restart_hold(c, now);
  ++counters_.established_transitions;
  if (Connection* o = other(c)) {
    // The other connection has not had the peer's OPEN yet; Established
    // wins any collision (section 6.8).
    ++counters_.collisions;
    ++counters_.connections_rejected;
    const wb::Notification nc =
        cease_notification(cease::kConnectionCollisionResolution);
    send_notification(*o, nc);
    drop(*o, now, Cause::other, "connection collision", nc, std::nullopt);
  }
  outputs_.emplace_back(SessionUp{*c.negotiated});
}

void Session::restart_hold(Connection& c, Time now) {
  if (c.hold_interval > Time{}) c.hold_deadline = now + c.hold_interval;
}

// ---- Timers ----

void Session::on_timer(Time now) {
  if (idle_hold_deadline_ <= now) {
    idle_hold_deadline_ = Time::max();
    // AutomaticStart (event 3) or its passive form (event 5).
    if (auto_start_ && state() == SessionState::idle) do_start(now);
  }
  if (connect_retry_deadline_ <= now) {
    connect_retry_deadline_ = Time::max();
    if (!any_connection() &&
        (state_ == SessionState::connect || state_ == SessionState::active)) {
      // Connect: drop the attempt, try again. Active: try, go to Connect.
      state_ = SessionState::connect;
      connect_retry_deadline_ = now + config_.connect_retry_time;
      request_connection(now);
    }
  }
  for (Connection& c : conns_) {
    if (!c.in_use) continue;
    if (c.hold_deadline <= now) {
      fail(c, now, wb::Notification{wb::error_code::kHoldTimerExpired, 0, {}},
           "hold timer expired");
      continue;
    }
    if (c.keepalive_deadline <= now) send_keepalive(c, now);
  }
}

Time Session::next_deadline() const {
  Time t = std::min(idle_hold_deadline_, connect_retry_deadline_);
  for (const Connection& c : conns_) {
    if (!c.in_use) continue;
    t = std::min({t, c.hold_deadline, c.keepalive_deadline});
  }
  return t;
}

}  // namespace arfabric::proto::bgp
