#include "sim/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <regex>
#include <string>
#include <utility>

#include "sim/output/results_json.h"
#include "sim/output/timeseries_csv.h"
#include "sim/scenario/scenario.h"

// ASan's allocator hooks: clang says so by __has_feature, GCC by
// __SANITIZE_ADDRESS__.
#if defined(__SANITIZE_ADDRESS__)
#define ARFABRIC_HAS_ALLOCATOR_HOOKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARFABRIC_HAS_ALLOCATOR_HOOKS 1
#endif
#endif
#if defined(ARFABRIC_HAS_ALLOCATOR_HOOKS)
#include <sanitizer/allocator_interface.h>
#endif
#ifndef ARFABRIC_HAS_ALLOCATOR_HOOKS
#define ARFABRIC_HAS_ALLOCATOR_HOOKS 0
#endif

namespace arfabric::sim {
namespace {

Scenario tiny() {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny.yaml");
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

// Sent toward the dead link: lost on it, or dropped by a switch whose
// group for the destination emptied (spine fast failover, no backup).
std::uint64_t black_holed(const ModeResult& r) {
  return r.dropped[static_cast<std::size_t>(DropReason::link_down)] +
         r.dropped[static_cast<std::size_t>(DropReason::no_route)];
}

std::uint64_t dropped(const ModeResult& r) {
  std::uint64_t n = 0;
  for (auto d : r.dropped) n += d;
  return n;
}

// tiny's failure, seen by ARN at both ends of the cable: spine0 has no
// other way to leaf1 and notifies; leaf1 has spine1 toward leaf0 and
// absorbs it. The counts are the ARN modes' alone.
TEST(Runner, ArnCountsDetectionsAndWhatWasAbsorbedLocally) {
  const Scenario s = tiny();
  auto arn = run_mode(s, Mode::fare_arn);
  auto ecmp = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(arn && ecmp) << (arn ? ecmp.error() : arn.error());
  ASSERT_TRUE(arn->arn.has_value());
  EXPECT_GE(arn->arn->detections, 2u);
  EXPECT_GE(arn->arn->suppressed, 1u);
  EXPECT_LT(arn->arn->suppressed, arn->arn->detections);
  EXPECT_EQ(arn->arn->waited, 0u);
  EXPECT_EQ(arn->arn->rate_limited, 0u);
  EXPECT_GT(arn->arn_messages, 0u);
  EXPECT_FALSE(ecmp->arn.has_value());
}

// ARN's messages take at most switches.arn.link_share of a switch link,
// from the start or from a degradation on. On 10M links, repetitions
// every 100 us with nothing to bound them took every link (10.8 MB of
// ARN in 2 s) and starved the data of tokens forever: control packets go
// first. Now the job finishes, and each of the 8 switch-link directions
// carries at most a tenth of 10M, its bucket's burst aside.
TEST(Runner, ArnOnSlowLinksTakesAtMostItsShare) {
  for (const bool degraded : {false, true}) {
    SCOPED_TRACE(degraded ? "degraded to 10M" : "10M from the start");
    auto s =
        parse_scenario(std::string(R"(
stop_at: 2s
modes: [fare+arn]
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G}
)") +
                           (degraded ? "  leaf_spine_link: {rate: 100G}\n"
                                     : "  leaf_spine_link: {rate: 10M}\n") +
                           R"(switches:
  arn: {hold_time: 1ms}
workloads:
  - kind: ring_allreduce
    participants: [host0.0, host1.0, host0.1, host1.1]
    bytes: 100kB
)" +
                           (degraded ? R"(events:
  - {at: 1ns, kind: degrade, link: [spine0, leaf0], rate: 10M}
  - {at: 1ns, kind: degrade, link: [spine0, leaf1], rate: 10M}
  - {at: 1ns, kind: degrade, link: [spine1, leaf0], rate: 10M}
  - {at: 1ns, kind: degrade, link: [spine1, leaf1], rate: 10M}
)"
                                     : ""),
                       "slow.yaml");
    ASSERT_TRUE(s) << s.error().to_string();
    const auto r = run_mode(*s, Mode::fare_arn);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished);
    ASSERT_GT(r->arn_messages, 0u);
    const double seconds = r->simulated.seconds();
    const double share_bytes = 8 * (0.1 * 10e6 / 8 * seconds);
    const double bursts = 8 * 20 * 90;  // 20-token buckets, 90-byte ARNs
    EXPECT_LE(static_cast<double>(r->arn_bytes), share_bytes + bursts)
        << r->arn_messages << " messages in " << seconds << " s";
  }
}

// A degradation that speeds a link back up while ARNs wait for its
// tokens re-paces the bucket from then on: the next token's deadline had
// been dated back into the past (the event queue refused it, an abort).
TEST(Runner, ArnRepacesALinkThatComesBackToFullRate) {
  auto s = parse_scenario(R"(
stop_at: 5ms
modes: [fare+arn]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 1}
switches:
  arn: {hold_time: 1ms}
workloads:
  - {kind: ring_allreduce, participants: [host0.0, host1.0], bytes: 1kB}
events:
  - {at: 10us, kind: link_down, link: [spine0, leaf1]}
  - {at: 10us, kind: degrade, link: [spine0, leaf0], rate: 10M}
  - {at: 3ms, kind: degrade, link: [spine0, leaf0], fraction: 1}
)",
                          "back.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const auto r = run_mode(*s, Mode::fare_arn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  ASSERT_TRUE(r->arn.has_value());
  EXPECT_GT(r->arn->waited, 0u);  // messages did wait for the slow link
}

// A clos3 of 2 spines and 3 leaves on 10M links (hold_time 1 ms), a
// small ring all-reduce, and spine0's link to leaf1 failing at 10 us; the
// `events` list is last, for a test to add to.
std::string slow_fabric_losing_a_link(const std::string& stop_at) {
  return "stop_at: " + stop_at + R"(
modes: [fare+arn]
topology:
  kind: clos3
  spines: 2
  leaves: 3
  hosts_per_leaf: 1
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 10M, delay: 500ns}
switches:
  arn: {hold_time: 1ms}
workloads:
  - {kind: ring_allreduce, participants: [host0.0, host1.0], bytes: 1kB}
events:
  - {at: 10us, kind: link_down, link: [spine0, leaf1]}
)";
}

// A degradation that keeps a link's rate (fraction 1, every 500 us) leaves
// its ARN pace alone: restarting the time toward the next 720 us token at
// each one silenced spine0's ARNs to leaf0 for 7 ms, leaf0's veto expired
// (hold_time 1 ms), and the job never finished.
TEST(Runner, ArnKeepsItsPaceThroughDegradationsThatKeepTheRate) {
  std::string yaml = slow_fabric_losing_a_link("8ms");
  for (int at = 500; at < 8000; at += 500)
    yaml += "  - {at: " + std::to_string(at) +
            "us, kind: degrade, link: [spine0, leaf0], fraction: 1}\n";
  auto s = parse_scenario(yaml, "same.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const auto r = run_mode(*s, Mode::fare_arn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_LT(r->hw_convergence, ms(1));
}

// On a slow link a failure's messages go before the congestion that waits
// for the same target: with congestion messages in between, spine0 told
// leaf0 of its lost leaf1 only every 1.44 ms, and leaf0's veto expired
// (hold_time 1 ms) and came back each time: hardware convergence 9.4 ms
// instead of 0.17.
TEST(Runner, ArnFailuresGoBeforeCongestionOnASlowLink) {
  auto s = parse_scenario(slow_fabric_losing_a_link("15ms"), "one.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const auto r = run_mode(*s, Mode::fare_arn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_LT(r->hw_convergence, ms(1));
}

// An ARN mode that -m adds is checked as the parser would have: 10% of a
// 10M link carries one ARN per 720 us, longer than the 500 us hold_time.
TEST(Runner, AnArnModeAddedToTheScenarioChecksItsLinkShare) {
  auto s = parse_scenario(R"(
stop_at: 1ms
modes: [fare]
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 1
  leaf_spine_link: {rate: 10M}
)",
                          "m.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_TRUE(run_mode(*s, Mode::fare));
  const auto r = run_mode(*s, Mode::fare_arn);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rfind("switches.arn.link_share: 10% of the slowest "
                            "switch link (10M) lets ARN send one 90-byte "
                            "message every 720us",
                            0),
            0u)
      << r.error();
}

// A scenario whose workloads send nothing is finished at once: completion
// 0 (not null, which means unfinished) and no negative simulated time
// (the last event came before the workloads' start).
TEST(Runner, NothingToSendIsFinishedAtOnce) {
  Scenario s = tiny();
  s.workloads.clear();
  s.events.clear();
  auto r = run_mode(s, Mode::fare);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->completion, Time{});
  EXPECT_EQ(r->job_time, Time{});
  EXPECT_GE(r->simulated, Time{});
  EXPECT_EQ(r->payload_bytes, 0u);
  auto run = ModeRun::create(s, Mode::fare);
  ASSERT_TRUE(run) << run.error();
  EXPECT_TRUE((*run)->run_until(Time::max()));
  EXPECT_GE((*run)->now(), Time{});
}

// BGP's convergence is what the run saw: tiny's link comes back at 5 ms,
// and BGP re-establishes its session and re-advertises past the 20 ms
// stop_at, which is said (bgp_settled); a later stop_at sees it end.
TEST(Runner, BgpCutShortByStopAtIsSaid) {
  Scenario s = tiny();
  ASSERT_EQ(s.stop_at, ms(20));
  auto cut = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_FALSE(cut->bgp_settled);
  s.stop_at = ms(50);
  auto whole = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_TRUE(whole->bgp_settled);
  EXPECT_GT(whole->bgp_convergence, ms(20));
  EXPECT_LT(cut->bgp_convergence, whole->bgp_convergence);
  EXPECT_LT(whole->simulated, ms(50));  // it ended when BGP was done
}

// An unfinished run says which workload flows are open: host1.0's cable
// goes down for good at 1 us, so the flows to and from it never finish;
// the rest do. The oldest open flow is one of host1.0's, with part of
// its bytes.
TEST(Runner, AnUnfinishedRunNamesItsOldestOpenFlow) {
  auto s = parse_scenario(R"(
stop_at: 2ms
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 2}
switches: {routing: static}
workloads:
  - {kind: all_to_all, bytes: 1MB, start: 0s}
events:
  - {at: 1us, kind: link_down, link: [leaf1, host1.0]}
)",
                          "cut.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto r = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  ASSERT_FALSE(r->finished);
  EXPECT_EQ(r->open_flows, 6u);  // 3 to host1.0, 3 from it
  ASSERT_TRUE(r->oldest_open_flow);
  const auto& o = *r->oldest_open_flow;
  const NodeIndex cut = *s->topology.find("host1.0");
  EXPECT_TRUE(o.source == cut || o.destination == cut);
  EXPECT_EQ(o.bytes, 1'000'000u);
  EXPECT_LT(o.delivered, o.bytes);
  EXPECT_EQ(o.started, Time{});
  // Finished: none open.
  s->events.clear();
  auto done = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(done) << done.error();
  ASSERT_TRUE(done->finished);
  EXPECT_EQ(done->open_flows, 0u);
  EXPECT_FALSE(done->oldest_open_flow);
}

// A job is timed from its first workload's start: the same collective
// started 300 us later takes as long, and its goodput is over that time
// (it was over the completion, counted from the warm-up's end, so a late
// start read as a slow job).
TEST(Runner, AJobIsTimedFromItsFirstWorkloadsStart) {
  Scenario s = tiny();
  s.events.clear();
  auto at_zero = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(at_zero) << at_zero.error();
  ASSERT_TRUE(at_zero->finished);
  EXPECT_EQ(at_zero->job_time, at_zero->completion);
  s.workloads[0].start = us(300);
  auto late = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(late) << late.error();
  ASSERT_TRUE(late->finished);
  EXPECT_EQ(late->job_time, late->completion - us(300));
  EXPECT_EQ(late->job_time, at_zero->job_time);
  EXPECT_DOUBLE_EQ(late->goodput_gbps, at_zero->goodput_gbps);
  EXPECT_DOUBLE_EQ(late->goodput_gbps,
                   static_cast<double>(late->payload_bytes) * 8 /
                       late->job_time.seconds() / 1e9);
  // Payload an incast delivered before the job is not the job's: with it
  // a 4.2 us job showed 75,612 G on 100G links.
  auto with_incast = parse_scenario(R"(
stop_at: 20ms
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 2,
           host_link: {rate: 100G}, leaf_spine_link: {rate: 100G}}
switches: {routing: static}
workloads:
  - {kind: all_to_all, bytes: 10KB, start: 5ms}
events:
  - {at: 100us, kind: incast, link: [spine0, leaf1], senders: all,
     bytes: 2MB}
)",
                                    "incast.yaml");
  ASSERT_TRUE(with_incast) << with_incast.error().to_string();
  auto r = run_mode(*with_incast, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  ASSERT_TRUE(r->finished);
  EXPECT_GT(r->payload_bytes, 6'000'000u);  // the incast's, mostly
  // The job's payload alone: 12 flows of 10 KB over its time.
  EXPECT_DOUBLE_EQ(r->goodput_gbps,
                   12.0 * 10'000 * 8 / r->job_time.seconds() / 1e9);
  EXPECT_LE(r->goodput_gbps, 400);  // four hosts receive at most 4 x 100G
  // And an incast running during the job adds nothing either.
  with_incast->events[0].at = us(5'001);
  auto during = run_mode(*with_incast, Mode::ecmp);
  ASSERT_TRUE(during) << during.error();
  ASSERT_TRUE(during->finished);
  EXPECT_DOUBLE_EQ(during->goodput_gbps,
                   12.0 * 10'000 * 8 / during->job_time.seconds() / 1e9);
}

// A workload with nothing to send does not start the job: one with a
// single participant, or a Poisson workload with no arrival, at 0 beside
// the same collective at 300 us leaves its job time as it was (they had
// made it 300 us longer).
TEST(Runner, AWorkloadWithNothingToSendDoesNotStartTheJob) {
  Scenario s = tiny();
  s.events.clear();
  s.workloads[0].start = us(300);
  auto alone = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(alone) << alone.error();
  ASSERT_TRUE(alone->finished);
  WorkloadSpec lonely = s.workloads[0];
  lonely.participants.resize(1);
  lonely.start = Time{};
  s.workloads.push_back(lonely);
  auto quiet = parse_scenario(
      R"(
stop_at: 20ms
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 2}
workloads:
  - {kind: poisson, load: 0.01, duration: 1ns,
     flow_size_cdf: )" +
          std::string(ARFABRIC_SOURCE_DIR) +
          R"(/data/workloads/GoogleRPC2008.txt}
)",
      "quiet.yaml");
  ASSERT_TRUE(quiet) << quiet.error().to_string();
  s.workloads.push_back(quiet->workloads[0]);
  auto with_idle = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(with_idle) << with_idle.error();
  ASSERT_TRUE(with_idle->finished);
  EXPECT_EQ(with_idle->flows_completed, 0u);  // no Poisson arrival
  EXPECT_EQ(with_idle->job_time, alone->job_time);
  EXPECT_EQ(with_idle->job_time, with_idle->completion - us(300));
}

// A Poisson workload starts the job with its first arrival, not at its
// `start`: the time before it sends nothing.
TEST(Runner, APoissonJobStartsWithItsFirstArrival) {
  auto s = parse_scenario(
      R"(
stop_at: 20ms
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 2}
workloads:
  - {kind: poisson, load: 0.001, duration: 1ms,
     flow_size_cdf: )" +
          std::string(ARFABRIC_SOURCE_DIR) +
          R"(/data/workloads/GoogleRPC2008.txt}
)",
      "first.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->workloads[0].start, Time{});
  auto r = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  ASSERT_TRUE(r->finished);
  ASSERT_GT(r->flows_completed, 0u);
  // At 0.1% of 400G with ~2 KB flows, the first of 4 hosts' arrivals
  // comes microseconds after 0; the job runs from it.
  EXPECT_LT(r->job_time, r->completion);
  EXPECT_GE(r->job_time, r->fct_mean);
}

// LSN and ARN steer traffic to a multi-homed host too (no LSN bit and
// no leaf prefix names it): examples/scenarios/multihomed_failure.yaml,
// s is on leaf1 and leaf2, and spine0 loses both. The hosts on leaf3 must
// stop sending to s through spine0. With BGP, routing takes ~10 ms,
// during which spine0 drops what it gets for s; with static routes
// nothing else ever re-routes.
TEST(Runner, LsnAndArnVetoAPathToAMultiHomedHostThatLostEveryLeaf) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/multihomed_failure.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const auto no_route = [](const ModeResult& r) {
    return r.dropped[static_cast<std::size_t>(DropReason::no_route)];
  };
  auto fare = run_mode(*s, Mode::fare);
  auto lsn = run_mode(*s, Mode::fare_lsn);
  ASSERT_TRUE(fare) << fare.error();
  ASSERT_TRUE(lsn) << lsn.error();
  EXPECT_TRUE(fare->finished);
  EXPECT_TRUE(lsn->finished);
  EXPECT_GT(no_route(*fare), 50u);
  EXPECT_EQ(no_route(*lsn), 0u);
  EXPECT_GT(fare->completion, ms(10));
  EXPECT_LT(lsn->completion, ms(1));

  Scenario static_routes = *s;
  static_routes.switches.routing = Routing::static_ecmp;
  static_routes.stop_at = ms(5);
  auto stuck = run_mode(static_routes, Mode::fare);
  ASSERT_TRUE(stuck) << stuck.error();
  EXPECT_FALSE(stuck->finished);
  EXPECT_GT(no_route(*stuck), 100u);
  // Unfinished, it simulated to stop_at whenever its last event was: its
  // goodput and its time series cover all 5 ms.
  EXPECT_EQ(stuck->simulated, ms(5));
  EXPECT_DOUBLE_EQ(
      stuck->goodput_gbps,
      static_cast<double>(stuck->payload_bytes) * 8 / ms(5).seconds() / 1e9);
  ASSERT_FALSE(stuck->samples.empty());
  EXPECT_EQ(stuck->samples.back().at, ms(5));
  Time covered{};
  for (const TimeSample& sample : stuck->samples) covered += sample.duration;
  EXPECT_EQ(covered, ms(5));
  for (Mode m : {Mode::fare_lsn, Mode::fare_arn, Mode::fare_lsn_arn}) {
    auto r = run_mode(static_routes, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_LT(r->completion, ms(1)) << mode_name(m);
    // What was on its way to spine0 when the veto landed, at most.
    EXPECT_LT(no_route(*r), 20u) << mode_name(m);
    EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
  }
}

// A multi-homed host (FARE-BGP section 4.1) runs with BGP or static
// routes, and through a failure of one of its cables.
TEST(Runner, AMultiHomedHostRunsWithBgpOrStaticRoutes) {
  auto s = parse_scenario(R"(
name: multihomed
stop_at: 60ms
topology:
  kind: edges
  allow_multihoming: true
  default_link: {rate: 100G, delay: 500ns}
  nodes:
    - {name: spine1, role: spine}
    - {name: leaf1, role: leaf}
    - {name: leaf2, role: leaf}
    - {name: h1, role: host}
    - {name: h2, role: host}
  links:
    - [spine1, leaf1]
    - [spine1, leaf2]
    - [h1, leaf2]
    - [h2, leaf1]
    - [h2, leaf2]
workloads:
  - {kind: all_to_all, participants: all, bytes: 4MB}
)",
                          "multihomed.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  for (Mode m : {Mode::ecmp, Mode::fare_lsn_arn}) {
    auto r = run_mode(*s, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
  }

  // Static routes reach it through both its leaves.
  Scenario static_routes = *s;
  static_routes.switches.routing = Routing::static_ecmp;
  for (Mode m : {Mode::ecmp, Mode::fare_lsn_arn}) {
    auto r = run_mode(static_routes, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_EQ(dropped(*r), 0u) << mode_name(m);
    EXPECT_EQ(r->injected, r->delivered + r->in_flight);
  }

  // Its cable to leaf2 (h1's leaf) fails at 20 us and is back at 40 ms:
  // leaf2 drops h1's packets to it until it has withdrawn the host and
  // programmed BGP's route through leaf1 (10 ms of FIB programming), then
  // forwards them that way, and the flows finish before the cable is back
  // (at ~15 ms, the transport's backed-off retransmission).
  Scenario host_link_flap = *s;
  const NodeIndex h2 = *s->topology.find("h2");
  const NodeIndex leaf2 = *s->topology.find("leaf2");
  EventSpec down;
  down.at = us(20);
  down.kind = EventKind::link_down;
  down.a = h2;
  down.b = leaf2;
  down.link = *s->topology.find_link(h2, leaf2);
  EventSpec up = down;
  up.at = ms(40);
  up.kind = EventKind::link_up;
  host_link_flap.events = {down, up};
  for (Mode m : {Mode::fare, Mode::fare_lsn_arn}) {
    auto r = run_mode(host_link_flap, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_GT(r->dropped[static_cast<std::size_t>(DropReason::no_route)], 0u)
        << mode_name(m);
    EXPECT_GT(r->completion, ms(10)) << mode_name(m);
    EXPECT_LT(r->completion, ms(40)) << mode_name(m);
    EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
  }
  // With static routes nothing re-routes: leaf2 drops h1's packets to h2
  // until the cable is back, and the flows finish after that.
  Scenario static_flap = host_link_flap;
  static_flap.switches.routing = Routing::static_ecmp;
  static_flap.stop_at = ms(200);
  auto r = run_mode(static_flap, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_GT(r->dropped[static_cast<std::size_t>(DropReason::no_route)], 0u);
  EXPECT_GT(r->completion, ms(40));
  EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
}

// The parser checks the LSN period only when the file's modes include
// LSN; a mode the sim command's -m adds is checked as it is built, and
// does not run.
TEST(Runner, AnLsnModeAddedToTheScenariosChecksThePeriod) {
  auto s = parse_scenario(R"(
stop_at: 1ms
modes: [fare]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 1}
switches:
  lsn: {period: 2ns}
)",
                          "m.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_TRUE(run_mode(*s, Mode::fare));
  const auto r = run_mode(*s, Mode::fare_lsn);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rfind("switches.lsn.period: 2ns: the LSN frames", 0), 0u)
      << r.error();

  // Queue thresholds the mode reads that a full queue might never reach.
  auto small = parse_scenario(R"(
stop_at: 1ms
modes: [fare]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 1}
switches: {buffer_per_port: 6KB, ecn_threshold: 1KB}
)",
                              "b.yaml");
  ASSERT_TRUE(small) << small.error().to_string();
  const auto low = run_mode(*small, Mode::fare_lsn);
  ASSERT_FALSE(low);
  EXPECT_EQ(low.error().rfind("switches.lsn.congestion_rise[2]: LSN "
                              "congestion level 3's rise (3KB) might never",
                              0),
            0u)
      << low.error();

  // More leaves than LSN can name: said before the fabric is built.
  auto wide = parse_scenario(R"(
stop_at: 1ms
modes: [ecmp]
topology: {kind: clos3, spines: 1, leaves: 16385, hosts_per_leaf: 1}
switches: {routing: static}
)",
                             "w.yaml");
  ASSERT_TRUE(wide) << wide.error().to_string();
  const auto too_many = run_mode(*wide, Mode::fare_lsn);
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().rfind("topology: 16385 leaves: LSN Global", 0), 0u)
      << too_many.error();
}

// `simulated` runs to the last thing the run handled, an event outside the
// queue included: a degrade in ecmp queues nothing, and the run used to
// end at its last queue event (0 here) while its time series went on to
// the degrade.
TEST(Runner, SimulatedReachesTheLastScenarioEvent) {
  auto s = parse_scenario(R"(
stop_at: 300us
modes: [ecmp]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 1}
events: [{at: 150us, kind: degrade, link: [spine0, leaf0], fraction: 0.5}]
)",
                          "d.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const auto r = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->simulated, us(150));
  ASSERT_FALSE(r->samples.empty());
  EXPECT_EQ(r->samples.back().at, us(150));
}

// An incast's flows are background: no workload's completion counts them.
// They used to count as all-to-all flows, so that an all-to-all with a
// short incast "completed" when as many flows as it had were done, before
// its own last one (99.4 us here, against 105.5 us without the incast).
// Two all-to-alls at once each complete (they shared one count, and the
// run never finished). Goodput is the payload delivered by the
// completion, over it: an incast that goes on after the workloads adds
// nothing (it used to add all its bytes, 7x the links' rate here). An
// incast alone has no completion, but its goodput is over the run, which
// ends when its flows have, or at stop_at.
TEST(Runner, WorkloadsCompleteOnTheirOwnFlows) {
  const std::string head = R"(
stop_at: 5ms
modes: [ecmp]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 2,
           host_link: {rate: 100G}}
)";
  const std::string a2a =
      "workloads: [{kind: all_to_all, participants: all, bytes: 1MB}]\n";
  const std::string incast =
      "events: [{at: 1us, kind: incast, link: [spine0, leaf1], senders: "
      "all, bytes: 4KB}]\n";
  auto run = [](const std::string& yaml) {
    auto s = parse_scenario(yaml, "w.yaml");
    EXPECT_TRUE(s) << s.error().to_string();
    auto r = run_mode(*s, Mode::ecmp);
    EXPECT_TRUE(r) << r.error();
    return *r;
  };
  const ModeResult alone = run(head + a2a);
  const ModeResult with_incast = run(head + a2a + incast);
  ASSERT_TRUE(alone.finished);
  ASSERT_TRUE(with_incast.finished);
  EXPECT_GT(with_incast.incast_flows, 0u);
  EXPECT_GE(with_incast.completion, alone.completion);

  const ModeResult two = run(head + R"(workloads:
  - {kind: all_to_all, participants: all, bytes: 1MB}
  - {kind: all_to_all, participants: all, bytes: 100KB}
)");
  EXPECT_TRUE(two.finished);
  EXPECT_GE(two.completion, alone.completion);
  EXPECT_EQ(two.payload_bytes, 12u * 1'100'000u);

  const ModeResult only_incast = run(head + incast);
  EXPECT_TRUE(only_incast.finished);
  EXPECT_EQ(only_incast.completion, Time{});
  EXPECT_EQ(only_incast.payload_bytes, 3u * 4'000u);
  EXPECT_DOUBLE_EQ(only_incast.goodput_gbps,
                   static_cast<double>(only_incast.payload_bytes) * 8 /
                       only_incast.simulated.seconds() / 1e9);
  EXPECT_GT(only_incast.goodput_gbps, 0);

  const ModeResult long_incast =
      run(head +
          "workloads: [{kind: ring_allreduce, participants: all, bytes: "
          "64KB}]\n"
          "events: [{at: 0us, kind: incast, link: [spine0, leaf1], senders: "
          "all, bytes: 4MB}]\n");
  ASSERT_TRUE(long_incast.finished);
  EXPECT_GT(long_incast.payload_bytes, 12'000'000u);  // the incast's too
  EXPECT_LE(long_incast.goodput_gbps, 4 * 100.0);     // four host links
  EXPECT_GT(long_incast.goodput_gbps, 0);

  // Cut at stop_at with its flows running: it simulated to stop_at.
  const ModeResult cut =
      run("stop_at: 20us\n" + head.substr(head.find("modes:")) +
          "events: [{at: 1us, kind: incast, link: [spine0, leaf1], senders: "
          "all, bytes: 1MB}]\n");
  EXPECT_GT(cut.in_flight, 0u);
  EXPECT_EQ(cut.simulated, us(20));
  EXPECT_DOUBLE_EQ(cut.goodput_gbps, static_cast<double>(cut.payload_bytes) *
                                         8 / us(20).seconds() / 1e9);
}

// Parsing is not enough: each small example runs every mode it lists and
// delivers data (an example whose hosts the simulator cannot model, or
// whose flows never complete, fails here), and every packet it sent is
// accounted for (edges.yaml's ARN modes end with a message between its
// arrival and its processing: it is delivered, not in flight).
TEST(Runner, EverySmallExampleRunsItsModes) {
  std::size_t ran = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios")) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    auto s = load_scenario_file(entry.path().string());
    ASSERT_TRUE(s) << name << ": " << s.error().to_string();
    if (s->topology.nodes.size() > 16) continue;
    ++ran;
    for (Mode m : s->modes) {
      auto r = run_mode(*s, m);
      ASSERT_TRUE(r) << name << " " << mode_name(m) << ": " << r.error();
      EXPECT_GT(r->payload_bytes, 0u) << name << " " << mode_name(m);
      EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight)
          << name << " " << mode_name(m);
      // The time series' rows add up to the run's totals: LSN's first
      // frames at the start and what happened at the very end included.
      std::uint64_t payload = 0, drops = 0, control = 0;
      for (const TimeSample& sample : r->samples) {
        payload += sample.payload_bytes;
        for (std::uint64_t d : sample.dropped) drops += d;
        control += sample.control_messages;
      }
      EXPECT_EQ(payload, r->payload_bytes) << name << " " << mode_name(m);
      EXPECT_EQ(drops, dropped(*r)) << name << " " << mode_name(m);
      // BGP's messages of the warm-up are in no row.
      EXPECT_GE(control, r->lsn_frames + r->arn_messages)
          << name << " " << mode_name(m);
      EXPECT_LE(control, r->lsn_frames + r->arn_messages + r->control_messages)
          << name << " " << mode_name(m);
      ASSERT_FALSE(r->samples.empty());
      EXPECT_EQ(r->samples.back().packets_in_flight, r->in_flight)
          << name << " " << mode_name(m);
    }
  }
  EXPECT_GE(ran, 3u);  // tiny, tiny_degrade, edges
}

// Prefetching two or three events ahead (automatic by size, so small
// examples always use two) changes speed only: with BGP, LSN, ARN, IBCS,
// failures, a multi-homed host and per-packet spraying, every mode's
// results are the same at both depths.
TEST(Runner, PrefetchDepthChangesNoResult) {
  for (const char* example : {"edges.yaml", "tiny_degrade.yaml"}) {
    auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                                "/examples/scenarios/" + example);
    ASSERT_TRUE(s) << example << ": " << s.error().to_string();
    std::vector<ModeResult> by_depth[2];
    for (int d = 0; d < 2; ++d) {
      RunOptions options;
      options.prefetch_depth = d == 0 ? 2 : 3;
      for (Mode m : s->modes) {
        auto r = run_mode(*s, m, options);
        ASSERT_TRUE(r) << example << " " << mode_name(m) << ": " << r.error();
        by_depth[d].push_back(std::move(*r));
      }
    }
    EXPECT_EQ(output::results_json(*s, by_depth[0]),
              output::results_json(*s, by_depth[1]))
        << example;
  }
}

// The parser refuses these, but a scenario built in code reaches the
// network's own checks: their errors name nodes and links as the
// scenario does, not by index.
TEST(Runner, NetworkErrorsNameNodesAndLinks) {
  Scenario lonely = tiny();
  NodeSpec host;
  host.name = "lonely";
  host.role = NodeRole::host;
  lonely.topology.nodes.push_back(host);
  auto r = run_mode(lonely, Mode::ecmp);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "node 'lonely': a host needs a cable");

  Scenario stopped = tiny();
  LinkSpec& l = stopped.topology.links[0];
  l.rate = 0;
  r = run_mode(stopped, Mode::ecmp);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "link [" + stopped.topology.nodes[l.a].name + ", " +
                           stopped.topology.nodes[l.b].name +
                           "].rate: must be above 0");
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

// The BGP warm-up reports where it has got at every simulated
// millisecond from 0, up to the warm-up's end with every session up; with
// static routes there is no warm-up and nothing is reported.
TEST(Runner, TheWarmUpReportsItsProgress) {
  Scenario s = tiny();
  std::vector<WarmUpProgress> seen;
  std::vector<double> progress;
  std::size_t reports_before_progress = 0;
  RunOptions o;
  o.warm_up_progress = [&](const WarmUpProgress& w) { seen.push_back(w); };
  o.progress = [&](double f) {
    if (progress.empty()) reports_before_progress = seen.size();
    progress.push_back(f);
  };
  auto r = run_mode(s, Mode::fare, o);
  ASSERT_TRUE(r) << r.error();
  ASSERT_FALSE(seen.empty());
  // The run's progress starts at 0, after the warm-up's last report.
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.front(), 0.0);
  EXPECT_EQ(reports_before_progress, seen.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].simulated, ms(1) * static_cast<std::int64_t>(i));
    if (i == 0) continue;
    EXPECT_GE(seen[i].messages, seen[i - 1].messages);
    EXPECT_GE(seen[i].fib_updates, seen[i - 1].fib_updates);
  }
  EXPECT_EQ(seen.back().simulated, r->warm_up);
  EXPECT_TRUE(seen.back().established);
  EXPECT_GT(seen.back().messages, 0u);
  EXPECT_GT(seen.back().fib_updates, 0u);
  EXPECT_LE(seen.back().messages, r->control_messages);

  s.switches.routing = Routing::static_ecmp;
  seen.clear();
  ASSERT_TRUE(run_mode(s, Mode::fare, o));
  EXPECT_TRUE(seen.empty());
}

// Static routes report their progress leaf by leaf, before the workload
// starts; BGP's routes do not (the warm-up reports instead).
TEST(Runner, StaticRoutesReportTheirProgress) {
  Scenario s = tiny();
  std::vector<std::pair<std::size_t, std::size_t>> seen;
  bool started = false;
  RunOptions o;
  o.routes_progress = [&](std::size_t done, std::size_t leaves) {
    EXPECT_FALSE(started);
    seen.emplace_back(done, leaves);
  };
  o.progress = [&](double) { started = true; };
  ASSERT_TRUE(run_mode(s, Mode::fare, o));
  EXPECT_TRUE(seen.empty());
  s.switches.routing = Routing::static_ecmp;
  started = false;
  ASSERT_TRUE(run_mode(s, Mode::fare, o));
  EXPECT_TRUE(started);
  EXPECT_EQ(seen,
            (std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}, {2, 2}}));
}

// A ring all-gather runs to the end: 1 MB final buffers over 4 hosts are
// 3 steps in which each member passes on one 250 KB chunk, 3 MB in all,
// half the all-reduce's payload, so it finishes sooner.
TEST(Runner, RingAllGatherDeliversEveryChunk) {
  Scenario s = tiny();
  s.events.clear();
  auto reduce = run_mode(s, Mode::ecmp);
  s.workloads[0].kind = WorkloadKind::all_gather;
  auto gather = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(reduce && gather);
  EXPECT_TRUE(gather->finished);
  EXPECT_EQ(gather->payload_bytes, 3'000'000u);
  EXPECT_EQ(dropped(*gather), 0u);  // no failure, no overflow
  EXPECT_LT(gather->completion, reduce->completion);
  EXPECT_EQ(gather->injected, gather->delivered + gather->in_flight);
}

TEST(Runner, EveryPacketIsAccountedFor) {
  auto r = run_mode(tiny(), Mode::fare);
  ASSERT_TRUE(r) << r.error();
  EXPECT_GT(r->injected, 0u);
  EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
  // The link fails mid-collective: some packets are black-holed.
  EXPECT_GT(r->dropped[static_cast<std::size_t>(DropReason::link_down)], 0u);
}

TEST(Runner, IbcsSignalsReachEveryReceiverWithoutChangingTheRun) {
  Scenario s = tiny();
  auto plain = run_mode(s, Mode::fare_lsn);
  s.switches.ibcs = IbcsParams{};
  s.switches.ibcs->signal = IbcsSignal::nqd;
  auto signalled = run_mode(s, Mode::fare_lsn);
  ASSERT_TRUE(plain && signalled);
  EXPECT_FALSE(plain->ibcs.enabled);
  EXPECT_EQ(plain->ibcs.delivered.delivered, 0u);
  const IbcsResult& r = signalled->ibcs;
  ASSERT_TRUE(r.enabled);
  EXPECT_EQ(r.signal, IbcsSignal::nqd);
  // Every data packet that arrived carried the signal (ACKs carry none).
  std::uint64_t histogram = 0;
  for (auto n : r.delivered.histogram) histogram += n;
  EXPECT_EQ(histogram, r.delivered.delivered);
  EXPECT_GE(r.delivered.delivered, 6'000'000u / s.hosts.mss_bytes);
  EXPECT_GT(r.switches.rewritten, 0u);
  EXPECT_EQ(r.switches.fail_open, 0u);  // ewma: a value from the 1st sample
  // Each data packet is scrubbed once, at its first leaf (hosts are
  // untrusted), delivered or not.
  EXPECT_GE(r.switches.scrubbed, r.delivered.delivered);
  EXPECT_GT(r.delivered.histogram[0], 0u);  // idle paths
  EXPECT_GT(r.delivered.sum, 0u);           // and queues somewhere
  // The signal is carried, not acted on: the run is the same packet for
  // packet.
  EXPECT_EQ(signalled->completion, plain->completion);
  EXPECT_EQ(signalled->packet_hops, plain->packet_hops);
  EXPECT_EQ(signalled->dropped, plain->dropped);
}

// With hosts.congestion_control: ibcs the echoed signal drives the
// windows: seven 1 MB senders into one 100G host link, with the queue
// depth (nqd) signal, keep the queue near the target they are given.
TEST(Runner, IbcsCongestionControlHoldsTheQueueNearItsTarget) {
  const std::string text = R"(
name: ibcs_incast
stop_at: 20ms
modes: [ecmp]
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 4
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
switches:
  buffer_per_port: 200KB
  ibcs: {signal: nqd}
workloads:
  - {kind: all_to_all, participants: [host0.0, host1.0], bytes: 4KB}
events:
  - {at: 10us, kind: incast, link: [leaf0, host0.0], senders: all, bytes: 1MB}
hosts:
  initial_window: 4
  congestion_control: ibcs
)";
  // The scenario with another signal and the target given.
  const auto run = [&](std::string_view signal, int target) {
    std::string yaml = text;
    yaml.replace(yaml.find("nqd"), 3, signal);
    auto s = parse_scenario(
        yaml + "  ibcs_target: " + std::to_string(target) + "\n", "t.yaml");
    EXPECT_TRUE(s) << s.error().to_string();
    auto r = run_mode(*s, Mode::ecmp);
    EXPECT_TRUE(r) << r.error();
    return *r;
  };
  const ModeResult low = run("nqd", 1);
  const ModeResult high = run("nqd", 30);  // congested only when full
  for (const ModeResult* r : {&low, &high}) {
    EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
    EXPECT_EQ(r->in_flight, 0u);  // every incast flow completed
  }
  const auto mean = [](const ModeResult& r) {
    return static_cast<double>(r.ibcs.delivered.sum) /
           static_cast<double>(r.ibcs.delivered.delivered);
  };
  // Measured: mean delivered signal 2.06 (no drop) against 17.2 (91
  // queue overflows).
  EXPECT_LT(mean(low), 3.0);
  EXPECT_GT(mean(high), 10.0);
  EXPECT_EQ(dropped(low), 0u);
  EXPECT_GT(high.dropped[static_cast<std::size_t>(DropReason::queue_overflow)],
            0u);

  // A MIN signal works the other way round: with the available fraction
  // (abw_c), target 31 is congested at any load and target 1 only on a
  // saturated link. Measured: no drop against 90 queue overflows.
  const ModeResult cautious = run("abw_c", 31);
  const ModeResult saturated = run("abw_c", 1);
  EXPECT_EQ(cautious.in_flight, 0u);
  EXPECT_EQ(dropped(cautious), 0u);
  EXPECT_GT(
      saturated.dropped[static_cast<std::size_t>(DropReason::queue_overflow)],
      0u);
}

// Runs an example in ecmp and in fare, which must both finish the same
// payload, and returns their job times (completion minus the first
// workload's start).
std::pair<Time, Time> ecmp_and_fare_jobs(const std::string& example) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/" + example);
  EXPECT_TRUE(s) << s.error().to_string();
  if (!s) return {};
  auto ecmp = run_mode(*s, Mode::ecmp);
  auto fare = run_mode(*s, Mode::fare);
  EXPECT_TRUE(ecmp && fare) << (ecmp ? fare.error() : ecmp.error());
  if (!ecmp || !fare) return {};
  EXPECT_TRUE(ecmp->finished && fare->finished) << example;
  EXPECT_EQ(fare->payload_bytes, ecmp->payload_bytes) << example;
  const Time start = s->workloads[0].start;
  return {ecmp->completion - start, fare->completion - start};
}

TEST(Runner, FarePaysOffForADegradationThatLasts) {
  // examples/scenarios/fare_pays.yaml: leaf1-spine0 at 25G from time 0, an
  // all-to-all from 20 ms, once BGP has carried the new Path Bandwidth.
  const auto [ecmp_job, fare_job] = ecmp_and_fare_jobs("fare_pays.yaml");
  // Equal-cost ECMP sends half of leaf1's traffic over the 25G lane;
  // FARE weighs the two uplinks 25:100 and finishes much sooner.
  EXPECT_LT(fare_job.ps() * 3, ecmp_job.ps() * 2)
      << "fare " << fare_job.seconds() << " s, ecmp " << ecmp_job.seconds()
      << " s";
}

TEST(Runner, FarePaysOffForAMultiHomedServer) {
  // examples/scenarios/multihomed.yaml: s on leaf1 and leaf2, spine0-leaf2
  // at 25G from time 0, an all-to-all from 20 ms.
  const auto [ecmp_job, fare_job] = ecmp_and_fare_jobs("multihomed.yaml");
  // ECMP sends a quarter of the flows into s over the 25G lane; FARE's
  // weights (spine0 100 : 25, leaf3 62.5 : 100) keep most of them off it.
  EXPECT_LT(fare_job.ps() * 4, ecmp_job.ps() * 3)
      << "fare " << fare_job.seconds() << " s, ecmp " << ecmp_job.seconds()
      << " s";
}

// An incast event steers its senders onto the named cable: every sender
// but the receiver's neighbour on leaf3 finds a source port whose path
// crosses spine2 -> leaf3 (tests/sim/flows_test.cc checks the packets).
TEST(Runner, AnIncastIsSteeredOntoItsCable) {
  const std::string text = R"(
name: incast
stop_at: 20ms
topology:
  kind: clos3
  spines: 4
  leaves: 4
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
workloads:
  - {kind: all_to_all, participants: [host0.0, host1.0], bytes: 4KB}
events:
  - {at: 10us, kind: incast, link: [spine2, leaf3], senders: all, bytes: 64KB}
)";
  auto s = parse_scenario(text, "incast.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto r = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->incast_flows, 7u);
  EXPECT_EQ(r->incast_steered, 6u);
  EXPECT_NE(output::results_json(*s, {*r}).find("\"incast\""),
            std::string::npos);

  auto sprayed = parse_scenario(
      text + "switches: {path_selection: per_packet}\n", "incast.yaml");
  ASSERT_TRUE(sprayed) << sprayed.error().to_string();
  r = run_mode(*sprayed, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->incast_flows, 7u);
  EXPECT_EQ(r->incast_steered, 0u);
}

// The imbalance counts transport packets (data and ACKs), not control
// packets. Two hosts exchange 1 MB each way over an idle fabric, where no
// mode changes a path: every mode reads the same imbalance, though BGP's
// messages and LSN's and ARN's frames cross every fabric link. (Counted,
// they made the modes differ: here in the fourth digit, in
// examples/scenarios/lsn256.yaml 22.2 for fare+lsn against ecmp's 2.0.)
TEST(Runner, ImbalanceCountsDataBytesOnly) {
  auto s = parse_scenario(R"(
name: two_flows
stop_at: 20ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 1
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
workloads:
  - {kind: all_to_all, participants: [host0.0, host1.0], bytes: 1MB}
)",
                          "two_flows.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto ecmp = run_mode(*s, Mode::ecmp);
  ASSERT_TRUE(ecmp) << ecmp.error();
  EXPECT_GE(ecmp->utilisation_imbalance, 1.0);
  EXPECT_LE(ecmp->utilisation_imbalance, 2.0);
  for (Mode m : {Mode::fare_lsn, Mode::fare_arn, Mode::fare_lsn_arn}) {
    auto r = run_mode(*s, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_GT(r->lsn_frames + r->arn_messages, 0u) << mode_name(m);
    EXPECT_EQ(r->payload_bytes, ecmp->payload_bytes) << mode_name(m);
    EXPECT_DOUBLE_EQ(r->utilisation_imbalance, ecmp->utilisation_imbalance)
        << mode_name(m);
  }
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

// Run in steps of 7 us (across the workload's start, the failure at
// 100 us and the end), a run is the run run_mode gives in one call, byte
// for byte; each step ends where it was asked to.
TEST(ModeRun, RunningInStepsGivesTheResultOfOneCall) {
  const Scenario s = tiny();
  for (Mode m : {Mode::fare, Mode::fare_lsn_arn}) {
    auto whole = run_mode(s, m);
    ASSERT_TRUE(whole) << whole.error();
    auto run = ModeRun::create(s, m);
    ASSERT_TRUE(run) << run.error();
    std::size_t steps = 0;
    for (Time t = us(7); !(*run)->run_until(t); t += us(7)) {
      ASSERT_EQ((*run)->now(), t) << mode_name(m);
      ++steps;
    }
    EXPECT_GT(steps, 50u) << mode_name(m);
    EXPECT_TRUE((*run)->over());
    EXPECT_EQ((*run)->now(), whole->simulated) << mode_name(m);
    const ModeResult stepped = (*run)->finish();
    EXPECT_EQ(output::results_json(s, {*whole}),
              output::results_json(s, {stepped}))
        << mode_name(m);
    EXPECT_EQ(output::timeseries_csv({*whole}),
              output::timeseries_csv({stepped}))
        << mode_name(m);
  }
}

// Events due at `until` happen in that step, later ones do not; once
// over, the run stays where it ended.
TEST(ModeRun, RunUntilHandlesWhatIsDueByThenAndNoMore) {
  const Scenario s = tiny();  // spine0-leaf1 fails at 100 us
  const std::size_t cable = *s.topology.find_link(*s.topology.find("spine0"),
                                                  *s.topology.find("leaf1"));
  auto run = ModeRun::create(s, Mode::fare);
  ASSERT_TRUE(run) << run.error();
  ModeRun& r = **run;
  auto cable_up = [&] {
    return r.network().link(r.network().cable_links(cable)[0]).up();
  };
  EXPECT_EQ(r.now(), Time{});
  EXPECT_FALSE(r.run_until(us(100) - ps(1)));
  EXPECT_EQ(r.now(), us(100) - ps(1));
  EXPECT_TRUE(cable_up());
  EXPECT_GT(r.network().counters().packet_hops, 0u);
  EXPECT_FALSE(r.run_until(us(100)));
  EXPECT_FALSE(cable_up());
  // A time already passed, or before the workload, handles nothing.
  const std::uint64_t hops = r.network().counters().packet_hops;
  EXPECT_FALSE(r.run_until(us(50)));
  EXPECT_FALSE(r.run_until(Time{} - us(1)));
  EXPECT_EQ(r.now(), us(100));
  EXPECT_EQ(r.network().counters().packet_hops, hops);
  EXPECT_FALSE(r.run_until(us(101)));
  EXPECT_GT(r.network().counters().packet_hops, hops);

  EXPECT_TRUE(r.run_until(Time::max()));
  const Time end = r.now();
  EXPECT_GT(end, ms(1));
  EXPECT_TRUE(r.run_until(end + ms(5)));
  EXPECT_EQ(r.now(), end);
  const ModeResult result = r.finish();
  EXPECT_TRUE(result.finished);
  EXPECT_EQ(result.simulated, end);
}

// A run stopped part way reports what it has done so far: not finished,
// the packets on the wire counted in flight.
TEST(ModeRun, FinishingEarlyMeasuresTheRunSoFar) {
  auto run = ModeRun::create(tiny(), Mode::ecmp);
  ASSERT_TRUE(run) << run.error();
  EXPECT_FALSE((*run)->run_until(us(60)));
  const ModeResult r = (*run)->finish();
  // Finished, the run goes no further and measures the same again.
  EXPECT_FALSE((*run)->over());
  EXPECT_FALSE((*run)->run_until(Time::max()));
  EXPECT_EQ((*run)->now(), us(60));
  const ModeResult again = (*run)->finish();
  EXPECT_EQ(again.packet_hops, r.packet_hops);
  EXPECT_EQ(again.samples.size(), r.samples.size());
  EXPECT_GT(r.samples.size(), 0u);
  EXPECT_FALSE(r.finished);
  EXPECT_EQ(r.completion, Time::max());
  EXPECT_GT(r.payload_bytes, 0u);
  EXPECT_GT(r.in_flight, 0u);
  EXPECT_EQ(r.injected, r.delivered + dropped(r) + r.in_flight);
}

// RunOptions::stop set before the workload starts: create() fails and
// says where the run got to. Set from the start, the set-up goes no
// further than the network and no BGP speaker starts; set at the
// warm-up's report of 2 ms, the warm-up goes no further.
TEST(ModeRun, AStopBeforeTheWorkloadFailsCreateSayingWhen) {
  const Scenario s = tiny();
  std::atomic<bool> stop{true};
  RunOptions o;
  o.stop = &stop;
  std::size_t reports = 0;
  bool progressed = false;
  o.warm_up_progress = [&](const WarmUpProgress& w) {
    ++reports;
    if (w.simulated == ms(2)) stop = true;
  };
  o.progress = [&](double) { progressed = true; };
  auto run = ModeRun::create(s, Mode::fare, o);
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error(), "stopped during the set-up");
  EXPECT_EQ(reports, 0u);

  stop = false;
  run = ModeRun::create(s, Mode::fare, o);
  ASSERT_FALSE(run);
  EXPECT_TRUE(run.error().starts_with("stopped during the BGP warm-up at "))
      << run.error();
  EXPECT_EQ(reports, 3u);  // 0, 1 and 2 ms
  EXPECT_FALSE(progressed);
  auto whole = run_mode(s, Mode::fare);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_GT(whole->warm_up, ms(3));  // so the stop cut it short
}

// A BGP warm-up that does not converge by RunOptions::warm_up_limit fails
// the run, saying how far it got, rather than start the workload on
// unfinished routes. tiny's warm-up takes more than 3 ms.
TEST(ModeRun, AWarmUpThatDoesNotConvergeInTimeIsAnError) {
  const Scenario s = tiny();
  RunOptions o;
  o.warm_up_limit = ms(2);
  bool progressed = false;
  o.progress = [&](double) { progressed = true; };
  auto run = ModeRun::create(s, Mode::fare, o);
  ASSERT_FALSE(run);
  EXPECT_TRUE(std::regex_match(
      run.error(),
      std::regex("BGP did not converge in the warm-up's 2\\.000 ms of "
                 "simulated time: [0-8] of 8 session ends established, "
                 "(nothing|messages still) in flight, (the last FIB change "
                 "at [0-9.]+ (ms|us)|no route programmed yet); "
                 "switches.bgp.fib_programming is 10ms, and the warm-up "
                 "waits for the last route to be programmed")))
      << run.error();
  // A programming delay well within the limit is not blamed.
  Scenario quick = s;
  quick.switches.fib_programming_delay = us(100);
  o.warm_up_limit = us(500);
  auto short_run = ModeRun::create(quick, Mode::fare, o);
  ASSERT_FALSE(short_run);
  EXPECT_EQ(short_run.error().find("fib_programming"), std::string::npos)
      << short_run.error();
  o.warm_up_limit = ms(2);
  EXPECT_FALSE(progressed);
  // With static routes there is no warm-up to limit.
  Scenario statics = s;
  statics.switches.routing = Routing::static_ecmp;
  EXPECT_TRUE(ModeRun::create(statics, Mode::fare, o));
  o.warm_up_limit = sec(30);
  EXPECT_TRUE(ModeRun::create(s, Mode::fare, o));
}

// RunOptions::stop set during the workload: run_until returns at the next
// sample interval, the run stays where it stopped, and run_mode fails
// saying when.
TEST(ModeRun, AStopDuringTheWorkloadEndsItWhereItIs) {
  const Scenario s = tiny();
  auto whole = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(whole) << whole.error();
  std::atomic<bool> stop{false};
  RunOptions o;
  o.stop = &stop;
  o.progress = [&](double f) {
    if (f > 0) stop = true;
  };
  auto run = ModeRun::create(s, Mode::ecmp, o);
  ASSERT_TRUE(run) << run.error();
  EXPECT_FALSE((*run)->stopped());
  EXPECT_FALSE((*run)->run_until(Time::max()));
  EXPECT_TRUE((*run)->stopped());
  EXPECT_FALSE((*run)->over());
  const Time stopped_at = (*run)->now();
  EXPECT_GT(stopped_at, Time{});
  EXPECT_LT(stopped_at * 2, whole->simulated);
  const std::uint64_t hops = (*run)->network().counters().packet_hops;
  stop = false;  // too late: the run stays stopped
  EXPECT_FALSE((*run)->run_until(Time::max()));
  EXPECT_EQ((*run)->now(), stopped_at);
  EXPECT_EQ((*run)->network().counters().packet_hops, hops);
  const ModeResult r = (*run)->finish();
  EXPECT_FALSE(r.finished);
  EXPECT_EQ(r.injected, r.delivered + dropped(r) + r.in_flight);

  stop = false;
  auto stopped = run_mode(s, Mode::ecmp, o);
  ASSERT_FALSE(stopped);
  EXPECT_TRUE(stopped.error().starts_with("stopped during the workload at "))
      << stopped.error();
}

// Issue 5: "packet pool and no per-packet heap allocation". Mid-way
// through a long all-to-all (every flow started, none finished, no
// event), some 25,000 packet hops allocate nothing per packet: only when
// the packets in flight or a link's queue reach a new high (the pool's and
// the queue's amortised growth) — a handful, where one allocation per
// packet would be thousands. LSN's periodic frames are included. Counted
// by the sanitizer's allocator hooks, which see every malloc and
// operator new.
//
// Not covered: ARN. Each message it sends allocates (the codec encodes
// the message into a buffer of its own before its IPv4/UDP header, and
// the engine's output owns a copy), and each congestion or veto change
// rebuilds the FIB's copy-on-write tables: about 210 allocations in the
// same window of fare+arn, from its congestion notifications.
TEST(ModeRun, NoHeapAllocationPerPacket) {
#if ARFABRIC_HAS_ALLOCATOR_HOOKS
  static std::atomic<bool> counting{false};
  static std::atomic<std::uint64_t> allocations{0};
  static const int installed = __sanitizer_install_malloc_and_free_hooks(
      [](const volatile void*, std::size_t) {
        if (counting.load(std::memory_order_relaxed)) {
          allocations.fetch_add(1, std::memory_order_relaxed);
        }
      },
      [](const volatile void*) {});  // both hooks, or none is installed
  ASSERT_NE(installed, 0) << "the sanitizer refused the allocator hooks";

  auto s = parse_scenario(R"(
name: steady
stop_at: 20ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
workloads:
  - {kind: all_to_all, participants: all, bytes: 4MB}
)",
                          "steady.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  for (Mode m : {Mode::ecmp, Mode::fare, Mode::fare_lsn}) {
    RunOptions options;
    options.sample_interval = sec(1);  // no sample (a vector's growth)
    auto run = ModeRun::create(*s, m, options);
    ASSERT_TRUE(run) << run.error();
    ASSERT_FALSE((*run)->run_until(us(200)));
    const std::uint64_t before = (*run)->network().counters().packet_hops;
    allocations = 0;
    counting = true;
    const bool over = (*run)->run_until(us(600));
    counting = false;
    ASSERT_FALSE(over) << mode_name(m) << ": the flows finished too soon";
    const std::uint64_t hops =
        (*run)->network().counters().packet_hops - before;
    EXPECT_GT(hops, 20'000u) << mode_name(m);
    EXPECT_LE(allocations.load() * 1000, hops)
        << mode_name(m) << ": " << allocations.load() << " allocations";
  }
#else
  GTEST_SKIP() << "needs ASan's allocator hooks: scripts/build test builds "
                  "with them";
#endif
}

TEST(ModeRun, CreateNamesWhatIsWrong) {
  Scenario s = tiny();
  s.hosts.mss_bytes = 0;
  auto run = ModeRun::create(s, Mode::ecmp);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().find("hosts.mss"), std::string::npos) << run.error();
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

// spine0 loses leaf1 at 100 us and leaf2 at 200 us, before any traffic.
// It withdraws leaf1 from leaf0 once it detects the loss (the warm-up's
// last UPDATE is long past), but must wait MRAI before withdrawing leaf2
// (RFC 4271 section 9.2.1.1); leaf0's CPU then takes `update_processing`
// and the FIB `fib_programming`. So BGP's convergence, counted from the
// first failure, is each configured delay exactly.
TEST(Runner, BgpConvergenceIsMraiPlusCpuPlusFibProgramming) {
  auto s = parse_scenario(R"(
name: mrai
stop_at: 40ms
topology:
  kind: clos3
  spines: 2
  leaves: 3
  hosts_per_leaf: 1
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
workloads:
  - {kind: all_to_all, participants: all, bytes: 64KB, start: 1ms}
events:
  - {at: 100us, kind: link_down, link: [spine0, leaf1]}
  - {at: 200us, kind: link_down, link: [spine0, leaf2]}
)",
                          "mrai.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto convergence = [&](Time mrai, Time cpu, Time fib) {
    Scenario v = *s;
    v.switches.bgp_mrai = mrai;
    v.switches.bgp_update_processing = cpu;
    v.switches.fib_programming_delay = fib;
    auto r = run_mode(v, Mode::fare);
    EXPECT_TRUE(r) << r.error();
    return r ? r->bgp_convergence : Time::max();
  };
  // The withdrawal: 27 bytes of UPDATE + 78 of TCP, IPv4 and Ethernet
  // (header, FCS, preamble and gap), 8.4 ns at 100G, then 500 ns on the
  // wire.
  const Time hop = ps(8400) + ns(500);
  // Detection 10 us after the first failure, then MRAI.
  EXPECT_EQ(convergence(ms(1), us(200), ms(10)),
            us(10) + ms(1) + hop + us(200) + ms(10));
  EXPECT_EQ(convergence(ms(2), us(200), ms(10)),
            us(10) + ms(2) + hop + us(200) + ms(10));
  EXPECT_EQ(convergence(ms(2), us(700), ms(10)),
            us(10) + ms(2) + hop + us(700) + ms(10));
  EXPECT_EQ(convergence(ms(2), us(700), ms(3)),
            us(10) + ms(2) + hop + us(700) + ms(3));
  // Without MRAI the second withdrawal goes at its own detection (210 us)
  // and waits in leaf0's CPU behind the first (done at 110.5 + 200 us).
  EXPECT_EQ(convergence(Time{}, us(200), ms(10)),
            us(10) + hop + us(200) + us(200) + ms(10));
}

// A long MRAI holds UPDATEs back after the sessions come up: the warm-up
// waits for them (a speaker's pending exports count as work left), and
// the workload starts on complete routes. It used to start when nothing
// was on the wire, with some UPDATEs still held back: the first packets
// to the other leaves had no route.
TEST(ModeRun, TheWarmUpWaitsForUpdatesHeldBackByMrai) {
  auto s = parse_scenario(R"(
name: long_mrai
stop_at: 100ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
switches:
  bgp: {mrai: 30ms}
workloads:
  - {kind: all_to_all, participants: all, bytes: 10KB}
)",
                          "long_mrai.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto r = run_mode(*s, Mode::fare);
  ASSERT_TRUE(r) << r.error();
  EXPECT_GT(r->warm_up, ms(30));
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(dropped(*r), 0u);
  EXPECT_LT(r->completion, us(20));
  // A limit that MRAI's hold does not fit says so.
  RunOptions o;
  o.warm_up_limit = ms(20);
  auto cut = ModeRun::create(*s, Mode::fare, o);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().find("updates held back by MRAI (switches.bgp.mrai "
                             "is 30ms)"),
            std::string::npos)
      << cut.error();
}

// Random loss on the fabric's links spares BGP, whose TCP would resend
// what is lost (the simulator does not model that): the sessions come up
// and the workload runs, losing data, ACKs and LSN frames. With BGP lost
// too, 30% loss kept the warm-up from ever converging.
TEST(Runner, RandomLossDropsEverythingButBgp) {
  auto s = parse_scenario(R"(
name: lossy
stop_at: 50ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns, drop_probability: 10%}
workloads:
  - {kind: all_to_all, participants: all, bytes: 256KB}
)",
                          "lossy.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto r = run_mode(*s, Mode::fare_lsn);
  ASSERT_TRUE(r) << r.error();
  Scenario clean = *s;
  for (LinkSpec& l : clean.topology.links) l.drop_probability = 0;
  auto reference = run_mode(clean, Mode::fare_lsn);
  ASSERT_TRUE(reference) << reference.error();
  // BGP's warm-up is the loss-free one, message for message.
  EXPECT_EQ(r->warm_up, reference->warm_up);
  EXPECT_EQ(r->control_messages, reference->control_messages);
  EXPECT_TRUE(r->finished);
  const std::uint64_t lost =
      r->dropped[static_cast<std::size_t>(DropReason::link_error)];
  EXPECT_GT(lost, 10u);
  EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight);
}

// The workload starts after the failure, so no data waits in the queue
// ahead of the notification: convergence is exactly detection, one hop
// (serialisation + propagation) and the hardware processing delay.
Scenario failure_before_traffic() {
  Scenario s = tiny();
  s.workloads[0].start = us(200);
  s.events.resize(1);  // the link stays down
  return s;
}

TEST(Runner, LsnConvergenceIsDetectionPlusOneHopPlusProcessing) {
  const Scenario s = failure_before_traffic();
  auto r = run_mode(s, Mode::fare_lsn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  // Spine0 detects its dead port to leaf1 10 us after the failure and
  // sends a 60-byte LSN frame (+4 FCS +20 preamble/gap = 84 bytes: 6.72 ns
  // at 100G) to leaf0 over 500 ns; leaf0 processes it in 1 us. The frame
  // leaves behind BGP's withdrawal, sent at the same detection: 27 bytes
  // + 78 of TCP, IPv4 and Ethernet = 105 bytes, 8.4 ns at 100G.
  EXPECT_EQ(r->hw_convergence, us(10) + ps(8400) + ns(500) + ps(6720) + us(1));
  EXPECT_GT(r->lsn_frames, 0u);
  // Leaf0's veto and leaf1's fast failover leave no packet to black-hole.
  EXPECT_EQ(black_holed(*r), 0u);
  // BGP still converges, in milliseconds.
  EXPECT_GT(r->bgp_convergence, ms(10));
}

TEST(Runner, ArnConvergenceIsDetectionPlusOneHopPlusProcessing) {
  const Scenario s = failure_before_traffic();
  auto r = run_mode(s, Mode::fare_arn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  // Spine0 has no other way to leaf1, so it notifies leaf0: one ARN of
  // IPv4 20 + UDP 8 + ARN bytes, plus 38 bytes of Ethernet framing.
  EXPECT_GT(r->arn_messages, 0u);
  const Time one_hop_and_processing = r->hw_convergence - us(10);
  EXPECT_GT(one_hop_and_processing, ns(1500));
  EXPECT_LT(one_hop_and_processing, ns(1520));
  EXPECT_EQ(black_holed(*r), 0u);
}

// A 5-stage fabric (2 PoDs of 2 leaves and 2 spines, one super-spine per
// plane) and a small dragonfly, without failures: LSN must veto nothing.
// Spines and routers reach most leaves only through other switches; when
// their frames said "unreachable" for every leaf not directly behind them,
// every ingress vetoed its paths to those leaves and the traffic died.
const char* kFiveStage = R"(
name: clos5_two_tiers
stop_at: 30ms
topology:
  kind: clos5
  pods: 2
  leaves_per_pod: 2
  spines_per_pod: 2
  super_spines_per_plane: 1
  hosts_per_leaf: 1
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
  spine_super_spine_link: {rate: 100G, delay: 1us}
workloads:
  - {kind: all_to_all, participants: all, bytes: 256KB}
)";

TEST(Runner, LsnVetoesNoPathOfADeeperFabricWithoutAFailure) {
  const char* dragonfly = R"(
name: dragonfly_small
stop_at: 30ms
topology:
  kind: dragonfly
  groups: 3
  routers_per_group: 2
  hosts_per_router: 1
  global_links_per_router: 1
  host_link: {rate: 100G, delay: 100ns}
  local_link: {rate: 100G, delay: 100ns}
  global_link: {rate: 100G, delay: 1us}
workloads:
  - {kind: all_to_all, participants: all, bytes: 64KB}
)";
  for (const char* text : {kFiveStage, dragonfly}) {
    auto s = parse_scenario(text, "deeper.yaml");
    ASSERT_TRUE(s) << s.error().to_string();
    auto fare = run_mode(*s, Mode::fare);
    auto lsn = run_mode(*s, Mode::fare_lsn);
    ASSERT_TRUE(fare) << fare.error();
    ASSERT_TRUE(lsn) << lsn.error();
    EXPECT_TRUE(lsn->finished) << s->name;
    EXPECT_GT(lsn->lsn_frames, 0u) << s->name;
    EXPECT_EQ(black_holed(*lsn), 0u) << s->name;
    // Frames share the links with data, which they delay a little.
    EXPECT_LT(lsn->completion.ps(), fare->completion.ps() / 10 * 11) << s->name;
  }
}

// The failure is two tiers away from the remote PoD's leaves: spine1.1
// loses leaf3, its plane's only super-spine then has no path to leaf3,
// and spine0.1 none either. LSN carries that back hop by hop, so leaf0
// and leaf1 stop sending to leaf3 through spine0.1 before any packet is
// lost (BGP would take milliseconds).
TEST(Runner, LsnVetoesAFailureTwoTiersAwayAtTheRemoteIngress) {
  auto e = parse_scenario(std::string(kFiveStage) +
                              "events:\n"
                              "  - {at: 20us, kind: link_down, link: "
                              "[spine1.1, leaf3]}\n",
                          "clos5_two_tiers.yaml");
  ASSERT_TRUE(e) << e.error().to_string();
  e->workloads[0].start = us(200);  // after the failure: no data queued
  auto lsn = run_mode(*e, Mode::fare_lsn);
  ASSERT_TRUE(lsn) << lsn.error();
  EXPECT_TRUE(lsn->finished);
  EXPECT_EQ(black_holed(*lsn), 0u);
  // Detection 10 us; BGP's withdrawal (105 bytes, 8.4 ns at 100G) leaves
  // spine1.1 ahead of its 84-byte LSN frame (6.72 ns). Then three hops,
  // each serialisation + propagation + 1 us of processing: spine1.1 ->
  // super-spine (1 us), super-spine -> spine0.1 (1 us), spine0.1 -> leaf0
  // and leaf1 (500 ns): their vetoes are the last.
  const Time frame = ps(6720);
  EXPECT_EQ(lsn->hw_convergence, us(10) + ps(8400) + frame + us(1) + us(1) +
                                     frame + us(1) + us(1) + frame + ns(500) +
                                     us(1));
  auto fare = run_mode(*e, Mode::fare);
  ASSERT_TRUE(fare) << fare.error();
  EXPECT_GT(black_holed(*fare), 0u);
  EXPECT_GT(fare->completion.ps(), lsn->completion.ps() * 10);
}

// ARN in the same 5-stage fabric with three super-spines per plane:
// spine1.1 loses leaf3 and notifies; the three super-spines of plane 1
// cannot reroute and pass the ARN on; spine0.1 gets one copy from each.
// Each copy is a path through another reporter: only when all three are
// vetoed has spine0.1 no way left, and it notifies leaf0 and leaf1, which
// reroute. (When copies of one ARN shared one entry, spine0.1 vetoed only
// the first super-spine, always found another, and never told its leaves:
// the remote PoD black-holed until BGP.)
TEST(Runner, ArnVetoesAFailureTwoTiersAwayAtTheRemoteIngress) {
  std::string text = std::string(kFiveStage) +
                     "events:\n"
                     "  - {at: 20us, kind: link_down, link: "
                     "[spine1.1, leaf3]}\n";
  text.replace(text.find("super_spines_per_plane: 1"), 25,
               "super_spines_per_plane: 3");
  text.replace(text.find("bytes: 256KB"), 12, "bytes: 16KB");
  auto s = parse_scenario(text, "clos5_three_super_spines.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  s->workloads[0].start = us(200);  // after the failure: no data queued
  auto arn = run_mode(*s, Mode::fare_arn);
  ASSERT_TRUE(arn) << arn.error();
  EXPECT_TRUE(arn->finished);
  EXPECT_EQ(black_holed(*arn), 0u);
  // Detection, then three hops of an ARN (UDP/IPv4, its serialisation a
  // few ns) and 1 us of processing each: spine1.1 -> super-spines (1 us),
  // -> spine0.1 (1 us), -> leaf0 and leaf1 (500 ns).
  EXPECT_GT(arn->hw_convergence, us(15) + ns(500));
  EXPECT_LT(arn->hw_convergence, us(15) + ns(550));
  auto fare = run_mode(*s, Mode::fare);
  ASSERT_TRUE(fare) << fare.error();
  EXPECT_GT(black_holed(*fare), 0u);
  EXPECT_GT(fare->completion.ps(), arn->completion.ps() * 10);
}

// tiny_degrade halves a link at 50 us and fails another at 120 us. The
// notifications react to the failure: convergence is timed from it (the
// issue: "failure -> last affected ingress stops using the path"), not
// from the degradation 70 us earlier.
TEST(Runner, ConvergenceIsTimedFromTheFailureNotAnEarlierDegradation) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny_degrade.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->events[0].kind, EventKind::degrade);
  ASSERT_EQ(s->events[1].kind, EventKind::link_down);
  auto r = run_mode(*s, Mode::fare_lsn);
  ASSERT_TRUE(r) << r.error();
  // Detection (10 us) + the frame's hop (500 ns) + processing (1 us), and
  // the packet ahead of it on the wire.
  EXPECT_GT(r->hw_convergence, us(11) + ns(500));
  EXPECT_LT(r->hw_convergence, us(12));
}

TEST(Runner, WithoutNotificationsTheRemoteLeafBlackHolesUntilBgp) {
  const Scenario s = failure_before_traffic();
  auto r = run_mode(s, Mode::fare);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->hw_convergence, Time::max());
  EXPECT_EQ(r->lsn_frames + r->arn_messages, 0u);
  EXPECT_GT(black_holed(*r), 0u);
}

TEST(Runner, NotificationsCutBlackHolingMidCollective) {
  const Scenario s = tiny();
  auto fare = run_mode(s, Mode::fare);
  ASSERT_TRUE(fare) << fare.error();
  for (Mode m : {Mode::fare_lsn, Mode::fare_arn, Mode::fare_lsn_arn}) {
    auto r = run_mode(s, m);
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->finished) << mode_name(m);
    EXPECT_EQ(r->payload_bytes, 6'000'000u) << mode_name(m);
    EXPECT_LT(black_holed(*r), black_holed(*fare)) << mode_name(m);
    EXPECT_LT(r->hw_convergence, us(50)) << mode_name(m);
    EXPECT_EQ(r->injected, r->delivered + dropped(*r) + r->in_flight)
        << mode_name(m);
  }
}

TEST(Runner, StaticRoutingNeedsNoWarmUpAndStillNotifies) {
  Scenario s = failure_before_traffic();
  s.switches.routing = Routing::static_ecmp;
  auto r = run_mode(s, Mode::fare_lsn);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->finished);
  EXPECT_EQ(r->warm_up, Time{});
  EXPECT_EQ(r->control_messages, 0u);
  EXPECT_EQ(r->bgp_convergence, Time::max());
  // No BGP here: nothing queued ahead of the frame.
  EXPECT_EQ(r->hw_convergence, us(10) + ns(500) + ps(6720) + us(1));
  EXPECT_EQ(black_holed(*r), 0u);
  EXPECT_EQ(r->payload_bytes, 6'000'000u);
}

Scenario poisson() {
  const std::string yaml = R"(name: poisson
seed: 3
stop_at: 20ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
workloads:
  - kind: poisson
    participants: all
    load: 0.4
    flow_size_cdf: )" + std::string(ARFABRIC_SOURCE_DIR) +
                           R"(/data/workloads/GoogleRPC2008.txt
    start: 10us
    duration: 300us
)";
  auto s = parse_scenario(yaml, "poisson.yaml");
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

TEST(Runner, PoissonFlowsAllCompleteAndAreTheSameInEveryMode) {
  const Scenario s = poisson();
  auto ecmp = run_mode(s, Mode::ecmp);
  auto lsn = run_mode(s, Mode::fare_lsn_arn);
  ASSERT_TRUE(ecmp && lsn) << (ecmp ? lsn.error() : ecmp.error());
  EXPECT_TRUE(ecmp->finished);
  // 4 hosts at 40 Gb/s of offered load for 300 us, flows of 2.9 KB mean:
  // about 4 x 1.7 M/s x 300 us = 2,075 flows.
  EXPECT_GT(ecmp->flows_completed, 1800u);
  EXPECT_LT(ecmp->flows_completed, 2400u);
  EXPECT_EQ(ecmp->flows_completed, lsn->flows_completed);
  EXPECT_EQ(ecmp->payload_bytes, lsn->payload_bytes);
  EXPECT_GT(ecmp->fct_mean, Time{});
  EXPECT_GE(ecmp->fct_p99, ecmp->fct_mean);
  EXPECT_EQ(ecmp->injected, ecmp->delivered + dropped(*ecmp) + ecmp->in_flight);
}

// A duration past stop_at is a steady load to the end: the same flows
// as a duration ending at stop_at, none drawn that could never start.
// (Drawn, the first host's flows after stop_at would shift the random
// stream of every later host's.)
TEST(Runner, PoissonDurationPastStopAtDrawsTheFlowsUntilStopAt) {
  Scenario until_stop = poisson();
  until_stop.stop_at = us(150);
  until_stop.workloads[0].duration = us(140);  // from its start at 10us
  Scenario past_stop = until_stop;
  past_stop.workloads[0].duration = us(300);
  auto a = run_mode(until_stop, Mode::ecmp);
  auto b = run_mode(past_stop, Mode::ecmp);
  ASSERT_TRUE(a && b) << (a ? b.error() : a.error());
  EXPECT_FALSE(a->finished);
  EXPECT_FALSE(b->finished);
  EXPECT_GT(a->flows_completed, 500u);
  EXPECT_EQ(a->flows_completed, b->flows_completed);
  EXPECT_EQ(a->payload_bytes, b->payload_bytes);
  EXPECT_EQ(a->injected, b->injected);
  EXPECT_EQ(a->fct_p99, b->fct_p99);
}

TEST(Runner, PoissonFlowsFollowTheSeed) {
  Scenario s = poisson();
  auto a = run_mode(s, Mode::ecmp);
  s.seed = 4;
  auto b = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->payload_bytes, b->payload_bytes);
}

}  // namespace
}  // namespace arfabric::sim
