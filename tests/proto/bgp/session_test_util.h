// Helpers for the BGP session tests: configurations, peer messages encoded
// with the wire codec, output filters, and a pair of Sessions wired back to
// back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "proto/bgp/session.h"
#include "wire/bgp/message.h"

namespace arfabric::proto::bgp::stest {

namespace wb = wire::bgp;

inline constexpr wb::AfiSafi kV4{wb::kAfiIpv4, wb::kSafiUnicast};
inline constexpr wb::AfiSafi kV6{wb::kAfiIpv6, wb::kSafiUnicast};

// Local side: AS 65001, Identifier 10.0.0.1, peer AS 65002.
inline SessionConfig local_config() {
  SessionConfig c;
  c.local_as = 65001;
  c.router_id = {10, 0, 0, 1};
  c.remote_as = 65002;
  return c;
}

// The mirror image: AS 65002, Identifier 10.0.0.2, peer AS 65001.
inline SessionConfig peer_config() {
  SessionConfig c;
  c.local_as = 65002;
  c.router_id = {10, 0, 0, 2};
  c.remote_as = 65001;
  return c;
}

inline Bytes encode(const wb::Message& m,
                    const wb::SessionCodecOptions& options = {}) {
  ByteWriter w;
  auto r = wb::serialize(m, options, w);
  EXPECT_TRUE(r.has_value());
  return w.take();
}

// The OPEN the peer of local_config() sends (built by the code under test
// from peer_config(), so capabilities match what a real peer would send).
inline wb::Open peer_open(const SessionConfig& c = peer_config()) {
  return local_open(c);
}
inline Bytes open_bytes(const wb::Open& o) { return encode(o); }
inline Bytes keepalive_bytes() { return encode(wb::Keepalive{}); }
inline Bytes notification_bytes(std::uint8_t code, std::uint8_t sub,
                                Bytes data = {}) {
  return encode(wb::Notification{code, sub, std::move(data)});
}
// Prepends the 19-byte header to an UPDATE body.
inline Bytes update_bytes(const Bytes& body) {
  Bytes b(16, 0xff);
  const std::size_t len = 19 + body.size();
  b.push_back(static_cast<std::uint8_t>(len >> 8));
  b.push_back(static_cast<std::uint8_t>(len));
  b.push_back(2);
  b.insert(b.end(), body.begin(), body.end());
  return b;
}
// 10.1.2.0/24 via 10.0.0.2, AS_PATH 65002 (4-octet ASNs: both sides
// advertise RFC 6793).
inline Bytes simple_update_bytes() {
  return update_bytes({
      0x00, 0x00,                          // withdrawn routes length
      0x00, 0x14,                          // total path attribute length 20
      0x40, 0x01, 0x01, 0x00,              // ORIGIN IGP
      0x40, 0x02, 0x06, 0x02, 0x01,        // AS_PATH: AS_SEQUENCE of 1
      0x00, 0x00, 0xfd, 0xea,              //   65002
      0x40, 0x03, 0x04, 10,   0,    0, 2,  // NEXT_HOP 10.0.0.2
      24,   10,   1,    2,                 // NLRI 10.1.2.0/24
  });
}

template <typename T>
std::vector<T> outputs_of(const std::vector<SessionOutput>& outs) {
  std::vector<T> r;
  for (const auto& o : outs) {
    if (auto* v = std::get_if<T>(&o)) r.push_back(*v);
  }
  return r;
}

// Messages sent on connection `id`, decoded.
inline std::vector<wb::Message> sent_on(const std::vector<SessionOutput>& outs,
                                        ConnectionId id) {
  std::vector<wb::Message> r;
  wb::ParseOptions any_length;
  any_length.extended_message = true;
  for (const auto& s : outputs_of<SendBytes>(outs)) {
    if (s.connection != id) continue;
    auto p = wb::parse_message(s.bytes, any_length);
    EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().to_string());
    if (p) r.push_back(std::move(p->message));
  }
  return r;
}

inline bool closed(const std::vector<SessionOutput>& outs, ConnectionId id) {
  for (const auto& c : outputs_of<CloseConnection>(outs)) {
    if (c.connection == id) return true;
  }
  return false;
}

// The single NOTIFICATION sent on `id`, if any.
inline std::optional<wb::Notification> notification_on(
    const std::vector<SessionOutput>& outs, ConnectionId id) {
  std::optional<wb::Notification> r;
  for (auto& m : sent_on(outs, id)) {
    if (auto* n = std::get_if<wb::Notification>(&m)) r = *n;
  }
  return r;
}

// Drives a Session and keeps every output it ever produced.
struct Driver {
  explicit Driver(SessionConfig c = local_config()) : s(std::move(c)) {}
  Session s;
  std::vector<SessionOutput> last;  // outputs of the last call
  Time now{};

  std::vector<SessionOutput>& take() {
    last = std::move(s.outputs());
    s.outputs().clear();
    return last;
  }
  std::vector<SessionOutput>& start() {
    s.start(now);
    return take();
  }
  std::vector<SessionOutput>& connected(ConnectionId id, Direction d) {
    s.on_connected(id, d, now);
    return take();
  }
  std::vector<SessionOutput>& bytes(ConnectionId id, const Bytes& b) {
    s.on_bytes(id, b, now);
    return take();
  }
  std::vector<SessionOutput>& at(Time t) {
    now = t;
    s.on_timer(now);
    return take();
  }
  std::vector<SessionOutput>& fire() { return at(s.next_deadline()); }
  // Connect out on id 1 and bring the session to Established with `open`.
  void establish(const wb::Open& open = peer_open(), ConnectionId id = 1) {
    start();
    connected(id, Direction::outgoing);
    bytes(id, open_bytes(open));
    bytes(id, keepalive_bytes());
    ASSERT_EQ(s.state(), SessionState::established);
  }
};

// Two Sessions joined by an in-memory network. A's outgoing connection is
// B's incoming one with the same id (odd ids from A, even from B).
class Pair {
 public:
  Pair(SessionConfig a, SessionConfig b) : a_(std::move(a)), b_(std::move(b)) {}
  Session& a() { return a_; }
  Session& b() { return b_; }
  Time now{};

  void start() {
    a_.start(now);
    b_.start(now);
    pump();
  }
  // Delivers every output until neither side has anything left.
  void pump() {
    for (int guard = 0; guard < 1000; ++guard) {
      // Both sides drain every round (no short-circuit).
      const bool a_sent = drain(a_, b_, 1);
      const bool b_sent = drain(b_, a_, 2);
      if (!a_sent && !b_sent) return;
    }
    ADD_FAILURE() << "pump did not settle";
  }
  // Advances to the earlier deadline of the two and fires it.
  void step() {
    now = std::min(a_.next_deadline(), b_.next_deadline());
    a_.on_timer(now);
    b_.on_timer(now);
    pump();
  }
  std::vector<SessionOutput> events_a, events_b;  // Up/Down/Update...

 private:
  bool drain(Session& from, Session& to, ConnectionId first_id) {
    std::vector<SessionOutput> outs = std::move(from.outputs());
    from.outputs().clear();
    auto& events = &from == &a_ ? events_a : events_b;
    for (auto& o : outs) {
      if (std::holds_alternative<OpenConnection>(o)) {
        const ConnectionId id = first_id + 2 * next_++;
        from.on_connected(id, Direction::outgoing, now);
        to.on_connected(id, Direction::incoming, now);
      } else if (auto* s = std::get_if<SendBytes>(&o)) {
        to.on_bytes(s->connection, s->bytes, now);
      } else if (auto* c = std::get_if<CloseConnection>(&o)) {
        to.on_closed(c->connection, now);
      } else {
        events.push_back(o);
      }
    }
    return !outs.empty();
  }
  Session a_, b_;
  std::uint32_t next_ = 0;
};

}  // namespace arfabric::proto::bgp::stest
