// RFC 4271 section 8.2.2 state/event pairs, one Session driven by hand-
// encoded peer messages. Collision cases are in session_collision_test.cc,
// stream handling and back-to-back pairs in session_stream_test.cc.
#include "proto/bgp/session.h"

#include <gtest/gtest.h>

#include "proto/bgp/session_test_util.h"

namespace arfabric::proto::bgp {
namespace {

using namespace stest;  // NOLINT
namespace ec = wb::error_code;

constexpr ConnectionId kOut = 1;

std::vector<SessionOutput>& to_open_sent(Driver& d) {
  d.start();
  return d.connected(kOut, Direction::outgoing);
}
void to_open_confirm(Driver& d, const wb::Open& o = peer_open()) {
  to_open_sent(d);
  d.bytes(kOut, open_bytes(o));
  ASSERT_EQ(d.s.state(), SessionState::open_confirm);
}

// The NOTIFICATION sent on kOut, with the connection closed and the session
// back in Idle, restarting after idle_hold_time.
void expect_reset(Driver& d, std::uint8_t code, std::uint8_t sub,
                  Bytes data = {}) {
  auto n = notification_on(d.last, kOut);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->code, code);
  EXPECT_EQ(n->subcode, sub);
  EXPECT_EQ(n->data, data);
  EXPECT_TRUE(closed(d.last, kOut));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), d.now + sec(1));
}

TEST(SessionStateName, AllStates) {
  EXPECT_EQ(session_state_name(SessionState::idle), "Idle");
  EXPECT_EQ(session_state_name(SessionState::connect), "Connect");
  EXPECT_EQ(session_state_name(SessionState::active), "Active");
  EXPECT_EQ(session_state_name(SessionState::open_sent), "OpenSent");
  EXPECT_EQ(session_state_name(SessionState::open_confirm), "OpenConfirm");
  EXPECT_EQ(session_state_name(SessionState::established), "Established");
}

// ---- Idle ----

TEST(SessionIdle, RefusesConnectionsAndIgnoresEverythingElse) {
  Driver d;
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
  auto& outs = d.connected(7, Direction::incoming);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_TRUE(closed(outs, 7));  // refused, no NOTIFICATION
  EXPECT_TRUE(d.bytes(7, keepalive_bytes()).empty());
  d.s.on_connect_failed(d.now);
  d.s.on_closed(7, d.now);
  EXPECT_TRUE(d.at(sec(1000)).empty());
  d.s.stop(d.now);  // ManualStop in Idle: ignored
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.counters().connections_rejected, 1u);
}

TEST(SessionIdle, ManualStartConnectsAndArmsConnectRetry) {
  Driver d;
  d.now = sec(5);
  auto& outs = d.start();
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<OpenConnection>(outs[0]));
  EXPECT_EQ(d.s.state(), SessionState::connect);
  EXPECT_EQ(d.s.next_deadline(), sec(125));  // 5 + ConnectRetryTime 120
}

TEST(SessionIdle, PassiveStartListensInActive) {
  SessionConfig c = local_config();
  c.passive = true;
  Driver d(c);
  EXPECT_TRUE(d.start().empty());
  EXPECT_EQ(d.s.state(), SessionState::active);
  EXPECT_EQ(d.s.next_deadline(), Time::max());  // never initiates
}

TEST(SessionIdle, PassiveAutomaticStartReturnsToActive) {
  SessionConfig c = local_config();
  c.passive = true;
  c.idle_hold_time = Time{};  // restart at the same instant
  Driver d(c);
  d.start();
  d.connected(9, Direction::incoming);
  d.bytes(9, notification_bytes(wb::error_code::kCease, 3));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), d.now);
  EXPECT_TRUE(d.fire().empty());  // AutomaticStart_with_Passive: no connect
  EXPECT_EQ(d.s.state(), SessionState::active);
}

// ---- Connect ----

TEST(SessionConnect, ManualStartIgnored) {
  Driver d;
  d.start();
  EXPECT_TRUE(d.start().empty());
  EXPECT_EQ(d.s.state(), SessionState::connect);
}

TEST(SessionConnect, ConnectRetryExpiryRetries) {
  Driver d;
  d.start();
  auto& outs = d.fire();
  EXPECT_EQ(d.now, sec(120));
  ASSERT_EQ(outputs_of<OpenConnection>(outs).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::connect);
  EXPECT_EQ(d.s.next_deadline(), sec(240));
}

TEST(SessionConnect, TcpFailsGoesIdleThenAutomaticStart) {
  Driver d;
  d.start();
  d.now = sec(3);
  d.s.on_connect_failed(d.now);
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), sec(4));  // idle_hold_time 1 s
  auto& outs = d.fire();
  EXPECT_EQ(outputs_of<OpenConnection>(outs).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::connect);
}

TEST(SessionConnect, ManualStopGoesIdleWithoutRestart) {
  Driver d;
  d.start();
  d.s.stop(d.now);
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
  // A late answer to the abandoned attempt is refused.
  EXPECT_TRUE(closed(d.connected(kOut, Direction::outgoing), kOut));
}

TEST(SessionConnect, TcpCrAckedSendsOpenAndEntersOpenSent) {
  Driver d;
  d.start();
  d.now = sec(2);
  auto& outs = d.connected(kOut, Direction::outgoing);
  auto msgs = sent_on(outs, kOut);
  ASSERT_EQ(msgs.size(), 1u);
  const auto& o = std::get<wb::Open>(msgs[0]);
  EXPECT_EQ(o.version, 4);
  EXPECT_EQ(o.my_as, 65001);
  EXPECT_EQ(o.hold_time, 90);
  EXPECT_EQ(o.identifier, (wire::Ipv4Address{10, 0, 0, 1}));
  EXPECT_EQ(o.four_octet_as(), 65001u);
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
  // ConnectRetryTimer stopped; HoldTimer at the large value (4 minutes).
  EXPECT_EQ(d.s.next_deadline(), sec(2) + sec(240));
}

TEST(SessionConnect, IncomingConnectionAlsoEntersOpenSent) {
  Driver d;
  d.start();
  auto& outs = d.connected(9, Direction::incoming);
  EXPECT_EQ(sent_on(outs, 9).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
}

// ---- Active ----

TEST(SessionActive, IncomingConnectionEntersOpenSent) {
  SessionConfig c = local_config();
  c.passive = true;
  Driver d(c);
  d.start();
  auto& outs = d.connected(9, Direction::incoming);
  ASSERT_EQ(sent_on(outs, 9).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::open_sent);
}

TEST(SessionActive, ConnectRetryExpiryGoesToConnect) {
  Driver d;
  to_open_sent(d);
  d.now = sec(10);
  d.s.on_closed(kOut, d.now);  // OpenSent + TcpConnectionFails -> Active
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::active);
  EXPECT_EQ(d.s.next_deadline(), sec(130));
  auto& outs = d.fire();
  EXPECT_EQ(outputs_of<OpenConnection>(outs).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::connect);
  EXPECT_EQ(d.s.next_deadline(), sec(250));
}

TEST(SessionActive, TcpFailsGoesIdle) {
  Driver d;
  d.start();
  d.connected(9, Direction::incoming);  // outgoing attempt still pending
  d.s.on_closed(9, d.now);              // -> Active
  ASSERT_EQ(d.s.state(), SessionState::active);
  d.s.on_connect_failed(d.now);
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.counters().connect_retry_counter, 1u);
}

TEST(SessionActive, ManualStopGoesIdle) {
  SessionConfig c = local_config();
  c.passive = true;
  Driver d(c);
  d.start();
  d.s.stop(d.now);
  EXPECT_TRUE(d.take().empty());
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
}

// ---- OpenSent ----

TEST(SessionOpenSent, ValidOpenSendsKeepaliveAndEntersOpenConfirm) {
  Driver d;
  to_open_sent(d);
  d.now = sec(1);
  wb::Open o = peer_open();
  o.hold_time = 30;  // min(90, 30) = 30: keepalive every 10 s
  auto& outs = d.bytes(kOut, open_bytes(o));
  auto msgs = sent_on(outs, kOut);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<wb::Keepalive>(msgs[0]));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  EXPECT_EQ(d.s.next_deadline(), sec(11));  // KeepaliveTimer first
  EXPECT_EQ(d.s.negotiated(), nullptr);     // not yet Established
}

TEST(SessionOpenSent, HoldTimerExpirySendsHoldTimerExpired) {
  Driver d;
  to_open_sent(d);
  d.fire();
  EXPECT_EQ(d.now, sec(240));
  expect_reset(d, ec::kHoldTimerExpired, 0);
}

TEST(SessionOpenSent, KeepaliveIsFsmError) {
  Driver d;
  to_open_sent(d);
  d.bytes(kOut, keepalive_bytes());
  // RFC 6608: subcode 1, data = the message type (4 KEEPALIVE).
  expect_reset(d, ec::kFsm, fsm_error::kUnexpectedInOpenSent, {4});
}

TEST(SessionOpenSent, UpdateIsFsmError) {
  Driver d;
  to_open_sent(d);
  d.bytes(kOut, simple_update_bytes());
  expect_reset(d, ec::kFsm, fsm_error::kUnexpectedInOpenSent, {2});
}

TEST(SessionOpenSent, NotificationClosesWithoutReply) {
  Driver d;
  to_open_sent(d);
  auto& outs = d.bytes(kOut, notification_bytes(ec::kCease, 2));
  EXPECT_FALSE(notification_on(outs, kOut).has_value());
  EXPECT_TRUE(closed(outs, kOut));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.counters().notifications_in, 1u);
  EXPECT_EQ(d.s.counters().notifications_out, 0u);
  EXPECT_EQ(d.s.next_deadline(), sec(1));
}

TEST(SessionOpenSent, ManualStopSendsCease) {
  Driver d;
  to_open_sent(d);
  d.s.stop(d.now);
  d.take();
  auto n = notification_on(d.last, kOut);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->code, ec::kCease);
  EXPECT_EQ(n->subcode, cease::kAdministrativeShutdown);
  EXPECT_TRUE(closed(d.last, kOut));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
  EXPECT_TRUE(outputs_of<SessionDown>(d.last).empty());  // never up
}

TEST(SessionOpenSent, BadMarkerIsHeaderError) {
  Driver d;
  to_open_sent(d);
  Bytes b = keepalive_bytes();
  b[3] = 0;
  d.bytes(kOut, b);
  expect_reset(d, ec::kMessageHeader, wb::subcode::kConnectionNotSynchronized);
}

TEST(SessionOpenSent, OversizedLengthIsHeaderErrorBeforeTheBody) {
  Driver d;
  to_open_sent(d);
  // Only the 19-byte header of a 4097-byte message: answered at once.
  Bytes b(16, 0xff);
  b.insert(b.end(), {0x10, 0x01, 2});
  d.bytes(kOut, b);
  expect_reset(d, ec::kMessageHeader, wb::subcode::kBadMessageLength,
               {0x10, 0x01});
}

// ---- Malformed OPENs (BGPOpenMsgErr) ----

TEST(SessionOpenErrors, UnsupportedVersion) {
  Driver d;
  to_open_sent(d);
  wb::Open o = peer_open();
  o.version = 3;
  d.bytes(kOut, open_bytes(o));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kUnsupportedVersion,
               {0x00, 0x04});
}

TEST(SessionOpenErrors, BadPeerAs) {
  Driver d;
  to_open_sent(d);
  SessionConfig pc = peer_config();
  pc.local_as = 65009;
  d.bytes(kOut, open_bytes(peer_open(pc)));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kBadPeerAs);
}

TEST(SessionOpenErrors, BadPeerAsFromMyAsWithoutFourOctetCapability) {
  Driver d;
  to_open_sent(d);
  wb::Open o = peer_open();
  o.parameters.clear();  // no capabilities at all
  o.my_as = 65003;
  d.bytes(kOut, open_bytes(o));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kBadPeerAs);
}

TEST(SessionOpenErrors, AsTransWithFourOctetCapabilityAccepted) {
  SessionConfig c = local_config();
  c.remote_as = 4200000001;
  Driver d(c);
  to_open_sent(d);
  SessionConfig pc = peer_config();
  pc.local_as = 4200000001;
  const wb::Open o = peer_open(pc);
  ASSERT_EQ(o.my_as, wb::kAsTrans);
  d.bytes(kOut, open_bytes(o));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
}

TEST(SessionOpenErrors, AsTransWithoutFourOctetCapabilityIsBadPeerAs) {
  SessionConfig c = local_config();
  c.remote_as = 4200000001;
  Driver d(c);
  to_open_sent(d);
  wb::Open o = peer_open();
  o.parameters.clear();
  o.my_as = wb::kAsTrans;  // 23456 is not 4200000001
  d.bytes(kOut, open_bytes(o));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kBadPeerAs);
}

TEST(SessionOpenErrors, ZeroIdentifier) {
  Driver d;
  to_open_sent(d);
  wb::Open o = peer_open();
  o.identifier = {};
  d.bytes(kOut, open_bytes(o));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kBadBgpIdentifier);
}

TEST(SessionOpenErrors, HoldTimeOneOrTwo) {
  for (std::uint16_t h : {1, 2}) {
    Driver d;
    to_open_sent(d);
    wb::Open o = peer_open();
    o.hold_time = h;
    d.bytes(kOut, open_bytes(o));
    expect_reset(d, ec::kOpenMessage, wb::subcode::kUnacceptableHoldTime);
  }
}

TEST(SessionOpenErrors, UnsupportedOptionalParameter) {
  Driver d;
  to_open_sent(d);
  wb::Open o = peer_open();
  o.parameters.push_back(
      wb::OptionalParameter{.type = 1, .capabilities = {}, .raw = {0, 0}});
  d.bytes(kOut, open_bytes(o));
  expect_reset(d, ec::kOpenMessage, wb::subcode::kUnsupportedOptionalParameter);
}

TEST(SessionOpenErrors, NoCommonFamilyIsUnsupportedCapability) {
  SessionConfig c = local_config();
  c.families = {kV6};
  Driver d(c);
  to_open_sent(d);
  // The peer advertises IPv4 unicast only.
  d.bytes(kOut, open_bytes(peer_open()));
  // Data: our multiprotocol capability, code 1 length 4, AFI 2 res 0 SAFI 1.
  expect_reset(d, ec::kOpenMessage, kSubcodeUnsupportedCapability,
               {1, 4, 0, 2, 0, 1});
}

TEST(SessionOpenErrors, ReceivedUnsupportedCapabilityDropsItNextTime) {
  SessionConfig c = local_config();
  c.families = {kV4, kV6};
  Driver d(c);
  to_open_sent(d);
  // The peer refuses IPv6 unicast: 2/7 with that capability tuple.
  d.bytes(kOut, notification_bytes(ec::kOpenMessage, 7, {1, 4, 0, 2, 0, 1}));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_FALSE(notification_on(d.last, kOut).has_value());
  d.fire();  // automatic restart
  auto msgs = sent_on(d.connected(3, Direction::outgoing), 3);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(wb::Open(std::get<wb::Open>(msgs[0])).capabilities().size(),
            3u);  // MP IPv4, route refresh, 4-octet AS
  EXPECT_EQ(advertised_families(std::get<wb::Open>(msgs[0])),
            std::vector<wb::AfiSafi>{kV4});
  // A manual restart forgets the refusal.
  d.s.stop(d.now);
  d.take();
  d.start();
  msgs = sent_on(d.connected(5, Direction::outgoing), 5);
  EXPECT_EQ(advertised_families(std::get<wb::Open>(msgs[0])),
            (std::vector<wb::AfiSafi>{kV4, kV6}));
}

// ---- OpenConfirm ----

TEST(SessionOpenConfirm, KeepaliveEstablishes) {
  Driver d;
  to_open_confirm(d);
  d.now = sec(4);
  auto& outs = d.bytes(kOut, keepalive_bytes());
  auto up = outputs_of<SessionUp>(outs);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].negotiated.remote_as, 65002u);
  EXPECT_EQ(up[0].negotiated.remote_id, (wire::Ipv4Address{10, 0, 0, 2}));
  EXPECT_EQ(up[0].negotiated.hold_time_s, 90);
  EXPECT_EQ(up[0].negotiated.families, std::vector<wb::AfiSafi>{kV4});
  EXPECT_TRUE(up[0].negotiated.route_refresh);
  EXPECT_TRUE(up[0].negotiated.receive.four_octet_as);
  EXPECT_EQ(d.s.state(), SessionState::established);
  ASSERT_NE(d.s.negotiated(), nullptr);
  EXPECT_EQ(d.s.negotiated()->remote_open, up[0].negotiated.remote_open);
  EXPECT_EQ(d.s.counters().established_transitions, 1u);
  // Keepalive (sent at 0, every 30 s) before hold (4 + 90).
  EXPECT_EQ(d.s.next_deadline(), sec(30));
}

TEST(SessionOpenConfirm, KeepaliveTimerSendsKeepalive) {
  Driver d;
  to_open_confirm(d);
  auto& outs = d.fire();
  EXPECT_EQ(d.now, sec(30));
  auto msgs = sent_on(outs, kOut);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<wb::Keepalive>(msgs[0]));
  EXPECT_EQ(d.s.state(), SessionState::open_confirm);
  EXPECT_EQ(d.s.next_deadline(), sec(60));
}

TEST(SessionOpenConfirm, HoldTimerExpiry) {
  Driver d;
  to_open_confirm(d);
  d.at(sec(30));
  d.at(sec(60));
  d.at(sec(90));
  expect_reset(d, ec::kHoldTimerExpired, 0);
}

TEST(SessionOpenConfirm, UpdateOrOpenIsFsmError) {
  Driver d;
  to_open_confirm(d);
  d.bytes(kOut, simple_update_bytes());
  expect_reset(d, ec::kFsm, fsm_error::kUnexpectedInOpenConfirm, {2});
  Driver e;
  to_open_confirm(e);
  e.bytes(kOut, open_bytes(peer_open()));
  expect_reset(e, ec::kFsm, fsm_error::kUnexpectedInOpenConfirm, {1});
}

TEST(SessionOpenConfirm, NotificationOrTcpFailureGoesIdle) {
  Driver d;
  to_open_confirm(d);
  d.bytes(kOut, notification_bytes(ec::kCease, 3));
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_FALSE(notification_on(d.last, kOut).has_value());
  Driver e;
  to_open_confirm(e);
  e.s.on_closed(kOut, e.now);
  EXPECT_TRUE(e.take().empty());
  EXPECT_EQ(e.s.state(), SessionState::idle);  // not Active, unlike OpenSent
}

TEST(SessionOpenConfirm, ManualStopSendsCease) {
  Driver d;
  to_open_confirm(d);
  d.s.stop(d.now, 4);
  d.take();
  auto n = notification_on(d.last, kOut);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->code, ec::kCease);
  EXPECT_EQ(n->subcode, 4);
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
}

// ---- Established ----

TEST(SessionEstablished, UpdateIsDeliveredAndRestartsHold) {
  Driver d;
  d.establish();
  d.now = sec(20);
  auto& outs = d.bytes(kOut, simple_update_bytes());
  auto u = outputs_of<UpdateReceived>(outs);
  ASSERT_EQ(u.size(), 1u);
  ASSERT_EQ(u[0].update.update.nlri.size(), 1u);
  EXPECT_EQ(u[0].update.update.nlri[0].length, 24);
  EXPECT_TRUE(u[0].update.attribute_errors.empty());
  // Keepalives at 30, 60, 90: the hold timer is now 20 + 90 = 110.
  d.at(sec(30));
  d.at(sec(60));
  d.at(sec(90));
  EXPECT_EQ(d.s.state(), SessionState::established);
  EXPECT_EQ(d.s.next_deadline(), sec(110));
  d.fire();
  EXPECT_EQ(d.now, sec(110));
  expect_reset(d, ec::kHoldTimerExpired, 0);
  auto down = outputs_of<SessionDown>(d.last);
  ASSERT_EQ(down.size(), 1u);
  ASSERT_TRUE(down[0].sent.has_value());
  EXPECT_EQ(down[0].sent->code, ec::kHoldTimerExpired);
  EXPECT_FALSE(down[0].received.has_value());
}

TEST(SessionEstablished, KeepaliveRestartsHold) {
  Driver d;
  d.establish();
  d.now = sec(50);
  EXPECT_TRUE(d.bytes(kOut, keepalive_bytes()).empty());
  d.at(sec(60));
  d.at(sec(90));
  d.at(sec(120));
  EXPECT_EQ(d.s.next_deadline(), sec(140));  // 50 + 90
}

TEST(SessionEstablished, KeepaliveCadenceIsHoldOverThree) {
  SessionConfig c = local_config();
  c.hold_time_s = 10;  // keepalive every 10/3 s = 3.333... s
  Driver d(c);
  d.establish();
  const Time third = ps(sec(10).ps() / 3);
  for (int i = 1; i <= 5; ++i) {
    d.now = third * (i - 1);
    d.bytes(kOut, keepalive_bytes());  // peer keeps us alive
    auto& outs = d.at(third * i);
    auto msgs = sent_on(outs, kOut);
    ASSERT_EQ(msgs.size(), 1u) << i;
    EXPECT_TRUE(std::holds_alternative<wb::Keepalive>(msgs[0]));
  }
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionEstablished, SendRestartsKeepaliveTimer) {
  Driver d;
  d.establish();
  d.now = sec(25);
  EXPECT_TRUE(d.s.send(simple_update_bytes(), d.now));
  auto& outs = d.take();
  ASSERT_EQ(outputs_of<SendBytes>(outs).size(), 1u);
  EXPECT_EQ(d.s.counters().messages_out[2], 1u);
  EXPECT_EQ(d.s.next_deadline(), sec(55));  // 25 + 30
}

TEST(SessionEstablished, SendRefusedOutsideEstablished) {
  Driver d;
  EXPECT_FALSE(d.s.send(simple_update_bytes(), d.now));
  to_open_confirm(d);
  EXPECT_FALSE(d.s.send(simple_update_bytes(), d.now));
  EXPECT_TRUE(d.take().empty());
}

TEST(SessionEstablished, ZeroHoldTimeMeansNoTimers) {
  SessionConfig c = local_config();
  c.hold_time_s = 0;
  Driver d(c);
  d.establish();
  EXPECT_EQ(d.s.negotiated()->hold_time_s, 0);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
}

TEST(SessionEstablished, SessionResetUpdateErrorSendsNotification) {
  Driver d;
  d.establish();
  // Withdrawn Routes Length 200 overruns the message: 3/1.
  d.bytes(kOut, update_bytes({0x00, 200, 0x00, 0x00}));
  expect_reset(d, ec::kUpdateMessage, wb::subcode::kMalformedAttributeList);
  EXPECT_TRUE(outputs_of<UpdateReceived>(d.last).empty());
  EXPECT_EQ(outputs_of<SessionDown>(d.last).size(), 1u);
}

TEST(SessionEstablished, TreatAsWithdrawErrorReachesTheSpeaker) {
  Driver d;
  d.establish();
  // ORIGIN value 7 is invalid: RFC 7606 treat-as-withdraw, no reset.
  Bytes b = simple_update_bytes();
  b[19 + 4 + 3] = 7;
  auto& outs = d.bytes(kOut, b);
  auto u = outputs_of<UpdateReceived>(outs);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].update.worst, wb::Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionEstablished, OpenIsFsmError) {
  Driver d;
  d.establish();
  d.bytes(kOut, open_bytes(peer_open()));
  expect_reset(d, ec::kFsm, fsm_error::kUnexpectedInEstablished, {1});
}

TEST(SessionEstablished, NotificationGoesDownWithoutReply) {
  Driver d;
  d.establish();
  auto& outs = d.bytes(kOut, notification_bytes(ec::kCease, 2));
  EXPECT_FALSE(notification_on(outs, kOut).has_value());
  auto down = outputs_of<SessionDown>(outs);
  ASSERT_EQ(down.size(), 1u);
  ASSERT_TRUE(down[0].received.has_value());
  EXPECT_EQ(down[0].received->subcode, 2);
  EXPECT_EQ(d.s.state(), SessionState::idle);
  EXPECT_EQ(d.s.negotiated(), nullptr);
  // AutomaticStart after idle_hold_time.
  EXPECT_EQ(outputs_of<OpenConnection>(d.fire()).size(), 1u);
  EXPECT_EQ(d.s.state(), SessionState::connect);
}

TEST(SessionEstablished, TcpFailureGoesDown) {
  Driver d;
  d.establish();
  d.s.on_closed(kOut, d.now);
  auto& outs = d.take();
  EXPECT_EQ(outputs_of<SessionDown>(outs).size(), 1u);
  EXPECT_FALSE(closed(outs, kOut));  // the host already knows
  EXPECT_EQ(d.s.state(), SessionState::idle);
}

TEST(SessionEstablished, ManualStopSendsCeaseAndGoesDown) {
  Driver d;
  d.establish();
  d.s.stop(d.now);
  auto& outs = d.take();
  auto n = notification_on(outs, kOut);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->code, ec::kCease);
  auto down = outputs_of<SessionDown>(outs);
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].sent, n);
  EXPECT_EQ(d.s.next_deadline(), Time::max());
}

TEST(SessionEstablished, RouteRefreshForNegotiatedFamilyOnly) {
  Driver d;
  d.establish();
  auto& outs = d.bytes(kOut, encode(wb::RouteRefresh{kV4, 0}));
  auto rr = outputs_of<RouteRefreshReceived>(outs);
  ASSERT_EQ(rr.size(), 1u);
  EXPECT_EQ(rr[0].family, kV4);
  // IPv6 was not negotiated: ignored (RFC 2918 section 4).
  EXPECT_TRUE(d.bytes(kOut, encode(wb::RouteRefresh{kV6, 0})).empty());
  EXPECT_EQ(d.s.state(), SessionState::established);
}

TEST(SessionCounters, CountMessagesByType) {
  Driver d;
  d.establish();
  d.bytes(kOut, simple_update_bytes());
  const SessionCounters& c = d.s.counters();
  EXPECT_EQ(c.messages_out[1], 1u);  // OPEN
  EXPECT_EQ(c.messages_out[4], 1u);  // KEEPALIVE
  EXPECT_EQ(c.messages_in[1], 1u);
  EXPECT_EQ(c.messages_in[4], 1u);
  EXPECT_EQ(c.messages_in[2], 1u);
}

}  // namespace
}  // namespace arfabric::proto::bgp
