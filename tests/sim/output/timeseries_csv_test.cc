#include "sim/output/timeseries_csv.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace arfabric::sim::output {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

TEST(TimeseriesCsv, HeaderNamesEveryColumn) {
  EXPECT_EQ(timeseries_csv_header(),
            "mode,time_us,interval_us,goodput_gbps,payload_bytes,"
            "drop_link_down,drop_queue_overflow,drop_no_route,drop_link_error,"
            "drop_ttl_expired,"
            "control_messages,control_bytes,packets_in_flight");
}

TEST(TimeseriesCsv, TimesArePrintedExactly) {
  ModeResult r;
  r.mode = Mode::fare;
  TimeSample s;
  s.at = ps(1'234'567'891);  // 1234.567891 us
  s.duration = ps(500);
  s.goodput_gbps = 12.3456;
  s.payload_bytes = 7;
  r.samples.push_back(s);
  const std::string csv = timeseries_csv({r});
  EXPECT_NE(csv.find("\nfare,1234.567891,0.000500,12.346,7,0,0,0,0,0,0,0,0\n"),
            std::string::npos)
      << csv;
}

TEST(TimeseriesCsv, RowsOfARunAddUpToItsTotals) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  std::vector<ModeResult> results;
  for (Mode m : {Mode::ecmp, Mode::fare}) {
    auto r = run_mode(*s, m);
    ASSERT_TRUE(r) << r.error();
    results.push_back(std::move(*r));
  }
  std::istringstream in(timeseries_csv(results));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const std::size_t columns = split(line).size();
  std::map<std::string, std::uint64_t> payload, link_down;
  std::map<std::string, double> last_time;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const auto f = split(line);
    ASSERT_EQ(f.size(), columns) << line;
    const double t = std::stod(f[1]);
    EXPECT_GT(t, last_time[f[0]]) << line;  // increasing per mode
    EXPECT_GT(std::stod(f[2]), 0) << line;
    last_time[f[0]] = t;
    payload[f[0]] += std::stoull(f[4]);
    link_down[f[0]] += std::stoull(f[5]);
    ++rows;
  }
  EXPECT_EQ(rows, results[0].samples.size() + results[1].samples.size());
  for (const ModeResult& r : results) {
    const std::string m(mode_name(r.mode));
    // The samples cover the whole run after the warm-up, to its last event.
    EXPECT_EQ(payload[m], r.payload_bytes) << m;
    EXPECT_EQ(link_down[m],
              r.dropped[static_cast<std::size_t>(DropReason::link_down)])
        << m;
    EXPECT_NEAR(last_time[m], r.simulated.seconds() * 1e6, 1e-6) << m;
    EXPECT_GT(r.samples.size(), 10u) << m;
  }
}

}  // namespace
}  // namespace arfabric::sim::output
