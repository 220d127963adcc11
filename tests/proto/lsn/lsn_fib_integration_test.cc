// draft-camarillo-rtgwg-lsn-00 §4 end to end at full size: 256 spines
// (SA..SIV), 256 leaves. L_Ingress runs a real LSN engine and a real Fib
// with one destination per leaf, each an ECMP group of the 256 spines
// (port s + 1 faces spine s). Real frames from the 256 spine engines reach
// L_Ingress; apply_to_fib (src/proto/lsn/fib_glue.h) hands the records to
// the Fib, as the simulator does.
//
// Numbers by hand: 4096 entries / 256 equal members = 16 entries each;
// without Spine_A, 4096 / 255 = 16.06, so 16 members hold 17 entries and
// 239 hold 16 (16 * 17 + 239 * 16 = 272 + 3824 = 4096). The resilient
// update moves exactly Spine_A's 16 entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "proto/fib/fib.h"
#include "proto/lsn/fib_glue.h"
#include "proto/lsn/lsn_engine.h"
#include "proto/lsn/lsn_test_support.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {
namespace {

constexpr std::uint32_t kSpines = 256;
constexpr std::uint32_t kLeaves = 256;
constexpr NodeId kLeaf5 = 5;
constexpr PortId kSpineAPort = 1;   // L_Ingress's port facing Spine_A
constexpr PortId kSpineALeaf5 = 6;  // Spine_A's port facing Leaf_5
constexpr std::uint32_t kTable = 4096;

Engine make_engine(const Config& c) {
  auto e = Engine::create(c);
  EXPECT_TRUE(e) << e.error().to_string();
  return std::move(*e);
}

std::vector<fib::WeightedMember> all_spines() {
  std::vector<fib::WeightedMember> m;
  for (PortId p = 1; p <= kSpines; ++p) m.push_back({p, 1});
  return m;
}

class LsnFibSection4 : public ::testing::Test {
 protected:
  void SetUp() override {
    spines_.reserve(kSpines);
    for (std::uint32_t s = 0; s < kSpines; ++s) {
      spines_.push_back(make_engine(testing::spine_config(
          kLeaves, {0x02, 0, 0, 0x0a, static_cast<std::uint8_t>(s >> 8),
                    static_cast<std::uint8_t>(s)})));
    }
    auto f = fib::Fib::create({.max_destinations = kLeaves,
                               .table_size = kTable,
                               .lsn_safety_bound = sec(5)});
    ASSERT_TRUE(f) << f.error().to_string();
    fib_.emplace(std::move(*f));
    for (NodeId d = 0; d < kLeaves; ++d)
      ASSERT_TRUE(fib_->set_route(d, all_spines(), Time()));
    for (NodeId d = 0; d < kLeaves; ++d) {
      const auto e = fib_->table(d)->entries();
      before_[d].assign(e.begin(), e.end());
    }
    // Initial frames from every spine: all reachable, nothing to apply.
    for (std::uint32_t s = 0; s < kSpines; ++s) {
      spines_[s].on_timer(Time());
      deliver(s, us(1));
    }
    EXPECT_EQ(ingress_.receiver().counters().applied, kSpines);
    EXPECT_EQ(apply(us(1)).applied, 0u);
  }

  // Every pending frame of spine `s` reaches L_Ingress on port s + 1.
  void deliver(std::uint32_t s, Time now) {
    for (const PendingFrame& f : spines_[s].pending_frames())
      ingress_.on_frame(static_cast<PortId>(s + 1), f.frame, now);
    spines_[s].clear_pending_frames();
  }
  FibApplyResult apply(Time now) {
    FibApplyResult r = apply_to_fib(*fib_, ingress_, now);
    EXPECT_TRUE(r.ok()) << r.first_error->to_string();
    return r;
  }
  // A full period: every spine refreshes, L_Ingress applies.
  void refresh_all(Time now) {
    for (std::uint32_t s = 0; s < kSpines; ++s) {
      spines_[s].on_timer(now);
      deliver(s, now);
    }
    EXPECT_EQ(apply(now).applied, 0u);
  }

  // Spine_A loses Leaf_5, then the link comes back; both announced by real
  // frames. Returns the time of the "reachable" report.
  Time fail_and_recover() {
    const std::uint64_t moved = fib_->counters().entries_moved;
    EXPECT_TRUE(*spines_[0].set_port_state(kSpineALeaf5, false, us(10)));
    deliver(0, us(11));
    // Msg-type 0 gives the veto; Msg-types 1..3 raise the congestion
    // level of the now-vetoed member (ignored by the Fib).
    EXPECT_EQ(apply(us(11)).applied, 4u);
    EXPECT_EQ(fib_->counters().entries_moved - moved, 16u);
    expect_leaf5_without_spine_a();
    expect_others_untouched();

    refresh_all(us(100));
    expect_leaf5_without_spine_a();

    EXPECT_TRUE(*spines_[0].set_port_state(kSpineALeaf5, true, us(150)));
    deliver(0, us(151));
    // Reachable again (veto record) and congestion back to 0.
    EXPECT_EQ(apply(us(151)).applied, 2u);
    EXPECT_EQ(fib_->counters().lsn_reachable_held, 1u);
    return us(151);
  }

  void expect_leaf5_without_spine_a() {
    const fib::MemberTable* t = fib_->table(kLeaf5);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(fib_->state(kLeaf5), fib::GroupState::effective);
    EXPECT_TRUE(fib_->vetoed(kLeaf5, kSpineAPort));
    EXPECT_EQ(t->count_of(kSpineAPort), 0u);
    std::uint32_t members = 0, with17 = 0, total = 0;
    for (PortId p = 2; p <= kSpines; ++p) {
      const std::uint32_t c = t->count_of(p);
      ASSERT_TRUE(c == 16 || c == 17) << "port " << p << ": " << c;
      members += 1;
      with17 += c == 17;
      total += c;
    }
    EXPECT_EQ(members, 255u);
    EXPECT_EQ(with17, 16u);
    EXPECT_EQ(total, kTable);
    // Resilient: only Spine_A's entries moved.
    const auto e = t->entries();
    for (std::uint32_t i = 0; i < kTable; ++i) {
      if (before_[kLeaf5][i] != kSpineAPort) {
        ASSERT_EQ(e[i], before_[kLeaf5][i]) << "entry " << i;
      }
    }
    for (std::uint64_t h = 0; h < 2 * kTable; ++h) {
      ASSERT_NE(fib_->select(kLeaf5, h * 0x9e3779b97f4a7c15ull, Time(),
                             fib::SelectMode::per_flow),
                kSpineAPort);
    }
  }

  // Every destination but Leaf_5 keeps its 256 members at 16 entries each,
  // in the very same table slots.
  void expect_others_untouched() {
    for (NodeId d = 0; d < kLeaves; ++d) {
      if (d == kLeaf5) continue;
      expect_all_spines(d);
      const auto e = fib_->table(d)->entries();
      ASSERT_TRUE(
          std::equal(e.begin(), e.end(), before_[d].begin(), before_[d].end()))
          << "destination " << d;
    }
  }

  void expect_all_spines(NodeId d) {
    const fib::MemberTable* t = fib_->table(d);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(fib_->state(d), fib::GroupState::effective);
    for (PortId p = 1; p <= kSpines; ++p) {
      ASSERT_EQ(t->count_of(p), 16u) << "destination " << d << " port " << p;
      ASSERT_FALSE(fib_->vetoed(d, p));
    }
  }

  std::vector<Engine> spines_;
  Engine ingress_ =
      make_engine(testing::leaf_config(kSpines, kLeaves, /*hosts=*/16));
  std::optional<fib::Fib> fib_;
  std::array<std::vector<PortId>, kLeaves> before_;
};

// Recovery by the routing protocol: "reachable" alone keeps Spine_A out of
// Leaf_5's group; re-installing another destination's route does not
// count; re-installing Leaf_5's route (after the veto) restores it.
TEST_F(LsnFibSection4, PathStaysOutUntilRoutingReinstallsIt) {
  const Time reachable_at = fail_and_recover();
  expect_leaf5_without_spine_a();
  EXPECT_EQ(fib_->next_deadline(), reachable_at + sec(5));

  refresh_all(ms(1));
  expect_leaf5_without_spine_a();

  ASSERT_TRUE(fib_->set_route(6, all_spines(), ms(2)));
  expect_leaf5_without_spine_a();

  ASSERT_TRUE(fib_->set_route(kLeaf5, all_spines(), ms(3)));
  EXPECT_EQ(fib_->counters().latch_released_reinstall, 1u);
  EXPECT_EQ(fib_->counters().latch_released_safety_bound, 0u);
  expect_all_spines(kLeaf5);
  expect_others_untouched();
  // The pending safety bound is stale now: it releases nothing more.
  fib_->on_timer(reachable_at + sec(5));
  EXPECT_EQ(fib_->counters().latch_released_safety_bound, 0u);
  expect_all_spines(kLeaf5);
}

// Recovery by the safety bound (FibConfig::lsn_safety_bound, 5 s after the
// reachable report) when the routing protocol never re-installs.
TEST_F(LsnFibSection4, PathReturnsAfterTheSafetyBound) {
  const Time reachable_at = fail_and_recover();
  const Time bound = reachable_at + sec(5);
  ASSERT_EQ(fib_->next_deadline(), bound);

  fib_->on_timer(bound - ps(1));
  expect_leaf5_without_spine_a();
  refresh_all(bound - us(50));
  expect_leaf5_without_spine_a();

  fib_->on_timer(bound);
  EXPECT_EQ(fib_->counters().latch_released_safety_bound, 1u);
  EXPECT_EQ(fib_->counters().latch_released_reinstall, 0u);
  EXPECT_EQ(fib_->next_deadline(), Time::max());
  expect_all_spines(kLeaf5);
  expect_others_untouched();
}

// A Fib smaller than the LSN fabric refuses the records it cannot hold;
// the glue applies the rest and reports the first refusal.
TEST(LsnFibGlue, RefusedRecordsAreCountedNotFatal) {
  auto f = fib::Fib::create({.max_destinations = 4, .table_size = 64});
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->set_route(1, std::vector<fib::WeightedMember>{{1, 1}, {2, 1}},
                           Time()));
  const std::vector<VetoChange> vetoes = {{1, 9, VetoSource::lsn, true},
                                          {1, 1, VetoSource::lsn, true}};
  const std::vector<CongestionChange> congestion = {{2, 1, VetoSource::lsn, 2},
                                                    {2, 7, VetoSource::lsn, 1}};
  const FibApplyResult r = apply_to_fib(*f, vetoes, congestion, us(1));
  EXPECT_EQ(r.applied, 2u);
  EXPECT_EQ(r.rejected, 2u);
  ASSERT_TRUE(r.first_error);
  EXPECT_EQ(r.first_error->field, "veto.destination");
  EXPECT_TRUE(f->vetoed(1, 1));
  EXPECT_EQ(f->table(1)->count_of(1), 0u);
  EXPECT_EQ(f->table(1)->count_of(2), 64u);
}

// A frame from a spine whose bitmap for range 0 has every bit set except
// `cleared`.
Bytes spine_frame(wire::lsn::MsgType type,
                  std::initializer_list<std::size_t> cleared) {
  wire::lsn::LsnFrame f;
  f.source = {0x02, 0, 0, 0, 0x0a, 0x01};
  f.msg_type = type;
  f.bitmap.fill(true);
  for (std::size_t bit : cleared) f.bitmap.set(bit, false);
  ByteWriter w;
  EXPECT_TRUE(wire::lsn::serialize(f, w, {}));
  return w.take();
}

// A host on leaves 3 and 4 (no bit of its own): the path through a spine
// is vetoed only when the spine reaches neither, and is as congested as
// the less congested of the two. At leaf 3 itself, only leaf 4 counts.
TEST(LsnMultiHomedPath, ReachableThroughAnyLeafAtTheLeastCongestedOne) {
  using wire::lsn::MsgType;
  auto created = Receiver::create(testing::leaf_config(2, 8));
  ASSERT_TRUE(created) << created.error().to_string();
  Receiver& r = *created;
  const std::array<NodeId, 2> leaves = {3, 4};
  const NodeId kNone = 0xffff;
  EXPECT_EQ(multihomed_path(r, 1, leaves, kNone), (MultiHomedPath{true, 0}));

  r.on_frame(1, spine_frame(MsgType::reachable, {3}), us(1));
  EXPECT_EQ(multihomed_path(r, 1, leaves, kNone), (MultiHomedPath{true, 0}));
  EXPECT_EQ(multihomed_path(r, 1, leaves, 4), (MultiHomedPath{false, 0}));
  EXPECT_EQ(multihomed_path(r, 1, leaves, 3), (MultiHomedPath{true, 0}));
  r.on_frame(1, spine_frame(MsgType::reachable, {3, 4}), us(2));
  EXPECT_EQ(multihomed_path(r, 1, leaves, kNone), (MultiHomedPath{false, 0}));
  EXPECT_EQ(multihomed_path(r, 2, leaves, kNone), (MultiHomedPath{true, 0}));

  // Leaf 3 at level 2 and leaf 4 at level 1 through port 2: level 1; a
  // leaf that is not reachable does not count, however uncongested.
  r.on_frame(2, spine_frame(MsgType::congestion_level_1, {3, 4}), us(3));
  r.on_frame(2, spine_frame(MsgType::congestion_level_2, {3}), us(3));
  EXPECT_EQ(multihomed_path(r, 2, leaves, kNone), (MultiHomedPath{true, 1}));
  EXPECT_EQ(multihomed_path(r, 2, leaves, 4), (MultiHomedPath{true, 2}));
  r.on_frame(2, spine_frame(MsgType::reachable, {4}), us(4));
  EXPECT_EQ(multihomed_path(r, 2, leaves, kNone), (MultiHomedPath{true, 2}));

  // A host whose only device is the switch itself has no path to report.
  const std::array<NodeId, 1> one = {3};
  EXPECT_EQ(multihomed_path(r, 1, one, 3), std::nullopt);
}

}  // namespace
}  // namespace arfabric::proto::lsn
