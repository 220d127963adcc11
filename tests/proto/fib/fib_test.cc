#include "proto/fib/fib.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory_resource>
#include <random>
#include <vector>

#include "proto/fib/flow_hash.h"

namespace arfabric::proto::fib {
namespace {

using Members = std::vector<WeightedMember>;

Fib make(FibConfig c = {}) {
  auto f = Fib::create(c);
  EXPECT_TRUE(f) << f.error().to_string();
  return std::move(*f);
}

Members equal(PortId first, PortId count) {
  Members m;
  for (PortId p = first; p < first + count; ++p) m.push_back({p, 1});
  return m;
}

VetoChange lsn(PortId port, NodeId dest, bool vetoed) {
  return {port, dest, VetoSource::lsn, vetoed};
}
VetoChange arn(PortId port, NodeId dest, bool vetoed) {
  return {port, dest, VetoSource::arn, vetoed};
}

// Ports hit when every table entry is selected once (per-flow hash covers
// exactly these indices).
std::map<PortId, int> hits(Fib& f, NodeId dest) {
  std::map<PortId, int> out;
  for (std::uint64_t i = 0; i < f.config().table_size; ++i)
    if (auto p = f.select(dest, i, Time(), SelectMode::per_flow)) ++out[*p];
  return out;
}

TEST(Fib, CreateRejectsBadConfig) {
  FibConfig c;
  c.table_size = 10;
  EXPECT_EQ(Fib::create(c).error().field, "config.table_size");
}

// A resource that counts what is outstanding, over the default heap.
class CountingResource final : public std::pmr::memory_resource {
 public:
  std::size_t outstanding = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    outstanding += bytes;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes,
                     std::size_t alignment) override {
    outstanding -= bytes;
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const memory_resource& o) const noexcept override {
    return this == &o;
  }
};

// What select() reads of each destination comes from the resource given
// to create(), moves with the Fib and goes back to it when the Fib is
// destroyed.
TEST(Fib, SelectorsComeFromTheGivenMemory) {
  CountingResource memory;
  {
    auto created = Fib::create({.max_destinations = 100}, &memory);
    ASSERT_TRUE(created) << created.error().to_string();
    EXPECT_GE(memory.outstanding, 100u * 16u);  // 16 bytes or more each
    const std::size_t table = memory.outstanding;
    Fib f = std::move(*created);
    ASSERT_TRUE(f.set_route(99, equal(1, 4), Time{}));
    EXPECT_TRUE(f.select(99, 12345, Time{}, SelectMode::per_flow));
    EXPECT_EQ(memory.outstanding, table);
  }
  EXPECT_EQ(memory.outstanding, 0u);
}

// Fibs given one MemberTablePool share the tables their destinations
// reach by the same steps (same members from the same table, same size),
// and select exactly what Fibs with pools of their own select, through
// route changes that move entries.
TEST(Fib, FibsSharingAPoolShareTablesAndSelectAsAlone) {
  auto pool = std::make_shared<MemberTablePool>();
  auto create = [&](FibConfig c, std::shared_ptr<MemberTablePool> tables) {
    auto f = Fib::create(c, std::pmr::get_default_resource(), tables);
    EXPECT_TRUE(f) << f.error().to_string();
    return std::move(*f);
  };
  {
    const FibConfig config{.max_destinations = 8, .table_size = 256};
    Fib a = create(config, pool);
    Fib b = create(config, pool);
    Fib small = create({.max_destinations = 8, .table_size = 64}, pool);
    Fib alone = create(config, nullptr);
    for (Fib* f : {&a, &b, &small, &alone}) {
      for (NodeId d = 0; d < 8; ++d) {
        ASSERT_TRUE(f->set_route(d, equal(1, 4), Time{}));
      }
    }
    // The same step on another switch: the same table; another size: not.
    EXPECT_EQ(a.table(0), a.table(7));
    EXPECT_EQ(a.table(0), b.table(3));
    EXPECT_NE(a.table(0), small.table(0));
    EXPECT_EQ(small.table(0)->size(), 64u);
    EXPECT_EQ(pool->live(), 2u);
    // b's destination 3 loses a member and gets it back: the members of
    // a's destination 3, by another history, so another table.
    ASSERT_TRUE(b.set_route(3, equal(1, 3), Time{}));
    ASSERT_TRUE(alone.set_route(3, equal(1, 3), Time{}));
    ASSERT_TRUE(b.set_route(3, equal(1, 4), Time{}));
    ASSERT_TRUE(alone.set_route(3, equal(1, 4), Time{}));
    EXPECT_NE(a.table(3), b.table(3));
    EXPECT_EQ(a.table(3), a.table(0));
    for (std::uint64_t h = 1; h < 2000; h += 7) {
      EXPECT_EQ(b.select(3, h, Time{}, SelectMode::per_flow),
                alone.select(3, h, Time{}, SelectMode::per_flow));
    }
  }
  // Tables no destination holds any more are gone from the pool.
  EXPECT_EQ(pool->live(), 0u);
}

TEST(Fib, ControlPlaneErrors) {
  Fib f = make({.max_destinations = 4});
  EXPECT_EQ(f.set_route(4, equal(1, 2), Time()).error().field,
            "set_route.destination");
  EXPECT_EQ(f.set_route(0, Members{{1, 1}, {1, 2}}, Time()).error(),
            (ConfigError{"set_route.members", "port 1 listed twice"}));
  EXPECT_EQ(f.set_route(0, Members{{1, kMaxWeight + 1}}, Time()).error().field,
            "set_route.members[0]");
  EXPECT_EQ(f.apply(lsn(1, 9, true), Time()).error().field, "veto.destination");
  EXPECT_EQ(f.apply(CongestionChange{1, 0, VetoSource::lsn, 4}).error().field,
            "congestion.level");
  EXPECT_EQ(f.add_prefix(Prefix{}, 4).error().field, "add_prefix.destination");
}

TEST(Fib, NoRouteIsCounted) {
  Fib f = make({.max_destinations = 4});
  EXPECT_EQ(f.select(2, 1, Time(), SelectMode::per_flow), std::nullopt);
  EXPECT_EQ(f.select(99, 1, Time(), SelectMode::per_flow), std::nullopt);
  EXPECT_EQ(f.counters().no_route, 2u);
  ASSERT_TRUE(f.set_route(2, equal(1, 2), Time()));
  ASSERT_TRUE(f.remove_route(2, Time()));
  EXPECT_EQ(f.state(2), GroupState::no_route);
}

TEST(Fib, StatisticalSplitMatchesWeights) {
  // {4,2,1,1} in 4096 entries is exact: 2048, 1024, 512, 512. 200,000
  // random flows: a port of share p gets a Binomial(200000, p) count, sd
  // sqrt(n p (1-p)) = 224 (p = 1/2), 194 (1/4), 140 (1/8). We allow 4 sd
  // per port: a correct hash fails with probability < 1e-4 per port, and
  // the seed is fixed, so the test is deterministic; a 1% bias (2000 flows)
  // would be 9 sd or more.
  Fib f = make({.max_destinations = 1});
  ASSERT_TRUE(f.set_route(0, Members{{1, 4}, {2, 2}, {3, 1}, {4, 1}}, Time()));
  EXPECT_EQ(f.table(0)->max_relative_error().num, 0u);
  std::mt19937_64 rng(2026);
  std::map<PortId, double> count;
  constexpr int kFlows = 200'000;
  for (int i = 0; i < kFlows; ++i) {
    FlowKey k;
    for (auto& b : k.source) b = static_cast<std::uint8_t>(rng());
    for (auto& b : k.destination) b = static_cast<std::uint8_t>(rng());
    k.source_port = static_cast<std::uint16_t>(rng());
    k.destination_port = 4791;
    k.protocol = 17;
    ++count[*f.select(0, flow_hash(k, 1), Time(), SelectMode::per_flow)];
  }
  const std::map<PortId, double> share{
      {1, 0.5}, {2, 0.25}, {3, 0.125}, {4, 0.125}};
  for (const auto& [port, p] : share) {
    const double sd = std::sqrt(kFlows * p * (1 - p));
    EXPECT_NEAR(count[port], kFlows * p, 4 * sd) << port;
  }
  EXPECT_EQ(f.counters().selections[0], static_cast<std::uint64_t>(kFlows));
}

TEST(Fib, PerPacketSprayIsExactOverOneTableWalk) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, Members{{1, 2}, {2, 1}, {3, 1}}, Time()));
  std::map<PortId, int> n;
  for (int i = 0; i < 64; ++i)
    ++n[*f.select(0, 0, Time(), SelectMode::per_packet)];
  EXPECT_EQ(n, (std::map<PortId, int>{{1, 32}, {2, 16}, {3, 16}}));
  EXPECT_EQ(f.counters().selections[1], 64u);
}

// select() reads copies of the table's entries, size and mask (with
// shortcuts for power-of-two sizes and for tables one port fills): it must
// still pick exactly the entry MemberTable::index_for names, and spray
// over the entries in order, for every kind of table and through a group
// shrinking to one port and growing back.
TEST(Fib, SelectionAgreesWithTheMemberTable) {
  for (const std::uint32_t size : {64u, 100u, 4096u}) {
    Fib f = make({.max_destinations = 1, .table_size = size});
    ASSERT_TRUE(f.set_route(0, Members{{1, 2}, {2, 1}, {3, 1}}, Time()));
    const auto check = [&](const char* step) {
      const MemberTable* t = f.table(0);
      ASSERT_NE(t, nullptr);
      std::mt19937_64 rng(size);
      for (int i = 0; i < 1000; ++i) {
        const std::uint64_t h = rng();
        EXPECT_EQ(f.select(0, h, Time(), SelectMode::per_flow),
                  t->entries()[t->index_for(h)])
            << "size " << size << ", " << step;
      }
      for (std::uint32_t i = 0; i < 2 * size; ++i) {
        EXPECT_EQ(f.select(0, 0, Time(), SelectMode::per_packet),
                  t->entries()[i % size])
            << "size " << size << ", " << step << ", spray " << i;
      }
    };
    check("three ports");
    ASSERT_TRUE(f.apply(arn(1, 0, true), Time()));
    ASSERT_TRUE(f.apply(arn(2, 0, true), Time()));
    check("one port left");
    EXPECT_EQ(f.select(0, 12345, Time(), SelectMode::per_flow), PortId{3});
    ASSERT_TRUE(f.apply(arn(1, 0, false), Time()));
    check("two ports again");
  }
}

TEST(Fib, VetoIsAnAndOverSources) {
  Fib f = make({.max_destinations = 2, .table_size = 64});
  ASSERT_TRUE(f.set_route(1, equal(1, 3), Time()));
  const auto rebuilds = f.counters().table_rebuilds;
  ASSERT_TRUE(f.apply(arn(2, 1, true), us(1)));
  EXPECT_TRUE(f.vetoed(1, 2));
  EXPECT_EQ(hits(f, 1), (std::map<PortId, int>{{1, 32}, {3, 32}}));
  ASSERT_TRUE(f.apply(lsn(2, 1, true), us(2)));  // both sources now
  ASSERT_TRUE(f.apply(arn(2, 1, false), us(3)));
  EXPECT_TRUE(f.vetoed(1, 2));  // LSN still says no
  EXPECT_EQ(hits(f, 1).count(2), 0u);
  // ARN alone: its un-veto restores at once.
  ASSERT_TRUE(f.apply(arn(3, 1, true), us(4)));
  ASSERT_TRUE(f.apply(arn(3, 1, false), us(5)));
  EXPECT_EQ(hits(f, 1), (std::map<PortId, int>{{1, 32}, {3, 32}}));
  // A veto on a port that routing does not use changes nothing.
  const auto r = f.counters().table_rebuilds;
  ASSERT_TRUE(f.apply(arn(9, 1, true), us(6)));
  EXPECT_EQ(f.counters().table_rebuilds, r);
  EXPECT_EQ(f.counters().veto_changes, 6u);
  EXPECT_GT(r, rebuilds);
}

TEST(Fib, LocalPortDownLeavesEveryGroupAtOnce) {
  Fib f = make({.max_destinations = 3});
  ASSERT_TRUE(f.set_route(0, equal(1, 3), Time()));
  ASSERT_TRUE(f.set_route(1, equal(2, 2), Time()));
  f.set_port_up(2, false);
  EXPECT_EQ(hits(f, 0).count(2), 0u);
  EXPECT_EQ(hits(f, 0).size(), 2u);
  EXPECT_EQ(hits(f, 1).size(), 1u);
  EXPECT_EQ(hits(f, 1).count(3), 1u);
  EXPECT_TRUE(f.vetoed(1, 2));
  EXPECT_EQ(f.routing_ports(1), (std::vector<PortId>{2, 3}));
  EXPECT_TRUE(f.routing_ports(7).empty());
  EXPECT_TRUE(f.routes_through(1, 2));  // routed, though down
  EXPECT_TRUE(f.routes_through(1, 3));
  EXPECT_FALSE(f.routes_through(1, 1));
  EXPECT_FALSE(f.routes_through(7, 2));
  // A route installed while the port is down does not use it either.
  ASSERT_TRUE(f.set_route(2, equal(1, 2), Time()));
  EXPECT_EQ(hits(f, 2).size(), 1u);
  EXPECT_EQ(hits(f, 2).count(1), 1u);
  // Up again: no latch, routing alone decides.
  f.set_port_up(2, true);
  EXPECT_EQ(hits(f, 0).size(), 3u);
  EXPECT_EQ(hits(f, 2).size(), 2u);
  EXPECT_FALSE(f.vetoed(1, 2));
  // Down and an ARN veto: both must clear.
  f.set_port_up(3, false);
  ASSERT_TRUE(f.apply(arn(3, 1, true), Time()));
  f.set_port_up(3, true);
  EXPECT_TRUE(f.vetoed(1, 3));
}

TEST(Fib, LsnReachableAloneDoesNotRestore) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(0)));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), us(10)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), us(20)));
  EXPECT_TRUE(f.vetoed(0, 1));
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{2, 64}}));
  EXPECT_EQ(f.counters().lsn_reachable_held, 1u);
  // Re-install: set_route with the port, later than the veto.
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(30)));
  EXPECT_FALSE(f.vetoed(0, 1));
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 32}, {2, 32}}));
  EXPECT_EQ(f.counters().latch_released_reinstall, 1u);
}

TEST(Fib, ReinstallBeforeReachableRestoresOnTheReachableReport) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(0)));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), us(10)));
  // Same instant as the veto: not "later", does not count.
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(10)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), us(11)));
  EXPECT_TRUE(f.vetoed(0, 1));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), us(12)));
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(13)));  // still unreachable
  EXPECT_TRUE(f.vetoed(0, 1));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), us(14)));
  EXPECT_FALSE(f.vetoed(0, 1));
}

TEST(Fib, WithdrawThenInstallRule) {
  Fib f = make({.max_destinations = 1,
                .table_size = 64,
                .reinstall_rule = ReinstallRule::withdraw_then_install});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(0)));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), us(10)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), us(20)));
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(30)));  // never withdrawn
  EXPECT_TRUE(f.vetoed(0, 1));
  ASSERT_TRUE(f.set_route(0, Members{{2, 1}}, us(40)));  // withdraw
  ASSERT_TRUE(f.set_route(0, equal(1, 2), us(50)));      // install
  EXPECT_FALSE(f.vetoed(0, 1));
}

TEST(Fib, SafetyBoundRestoresWithoutReinstall) {
  Fib f = make({.max_destinations = 1, .table_size = 64});  // bound 5 s
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  EXPECT_EQ(f.next_deadline(), Time::max());
  ASSERT_TRUE(f.apply(lsn(1, 0, true), ms(1)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), ms(2)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), ms(3)));  // a repeat: no restart
  EXPECT_EQ(f.next_deadline(), ms(2) + sec(5));
  f.on_timer(ms(2) + sec(5) - ps(1));
  EXPECT_TRUE(f.vetoed(0, 1));
  f.on_timer(ms(2) + sec(5));
  EXPECT_FALSE(f.vetoed(0, 1));
  EXPECT_EQ(f.counters().latch_released_safety_bound, 1u);
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 32}, {2, 32}}));
  EXPECT_EQ(f.next_deadline(), Time::max());
}

TEST(Fib, NewVetoDisarmsTheSafetyBound) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), ms(1)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), ms(2)));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), ms(3)));
  f.on_timer(sec(10));
  EXPECT_TRUE(f.vetoed(0, 1));
  EXPECT_EQ(f.counters().latch_released_safety_bound, 0u);
}

TEST(Fib, ZeroSafetyBoundMeansNoLatch) {
  Fib f = make(
      {.max_destinations = 1, .table_size = 64, .lsn_safety_bound = Time()});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.apply(lsn(1, 0, true), ms(1)));
  ASSERT_TRUE(f.apply(lsn(1, 0, false), ms(2)));
  EXPECT_FALSE(f.vetoed(0, 1));
}

TEST(Fib, FallbackBackup) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.set_backup(0, Members{{7, 1}}));
  ASSERT_TRUE(f.apply(arn(1, 0, true), us(1)));
  ASSERT_TRUE(f.apply(arn(2, 0, true), us(1)));
  EXPECT_EQ(f.state(0), GroupState::backup);
  EXPECT_EQ(f.select(0, 5, us(2), SelectMode::per_flow), PortId{7});
  EXPECT_EQ(f.counters().fallback_backup, 1u);
  EXPECT_EQ(f.counters().fallback_entered, 1u);
  // The backup itself vetoed: drop.
  ASSERT_TRUE(f.apply(arn(7, 0, true), us(3)));
  EXPECT_EQ(f.state(0), GroupState::drop);
  EXPECT_EQ(f.select(0, 5, us(4), SelectMode::per_flow), std::nullopt);
  EXPECT_EQ(f.counters().fallback_drop, 1u);
  // A member returns: back to the effective group.
  ASSERT_TRUE(f.apply(arn(2, 0, false), us(5)));
  EXPECT_EQ(f.state(0), GroupState::effective);
  EXPECT_EQ(f.select(0, 5, us(6), SelectMode::per_flow), PortId{2});
}

TEST(Fib, FallbackKeepRoutingAndDrop) {
  Fib keep = make({.max_destinations = 1,
                   .table_size = 64,
                   .fallback = Fallback::keep_routing});
  ASSERT_TRUE(keep.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(keep.apply(lsn(1, 0, true), us(1)));
  ASSERT_TRUE(keep.apply(lsn(2, 0, true), us(1)));
  EXPECT_EQ(keep.state(0), GroupState::keep_routing);
  EXPECT_EQ(hits(keep, 0), (std::map<PortId, int>{{1, 32}, {2, 32}}));
  EXPECT_EQ(keep.counters().fallback_keep_routing, 64u);

  Fib drop = make(
      {.max_destinations = 1, .table_size = 64, .fallback = Fallback::drop});
  ASSERT_TRUE(drop.set_route(0, equal(1, 1), Time()));
  ASSERT_TRUE(drop.set_backup(0, Members{{7, 1}}));  // ignored under drop
  ASSERT_TRUE(drop.apply(lsn(1, 0, true), us(1)));
  EXPECT_EQ(drop.select(0, 1, us(2), SelectMode::flowlet), std::nullopt);
  EXPECT_EQ(drop.counters().fallback_drop, 1u);
  EXPECT_EQ(drop.counters().fallback_entered, 1u);
}

TEST(Fib, CongestionLowersShareButNeverRemoves) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::lsn, 3}));
  // Weights 1*4 : 1*1 -> t = 51.2, 12.8 -> 51 : 13 (errors 0.4%, 1.6%).
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 51}, {2, 13}}));
  // The larger level of the two sources counts.
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::arn, 1}));
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::lsn, 0}));
  // 4 : 3 -> t = 36.57, 27.43 -> 37 : 27.
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 37}, {2, 27}}));
  EXPECT_EQ(f.counters().congestion_changes, 3u);
}

TEST(Fib, CongestionTierUsesOnlyTheLeastCongested) {
  Fib f = make({.max_destinations = 1,
                .table_size = 64,
                .congestion_policy = CongestionPolicy::tier});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::lsn, 1}));
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 64}}));
  ASSERT_TRUE(f.apply(CongestionChange{1, 0, VetoSource::lsn, 2}));
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{2, 64}}));
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::lsn, 2}));
  EXPECT_EQ(hits(f, 0), (std::map<PortId, int>{{1, 32}, {2, 32}}));
}

TEST(Fib, FlowletSurvivesUnrelatedVeto) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 4), Time()));
  const std::uint64_t h = mix64(3);
  const PortId p = *f.select(0, h, us(0), SelectMode::flowlet);
  const PortId other = p == 1 ? 2 : 1;
  ASSERT_TRUE(f.apply(arn(other, 0, true), us(1)));
  EXPECT_EQ(f.select(0, h, us(2), SelectMode::flowlet), p);
  ASSERT_TRUE(f.apply(arn(p, 0, true), us(3)));
  EXPECT_NE(f.select(0, h, us(4), SelectMode::flowlet), p);
  EXPECT_EQ(f.flowlet_counters().repicked_on_change, 1u);
  EXPECT_EQ(f.counters().selections[2], 3u);
}

TEST(Fib, PrefixLookupGivesTheDestination) {
  Fib f = make({.max_destinations = 8});
  Prefix p;
  p.address = {10, 0, 5, 0};
  p.length = 24;
  ASSERT_TRUE(f.add_prefix(p, 5));
  EXPECT_EQ(f.lookup(false, {10, 0, 5, 77}), NodeId{5});
  EXPECT_TRUE(f.remove_prefix(p));
  EXPECT_EQ(f.lookup(false, {10, 0, 5, 77}), std::nullopt);
}

// draft-camarillo-rtgwg-lsn §4 at the FIB of the ingress leaf: 256
// destination leaves, each reachable over 256 spines (ports 0..255, spine A
// = port 0). Spine A loses Leaf_5.
TEST(Fib, LsnIllustrationSection4) {
  Fib f = make({.max_destinations = 256, .table_size = 4096});
  const Members spines = equal(0, 256);
  for (NodeId leaf = 0; leaf < 256; ++leaf)
    ASSERT_TRUE(f.set_route(leaf, spines, Time()));
  std::vector<std::vector<PortId>> before;
  for (NodeId leaf = 0; leaf < 256; ++leaf)
    before.emplace_back(f.table(leaf)->entries().begin(),
                        f.table(leaf)->entries().end());
  const auto rebuilds = f.counters().table_rebuilds;

  constexpr PortId kSpineA = 0;
  ASSERT_TRUE(f.apply(lsn(kSpineA, 5, true), us(100)));
  EXPECT_EQ(f.counters().table_rebuilds, rebuilds + 1);  // leaf 5 only
  // 255 members in 4096 entries: 16 each plus 16 members with 17
  // (255 * 16 = 4080); spine A's 16 entries went to 16 other spines.
  const std::map<PortId, int> leaf5 = hits(f, 5);
  EXPECT_EQ(leaf5.size(), 255u);
  EXPECT_EQ(leaf5.count(kSpineA), 0u);
  EXPECT_EQ(f.counters().entries_moved, 256u * 4096u + 16u);
  // No flow hashes to spine A (every table index was tried above; and a
  // sample of real flows too).
  for (std::uint32_t i = 0; i < 10'000; ++i) {
    FlowKey k;
    k.source = {10, 0, static_cast<std::uint8_t>(i >> 8),
                static_cast<std::uint8_t>(i)};
    k.destination = {10, 5, 0, 1};
    k.source_port = static_cast<std::uint16_t>(i);
    ASSERT_NE(f.select(5, flow_hash(k, 0), us(101), SelectMode::per_flow),
              kSpineA);
  }
  for (NodeId leaf = 0; leaf < 256; ++leaf) {
    if (leaf == 5) continue;
    const auto e = f.table(leaf)->entries();
    ASSERT_TRUE(std::equal(e.begin(), e.end(), before[leaf].begin(),
                           before[leaf].end()))
        << leaf;
  }
  // Link restored: Spine A reports Leaf_5 reachable. 1 AND 0: still out.
  ASSERT_TRUE(f.apply(lsn(kSpineA, 5, false), ms(50)));
  EXPECT_EQ(hits(f, 5).count(kSpineA), 0u);
  // BGP re-installs the route: back to 256 members, spine A's entries back.
  ASSERT_TRUE(f.set_route(5, spines, ms(80)));
  EXPECT_EQ(hits(f, 5).size(), 256u);
  EXPECT_EQ(f.table(5)->count_of(kSpineA), 16u);
}

// --- Per-flow overrides (ARN flow-granular objects).

FlowKey random_key(std::mt19937_64& rng, bool ipv6 = false) {
  FlowKey k;
  const std::size_t n = ipv6 ? 16 : 4;
  for (std::size_t i = 0; i < n; ++i) {
    k.source[i] = static_cast<std::uint8_t>(rng());
    k.destination[i] = static_cast<std::uint8_t>(rng());
  }
  k.source_port = static_cast<std::uint16_t>(rng());
  k.destination_port = rng() % 2 ? 4791 : 80;
  k.protocol = rng() % 2 ? 17 : 6;
  return k;
}

// RoCEv2 traffic: protocol 17, destination port 4791, any address or port.
FlowMatch rocev2() {
  FlowMatch m;
  m.fields = kMatchProtocol | kMatchDestinationPort;
  m.key.protocol = 17;
  m.key.destination_port = 4791;
  return m;
}

FlowOverrideChange flow_veto(NodeId dest, FlowMatch m, PortId port,
                             bool vetoed) {
  return {dest, m, port, VetoSource::arn, vetoed, 0};
}

TEST(FibFlowOverride, FieldsAndWildcards) {
  FlowKey k;
  k.source = {10, 0, 0, 7};
  k.destination = {10, 5, 0, 1};
  k.source_port = 1000;
  k.destination_port = 4791;
  k.protocol = 17;
  // Each field alone: matches k, and stops matching when that field (and
  // only it) differs; any other field may differ freely.
  const std::uint8_t bits[] = {kMatchProtocol, kMatchSource, kMatchDestination,
                               kMatchSourcePort, kMatchDestinationPort};
  for (std::uint8_t bit : bits) {
    FlowMatch m;
    m.fields = bit;
    m.key = k;
    m.normalise();
    EXPECT_TRUE(m.matches(k)) << int{bit};
    for (std::uint8_t other : bits) {
      FlowKey d = k;
      if (other == kMatchProtocol) d.protocol = 6;
      if (other == kMatchSource) d.source[3] = 8;
      if (other == kMatchDestination) d.destination[0] = 11;
      if (other == kMatchSourcePort) d.source_port = 1001;
      if (other == kMatchDestinationPort) d.destination_port = 80;
      EXPECT_EQ(m.matches(d), other != bit) << int{bit} << " " << int{other};
    }
  }
  FlowMatch all;  // no fields: every flow
  EXPECT_TRUE(all.matches(k));
  // normalise() zeroes wildcards so equal aggregates compare equal.
  FlowMatch a = rocev2(), b = rocev2();
  b.key.source_port = 9;
  EXPECT_EQ(a, b.normalise());
  // An IPv4 key never matches an IPv6 address with the same first bytes.
  FlowMatch v6;
  v6.fields = kMatchDestination;
  v6.key.destination = {10, 5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9};
  EXPECT_FALSE(v6.matches(k));
}

TEST(FibFlowOverride, VetoMovesExactlyTheMatchingFlows) {
  const FibConfig c{.max_destinations = 2, .table_size = 4096};
  Fib f = make(c), reference = make(c);
  for (Fib* x : {&f, &reference}) {
    ASSERT_TRUE(x->set_route(1, equal(1, 4), Time()));
    ASSERT_TRUE(x->set_route(0, equal(1, 4), Time()));
  }
  ASSERT_TRUE(f.apply(flow_veto(1, rocev2(), 2, true)));
  EXPECT_EQ(f.flow_override_count(), 1u);
  EXPECT_FALSE(f.vetoed(1, 2));  // the destination keeps port 2
  std::mt19937_64 rng(7);
  std::map<PortId, double> matching, others;
  std::uint64_t n_match = 0, n_moved = 0;
  constexpr int kFlows = 60'000;
  for (int i = 0; i < kFlows; ++i) {
    const FlowKey k = random_key(rng);
    const std::uint64_t h = flow_hash(k, 3);
    const PortId p = *f.select(1, k, h, Time(), SelectMode::per_flow);
    const PortId want = *reference.select(1, h, Time(), SelectMode::per_flow);
    // Another destination is untouched by dest 1's override.
    ASSERT_EQ(f.select(0, k, h, Time(), SelectMode::per_flow),
              reference.select(0, h, Time(), SelectMode::per_flow));
    if (rocev2().matches(k)) {
      ++n_match;
      ASSERT_NE(p, 2);
      if (want != 2) {
        ASSERT_EQ(p, want);  // a flow whose port is fine never moves
      } else {
        ++n_moved;
      }
      ++matching[p];
    } else {
      ASSERT_EQ(p, want);  // other flows: exactly their normal port
      ++others[p];
    }
  }
  EXPECT_EQ(f.counters().flow_matched, n_match);
  EXPECT_EQ(f.counters().flow_moved, n_moved);
  // Matching flows split over the other three by weight (1/3 each);
  // others over all four (1/4 each); 4 sd per port.
  const auto m = static_cast<double>(n_match);
  const auto o = static_cast<double>(kFlows - n_match);
  for (PortId p : {1, 3, 4}) {
    EXPECT_NEAR(matching[p], m / 3, 4 * std::sqrt(m * 2 / 9)) << p;
  }
  for (PortId p : {1, 2, 3, 4}) {
    EXPECT_NEAR(others[p], o / 4, 4 * std::sqrt(o * 3 / 16)) << p;
  }
  // Removal restores every flow.
  ASSERT_TRUE(f.apply(flow_veto(1, rocev2(), 2, false)));
  EXPECT_EQ(f.flow_override_count(), 0u);
  EXPECT_TRUE(f.flow_overrides(1).empty());
  EXPECT_EQ(hits(f, 1), hits(reference, 1));
}

// Overrides with different field sets on one destination: each packet
// looks up every field set, and a flow matching several gets all their
// vetoes (the lookup is by hash per field set, then verified).
TEST(FibFlowOverride, SeveralFieldSetsOverlap) {
  Fib f = make({.max_destinations = 1, .table_size = 256});
  ASSERT_TRUE(f.set_route(0, equal(1, 4), Time()));
  FlowMatch from7;
  from7.fields = kMatchSource;
  from7.key.source = {10, 0, 0, 7};
  ASSERT_TRUE(f.apply(flow_veto(0, rocev2(), 1, true)));
  ASSERT_TRUE(f.apply(flow_veto(0, from7, 2, true)));
  for (std::uint8_t i = 0; i < 100; ++i) {  // unrelated overrides
    FlowMatch other = from7;
    other.key.source[2] = static_cast<std::uint8_t>(i + 1);
    ASSERT_TRUE(f.apply(flow_veto(0, other, 3, true)));
  }
  std::mt19937_64 rng(9);
  std::map<int, std::map<PortId, int>> seen;  // by which overrides match
  for (int i = 0; i < 20'000; ++i) {
    FlowKey k = random_key(rng);
    if (i % 2) k.source = {10, 0, 0, 7};
    const int kind = (rocev2().matches(k) ? 1 : 0) + (from7.matches(k) ? 2 : 0);
    ++seen[kind]
          [*f.select(0, k, flow_hash(k, 2), Time(), SelectMode::per_flow)];
  }
  EXPECT_EQ(seen[0].size(), 4u);  // no override: all four ports
  EXPECT_EQ(seen[1].count(1), 0u);
  EXPECT_EQ(seen[1].size(), 3u);
  EXPECT_EQ(seen[2].count(2), 0u);
  EXPECT_EQ(seen[2].size(), 3u);
  EXPECT_EQ(seen[3].count(1) + seen[3].count(2), 0u);  // both vetoes
  EXPECT_GT(seen[3][3], 0);
  EXPECT_GT(seen[3][4], 0);
  EXPECT_EQ(f.flow_override_count(), 102u);
}

TEST(FibFlowOverride, CongestionLevelScalesTheFlowsShare) {
  // Four equal members, multipliers {4,3,2,1}: at level 3 for matching
  // flows, port 2 keeps 1/(4+4+4+1) = 1/13 of them.
  Fib f = make({.max_destinations = 1, .table_size = 4096});
  ASSERT_TRUE(f.set_route(0, equal(1, 4), Time()));
  ASSERT_TRUE(
      f.apply(FlowOverrideChange{0, rocev2(), 2, VetoSource::arn, false, 3}));
  std::mt19937_64 rng(11);
  std::map<PortId, double> n;
  double total = 0;
  for (int i = 0; i < 80'000; ++i) {
    FlowKey k = random_key(rng);
    k.protocol = 17;
    k.destination_port = 4791;
    ++n[*f.select(0, k, flow_hash(k, 3), Time(), SelectMode::per_flow)];
    ++total;
  }
  const std::map<PortId, double> share{
      {1, 4.0 / 13}, {2, 1.0 / 13}, {3, 4.0 / 13}, {4, 4.0 / 13}};
  for (const auto& [port, p] : share) {
    EXPECT_NEAR(n[port], total * p, 4 * std::sqrt(total * p * (1 - p))) << port;
  }
  // The flow level only counts above the destination's own level: at
  // destination level 3 already, the flow override changes nothing.
  // (g repeats f's table history, so both tables hold the same entries.)
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::lsn, 3}));
  Fib g = make({.max_destinations = 1, .table_size = 4096});
  ASSERT_TRUE(g.set_route(0, equal(1, 4), Time()));
  ASSERT_TRUE(g.apply(CongestionChange{2, 0, VetoSource::lsn, 3}));
  for (int i = 0; i < 2000; ++i) {
    FlowKey k = random_key(rng);
    k.protocol = 17;
    k.destination_port = 4791;
    const auto h = flow_hash(k, 3);
    ASSERT_EQ(f.select(0, k, h, Time(), SelectMode::per_flow),
              g.select(0, h, Time(), SelectMode::per_flow));
  }
}

TEST(FibFlowOverride, TierPolicyTakesTheRaisedPortAwayButNeverTheLast) {
  Fib f = make({.max_destinations = 1,
                .table_size = 64,
                .congestion_policy = CongestionPolicy::tier});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  FlowMatch all;  // every flow
  ASSERT_TRUE(
      f.apply(FlowOverrideChange{0, all, 1, VetoSource::arn, false, 1}));
  FlowKey k;
  for (std::uint64_t h = 0; h < 64; ++h)
    ASSERT_EQ(f.select(0, k, h, Time(), SelectMode::per_flow), PortId{2});
  // Both raised: congestion alone never removes every path.
  ASSERT_TRUE(
      f.apply(FlowOverrideChange{0, all, 2, VetoSource::arn, false, 2}));
  std::map<PortId, int> n;
  for (std::uint64_t h = 0; h < 64; ++h)
    ++n[*f.select(0, k, h, Time(), SelectMode::per_flow)];
  EXPECT_EQ(n.size(), 2u);
  EXPECT_EQ(f.counters().flow_fallback, 0u);
}

TEST(FibFlowOverride, EveryMemberVetoedForTheFlowFallsBack) {
  FlowMatch all;
  for (Fallback fb :
       {Fallback::backup, Fallback::keep_routing, Fallback::drop}) {
    Fib f = make({.max_destinations = 1, .table_size = 64, .fallback = fb});
    ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
    ASSERT_TRUE(f.set_backup(0, Members{{7, 1}}));
    ASSERT_TRUE(f.apply(flow_veto(0, all, 1, true)));
    ASSERT_TRUE(f.apply(flow_veto(0, all, 2, true)));
    FlowKey k;
    const auto p = f.select(0, k, 5, Time(), SelectMode::per_flow);
    EXPECT_EQ(f.counters().flow_fallback, 1u);
    EXPECT_EQ(f.state(0), GroupState::effective);  // the destination is fine
    switch (fb) {
      case Fallback::backup:
        EXPECT_EQ(p, PortId{7});
        EXPECT_EQ(f.counters().fallback_backup, 1u);
        // The backup vetoed for the flow too: drop.
        ASSERT_TRUE(f.apply(flow_veto(0, all, 7, true)));
        EXPECT_EQ(f.select(0, k, 5, Time(), SelectMode::per_flow),
                  std::nullopt);
        EXPECT_EQ(f.counters().fallback_drop, 1u);
        EXPECT_EQ(f.counters().selections[0], 1u);
        break;
      case Fallback::keep_routing:
        EXPECT_EQ(p, f.select(0, 5, Time(), SelectMode::per_flow));
        EXPECT_EQ(f.counters().fallback_keep_routing, 1u);
        break;
      case Fallback::drop:
        EXPECT_EQ(p, std::nullopt);
        EXPECT_EQ(f.counters().fallback_drop, 1u);
        EXPECT_EQ(f.counters().selections[0], 0u);
        break;
    }
  }
}

TEST(FibFlowOverride, EveryModeAvoidsTheVetoedPort) {
  Fib f = make({.max_destinations = 1, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 3), Time()));
  ASSERT_TRUE(f.apply(flow_veto(0, rocev2(), 3, true)));
  std::mt19937_64 rng(5);
  std::map<PortId, int> sprayed;
  for (int i = 0; i < 3000; ++i) {
    FlowKey k = random_key(rng);
    k.protocol = 17;
    k.destination_port = 4791;
    const auto h = flow_hash(k, 1);
    for (SelectMode mode :
         {SelectMode::per_flow, SelectMode::per_packet, SelectMode::flowlet}) {
      const auto p = f.select(0, k, h, us(i), mode);
      ASSERT_TRUE(p);
      ASSERT_NE(*p, 3);
      if (mode == SelectMode::per_packet) ++sprayed[*p];
    }
  }
  // Spraying still spreads over both remaining members.
  EXPECT_NEAR(sprayed[1], 1500, 200);
  EXPECT_NEAR(sprayed[2], 1500, 200);
}

TEST(FibFlowOverride, Ipv6Flows) {
  Fib f = make({.max_destinations = 1, .table_size = 256});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  std::mt19937_64 rng(3);
  const FlowKey victim = random_key(rng, true);
  FlowMatch m;
  m.fields = kMatchAll;
  m.key = victim;
  // Veto the port the flow would use: it moves, and only it.
  const auto h = flow_hash(victim, 0);
  const PortId was = *f.select(0, h, Time(), SelectMode::per_flow);
  ASSERT_TRUE(f.apply(flow_veto(0, m, was, true)));
  EXPECT_NE(f.select(0, victim, h, Time(), SelectMode::per_flow), was);
  FlowKey v4 = victim;  // same first bytes, IPv4: another flow
  std::fill(v4.source.begin() + 4, v4.source.end(), 0);
  std::fill(v4.destination.begin() + 4, v4.destination.end(), 0);
  EXPECT_EQ(f.select(0, v4, h, Time(), SelectMode::per_flow), was);
  EXPECT_EQ(f.counters().flow_matched, 1u);
}

TEST(FibFlowOverride, BoundedTableAndErrors) {
  Fib f =
      make({.max_destinations = 2, .table_size = 64, .max_flow_overrides = 2});
  FlowMatch a = rocev2(), b = rocev2(), c = rocev2();
  b.key.destination_port = 4792;
  c.key.destination_port = 4793;
  ASSERT_TRUE(f.apply(flow_veto(0, a, 1, true)));
  ASSERT_TRUE(f.apply(flow_veto(1, b, 1, true)));
  const auto full = f.apply(flow_veto(0, c, 1, true));
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().field, "flow_override");
  EXPECT_EQ(f.counters().flow_overrides_full, 1u);
  EXPECT_EQ(f.flow_override_count(), 2u);
  // Updating one held, or removing one, is always possible.
  ASSERT_TRUE(f.apply(FlowOverrideChange{0, a, 1, VetoSource::arn, true, 2}));
  EXPECT_EQ(f.flow_overrides(0)[0].level, 2);
  ASSERT_TRUE(f.apply(flow_veto(0, a, 1, false)));
  ASSERT_TRUE(f.apply(flow_veto(0, c, 1, true)));
  EXPECT_EQ(f.flow_override_count(), 2u);
  // Removing what is not held: fine, nothing changes.
  ASSERT_TRUE(f.apply(flow_veto(0, a, 1, false)));
  EXPECT_EQ(f.flow_override_count(), 2u);
  EXPECT_EQ(f.apply(flow_veto(2, a, 1, true)).error().field,
            "flow_override.destination");
  EXPECT_EQ(f.apply(FlowOverrideChange{0, a, 1, VetoSource::arn, false, 4})
                .error()
                .field,
            "flow_override.level");
  FlowMatch wide = a;
  wide.fields = 0x20;
  EXPECT_EQ(f.apply(flow_veto(0, wide, 1, true)).error().field,
            "flow_override.match.fields");
  EXPECT_EQ(f.flow_override_count(), 2u);
}

TEST(FibFlowOverride, SelectWithoutKeyIgnoresAndCountsOverrides) {
  Fib f = make({.max_destinations = 2, .table_size = 64});
  ASSERT_TRUE(f.set_route(0, equal(1, 2), Time()));
  ASSERT_TRUE(f.set_route(1, equal(1, 2), Time()));
  FlowMatch all;
  ASSERT_TRUE(f.apply(flow_veto(0, all, 1, true)));
  std::map<PortId, int> n;
  for (std::uint64_t h = 0; h < 64; ++h)
    ++n[*f.select(0, h, Time(), SelectMode::per_flow)];
  EXPECT_EQ(n, (std::map<PortId, int>{{1, 32}, {2, 32}}));
  EXPECT_EQ(f.counters().flow_key_missing, 64u);
  (void)f.select(1, 0, Time(), SelectMode::per_flow);  // no overrides there
  EXPECT_EQ(f.counters().flow_key_missing, 64u);
}

// --- sharing (fib.h, "Sharing"): destinations with the same port states
// and table history share one copy, and each still sees exactly what a FIB
// holding it alone would give.

TEST(FibSharing, IdenticalRoutesShareOneTable) {
  Fib f = make({.max_destinations = 200});
  for (NodeId d = 0; d < 200; ++d)
    ASSERT_TRUE(f.set_route(d, equal(1, 16), {}));
  const MemberTable* shared = f.table(0);
  ASSERT_NE(shared, nullptr);
  for (NodeId d = 1; d < 200; ++d) EXPECT_EQ(f.table(d), shared) << d;
  EXPECT_EQ(f.counters().table_rebuilds, 200u);
  EXPECT_EQ(f.counters().entries_moved, 200u * f.config().table_size);

  // One destination's veto gives it its own table; the others keep theirs.
  ASSERT_TRUE(f.apply(VetoChange{3, 7, VetoSource::lsn, true}, Time()));
  EXPECT_NE(f.table(7), shared);
  EXPECT_EQ(f.table(8), shared);
  EXPECT_TRUE(f.vetoed(7, 3));
  EXPECT_FALSE(f.vetoed(8, 3));
  EXPECT_EQ(f.table(7)->count_of(3), 0u);
  EXPECT_GT(shared->count_of(3), 0u);

  // The same step for another destination from the same table: shared.
  ASSERT_TRUE(f.apply(VetoChange{3, 9, VetoSource::lsn, true}, Time()));
  EXPECT_EQ(f.table(9), f.table(7));

  // A local port failure moves every destination; they share again.
  f.set_port_up(5, false);
  for (NodeId d = 1; d < 200; ++d) {
    if (d != 7 && d != 9) EXPECT_EQ(f.table(d), f.table(0)) << d;
  }
  EXPECT_EQ(f.table(0)->count_of(5), 0u);
}

// set_route() reuses its last step for a destination making the same one
// (same members from the same port list), but not across a local port
// change: a destination installed after port 3 went down must not use it.
TEST(FibSharing, RepeatedRoutesFollowLocalPortChanges) {
  Fib f = make({.max_destinations = 4});
  ASSERT_TRUE(f.set_route(0, equal(1, 4), {}));
  ASSERT_TRUE(f.set_route(1, equal(1, 4), {}));
  EXPECT_EQ(f.table(1), f.table(0));
  f.set_port_up(3, false);
  EXPECT_EQ(hits(f, 0).count(3), 0u);
  ASSERT_TRUE(f.set_route(2, equal(1, 4), {}));
  EXPECT_EQ(hits(f, 2).count(3), 0u);
  EXPECT_EQ(hits(f, 2).size(), 3u);
  f.set_port_up(3, true);
  ASSERT_TRUE(f.set_route(3, equal(1, 4), {}));
  EXPECT_EQ(hits(f, 3).size(), 4u);
  EXPECT_EQ(hits(f, 2).size(), 4u);
  // Bad input is still refused for a destination out of range, with the
  // same members as the last (accepted) call.
  EXPECT_FALSE(f.set_route(4, equal(1, 4), {}));
}

// A congestion change to a destination whose port list and table no one
// else holds changes them where they are (the table keeps its address);
// one whose table is shared gets a copy and leaves the others' as they
// were. Either way the entries are what copies give: `copied` applies
// every change to two destinations alike, so that their table is always
// shared and each step copies it.
TEST(FibSharing, ACongestionChangeCopiesOnlyWhatIsShared) {
  const FibConfig config{.max_destinations = 2, .table_size = 64};
  Fib f = make(config);
  Fib copied = make(config);
  for (NodeId d = 0; d < 2; ++d) {
    ASSERT_TRUE(f.set_route(d, equal(1, 4), {}));
    ASSERT_TRUE(copied.set_route(d, equal(1, 4), {}));
  }
  const MemberTable* shared = f.table(0);
  ASSERT_EQ(f.table(1), shared);
  const auto before = hits(f, 1);
  auto step = [&](PortId port, VetoSource source, std::uint8_t level) {
    ASSERT_TRUE(f.apply(CongestionChange{port, 0, source, level}));
    for (NodeId d = 0; d < 2; ++d) {
      const MemberTable* was = copied.table(d);
      ASSERT_TRUE(copied.apply(CongestionChange{port, d, source, level}));
      EXPECT_NE(copied.table(d), was) << "copied, dest " << d;
    }
    EXPECT_EQ(copied.table(0), copied.table(1));
    const auto x = f.table(0)->entries();
    const auto y = copied.table(0)->entries();
    EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << port;
  };

  // Shared: destination 0 gets a table of its own; 1 keeps the old one.
  step(2, VetoSource::arn, 3);
  const MemberTable* own = f.table(0);
  EXPECT_NE(own, shared);
  EXPECT_EQ(f.table(1), shared);
  EXPECT_EQ(hits(f, 1), before);

  // Its own now: further changes happen in place.
  const std::pair<PortId, std::uint8_t> steps[] = {{3, 2}, {2, 0}, {4, 1}};
  for (const auto& [port, level] : steps) {
    step(port, VetoSource::arn, level);
    EXPECT_EQ(f.table(0), own) << port;
  }
  EXPECT_EQ(f.counters().entries_moved - 2 * config.table_size,
            (copied.counters().entries_moved - 2 * config.table_size) / 2);
  EXPECT_EQ(f.table(1), shared);
  EXPECT_EQ(hits(f, 1), before);
  // Destination 1's port states took none of 0's changes: a veto there
  // and its removal rebuild its table from them, and give it back.
  ASSERT_TRUE(f.apply(VetoChange{1, 1, VetoSource::arn, true}, Time()));
  ASSERT_TRUE(f.apply(VetoChange{1, 1, VetoSource::arn, false}, Time()));
  EXPECT_EQ(hits(f, 1), before);
}

// A table changed in place keeps the pool key it was made under. Another
// destination that later takes the same step from the same table finds
// that key but not those contents, makes a table of its own, and it
// replaces the changed one in the pool: each destination still selects
// what its own history gives, and the pool counts the tables it finds.
TEST(FibSharing, ATableChangedInPlaceGivesWayInThePoolToANewOne) {
  auto pool = std::make_shared<MemberTablePool>();
  const FibConfig config{.max_destinations = 3, .table_size = 64};
  auto made = Fib::create(config, std::pmr::get_default_resource(), pool);
  ASSERT_TRUE(made);
  Fib& f = *made;
  Fib alone = make({.max_destinations = 1, .table_size = 64});
  for (NodeId d = 0; d < 3; ++d) ASSERT_TRUE(f.set_route(d, equal(1, 4), {}));
  ASSERT_TRUE(alone.set_route(0, equal(1, 4), {}));
  const MemberTable* shared = f.table(2);
  EXPECT_EQ(pool->live(), 1u);
  // Destination 0 steps off the shared table (a new one, pooled under
  // that step), then steps again in place.
  ASSERT_TRUE(f.apply(CongestionChange{2, 0, VetoSource::arn, 3}));
  const MemberTable* own = f.table(0);
  EXPECT_EQ(pool->live(), 2u);
  ASSERT_TRUE(f.apply(CongestionChange{3, 0, VetoSource::arn, 2}));
  ASSERT_EQ(f.table(0), own);
  // Destination 1 takes destination 0's first step from the table it
  // still shares with destination 2: a new table.
  ASSERT_TRUE(f.apply(CongestionChange{2, 1, VetoSource::arn, 3}));
  ASSERT_TRUE(alone.apply(CongestionChange{2, 0, VetoSource::arn, 3}));
  EXPECT_NE(f.table(1), own);
  EXPECT_NE(f.table(1), shared);
  EXPECT_EQ(f.table(0), own);
  EXPECT_EQ(f.table(2), shared);
  const auto x = f.table(1)->entries();
  const auto y = alone.table(0)->entries();
  EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
  for (std::uint64_t h = 1; h < 2000; h += 7) {
    EXPECT_EQ(f.select(1, h, Time{}, SelectMode::per_flow),
              alone.select(0, h, Time{}, SelectMode::per_flow));
  }
  // The pool finds the shared table and destination 1's; destination 0's
  // is alive but no longer there.
  EXPECT_EQ(pool->live(), 2u);
  // So another switch taking the same two steps shares destination 1's.
  auto other = Fib::create({.max_destinations = 1, .table_size = 64},
                           std::pmr::get_default_resource(), pool);
  ASSERT_TRUE(other);
  ASSERT_TRUE(other->set_route(0, equal(1, 4), {}));
  EXPECT_EQ(other->table(0), shared);
  ASSERT_TRUE(other->apply(CongestionChange{2, 0, VetoSource::arn, 3}));
  EXPECT_EQ(other->table(0), f.table(1));
  // A third step of destination 0 still changes its table in place.
  ASSERT_TRUE(f.apply(CongestionChange{4, 0, VetoSource::arn, 1}));
  EXPECT_EQ(f.table(0), own);
}

// What one destination of a shared FIB sees equals what a FIB holding only
// that destination sees, through random control-plane histories in which
// most changes hit every destination alike (so tables are shared) and
// some hit one (so they diverge, and sometimes converge again).
TEST(FibSharing, EachDestinationSeesItsOwnHistory) {
  constexpr NodeId kDests = 6;
  constexpr PortId kPorts = 12;
  const FibConfig config{
      .max_destinations = kDests, .table_size = 64, .lsn_safety_bound = us(30)};
  std::uint64_t fallbacks_seen = 0;  // that the histories reach the fallback
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    auto pick = [&](std::uint32_t n) {
      return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
    };
    Fib shared = make(config);
    std::vector<Fib> alone;
    for (NodeId d = 0; d < kDests; ++d) alone.push_back(make(config));
    Time now;
    for (int step = 0; step < 300; ++step) {
      now = now + us(1 + pick(10));
      const bool every = pick(4) != 0;
      const NodeId one = pick(kDests);
      const PortId port = static_cast<PortId>(1 + pick(kPorts));
      const std::uint32_t op = pick(6);
      Members members;
      for (PortId p = 1; p <= kPorts; ++p) {
        if (pick(3) != 0) members.push_back({p, 1 + pick(4)});
      }
      const bool vetoed = pick(2) == 0;
      const auto source = pick(2) == 0 ? VetoSource::lsn : VetoSource::arn;
      const std::uint8_t level = static_cast<std::uint8_t>(pick(4));
      auto apply = [&](Fib& f, NodeId d) {
        switch (op) {
          case 0:
            ASSERT_TRUE(f.set_route(d, members, now));
            break;
          case 1:
          case 2:
            ASSERT_TRUE(f.apply(VetoChange{port, d, source, vetoed}, now));
            break;
          case 3:
            ASSERT_TRUE(f.apply(CongestionChange{port, d, source, level}));
            break;
          case 4:
            ASSERT_TRUE(f.set_backup(d, members));
            break;
        }
      };
      if (op == 5) {  // a local port, for every destination
        shared.set_port_up(port, vetoed);
        for (Fib& f : alone) f.set_port_up(port, vetoed);
      }
      for (NodeId d = 0; d < kDests; ++d) {
        if (op == 5 || (!every && d != one)) continue;
        apply(shared, d);
        apply(alone[d], 0);
      }
      shared.on_timer(now);
      for (Fib& f : alone) f.on_timer(now);

      std::uint64_t rebuilds = 0, moved = 0, fallbacks = 0;
      for (NodeId d = 0; d < kDests; ++d) {
        const Fib& a = alone[d];
        rebuilds += a.counters().table_rebuilds;
        moved += a.counters().entries_moved;
        fallbacks += a.counters().fallback_entered;
        ASSERT_EQ(shared.state(d), a.state(0)) << "dest " << d;
        ASSERT_EQ(shared.routing_ports(d), a.routing_ports(0));
        for (PortId p = 1; p <= kPorts; ++p) {
          ASSERT_EQ(shared.vetoed(d, p), a.vetoed(0, p));
        }
        ASSERT_EQ(shared.table(d) == nullptr, a.table(0) == nullptr);
        if (a.table(0) != nullptr) {
          const auto x = shared.table(d)->entries();
          const auto y = a.table(0)->entries();
          ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end()))
              << "dest " << d << " step " << step;
        }
        for (std::uint64_t h = 0; h < 64; ++h) {
          ASSERT_EQ(shared.select(d, h, now, SelectMode::per_flow),
                    alone[d].select(0, h, now, SelectMode::per_flow));
        }
      }
      ASSERT_EQ(shared.counters().table_rebuilds, rebuilds);
      ASSERT_EQ(shared.counters().entries_moved, moved);
      ASSERT_EQ(shared.counters().fallback_entered, fallbacks);
    }
    fallbacks_seen += shared.counters().fallback_entered;
  }
  EXPECT_GT(fallbacks_seen, 0u);
}

}  // namespace
}  // namespace arfabric::proto::fib
