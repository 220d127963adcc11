#include "sim/time_series.h"

#include <gtest/gtest.h>

namespace arfabric::sim {
namespace {

Scenario tiny() {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny.yaml");
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

TEST(TimeSeries, DefaultIntervalIsAboutAThousandthOfStopAtRoundedUp) {
  Scenario s;
  s.stop_at = ms(20);
  EXPECT_EQ(default_sample_interval(s), us(20));
  s.stop_at = ms(30);  // 30 us is not 1-2-5: rounded up
  EXPECT_EQ(default_sample_interval(s), us(50));
  s.stop_at = sec(1);
  EXPECT_EQ(default_sample_interval(s), ms(1));
  s.stop_at = us(100);  // never below 1 us
  EXPECT_EQ(default_sample_interval(s), us(1));
}

TEST(TimeSeries, PlannedPayloadMatchesTheRingSizes) {
  // 1 MB ring all-reduce over 4 hosts: 4 members x 6 steps x 250 KB.
  EXPECT_EQ(planned_payload_bytes(tiny()), 6'000'000u);
  Scenario s = tiny();
  s.workloads[0].kind = WorkloadKind::all_gather;  // 3 steps
  EXPECT_EQ(planned_payload_bytes(s), 3'000'000u);
  // All-to-all: 1 MB from each of the 4 hosts to each of the 3 others.
  s.workloads[0].kind = WorkloadKind::all_to_all;
  EXPECT_EQ(planned_payload_bytes(s), 12'000'000u);
}

TEST(TimeSeries, SamplesAreDifferencesOverTheirInterval) {
  const Scenario s = tiny();
  const Time start = ms(5);
  RunTotals t;
  t.payload_bytes = 1000;  // before the start: not counted
  t.control_messages = 7;
  TimeSeriesRecorder rec(s, start, us(10), t);
  EXPECT_EQ(rec.next_at(), start + us(10));

  t.payload_bytes += 125'000;  // 1 Mbit in 10 us = 100 Gb/s
  t.dropped[static_cast<std::size_t>(DropReason::link_down)] = 3;
  t.control_messages = 9;
  t.control_bytes = 300;
  t.packets_in_flight = 42;
  rec.sample(rec.next_at(), t);
  ASSERT_EQ(rec.samples().size(), 1u);
  const TimeSample& a = rec.samples()[0];
  EXPECT_EQ(a.at, us(10));
  EXPECT_EQ(a.duration, us(10));
  EXPECT_EQ(a.payload_bytes, 125'000u);
  EXPECT_DOUBLE_EQ(a.goodput_gbps, 100.0);
  EXPECT_EQ(a.dropped[static_cast<std::size_t>(DropReason::link_down)], 3u);
  EXPECT_EQ(a.control_messages, 2u);
  EXPECT_EQ(a.control_bytes, 300u);
  EXPECT_EQ(a.packets_in_flight, 42u);

  // A last, shorter interval; a sample before the last is ignored.
  t.payload_bytes += 12'500;
  rec.sample(start + us(12), t);
  rec.sample(start + us(11), t);
  ASSERT_EQ(rec.samples().size(), 2u);
  EXPECT_EQ(rec.samples()[1].duration, us(2));
  EXPECT_DOUBLE_EQ(rec.samples()[1].goodput_gbps, 50.0);
  EXPECT_EQ(rec.samples()[1].dropped[0], 0u);

  // One at the last row's end again (the run's events at stop_at, after
  // the row's sample) adds to that row: no row of zero length.
  t.payload_bytes += 12'500;
  t.control_messages += 4;
  t.packets_in_flight = 4;
  rec.sample(start + us(12), t);
  ASSERT_EQ(rec.samples().size(), 2u);
  EXPECT_EQ(rec.samples()[1].duration, us(2));
  EXPECT_EQ(rec.samples()[1].payload_bytes, 25'000u);
  EXPECT_DOUBLE_EQ(rec.samples()[1].goodput_gbps, 100.0);
  EXPECT_EQ(rec.samples()[1].control_messages, 4u);
  EXPECT_EQ(rec.samples()[1].packets_in_flight, 4u);
}

// Without a row yet, a sample at the start is not one.
TEST(TimeSeries, ASampleAtTheStartIsIgnored) {
  TimeSeriesRecorder rec(tiny(), ms(5), us(10), RunTotals{});
  rec.sample(ms(5), RunTotals{});
  EXPECT_TRUE(rec.samples().empty());
}

TEST(TimeSeries, ProgressIsTheFurtherOfTimeAndPayload) {
  const Scenario s = tiny();  // stop_at 20 ms, 6 MB planned
  RunTotals t;
  TimeSeriesRecorder rec(s, Time{}, ms(2), t);
  EXPECT_EQ(rec.progress(), 0);
  rec.sample(ms(2), t);
  EXPECT_DOUBLE_EQ(rec.progress(), 0.1);
  t.payload_bytes = 3'000'000;
  rec.sample(ms(4), t);
  EXPECT_DOUBLE_EQ(rec.progress(), 0.5);
  t.payload_bytes = 6'000'000;
  rec.sample(ms(6), t);
  EXPECT_DOUBLE_EQ(rec.progress(), 1.0);
}

}  // namespace
}  // namespace arfabric::sim
