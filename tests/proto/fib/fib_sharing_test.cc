// Destinations with the same port states and table history share one copy
// (fib.h, "Sharing"): shared tables are really shared, and every
// destination still sees exactly what a FIB holding it alone would give.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "proto/fib/fib.h"

namespace arfabric::proto::fib {
namespace {

using Members = std::vector<WeightedMember>;

Fib make(const FibConfig& c) {
  auto f = Fib::create(c);
  EXPECT_TRUE(f) << f.error().to_string();
  return std::move(*f);
}

Members equal(PortId first, PortId count) {
  Members m;
  for (PortId p = first; p < first + count; ++p) m.push_back({p, 1});
  return m;
}

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

// What one destination of a shared FIB sees equals what a FIB holding only
// that destination sees, through random control-plane histories in which
// most changes hit every destination alike (so tables are shared) and
// some hit one (so they diverge, and sometimes converge again).
TEST(FibSharing, EachDestinationSeesItsOwnHistory) {
  constexpr NodeId kDests = 6;
  constexpr PortId kPorts = 12;
  const FibConfig config{
      .max_destinations = kDests, .table_size = 64, .lsn_safety_bound = us(30)};
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

      std::uint64_t rebuilds = 0, moved = 0;
      for (NodeId d = 0; d < kDests; ++d) {
        const Fib& a = alone[d];
        rebuilds += a.counters().table_rebuilds;
        moved += a.counters().entries_moved;
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
    }
  }
}

}  // namespace
}  // namespace arfabric::proto::fib
