#include "sim/output/timeseries_csv.h"

#include <cinttypes>
#include <cstdio>

namespace arfabric::sim::output {

namespace {

// Picoseconds as microseconds with six decimals, exactly (no rounding
// through a double).
std::string microseconds(Time t) {
  const std::int64_t ps = t.ps();
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%" PRId64 ".%06" PRId64, ps < 0 ? "-" : "",
                (ps < 0 ? -ps : ps) / 1'000'000,
                (ps < 0 ? -ps : ps) % 1'000'000);
  return buf;
}

}  // namespace

std::string timeseries_csv_header() {
  std::string h = "mode,time_us,interval_us,goodput_gbps,payload_bytes";
  for (std::size_t r = 0; r < kDropReasons; ++r) {
    h += ",drop_";
    h += drop_reason_name(static_cast<DropReason>(r));
  }
  h += ",control_messages,control_bytes,packets_in_flight";
  return h;
}

std::string timeseries_csv(const std::vector<ModeResult>& results) {
  std::string out = timeseries_csv_header() + "\n";
  for (const ModeResult& r : results) {
    for (const TimeSample& s : r.samples) {
      char goodput[32];
      std::snprintf(goodput, sizeof goodput, "%.3f", s.goodput_gbps);
      out += mode_name(r.mode);
      out += ',' + microseconds(s.at) + ',' + microseconds(s.duration) + ',' +
             goodput + ',' + std::to_string(s.payload_bytes);
      for (std::uint64_t d : s.dropped) out += ',' + std::to_string(d);
      out += ',' + std::to_string(s.control_messages) + ',' +
             std::to_string(s.control_bytes) + ',' +
             std::to_string(s.packets_in_flight) + '\n';
    }
  }
  return out;
}

}  // namespace arfabric::sim::output
