#include "proto/fib/flowlet_table.h"

#include <gtest/gtest.h>

#include <vector>

#include "proto/fib/flow_hash.h"

namespace arfabric::proto::fib {
namespace {

MemberTable four_ports() {
  MemberTable t(64);
  t.assign(std::vector<WeightedMember>{{1, 1}, {2, 1}, {3, 1}, {4, 1}});
  return t;
}

TEST(FlowletTable, KeepsPortWithinGapAndRepicksAfter) {
  const MemberTable t = four_ports();
  FlowletTable f(1024, us(50));
  const std::uint64_t h = mix64(42);
  const PortId first = f.select(9, h, us(0), t);
  // Packets 40 us apart: never idle for more than 50 us.
  for (int i = 1; i <= 10; ++i) EXPECT_EQ(f.select(9, h, us(40 * i), t), first);
  EXPECT_EQ(f.counters().flowlets_started, 1u);
  // Exactly the gap is not "more than" the gap.
  EXPECT_EQ(f.select(9, h, us(450), t), first);
  EXPECT_EQ(f.counters().gap_expired, 0u);
  f.select(9, h, us(501), t);  // idle 51 us: a new flowlet
  EXPECT_EQ(f.counters().gap_expired, 1u);
  EXPECT_EQ(f.counters().flowlets_started, 2u);
}

TEST(FlowletTable, NewFlowletsSpreadOverPorts) {
  // 1000 flows on 4 equal ports: a new flowlet lands on a different port
  // with probability 3/4, so ~750 change; 600 is > 10 sigma below
  // (sd = sqrt(1000 * 3/16) = 13.7).
  const MemberTable t = four_ports();
  FlowletTable f(4096, us(50));
  int changed = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const std::uint64_t h = mix64(i + 1);
    const PortId a = f.select(1, h, us(0), t);
    changed += f.select(1, h, us(100), t) != a;
  }
  EXPECT_GT(changed, 600);
  EXPECT_LT(changed, 900);
}

TEST(FlowletTable, CollisionEvicts) {
  const MemberTable t = four_ports();
  FlowletTable f(1, us(50));  // one slot: every other flow collides
  f.select(1, 5, us(0), t);
  f.select(1, 6, us(1), t);
  EXPECT_EQ(f.counters().evictions, 1u);
  EXPECT_EQ(f.counters().flowlets_started, 2u);
}

TEST(FlowletTable, RepicksWhenItsEntryMoves) {
  MemberTable t = four_ports();
  FlowletTable f(1024, us(50));
  const std::uint64_t h = mix64(7);
  const PortId p = f.select(1, h, us(0), t);
  std::vector<WeightedMember> rest;
  for (PortId q = 1; q <= 4; ++q)
    if (q != p) rest.push_back({q, 1});
  t.assign(rest);
  const PortId now = f.select(1, h, us(1), t);
  EXPECT_NE(now, p);
  EXPECT_EQ(f.counters().repicked_on_change, 1u);
}

}  // namespace
}  // namespace arfabric::proto::fib
