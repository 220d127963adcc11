#include "proto/lsn/lsn_originator.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "proto/lsn/congestion_level.h"
#include "proto/lsn/lsn_test_support.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {
namespace {

using wire::lsn::MsgType;

// The codec's golden Figure 3 frame (tests/wire/lsn/lsn_frame_test.cc), whose
// SA 02:00:00:00:0a:01 is also the MAC spine_config() gives Spine_A.
const char* kFigure3Hex =
    "0180c2000001"   // DA
    "02000000 0a01"  // SA: Spine_A
    "8808"           // EtherType TBD1
    "5aa5"           // OpCode TBD2
    "c0"             // Type=12 R=0 Msg-type=0 (reachability)
    "00"             // Dev-Range 0
    // Bits 0..7 = 1 1 1 1 1 0 1 1: Leaf_5 unreachable.
    "fb ffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff"
    "00000000000000000000";

Originator make(const Config& c) {
  auto o = Originator::create(c);
  EXPECT_TRUE(o) << o.error().to_string();
  return std::move(*o);
}

wire::lsn::LsnFrame decode(ByteSpan frame, wire::lsn::CodecOptions opt = {}) {
  auto f = wire::lsn::parse(frame, opt);
  EXPECT_TRUE(f) << f.error().to_string();
  return *f;
}

TEST(LsnOriginator, Figure3TriggeredFrameToEveryTrustedPort) {
  Originator spine = make(testing::spine_config(256));
  ASSERT_TRUE(spine.pending().empty());  // nothing is announced at start
  // Port 6 faces Leaf_5.
  auto r = spine.set_port_state(6, false, us(3));
  ASSERT_TRUE(r);
  EXPECT_TRUE(*r);
  // Bit 5 changes in Msg-type 0 and, since "reachable and not congested"
  // no longer holds, in Msg-types 1..3: four frames, each sent once.
  ASSERT_EQ(spine.pending().size(), 4u);
  const PendingFrame& reach = spine.pending()[0];
  EXPECT_EQ(reach.msg_type, MsgType::reachable);
  EXPECT_EQ(reach.dev_range, 0);
  EXPECT_EQ(to_hex(reach.frame), to_hex(*from_hex(kFigure3Hex)));
  for (std::size_t i = 1; i < 4; ++i) {
    const auto f = decode(spine.pending()[i].frame);
    EXPECT_EQ(static_cast<std::size_t>(f.msg_type), i);
    EXPECT_FALSE(f.bitmap.test(5));
    EXPECT_EQ(f.bitmap.count(), 255u);
  }
  EXPECT_EQ(spine.counters().triggered_frames, 4u);

  std::vector<SendFrame> out;
  spine.drain(out);
  ASSERT_EQ(out.size(), 4u * 256u);  // to all 256 leaves
  EXPECT_EQ(out[0].port, 1);
  EXPECT_EQ(out[255].port, 256);
  EXPECT_EQ(out[5].frame, *from_hex(kFigure3Hex));
  EXPECT_TRUE(spine.pending().empty());

  // The same state again is no event.
  EXPECT_FALSE(*spine.set_port_state(6, false, us(4)));
  EXPECT_TRUE(spine.pending().empty());
}

TEST(LsnOriginator, SourceMacIsTheNodeMac) {
  Originator spine =
      make(testing::spine_config(8, {0x02, 0x11, 0x22, 0x33, 0x44, 0x55}));
  ASSERT_TRUE(*spine.set_port_state(1, false, Time()));
  const auto f = decode(spine.pending()[0].frame);
  EXPECT_EQ(f.source, (wire::MacAddress{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}));
  EXPECT_EQ(f.destination, wire::lsn::kDestination);
  // 8 leaves: bits 0..7 describe them, bit 0 (port 1) is down; bits of
  // IDs beyond the fabric are 0 ("not reachable through this device").
  EXPECT_EQ(f.bitmap.bytes[0], 0x7f);
  EXPECT_EQ(f.bitmap.count(), 7u);
}

TEST(LsnOriginator, PeriodicResendOfTheSameBytes) {
  Originator spine = make(testing::spine_config(256));
  EXPECT_EQ(spine.next_deadline(), Time());  // due at once
  spine.on_timer(us(0));
  // No congestion anywhere: only Msg-type 0 is refreshed.
  ASSERT_EQ(spine.pending().size(), 1u);
  const Bytes first(spine.pending()[0].frame.begin(),
                    spine.pending()[0].frame.end());
  EXPECT_EQ(decode(first).bitmap.count(), 256u);
  spine.clear_pending();
  EXPECT_EQ(spine.next_deadline(), us(100));
  spine.on_timer(us(99));
  EXPECT_TRUE(spine.pending().empty());
  spine.on_timer(us(100));
  ASSERT_EQ(spine.pending().size(), 1u);
  EXPECT_EQ(
      Bytes(spine.pending()[0].frame.begin(), spine.pending()[0].frame.end()),
      first);
  EXPECT_EQ(spine.next_deadline(), us(200));
  spine.clear_pending();
  // A host that wakes up late gets one refresh, not a burst, and the next
  // deadline is a full period later.
  spine.on_timer(us(1000));
  EXPECT_EQ(spine.pending().size(), 1u);
  EXPECT_EQ(spine.next_deadline(), us(1100));
  EXPECT_EQ(spine.counters().periodic_frames, 3u);
}

TEST(LsnOriginator, TriggeredAndPeriodicCoalesce) {
  Originator spine = make(testing::spine_config(256));
  ASSERT_TRUE(*spine.set_port_state(6, false, Time()));
  spine.on_timer(Time());
  // Msg-type 0 is already pending: it is sent once, with the new state.
  std::size_t reach = 0;
  for (const PendingFrame& f : spine.pending())
    reach += f.msg_type == MsgType::reachable;
  EXPECT_EQ(reach, 1u);
  // Msg-types 1..3 now differ from Msg-type 0? No: bit 5 is 0 in all four,
  // so no congestion is active; they were queued by the trigger only.
  EXPECT_EQ(spine.pending().size(), 4u);
}

TEST(LsnOriginator, ThousandLeavesSpanFourDevRanges) {
  Originator spine = make(testing::spine_config(1000));
  EXPECT_EQ(spine.ranges(), 4u);
  spine.on_timer(Time());
  ASSERT_EQ(spine.pending().size(), 4u);
  for (std::uint8_t r = 0; r < 4; ++r) {
    const auto f = decode(spine.pending()[r].frame);
    EXPECT_EQ(f.dev_range, r);
    EXPECT_EQ(f.msg_type, MsgType::reachable);
    // Range 3 holds IDs 768..999 (232 leaves); 1000..1023 do not exist.
    EXPECT_EQ(f.bitmap.count(), r < 3 ? 256u : 232u) << int{r};
  }
  spine.clear_pending();
  // Leaf 700 = range 2, bit 188, behind port 701.
  ASSERT_TRUE(*spine.set_port_state(701, false, Time()));
  const auto f = decode(spine.pending()[0].frame);
  EXPECT_EQ(f.dev_range, 2);
  EXPECT_FALSE(f.bitmap.test(188));
  EXPECT_EQ(f.bitmap.count(), 255u);
}

TEST(LsnOriginator, CongestionLevelsWithHysteresis) {
  Originator spine = make(testing::spine_config(16));
  spine.on_timer(Time());
  spine.clear_pending();
  // Port 8 faces leaf 7. 70 KiB >= rise[0] = 64 KiB: level 1, so only the
  // Msg-type 1 bit ("not congested at level 1") of leaf 7 clears.
  ASSERT_TRUE(*spine.set_queue_depth(8, 70 * 1024, us(1)));
  EXPECT_EQ(spine.congestion_level(8), 1);
  ASSERT_EQ(spine.pending().size(), 1u);
  auto f = decode(spine.pending()[0].frame);
  EXPECT_EQ(f.msg_type, MsgType::congestion_level_1);
  EXPECT_FALSE(f.bitmap.test(7));
  EXPECT_EQ(f.bitmap.count(), 15u);
  spine.clear_pending();

  // Inside the band (32..64 KiB): no change, no frame.
  EXPECT_FALSE(*spine.set_queue_depth(8, 40 * 1024, us(2)));
  EXPECT_TRUE(spine.pending().empty());

  // While level 1 is active the Msg-type 1 frame is refreshed too.
  spine.on_timer(us(100));
  ASSERT_EQ(spine.pending().size(), 2u);
  EXPECT_EQ(spine.pending()[1].msg_type, MsgType::congestion_level_1);
  spine.clear_pending();

  // Level 3 at once: bits clear in Msg-types 2 and 3 (1 already clear).
  ASSERT_TRUE(*spine.set_queue_depth(8, 2 * 1024 * 1024, us(3)));
  ASSERT_EQ(spine.pending().size(), 2u);
  EXPECT_EQ(spine.pending()[0].msg_type, MsgType::congestion_level_2);
  EXPECT_EQ(spine.pending()[1].msg_type, MsgType::congestion_level_3);
  spine.clear_pending();

  // Drain: every level clears; the three frames are triggered at once.
  ASSERT_TRUE(*spine.set_queue_depth(8, 0, us(4)));
  ASSERT_EQ(spine.pending().size(), 3u);
  for (const PendingFrame& p : spine.pending())
    EXPECT_EQ(decode(p.frame).bitmap.count(), 16u);
  spine.clear_pending();

  // Then the cleared frames are repeated for 3 (linger) periods, and after
  // that only Msg-type 0 remains periodic.
  for (int period = 2; period <= 5; ++period) {
    spine.on_timer(us(100) * period);
    EXPECT_EQ(spine.pending().size(), period <= 4 ? 4u : 1u) << period;
    spine.clear_pending();
  }
}

TEST(LsnOriginator, AlwaysSendCongestion) {
  Config c = testing::spine_config(16);
  c.always_send_congestion = true;
  Originator spine = make(c);
  spine.on_timer(Time());
  EXPECT_EQ(spine.pending().size(), 4u);
}

TEST(LsnOriginator, DownPortRemembersItsLevelSilently) {
  Originator spine = make(testing::spine_config(16));
  ASSERT_TRUE(*spine.set_port_state(8, false, Time()));
  spine.clear_pending();
  EXPECT_FALSE(*spine.set_queue_depth(8, 2 * 1024 * 1024, Time()));
  EXPECT_TRUE(spine.pending().empty());
  EXPECT_EQ(spine.congestion_level(8), 3);
  // Up again, but congested: reachable (Msg-type 0 bit 1), and not "not
  // congested" at any level (Msg-types 1..3 stay 0): one frame.
  ASSERT_TRUE(*spine.set_port_state(8, true, Time()));
  ASSERT_EQ(spine.pending().size(), 1u);
  EXPECT_EQ(spine.pending()[0].msg_type, MsgType::reachable);
}

TEST(LsnOriginator, ParallelLinksKeepTheNodeReachable) {
  Config c = testing::spine_config(4);
  c.ports.push_back(PortConfig{9, PortRole::trusted});
  c.attached.push_back(Attachment{2, 9});  // leaf 2 on ports 3 and 9
  Originator spine = make(c);
  EXPECT_FALSE(*spine.set_port_state(3, false, Time()));
  EXPECT_TRUE(spine.pending().empty());
  EXPECT_TRUE(*spine.set_port_state(9, false, Time()));
  EXPECT_FALSE(decode(spine.pending()[0].frame).bitmap.test(2));
}

TEST(LsnOriginator, FramesCarryAValidFcsWhenConfigured) {
  Config c = testing::spine_config(256);
  c.codec.fcs = true;
  Originator spine = make(c);
  ASSERT_TRUE(*spine.set_port_state(6, false, Time()));
  const ByteSpan frame = spine.pending()[0].frame;
  ASSERT_EQ(frame.size(), 64u);
  const auto f = decode(frame, c.codec);  // parse verifies the CRC-32
  EXPECT_FALSE(f.bitmap.test(5));
  EXPECT_EQ(to_hex(frame.first(60)), to_hex(*from_hex(kFigure3Hex)));
}

TEST(LsnOriginator, LeafOriginatesNothing) {
  Originator leaf = make(testing::leaf_config(4, 256, 2));
  EXPECT_FALSE(leaf.originates());
  EXPECT_EQ(leaf.next_deadline(), Time::max());
  EXPECT_FALSE(*leaf.set_port_state(1, false, Time()));
  EXPECT_EQ(leaf.trusted_ports().size(), 4u);  // host ports excluded
}

// A spine of a deeper fabric has only some leaves behind it. It knows
// nothing against the others, so their bits say reachable: a 0 would veto
// every path through it toward them at the receiver. Bits beyond the
// fabric's devices stay 0.
TEST(LsnOriginator, DevicesNotAttachedAreReachable) {
  Config c = testing::spine_config(4);
  c.num_devices = 8;  // leaves 4..7 sit behind other switches
  Originator spine = make(c);
  ASSERT_TRUE(*spine.set_port_state(3, false, Time()));  // leaf 2
  for (std::size_t t = 0; t < 4; ++t) {
    const auto f = decode(spine.frame(static_cast<MsgType>(t), 0));
    for (std::size_t n = 0; n < 8; ++n) {
      EXPECT_EQ(f.bitmap.test(n), n != 2) << "Msg-type " << t << " node " << n;
    }
    EXPECT_EQ(f.bitmap.count(), 7u) << "Msg-type " << t;
  }
  auto r = spine.set_transit_reachable(5, false, Time());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "transit");
}

// With `transit`, the host says which devices its forwarding still
// reaches: a super-spine with nothing attached originates, and a change
// is a triggered frame per Msg-type.
TEST(LsnOriginator, TransitDevicesFollowTheHost) {
  Config c = testing::leaf_config(2, 8);
  c.transit = true;
  Originator super_spine = make(c);
  EXPECT_TRUE(super_spine.originates());
  EXPECT_EQ(super_spine.next_deadline(), Time());
  EXPECT_EQ(decode(super_spine.frame(MsgType::reachable, 0)).bitmap.count(),
            8u);

  auto r = super_spine.set_transit_reachable(3, false, us(1));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(*r);
  ASSERT_EQ(super_spine.pending().size(), 4u);
  for (const PendingFrame& p : super_spine.pending()) {
    const auto f = decode(p.frame);
    EXPECT_FALSE(f.bitmap.test(3));
    EXPECT_EQ(f.bitmap.count(), 7u);
  }
  EXPECT_EQ(super_spine.counters().triggered_frames, 4u);
  super_spine.clear_pending();
  EXPECT_FALSE(*super_spine.set_transit_reachable(3, false, us(2)));
  EXPECT_TRUE(super_spine.pending().empty());
  EXPECT_TRUE(*super_spine.set_transit_reachable(3, true, us(3)));
  EXPECT_TRUE(decode(super_spine.frame(MsgType::reachable, 0)).bitmap.test(3));

  r = super_spine.set_transit_reachable(8, false, us(4));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "node");
  EXPECT_EQ(r.error().to_string(), "node: node 8 is beyond num_devices 8");
}

TEST(LsnOriginator, AnAttachedDeviceIsNotATransitDevice) {
  Config c = testing::spine_config(4);
  c.num_devices = 8;
  c.transit = true;
  Originator spine = make(c);
  auto r = spine.set_transit_reachable(1, false, Time());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "node");
  EXPECT_TRUE(spine.pending().empty());
  EXPECT_TRUE(*spine.set_transit_reachable(6, false, Time()));
  EXPECT_FALSE(decode(spine.frame(MsgType::reachable, 0)).bitmap.test(6));
}

TEST(LsnOriginator, UnknownPortIsAnError) {
  Originator spine = make(testing::spine_config(4));
  auto r = spine.set_port_state(77, false, Time());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "port");
  EXPECT_FALSE(spine.set_queue_depth(77, 0, Time()));
}

TEST(LsnOriginator, InitiallyDownPortIsAnnouncedPeriodicallyNotTriggered) {
  Config c = testing::spine_config(8);
  c.ports[2].initially_up = false;
  Originator spine = make(c);
  EXPECT_TRUE(spine.pending().empty());
  spine.on_timer(Time());
  EXPECT_FALSE(decode(spine.pending()[0].frame).bitmap.test(2));
}

// For any sequence of port and queue events, every pre-built frame holds
// exactly the draft's bits: Msg-type 0 = up, Msg-type N = up and level < N.
RC_GTEST_PROP(LsnOriginator, FramesMatchAReferenceModel, ()) {
  constexpr std::uint32_t kLeaves = 300;  // ranges 0 and 1
  const Config c = testing::spine_config(kLeaves);
  Originator spine = make(c);
  std::vector<bool> up(kLeaves, true);
  std::vector<std::uint8_t> level(kLeaves, 0);
  const int events = *rc::gen::inRange(1, 40);
  for (int i = 0; i < events; ++i) {
    const auto leaf = *rc::gen::inRange<std::uint32_t>(0, kLeaves);
    const auto port = static_cast<PortId>(leaf + 1);
    if (*rc::gen::arbitrary<bool>()) {
      up[leaf] = *rc::gen::arbitrary<bool>();
      RC_ASSERT(spine.set_port_state(port, up[leaf], Time()).has_value());
    } else {
      const auto depth = *rc::gen::inRange<std::uint64_t>(0, 2 << 20);
      level[leaf] = next_congestion_level(c.congestion, level[leaf], depth);
      RC_ASSERT(spine.set_queue_depth(port, depth, Time()).has_value());
    }
    RC_ASSERT(spine.congestion_level(port) == level[leaf]);
  }
  for (std::uint32_t t = 0; t < 4; ++t) {
    for (std::uint8_t r = 0; r < 2; ++r) {
      auto f = wire::lsn::parse(spine.frame(static_cast<MsgType>(t), r));
      RC_ASSERT(f.has_value());
      for (std::uint32_t b = 0; b < 256; ++b) {
        const std::uint32_t id = r * 256u + b;
        const bool want = id < kLeaves && up[id] && (t == 0 || level[id] < t);
        RC_ASSERT(f->bitmap.test(b) == want);
      }
    }
  }
}

}  // namespace
}  // namespace arfabric::proto::lsn
