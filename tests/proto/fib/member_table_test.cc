#include "proto/fib/member_table.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace arfabric::proto::fib {
namespace {

std::map<PortId, std::set<std::uint32_t>> slots_by_port(const MemberTable& t) {
  std::map<PortId, std::set<std::uint32_t>> out;
  for (std::uint32_t i = 0; i < t.size(); ++i) out[t.at(i)].insert(i);
  return out;
}

TEST(MemberTable, FirstFillMatchesQuantisationAndSpreads) {
  MemberTable t(64);
  const std::vector<WeightedMember> m{{10, 1}, {11, 1}, {12, 1}, {13, 1}};
  EXPECT_EQ(t.assign(m), 64u);
  for (PortId p = 10; p <= 13; ++p) EXPECT_EQ(t.count_of(p), 16u);
  // stride 39 (0.618 * 64 = 39.55, coprime): slot s+1 holds run position
  // k + 23 (23 = 39^-1 mod 64), never in the same 16-entry run, so
  // neighbouring slots (spraying walks them) always differ.
  EXPECT_EQ(t.stride(), 39u);
  for (std::uint32_t s = 0; s < 64; ++s)
    EXPECT_NE(t.at(s), t.at((s + 1) % 64)) << s;
  EXPECT_EQ(t.max_relative_error().num, 0u);
}

// One Scratch serves many tables (a MemberTablePool's Fibs share one):
// whatever it saw before, a table comes out as with a fresh one. The
// tables here hold ports above and below any the scratch has seen.
TEST(MemberTable, AReusedScratchChangesNothing) {
  const std::vector<std::vector<WeightedMember>> steps{
      {{300, 1}, {1, 3}}, {{1, 1}, {2, 1}, {3, 2}},
      {{2, 5}, {500, 1}}, {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {300, 2}},
      {{4, 1}},
  };
  MemberTable::Scratch shared;
  MemberTable warm_up(64);
  (void)warm_up.assign(std::vector<WeightedMember>{{200, 1}, {201, 2}}, shared);
  MemberTable with_shared(64), with_fresh(64);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::uint32_t moved_shared = with_shared.assign(steps[i], shared);
    const std::uint32_t moved_fresh = with_fresh.assign(steps[i]);
    EXPECT_EQ(moved_shared, moved_fresh) << "step " << i;
    EXPECT_TRUE(std::ranges::equal(with_shared.entries(), with_fresh.entries()))
        << "step " << i;
    // Another table in between, as another destination would.
    (void)warm_up.assign(
        std::vector<WeightedMember>{{static_cast<PortId>(100 + i), 1}, {7, 1}},
        shared);
  }
  // A table filled elsewhere may hold a port beyond any the scratch saw.
  MemberTable t(64), u(64);
  (void)t.assign(std::vector<WeightedMember>{{900, 1}, {1, 1}});
  (void)u.assign(std::vector<WeightedMember>{{900, 1}, {1, 1}});
  const std::vector<WeightedMember> low{{1, 1}, {2, 1}};
  EXPECT_EQ(t.assign(low, shared), u.assign(low));
  EXPECT_TRUE(std::ranges::equal(t.entries(), u.entries()));
}

TEST(MemberTable, RemovingOneOfFourMovesOnlyItsEntries) {
  MemberTable t(64);
  t.assign(std::vector<WeightedMember>{{1, 1}, {2, 1}, {3, 1}, {4, 1}});
  const auto before = slots_by_port(t);
  // 3 members of 64: 22, 21, 21 -> port 1 gains 6, ports 2 and 3 gain 5;
  // only port 4's 16 entries move.
  EXPECT_EQ(t.assign(std::vector<WeightedMember>{{1, 1}, {2, 1}, {3, 1}}), 16u);
  const auto after = slots_by_port(t);
  EXPECT_EQ(after.count(4), 0u);
  for (PortId p = 1; p <= 3; ++p)
    EXPECT_TRUE(std::includes(after.at(p).begin(), after.at(p).end(),
                              before.at(p).begin(), before.at(p).end()));
  EXPECT_EQ(after.at(1).size(), 22u);
  EXPECT_EQ(after.at(2).size(), 21u);
}

// index_for masks for power-of-two sizes; it must pick what hash % size
// picks for every size.
TEST(MemberTable, IndexForIsHashModuloSize) {
  for (std::uint32_t size : {64u, 100u, 256u, 4096u}) {
    const MemberTable t(size);
    std::uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < 1000; ++i) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      EXPECT_EQ(t.index_for(h), h % size) << size;
    }
  }
}

TEST(MemberTable, EmptyAssignKeepsEntriesForALaterRefill) {
  MemberTable t(64);
  t.assign(std::vector<WeightedMember>{{1, 1}, {2, 1}});
  const std::vector<PortId> before(t.entries().begin(), t.entries().end());
  EXPECT_EQ(t.assign({}), 0u);
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.assign(std::vector<WeightedMember>{{1, 1}, {2, 1}}), 0u);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), t.entries().begin()));
}

RC_GTEST_PROP(MemberTable, ChangeMovesExactlyTheCountDifference, ()) {
  const auto n = *rc::gen::inRange<std::uint32_t>(64, 4097);
  const auto m = *rc::gen::inRange<std::size_t>(2, 41);
  std::vector<WeightedMember> old_members;
  for (std::size_t i = 0; i < m; ++i)
    old_members.push_back({static_cast<PortId>(100 + 3 * i),
                           *rc::gen::inRange<std::uint32_t>(1, 100)});
  std::vector<WeightedMember> new_members = old_members;
  const auto which = *rc::gen::inRange<std::size_t>(0, m);
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      new_members[which].weight = *rc::gen::inRange<std::uint32_t>(1, 100);
      break;
    case 1:
      new_members.erase(new_members.begin() + static_cast<long>(which));
      break;
    default:
      new_members.push_back({7, *rc::gen::inRange<std::uint32_t>(1, 100)});
  }
  MemberTable t(n);
  t.assign(old_members);
  const auto before = slots_by_port(t);
  const std::uint32_t moved = t.assign(new_members);
  const auto after = slots_by_port(t);

  std::set<PortId> ports;
  for (const auto& [p, s] : before) ports.insert(p);
  for (const auto& [p, s] : after) ports.insert(p);
  std::uint32_t shrink = 0;
  for (PortId p : ports) {
    const std::set<std::uint32_t> none;
    const auto& b = before.count(p) ? before.at(p) : none;
    const auto& a = after.count(p) ? after.at(p) : none;
    RC_ASSERT(a.size() == t.count_of(p));
    if (a.size() <= b.size()) {
      shrink += static_cast<std::uint32_t>(b.size() - a.size());
      RC_ASSERT(std::includes(b.begin(), b.end(), a.begin(), a.end()));
    } else {
      RC_ASSERT(std::includes(a.begin(), a.end(), b.begin(), b.end()));
    }
  }
  RC_ASSERT(moved == shrink);
}

}  // namespace
}  // namespace arfabric::proto::fib
