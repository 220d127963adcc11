// Byte-stream handling (messages split or coalesced arbitrarily, RFC 4271
// section 4.1 lengths) and two Sessions wired back to back.
#include <gtest/gtest.h>

#include "proto/bgp/session.h"
#include "proto/bgp/session_test_util.h"

namespace arfabric::proto::bgp {
namespace {

using namespace stest;  // NOLINT

constexpr ConnectionId kOut = 1;

TEST(SessionStream, TwoMessageSegmentSplitAtEveryOffset) {
  Bytes segment = open_bytes(peer_open());
  const Bytes ka = keepalive_bytes();
  segment.insert(segment.end(), ka.begin(), ka.end());
  for (std::size_t cut = 0; cut <= segment.size(); ++cut) {
    Driver d;
    d.start();
    d.connected(kOut, Direction::outgoing);
    d.bytes(kOut, Bytes(segment.begin(), segment.begin() + cut));
    auto& outs = d.bytes(kOut, Bytes(segment.begin() + cut, segment.end()));
    (void)outs;
    EXPECT_EQ(d.s.state(), SessionState::established) << "cut " << cut;
    EXPECT_EQ(d.s.counters().messages_in[1], 1u) << "cut " << cut;
    EXPECT_EQ(d.s.counters().messages_in[4], 1u) << "cut " << cut;
  }
}

TEST(SessionStream, ByteByByteAndCoalescedUpdates) {
  Driver d;
  d.establish();
  Bytes two = simple_update_bytes();
  const Bytes u = simple_update_bytes();
  two.insert(two.end(), u.begin(), u.end());
  std::size_t updates = 0;
  for (std::uint8_t b : two) {
    updates += outputs_of<UpdateReceived>(d.bytes(kOut, Bytes{b})).size();
  }
  EXPECT_EQ(updates, 2u);
  EXPECT_EQ(outputs_of<UpdateReceived>(d.bytes(kOut, two)).size(), 2u);
}

// An UPDATE of 5,000 bytes: 1,245 prefixes /24 (4 bytes each).
Bytes big_update() {
  Bytes body = {0x00, 0x00, 0x00, 0x14, 0x40, 0x01, 0x01, 0x00,
                0x40, 0x02, 0x06, 0x02, 0x01, 0x00, 0x00, 0xfd,
                0xea, 0x40, 0x03, 0x04, 10,   0,    0,    2};
  for (int i = 0; i < 1244; ++i) {
    body.insert(body.end(), {24, 10, static_cast<std::uint8_t>(i >> 8),
                             static_cast<std::uint8_t>(i)});
  }
  return update_bytes(body);
}

TEST(SessionStream, MessageOverMaximumIsHeaderError) {
  Driver d;
  d.establish();
  const Bytes b = big_update();
  ASSERT_GT(b.size(), 4096u);
  d.bytes(kOut, b);
  auto n = notification_on(d.last, kOut);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->code, wb::error_code::kMessageHeader);
  EXPECT_EQ(n->subcode, wb::subcode::kBadMessageLength);
  EXPECT_EQ(d.s.state(), SessionState::idle);
}

TEST(SessionStream, ExtendedMessageAllowsLongUpdates) {
  SessionConfig c = local_config();
  c.extended_message = true;
  SessionConfig pc = peer_config();
  pc.extended_message = true;
  Driver d(c);
  d.establish(peer_open(pc));
  EXPECT_TRUE(d.s.negotiated()->receive.extended_message);
  auto& outs = d.bytes(kOut, big_update());
  auto u = outputs_of<UpdateReceived>(outs);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].update.update.nlri.size(), 1244u);
}

// ---- Two sessions back to back ----

void expect_agree(Session& a, Session& b) {
  ASSERT_EQ(a.state(), SessionState::established);
  ASSERT_EQ(b.state(), SessionState::established);
  const Negotiated& na = *a.negotiated();
  const Negotiated& nb = *b.negotiated();
  EXPECT_EQ(na.remote_as, b.config().local_as);
  EXPECT_EQ(nb.remote_as, a.config().local_as);
  EXPECT_EQ(na.remote_id, b.config().router_id);
  EXPECT_EQ(nb.remote_id, a.config().router_id);
  EXPECT_EQ(na.hold_time_s, nb.hold_time_s);
  EXPECT_EQ(na.families, nb.families);
  EXPECT_EQ(na.route_refresh, nb.route_refresh);
  EXPECT_EQ(na.receive.four_octet_as, nb.send.four_octet_as);
  EXPECT_EQ(na.receive.extended_message, nb.receive.extended_message);
  EXPECT_EQ(na.send.add_path, nb.receive.add_path);
  EXPECT_EQ(na.receive.add_path, nb.send.add_path);
}

TEST(SessionPair, BothActiveCollideAndEstablishOnce) {
  Pair p(local_config(), peer_config());
  p.start();
  expect_agree(p.a(), p.b());
  // The surviving connection is the one initiated by the higher
  // Identifier (B, 10.0.0.2): B's connections have even ids.
  EXPECT_EQ(outputs_of<SessionUp>(p.events_a).size(), 1u);
  EXPECT_EQ(outputs_of<SessionUp>(p.events_b).size(), 1u);
  EXPECT_EQ(p.a().counters().collisions + p.b().counters().collisions, 2u);
  // Ten minutes of keepalives keep it up.
  while (p.now < sec(600)) p.step();
  EXPECT_EQ(p.a().state(), SessionState::established);
  EXPECT_EQ(p.b().state(), SessionState::established);
  EXPECT_GE(p.a().counters().messages_in[4], 20u);  // every 30 s
}

TEST(SessionPair, PassivePeerAndNegotiatedOptions) {
  SessionConfig a = local_config();
  a.families = {kV4, kV6};
  a.hold_time_s = 30;
  a.extended_message = true;
  a.add_path = {{kV4, 2}, {kV6, 3}};
  a.local_as = 4200000001;
  SessionConfig b = peer_config();
  b.passive = true;
  b.families = {kV6, kV4};
  b.remote_as = 4200000001;
  b.extended_message = true;
  b.add_path = {{kV4, 1}, {kV6, 1}};
  Pair p(a, b);
  p.start();
  expect_agree(p.a(), p.b());
  const Negotiated& na = *p.a().negotiated();
  EXPECT_EQ(na.hold_time_s, 30);
  EXPECT_EQ(na.families, (std::vector<wb::AfiSafi>{kV4, kV6}));  // sorted
  EXPECT_TRUE(na.receive.extended_message);
  // A sends ADD-PATH for both (B receives both); B sends none (it offered
  // only receive), so A receives none.
  EXPECT_EQ(na.send.add_path, (std::vector<wb::AfiSafi>{kV4, kV6}));
  EXPECT_TRUE(na.receive.add_path.empty());
  EXPECT_EQ(p.b().negotiated()->remote_as, 4200000001u);
  EXPECT_EQ(p.b().negotiated()->remote_open.my_as, wb::kAsTrans);
}

TEST(SessionPair, StopOnOneSideTakesTheOtherDownAndItRecovers) {
  Pair p(local_config(), peer_config());
  p.start();
  ASSERT_EQ(p.a().state(), SessionState::established);
  p.a().stop(p.now);
  p.pump();
  auto down = outputs_of<SessionDown>(p.events_b);
  ASSERT_EQ(down.size(), 1u);
  ASSERT_TRUE(down[0].received.has_value());
  EXPECT_EQ(down[0].received->code, wb::error_code::kCease);
  EXPECT_EQ(p.a().state(), SessionState::idle);
  // B retries (A refuses while stopped); after A restarts they meet again.
  p.step();
  EXPECT_NE(p.b().state(), SessionState::established);
  p.a().start(p.now);
  p.pump();
  for (int i = 0; i < 10 && p.a().state() != SessionState::established; ++i)
    p.step();
  expect_agree(p.a(), p.b());
}

}  // namespace
}  // namespace arfabric::proto::bgp
