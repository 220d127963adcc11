#include <gtest/gtest.h>

#include "proto/arn/arn_engine.h"
#include "proto/arn/arn_fixtures.h"

namespace arfabric::proto::arn {
namespace {

using namespace testing;
using wire::arn::ArnType;

Bytes udp_message(ArnType type, std::uint8_t metric, std::uint32_t id,
                  wire::Ipv4Address dst) {
  wire::arn::ArnMessage m;
  m.type = type;
  m.metric = metric;
  m.path_id = id;
  wire::arn::FiveTuple f;
  f.mask = wire::arn::kMaskDestination;
  std::copy(dst.begin(), dst.end(), f.destination.begin());
  m.flow = f;
  ByteWriter w;
  EXPECT_TRUE(
      wire::arn::serialize_ipv4_udp(m, {10, 255, 0, 1}, kLeaf1Addr, {}, w));
  return w.take();
}

const std::uint32_t kId = path_id(101, 1);

TEST(Receiver, RevokedByTimeoutAndRefreshedByRepeats) {
  ArnConfig c = leaf1_config();
  c.hold_time = us(500);
  ArnEngine leaf1 = make(c);
  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  leaf1.on_message(0, det, us(0));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  EXPECT_EQ(leaf1.next_deadline(), us(500));
  leaf1.on_message(0, det, us(400));  // a repeat: refresh, no record
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(leaf1.next_deadline(), us(900));
  leaf1.on_timer(us(600));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  leaf1.on_timer(us(900));
  const Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  EXPECT_EQ(out.vetoes[0], (VetoChange{0, kLeaf2, VetoSource::arn, false}));
  EXPECT_EQ(leaf1.counters().timed_out, 1u);
  EXPECT_EQ(leaf1.next_deadline(), Time::max());
}

TEST(Receiver, EliminationMustMatchPathIdAndDestination) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_message(ArnType::congestion_detected, 130, kId, kLeaf2Addr),
      us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.congestion.size(), 1u);
  EXPECT_EQ(out.congestion[0].level, 2);  // 130 / 64 = 2
  // Another reporter's, or another destination's elimination: no effect.
  leaf1.on_message(0,
                   udp_message(ArnType::congestion_eliminated, 0,
                               path_id(102, 1), kLeaf2Addr),
                   us(1));
  leaf1.on_message(
      0, udp_message(ArnType::congestion_eliminated, 0, kId, {10, 0, 9, 9}),
      us(1));
  EXPECT_TRUE(leaf1.drain().congestion.empty());
  EXPECT_EQ(leaf1.counters().stale_elimination, 2u);
  // A worse level updates the record; the right elimination revokes.
  leaf1.on_message(
      0, udp_message(ArnType::congestion_detected, 200, kId, kLeaf2Addr),
      us(2));
  leaf1.on_message(
      0, udp_message(ArnType::congestion_eliminated, 0, kId, kLeaf2Addr),
      us(3));
  out = leaf1.drain();
  ASSERT_EQ(out.congestion.size(), 2u);
  EXPECT_EQ(out.congestion[0],
            (CongestionChange{0, kLeaf2, VetoSource::arn, 3}));
  EXPECT_EQ(out.congestion[1],
            (CongestionChange{0, kLeaf2, VetoSource::arn, 0}));
}

TEST(Receiver, PrefixLookupIsLongestMatch) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, {10, 0, 7, 7}),
      us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  EXPECT_EQ(out.vetoes[0].destination, 999u);  // only the /16 matches
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, {192, 0, 2, 1}),
      us(0));
  EXPECT_EQ(leaf1.counters().unknown_destination, 1u);
}

TEST(Receiver, IgnoresOwnMalformedAndIncompleteMessages) {
  ArnEngine leaf1 = make(leaf1_config());
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, path_id(1, 0), kLeaf2Addr),
      us(0));  // Path ID of leaf1 itself: looped back
  Bytes bad = udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  bad[28] = 9;  // ARN type 9
  leaf1.on_message(0, bad, us(0));
  wire::arn::ArnMessage no_id;
  no_id.type = ArnType::failure_detected;
  ByteWriter w;
  ASSERT_TRUE(
      wire::arn::serialize_ipv4_udp(no_id, {1, 1, 1, 1}, {2, 2, 2, 2}, {}, w));
  leaf1.on_message(0, w.data(), us(0));
  EXPECT_TRUE(leaf1.drain().vetoes.empty());
  EXPECT_EQ(leaf1.counters().ignored, 2u);
  EXPECT_EQ(leaf1.counters().malformed, 1u);
  EXPECT_EQ(leaf1.counters().received, 3u);
}

// leaf1 has a single uplink toward leaf2 (through spine1): it cannot
// reroute, so it propagates the ARN unchanged to its own target (a host
// agent at port 2), whose engine vetoes its path through leaf1.
TEST(Receiver, PropagatesWhenItCannotReroute) {
  ArnConfig c = leaf1_config();
  c.targets = {{.port = 2, .address = {10, 0, 1, 100}}};
  ArnEngine leaf1 = make(c);
  const PortId only[] = {0};
  leaf1.set_next_hops(kLeaf2, only);
  ArnConfig h;
  h.node_id = 7;
  h.port_count = 1;
  h.destinations = c.destinations;
  ArnEngine host = make(h);

  const Bytes det =
      udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr);
  leaf1.on_message(0, det, us(0));
  Outputs out = leaf1.drain();
  ASSERT_EQ(out.vetoes.size(), 1u);
  ASSERT_EQ(out.transmits.size(), 1u);
  EXPECT_EQ(out.transmits[0].port, 2);
  const auto fwd = parse_udp(out.transmits[0]);
  EXPECT_EQ(fwd.path_id, kId);  // the reporter's identifier is kept
  EXPECT_EQ(fwd.type, ArnType::failure_detected);
  host.on_message(0, out.transmits[0].bytes, us(1));
  EXPECT_EQ(host.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, true}}));

  // A copy arriving sooner than repeat_interval is not re-sent again.
  leaf1.on_message(0, det, us(10));
  EXPECT_TRUE(leaf1.drain().transmits.empty());
  leaf1.on_message(0, det, us(100));
  EXPECT_EQ(leaf1.drain().transmits.size(), 1u);

  // The elimination follows the same way.
  leaf1.on_message(
      0, udp_message(ArnType::failure_eliminated, 0, kId, kLeaf2Addr), us(200));
  out = leaf1.drain();
  ASSERT_EQ(out.transmits.size(), 1u);
  host.on_message(0, out.transmits[0].bytes, us(201));
  EXPECT_EQ(host.drain().vetoes,
            (std::vector<VetoChange>{{0, kLeaf2, VetoSource::arn, false}}));
  EXPECT_EQ(leaf1.counters().propagated, 3u);
}

TEST(Receiver, TableFullIsCounted) {
  ArnConfig c = leaf1_config();
  c.max_entries = 1;
  ArnEngine leaf1 = make(c);
  leaf1.on_message(
      0, udp_message(ArnType::failure_detected, 255, kId, kLeaf2Addr), us(0));
  leaf1.on_message(
      0,
      udp_message(ArnType::failure_detected, 255, path_id(102, 1), kLeaf2Addr),
      us(0));
  EXPECT_EQ(leaf1.drain().vetoes.size(), 1u);
  EXPECT_EQ(leaf1.counters().table_full, 1u);
}

}  // namespace
}  // namespace arfabric::proto::arn
