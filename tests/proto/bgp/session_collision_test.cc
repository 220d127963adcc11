// Connection collision (RFC 4271 section 6.8): one outgoing and one incoming
// connection to the same peer, resolved by BGP Identifier once both carry
// the peer's OPEN. Local Identifier 10.0.0.1; the peer's is 10.0.0.2
// (higher: its connection, our incoming one, survives) or 9.0.0.9 (lower:
// our outgoing one survives).
#include <gtest/gtest.h>

#include "proto/bgp/session.h"
#include "proto/bgp/session_test_util.h"

namespace arfabric::proto::bgp {
namespace {

using namespace stest;  // NOLINT

constexpr ConnectionId kOut = 1;
constexpr ConnectionId kIn = 2;

wb::Open open_with_id(wire::Ipv4Address id) {
  wb::Open o = peer_open();
  o.identifier = id;
  return o;
}
const wb::Open kHigher = open_with_id({10, 0, 0, 2});
const wb::Open kLower = open_with_id({9, 0, 0, 9});

bool is_collision_cease(const std::optional<wb::Notification>& n) {
  return n && n->code == wb::error_code::kCease &&
         n->subcode == cease::kConnectionCollisionResolution;
}

// Both connections in OpenSent, each having sent our OPEN.
void two_open_sent(Driver& d) {
  d.start();
  d.connected(kIn, Direction::incoming);  // Connect: take it
  ASSERT_EQ(d.s.state(), SessionState::open_sent);
  // The outgoing attempt completes too: kept, OPEN sent on it.
  auto& outs = d.connected(kOut, Direction::outgoing);
  ASSERT_EQ(sent_on(outs, kOut).size(), 1u);
  EXPECT_FALSE(closed(outs, kOut));
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
}

TEST(SessionCollision, OpenSentPeerHigherKeepsIncoming) {
  Driver d;
  two_open_sent(d);
  d.bytes(kIn, open_bytes(kHigher));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  auto& outs = d.bytes(kOut, open_bytes(kHigher));
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kOut)));
  EXPECT_TRUE(closed(outs, kOut));
  EXPECT_FALSE(closed(outs, kIn));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  EXPECT_EQ(d.s.counters().collisions, 1u);
  d.bytes(kIn, keepalive_bytes());
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionCollision, OpenSentPeerLowerKeepsOutgoing) {
  Driver d;
  two_open_sent(d);
  d.bytes(kIn, open_bytes(kLower));
  auto& outs = d.bytes(kOut, open_bytes(kLower));
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kIn)));
  EXPECT_TRUE(closed(outs, kIn));
  // The survivor proceeds to OpenConfirm: KEEPALIVE after the OPEN.
  auto msgs = sent_on(outs, kOut);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<wb::Keepalive>(msgs[0]));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  d.bytes(kOut, keepalive_bytes());
  EXPECT_EQ(d.s.state(), SessionState::established);
}

// Our outgoing connection in OpenConfirm when the peer's connection arrives.
void open_confirm_then_incoming(Driver& d, const wb::Open& o) {
  d.start();
  d.connected(kOut, Direction::outgoing);
  d.bytes(kOut, open_bytes(o));
  ASSERT_EQ(d.s.state(), SessionState::open_confirm);
  auto& outs = d.connected(kIn, Direction::incoming);
  auto msgs = sent_on(outs, kIn);
  ASSERT_EQ(msgs.size(), 1u);  // our OPEN: both are kept for now
  EXPECT_TRUE(std::holds_alternative<wb::Open>(msgs[0]));
}

TEST(SessionCollision, OpenConfirmPeerHigherKeepsIncoming) {
  Driver d;
  open_confirm_then_incoming(d, kHigher);
  auto& outs = d.bytes(kIn, open_bytes(kHigher));
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kOut)));
  EXPECT_TRUE(closed(outs, kOut));
  EXPECT_EQ(sent_on(outs, kIn).size(), 1u);  // KEEPALIVE
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  d.bytes(kIn, keepalive_bytes());
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionCollision, OpenConfirmPeerLowerKeepsOutgoing) {
  Driver d;
  open_confirm_then_incoming(d, kLower);
  auto& outs = d.bytes(kIn, open_bytes(kLower));
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kIn)));
  EXPECT_TRUE(closed(outs, kIn));
  EXPECT_FALSE(closed(outs, kOut));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  d.bytes(kOut, keepalive_bytes());
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionCollision, EqualIdentifiersLargerAsWins) {
  // RFC 6286 section 2.3: peer AS 65002 > ours 65001, so the peer's
  // connection (incoming) survives.
  Driver d;
  open_confirm_then_incoming(d, open_with_id({10, 0, 0, 1}));
  auto& outs = d.bytes(kIn, open_bytes(open_with_id({10, 0, 0, 1})));
  EXPECT_TRUE(closed(outs, kOut));
  EXPECT_FALSE(closed(outs, kIn));
}

TEST(SessionCollision, EstablishedRejectsNewConnection) {
  Driver d;
  d.establish(kHigher, kOut);
  auto& outs = d.connected(kIn, Direction::incoming);
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kIn)));
  EXPECT_TRUE(closed(outs, kIn));
  EXPECT_EQ(d.s.state(), SessionState::established);
  EXPECT_TRUE(outputs_of<SessionDown>(outs).empty());
}

TEST(SessionCollision, EstablishedClosesTheConnectionStillInOpenSent) {
  Driver d;
  open_confirm_then_incoming(d, kHigher);
  // KEEPALIVE on the outgoing connection before the peer's OPEN on the
  // incoming one: Established wins.
  auto& outs = d.bytes(kOut, keepalive_bytes());
  EXPECT_TRUE(is_collision_cease(notification_on(outs, kIn)));
  EXPECT_TRUE(closed(outs, kIn));
  EXPECT_EQ(outputs_of<SessionUp>(outs).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionCollision, SecondConnectionOfSameDirectionRejected) {
  Driver d;
  d.start();
  d.connected(kIn, Direction::incoming);
  auto& outs = d.connected(4, Direction::incoming);
  auto n = notification_on(outs, 4);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->subcode, cease::kConnectionRejected);
  EXPECT_TRUE(closed(outs, 4));
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
}

TEST(SessionCollision, LosingOneConnectionKeepsTheOther) {
  Driver d;
  two_open_sent(d);
  d.s.on_closed(kIn, d.now);
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
  // The remaining connection's errors still reset only it, to Idle.
  d.bytes(kOut, keepalive_bytes());
  EXPECT_EQ(d.s.state(), SessionState::idle);
}

TEST(SessionCollision, FailedSecondAttemptChangesNothing) {
  Driver d;
  d.start();
  d.connected(kIn, Direction::incoming);
  d.s.on_connect_failed(d.now);
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
}

TEST(SessionCollision, EachConnectionHasItsOwnHoldTimer) {
  Driver d;
  d.start();
  d.connected(kIn, Direction::incoming);  // hold at 240
  d.now = sec(100);
  d.connected(kOut, Direction::outgoing);  // hold at 340
  EXPECT_EQ(d.s.next_deadline(), sec(240));
  auto& outs = d.fire();
  EXPECT_EQ(notification_on(outs, kIn)->code,
            wb::error_code::kHoldTimerExpired);
  EXPECT_FALSE(closed(outs, kOut));
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
  EXPECT_EQ(d.s.next_deadline(), sec(340));
}

}  // namespace
}  // namespace arfabric::proto::bgp
