// Flow-size distributions for Poisson workloads: the public CDF files of
// data-center load-balancing papers (data/workloads/, README.md there gives
// each file's origin).
//
// Format: one point per line, "<flow size in bytes> <cumulative>", fields
// separated by spaces, tabs or one comma; '#' starts a comment; blank lines
// and CRLF endings are ignored. The cumulative column is a fraction (0..1,
// the HKUST-SING TrafficGenerator files) or a percentage (0..100, the HPCC
// traffic_gen files): the last point decides (1 or 100). Sizes and
// cumulative values must not decrease. Between points the distribution is
// linear (a flow size is interpolated), as both origins sample it.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace arfabric::sim {

// The largest flow size a file may give: sample() rounds interpolated
// sizes to whole bytes, which doubles hold exactly up to 2^53 (9 PB).
inline constexpr double kMaxFlowBytes = 9'007'199'254'740'992.0;

struct CdfPoint {
  double bytes = 0;
  double cumulative = 0;  // 0..1 (percent files are divided by 100)
};

struct FlowSizeCdf {
  std::string source;            // file it was read from, for reports
  std::vector<CdfPoint> points;  // >= 2, non-decreasing, last cumulative 1

  // The flow size at quantile u in [0, 1): interpolated between the points
  // that bracket u, rounded to whole bytes, at least 1. Allocation-free.
  std::uint64_t sample(double u) const;
  // Expected flow size in bytes under the same interpolation (for the
  // Poisson arrival rate = load * rate / (8 * mean)).
  double mean_bytes() const;
};

struct CdfError {
  std::string file;
  int line = 0;  // 1-based; 0 when the error is about the whole file
  std::string message;
  std::string to_string() const;  // "file:line: message"
};

// Errors (with the line): a line without exactly two numeric fields, a
// negative or non-finite value, a size above kMaxFlowBytes, a size or
// cumulative value lower than the previous line's, a cumulative value
// above the scale; (line 0 or the last line) fewer than two points, a last
// cumulative value that is neither 1 nor 100.
std::expected<FlowSizeCdf, CdfError> parse_flow_cdf(std::string_view text,
                                                    std::string_view file);

// Reads and parses `path`. Errors: the file cannot be read (line 0), and
// the parse errors above.
std::expected<FlowSizeCdf, CdfError> load_flow_cdf(const std::string& path);

}  // namespace arfabric::sim
