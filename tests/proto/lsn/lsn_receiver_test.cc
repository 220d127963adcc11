#include "proto/lsn/lsn_receiver.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "proto/lsn/lsn_test_support.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {
namespace {

using wire::lsn::MsgType;

Receiver make(const Config& c) {
  auto r = Receiver::create(c);
  EXPECT_TRUE(r) << r.error().to_string();
  return std::move(*r);
}

// A frame from a spine whose bitmap for `range` has every bit set except
// `cleared`.
Bytes frame(MsgType type, std::uint8_t range,
            std::initializer_list<std::size_t> cleared,
            wire::lsn::CodecOptions opt = {}) {
  wire::lsn::LsnFrame f;
  f.source = {0x02, 0, 0, 0, 0x0a, 0x01};
  f.msg_type = type;
  f.dev_range = range;
  f.bitmap.fill(true);
  for (std::size_t bit : cleared) f.bitmap.set(bit, false);
  ByteWriter w;
  EXPECT_TRUE(wire::lsn::serialize(f, w, opt));
  return w.take();
}

TEST(LsnReceiver, Section4LeafWith256SpinesVetoesOnlySpineAToLeaf5) {
  // L_Ingress: ports 1..256 face spines SA..SIV, 8 host ports.
  Receiver leaf = make(testing::leaf_config(256, 256, 8));
  // Every spine's steady frame: nothing changes against the initial
  // all-reachable state.
  for (PortId p = 1; p <= 256; ++p)
    EXPECT_EQ(leaf.on_frame(p, frame(MsgType::reachable, 0, {}), Time()), 0u);
  // Figure 3 arrives from Spine_A (port 1).
  EXPECT_EQ(leaf.on_frame(1, frame(MsgType::reachable, 0, {5}), us(1)), 1u);
  ASSERT_EQ(leaf.veto_changes().size(), 1u);
  EXPECT_EQ(leaf.veto_changes()[0],
            (VetoChange{1, 5, VetoSource::lsn, /*vetoed=*/true}));
  EXPECT_TRUE(leaf.congestion_changes().empty());
  EXPECT_FALSE(leaf.reachable(1, 5));
  EXPECT_TRUE(leaf.reachable(2, 5));
  EXPECT_TRUE(leaf.reachable(1, 4));
  EXPECT_EQ(leaf.counters().bits_changed, 1u);
  EXPECT_EQ(leaf.counters().applied, 257u);
  leaf.clear_outputs();

  // Periodic repeats of the same bitmap change nothing.
  EXPECT_EQ(leaf.on_frame(1, frame(MsgType::reachable, 0, {5}), us(100)), 0u);
  EXPECT_TRUE(leaf.veto_changes().empty());

  // Recovery: Spine_A's bit 5 is 1 again; the receiver reports it and the
  // FIB decides (it latches until routing re-installs the path).
  EXPECT_EQ(leaf.on_frame(1, frame(MsgType::reachable, 0, {}), us(200)), 1u);
  ASSERT_EQ(leaf.veto_changes().size(), 1u);
  EXPECT_EQ(leaf.veto_changes()[0], (VetoChange{1, 5, VetoSource::lsn, false}));
  EXPECT_TRUE(leaf.reachable(1, 5));
}

TEST(LsnReceiver, UntrustedPortDropsBeforeParsing) {
  Receiver leaf = make(testing::leaf_config(4, 256, 2));
  EXPECT_EQ(leaf.on_frame(1001, frame(MsgType::reachable, 0, {5}), Time()), 0u);
  // Garbage on a host port is not even recognised as malformed.
  EXPECT_EQ(leaf.on_frame(1002, Bytes{1, 2, 3}, Time()), 0u);
  EXPECT_EQ(leaf.counters().dropped_untrusted, 2u);
  EXPECT_EQ(leaf.counters().malformed(), 0u);
  EXPECT_EQ(leaf.counters().applied, 0u);
  EXPECT_EQ(leaf.counters().received, 2u);
  EXPECT_TRUE(leaf.veto_changes().empty());
  EXPECT_TRUE(leaf.reachable(1001, 5));
  // An unconfigured port is dropped too, counted apart.
  EXPECT_EQ(leaf.on_frame(999, frame(MsgType::reachable, 0, {5}), Time()), 0u);
  EXPECT_EQ(leaf.counters().dropped_unknown_port, 1u);
  EXPECT_TRUE(leaf.veto_changes().empty());
}

TEST(LsnReceiver, MalformedFramesAreCountedByReason) {
  Config c = testing::leaf_config(2, 256);
  Receiver leaf = make(c);
  const Bytes good = frame(MsgType::reachable, 0, {5});
  EXPECT_EQ(leaf.on_frame(1, ByteSpan(good).first(20), Time()), 0u);
  EXPECT_EQ(leaf.on_frame(1, ByteSpan(good).first(3), Time()), 0u);
  Bytes bad = good;
  bad[15] = 0x01;  // OpCode 0x5a01
  EXPECT_EQ(leaf.on_frame(1, bad, Time()), 0u);
  bad = good;
  bad[13] = 0x00;  // EtherType 0x8800
  EXPECT_EQ(leaf.on_frame(1, bad, Time()), 0u);
  bad = good;
  bad[16] = 0x30;  // Header Type 3
  EXPECT_EQ(leaf.on_frame(1, bad, Time()), 0u);
  const ReceiverCounters& k = leaf.counters();
  EXPECT_EQ(k.malformed_truncated, 2u);
  EXPECT_EQ(k.malformed_code_point, 2u);
  EXPECT_EQ(k.malformed_header_type, 1u);
  EXPECT_EQ(k.malformed(), 5u);
  EXPECT_EQ(k.applied, 0u);
  EXPECT_TRUE(leaf.veto_changes().empty());

  c.codec.fcs = true;
  Receiver fcs_leaf = make(c);
  Bytes with_fcs = frame(MsgType::reachable, 0, {5}, c.codec);
  with_fcs[30] ^= 0x10;
  EXPECT_EQ(fcs_leaf.on_frame(1, with_fcs, Time()), 0u);
  EXPECT_EQ(fcs_leaf.counters().malformed_fcs, 1u);
  with_fcs[30] ^= 0x10;
  EXPECT_EQ(fcs_leaf.on_frame(1, with_fcs, Time()), 1u);
}

TEST(LsnReceiver, ReservedBitsAreIgnored) {
  Receiver leaf = make(testing::leaf_config(2, 256));
  Bytes f = frame(MsgType::reachable, 0, {9});
  f[16] |= 0x08 | 0x01;  // R and the high Rsv bit
  f[17] |= 0xc0;         // low Rsv bits
  EXPECT_EQ(leaf.on_frame(2, f, Time()), 1u);
  EXPECT_EQ(leaf.veto_changes()[0], (VetoChange{2, 9, VetoSource::lsn, true}));
}

TEST(LsnReceiver, DevRangesMapToGlobalIdsAndAbsentIdsAreSilent) {
  // 1,000 leaves: ranges 0..3; IDs 1000..1023 do not exist.
  Receiver leaf = make(testing::leaf_config(2, 1000));
  // Range 3 as a spine sends it: bits of 1000..1023 are 0, yet no record.
  std::vector<std::size_t> absent;
  wire::lsn::LsnFrame f;
  f.dev_range = 3;
  f.bitmap.fill(true);
  for (std::size_t b = 232; b < 256; ++b) f.bitmap.set(b, false);
  f.bitmap.set(188, false);  // ID 3*256+188 = 956
  ByteWriter w;
  ASSERT_TRUE(wire::lsn::serialize(f, w));
  EXPECT_EQ(leaf.on_frame(1, w.data(), Time()), 1u);
  EXPECT_EQ(leaf.veto_changes()[0],
            (VetoChange{1, 956, VetoSource::lsn, true}));
  leaf.clear_outputs();
  // Range 2 bit 188 is ID 700.
  EXPECT_EQ(leaf.on_frame(1, frame(MsgType::reachable, 2, {188}), Time()), 1u);
  EXPECT_EQ(leaf.veto_changes()[0],
            (VetoChange{1, 700, VetoSource::lsn, true}));
  EXPECT_FALSE(leaf.reachable(1, 700));
  EXPECT_FALSE(leaf.reachable(1, 956));
  EXPECT_TRUE(leaf.reachable(1, 188));
  // Range 4 does not exist in this fabric.
  EXPECT_EQ(leaf.on_frame(1, frame(MsgType::reachable, 4, {1}), Time()), 0u);
  EXPECT_EQ(leaf.counters().dropped_range, 1u);
}

TEST(LsnReceiver, CongestionLevelIsTheHighestClearedMsgType) {
  Receiver leaf = make(testing::leaf_config(2, 256));
  // Leaf 7 congested at level 1: Msg-type 1 bit 7 is 0.
  EXPECT_EQ(leaf.on_frame(2, frame(MsgType::congestion_level_1, 0, {7}), {}),
            1u);
  EXPECT_EQ(leaf.congestion_changes()[0],
            (CongestionChange{2, 7, VetoSource::lsn, 1}));
  leaf.clear_outputs();
  // Level 3: Msg-types 2 and 3 clear too; level goes 1 -> 2 -> 3.
  leaf.on_frame(2, frame(MsgType::congestion_level_2, 0, {7}), {});
  leaf.on_frame(2, frame(MsgType::congestion_level_3, 0, {7}), {});
  ASSERT_EQ(leaf.congestion_changes().size(), 2u);
  EXPECT_EQ(leaf.congestion_changes()[0].level, 2);
  EXPECT_EQ(leaf.congestion_changes()[1].level, 3);
  EXPECT_EQ(leaf.congestion_level(2, 7), 3);
  EXPECT_TRUE(leaf.veto_changes().empty());
  leaf.clear_outputs();
  // Level 1 clearing while level 3 holds does not change the level.
  EXPECT_EQ(leaf.on_frame(2, frame(MsgType::congestion_level_1, 0, {}), {}),
            0u);
  EXPECT_EQ(leaf.counters().bits_changed, 4u);
  // Draining from the top: 3 -> 2 -> 0.
  leaf.on_frame(2, frame(MsgType::congestion_level_3, 0, {}), {});
  leaf.on_frame(2, frame(MsgType::congestion_level_2, 0, {}), {});
  ASSERT_EQ(leaf.congestion_changes().size(), 2u);
  EXPECT_EQ(leaf.congestion_changes()[0].level, 2);
  EXPECT_EQ(leaf.congestion_changes()[1].level, 0);
  EXPECT_EQ(leaf.congestion_level(1, 7), 0);  // other neighbour untouched
}

TEST(LsnReceiver, ManyChangesInOneFrameInBitOrder) {
  Receiver leaf = make(testing::leaf_config(1, 256));
  EXPECT_EQ(
      leaf.on_frame(1, frame(MsgType::reachable, 0, {255, 0, 63, 64}), Time()),
      4u);
  std::vector<NodeId> ids;
  for (const VetoChange& v : leaf.veto_changes()) ids.push_back(v.destination);
  EXPECT_EQ(ids, (std::vector<NodeId>{0, 63, 64, 255}));
}

// Against a plain model: for any sequence of frames, the records are exactly
// the bits that differ from the previous state of (port, Msg-type).
RC_GTEST_PROP(LsnReceiver, RecordsMatchAReferenceModel, ()) {
  constexpr std::uint32_t kDevices = 600;  // ranges 0..2, last one partial
  Receiver leaf = make(testing::leaf_config(3, kDevices));
  std::vector<bool> model(3 * 4 * 768, true);
  auto at = [](std::uint32_t port, std::uint32_t type, std::uint32_t id) {
    return ((port - 1) * 4 + type) * 768 + id;
  };
  const int frames = *rc::gen::inRange(1, 30);
  for (int i = 0; i < frames; ++i) {
    const auto port = static_cast<PortId>(*rc::gen::inRange(1, 4));
    const auto type = static_cast<std::uint32_t>(*rc::gen::inRange(0, 4));
    const auto range = static_cast<std::uint8_t>(*rc::gen::inRange(0, 3));
    wire::lsn::LsnFrame f;
    f.msg_type = static_cast<MsgType>(type);
    f.dev_range = range;
    f.bitmap.fill(true);
    const int clears = *rc::gen::inRange(0, 6);
    for (int k = 0; k < clears; ++k)
      f.bitmap.set(*rc::gen::inRange<std::size_t>(0, 256), false);
    ByteWriter w;
    RC_ASSERT(wire::lsn::serialize(f, w).has_value());

    std::vector<VetoChange> want_veto;
    std::vector<CongestionChange> want_cong;
    for (std::uint32_t b = 0; b < 256; ++b) {
      const NodeId id = range * 256u + b;
      if (id >= kDevices) continue;
      const bool now = f.bitmap.test(b);
      if (model[at(port, type, id)] == now) continue;
      auto level = [&] {
        for (std::uint8_t n = 3; n >= 1; --n)
          if (!model[at(port, n, id)]) return n;
        return std::uint8_t{0};
      };
      const std::uint8_t before = level();
      model[at(port, type, id)] = now;
      if (type == 0) {
        want_veto.push_back(VetoChange{port, id, VetoSource::lsn, !now});
      } else if (level() != before) {
        want_cong.push_back(
            CongestionChange{port, id, VetoSource::lsn, level()});
      }
    }
    leaf.clear_outputs();
    leaf.on_frame(port, w.data(), Time());
    RC_ASSERT(leaf.veto_changes() == want_veto);
    RC_ASSERT(leaf.congestion_changes() == want_cong);
  }
}

// The receiver's fast header check accepts exactly what wire::lsn::parse
// accepts and reads the same fields: random frames, random byte damage.
RC_GTEST_PROP(LsnReceiver, FastPathAgreesWithTheCodec, ()) {
  Receiver fast = make(testing::leaf_config(1, 16384));
  wire::lsn::LsnFrame f;
  f.msg_type = static_cast<MsgType>(*rc::gen::inRange(0, 4));
  f.dev_range = static_cast<std::uint8_t>(*rc::gen::inRange(0, 64));
  f.bitmap.bytes = *rc::gen::container<std::array<std::uint8_t, 32>>(
      rc::gen::arbitrary<std::uint8_t>());
  ByteWriter w;
  RC_ASSERT(wire::lsn::serialize(f, w).has_value());
  Bytes bytes = w.take();
  const int damage = *rc::gen::inRange(0, 3);
  for (int i = 0; i < damage; ++i) {
    bytes[*rc::gen::inRange<std::size_t>(0, bytes.size())] =
        *rc::gen::arbitrary<std::uint8_t>();
  }
  bytes.resize(*rc::gen::inRange<std::size_t>(0, bytes.size() + 1));
  const auto parsed = wire::lsn::parse(bytes);
  fast.on_frame(1, bytes, Time());
  RC_ASSERT(fast.counters().applied == (parsed ? 1u : 0u));
  RC_ASSERT(fast.counters().malformed() == (parsed ? 0u : 1u));
  if (!parsed) return;
  for (std::uint32_t b = 0; b < 256; ++b) {
    const NodeId id = parsed->device_id(b);
    RC_ASSERT(
        fast.reachable(1, id) ==
        (parsed->msg_type != MsgType::reachable || parsed->bitmap.test(b)));
  }
  bool clear[4] = {true, true, true, true};
  const auto t = static_cast<std::size_t>(parsed->msg_type);
  if (t > 0) {
    for (std::uint32_t b = 0; b < 256; ++b) {
      clear[t] = parsed->bitmap.test(b);
      const std::uint8_t want = clear[t] ? 0 : static_cast<std::uint8_t>(t);
      RC_ASSERT(fast.congestion_level(1, parsed->device_id(b)) == want);
    }
  }
}

}  // namespace
}  // namespace arfabric::proto::lsn
