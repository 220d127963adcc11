// libFuzzer target: a flow-size CDF file (sim/scenario/flow_cdf.h), the
// input being the file's text. An error must name the file and carry a
// message and a line within the input (0 for whole-file errors). A parsed
// CDF must keep the header's promises: at least 2 points, finite
// non-negative sizes, non-decreasing sizes and cumulative values in [0, 1]
// ending at exactly 1. sample() must stay within the sizes (at least 1,
// monotone in the quantile) and mean_bytes() between the first and last
// size. Written back as "<bytes> <fraction>" lines, the CDF must parse to
// the same points.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/scenario/flow_cdf.h"

using namespace arfabric::sim;

namespace {

constexpr std::string_view kFile = "fuzz.cdf";

void append_double(std::string& out, double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  if (r.ec != std::errc{}) __builtin_trap();
  out.append(buf, r.ptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto cdf = parse_flow_cdf(text, kFile);
  if (!cdf) {
    const CdfError& e = cdf.error();
    if (e.file != kFile || e.message.empty()) __builtin_trap();
    const auto lines =
        static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    if (e.line < 0 || e.line > lines) __builtin_trap();
    return 0;
  }
  const auto& points = cdf->points;
  if (cdf->source != kFile) __builtin_trap();
  if (points.size() < 2) __builtin_trap();
  if (points.back().cumulative != 1.0) __builtin_trap();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const CdfPoint& p = points[i];
    if (!std::isfinite(p.bytes) || p.bytes < 0) __builtin_trap();
    if (!(p.cumulative >= 0 && p.cumulative <= 1)) __builtin_trap();
    if (i > 0 && (p.bytes < points[i - 1].bytes ||
                  p.cumulative < points[i - 1].cumulative))
      __builtin_trap();
  }

  // Sampling: at least 1 byte, monotone in u, never past the largest size.
  const double largest = std::max(1.0, std::round(points.back().bytes));
  std::uint64_t previous = 0;
  for (double u : {0.0, 1e-9, 0.25, 0.5, 0.75, 0.999999}) {
    const std::uint64_t s = cdf->sample(u);
    if (s < 1 || s < previous) __builtin_trap();
    if (static_cast<double>(s) > largest) __builtin_trap();
    previous = s;
  }
  const double mean = cdf->mean_bytes();
  if (!std::isfinite(mean)) __builtin_trap();
  const double slack = 1e-6 * points.back().bytes;
  if (mean < points.front().bytes - slack || mean > points.back().bytes + slack)
    __builtin_trap();

  // Shortest round-trip decimals, cumulative as fractions: the same points.
  std::string again;
  for (const CdfPoint& p : points) {
    append_double(again, p.bytes);
    again += ' ';
    append_double(again, p.cumulative);
    again += '\n';
  }
  auto second = parse_flow_cdf(again, kFile);
  if (!second || second->points.size() != points.size()) __builtin_trap();
  for (std::size_t i = 0; i < points.size(); ++i)
    if (second->points[i].bytes != points[i].bytes ||
        second->points[i].cumulative != points[i].cumulative)
      __builtin_trap();
  return 0;
}
