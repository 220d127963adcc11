#include "sim/runner.h"

#include <gtest/gtest.h>

#include "sim/scenario/scenario.h"

namespace arfabric::sim {
namespace {

Scenario tiny() {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny.yaml");
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

std::uint64_t dropped(const ModeResult& r) {
  std::uint64_t n = 0;
  for (auto d : r.dropped) n += d;
  return n;
}

TEST(Runner, TinyScenarioFinishesInBothBgpModes) {
  const Scenario s = tiny();
  for (Mode m : {Mode::ecmp, Mode::fare}) {
    auto r = run_mode(s, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_GT(r->completion, Time{});
    EXPECT_LT(r->completion, s.stop_at);
    // 1 MB ring all-reduce over 4 hosts: each of the 4 members sends
    // 2 x 3 chunks of 250 KB = 6 MB of payload delivered in all.
    EXPECT_EQ(r->payload_bytes, 6'000'000u);
    EXPECT_GT(r->warm_up, Time{});
    EXPECT_GT(r->control_messages, 0u);
  }
}

TEST(Runner, EveryPacketIsAccountedFor) {
  auto r = run_mode(tiny(), Mode::fare);
  ASSERT_TRUE(r) << r.error();
  EXPECT_GT(r->injected, 0u);
  EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
  // The link fails mid-collective: some packets are black-holed.
  EXPECT_GT(r->dropped[static_cast<std::size_t>(DropReason::link_down)], 0u);
}

TEST(Runner, SameScenarioSameResult) {
  const Scenario s = tiny();
  auto a = run_mode(s, Mode::fare);
  auto b = run_mode(s, Mode::fare);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->completion, b->completion);
  EXPECT_EQ(a->payload_bytes, b->payload_bytes);
  EXPECT_EQ(a->dropped, b->dropped);
  EXPECT_EQ(a->packet_hops, b->packet_hops);
  EXPECT_EQ(a->control_bytes, b->control_bytes);
  EXPECT_EQ(a->bgp_convergence, b->bgp_convergence);
}

TEST(Runner, BgpConvergenceFollowsTheConfiguredDelays) {
  Scenario s = tiny();
  auto fast = run_mode(s, Mode::fare);
  s.switches.fib_programming_delay = ms(3);
  auto faster = run_mode(s, Mode::fare);
  ASSERT_TRUE(fast && faster);
  // Detection (10 us) + withdrawal processed at the spine and the leaf
  // (200 us each) + FIB programming.
  EXPECT_GT(fast->bgp_convergence, ms(10));
  EXPECT_LT(fast->bgp_convergence, ms(12));
  EXPECT_GT(faster->bgp_convergence, ms(3));
  EXPECT_LT(faster->bgp_convergence, ms(5));
}

TEST(Runner, NotYetSimulatedModesAreRefusedWithTheReason) {
  auto r = run_mode(tiny(), Mode::fare_lsn);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("not simulated yet"), std::string::npos);
}

}  // namespace
}  // namespace arfabric::sim
