#include "sim/scenario/flow_cdf.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/strformat.h"
#include "common/text_file.h"

namespace arfabric::sim {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits on runs of blanks or a single comma (with blanks around it). A
// comma with no field after it (at the end, or before another comma), or
// before the first, leaves an empty field, which the caller refuses.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  bool after_comma = false;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size()) break;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j]) && line[j] != ',') ++j;
    out.push_back(line.substr(i, j - i));
    i = j;
    while (i < line.size() && is_space(line[i])) ++i;
    after_comma = i < line.size() && line[i] == ',';
    if (after_comma) ++i;
  }
  if (after_comma) out.push_back({});
  return out;
}

bool to_double(std::string_view s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size() &&
         std::isfinite(v);
}

}  // namespace

std::string CdfError::to_string() const {
  if (line == 0) return strformat("{}: {}", file, message);
  return strformat("{}:{}: {}", file, line, message);
}

std::expected<FlowSizeCdf, CdfError> parse_flow_cdf(std::string_view text,
                                                    std::string_view file) {
  FlowSizeCdf cdf;
  cdf.source = std::string(file);
  const auto fail = [&](int line, std::string message) {
    return std::unexpected(
        CdfError{std::string(file), line, std::move(message)});
  };
  int line_no = 0, last_line = 0;
  // Each point's cumulative value, and the last flow size, as written, for
  // messages (a value that misses 1 by 1e-7 prints as 1 in %g).
  std::vector<std::string_view> cumulative_text;
  std::string_view previous_bytes_text;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto f = fields(line);
    if (f.empty()) continue;
    if (std::ranges::any_of(f, &std::string_view::empty))
      return fail(line_no,
                  "an empty field: a comma with nothing before or after it");
    if (f.size() != 2)
      return fail(line_no,
                  strformat("expected 2 fields '<bytes> <cumulative>', "
                            "found {}",
                            f.size()));
    CdfPoint p;
    if (!to_double(f[0], p.bytes))
      return fail(line_no, strformat("flow size '{}' is not a number", f[0]));
    if (!to_double(f[1], p.cumulative))
      return fail(line_no,
                  strformat("cumulative value '{}' is not a number", f[1]));
    if (p.bytes < 0)
      return fail(line_no, strformat("flow size {} is negative", f[0]));
    if (p.bytes > kMaxFlowBytes)
      return fail(line_no, strformat("flow size {} is above 2^53 bytes", f[0]));
    if (p.cumulative < 0)
      return fail(line_no, strformat("cumulative value {} is negative", f[1]));
    if (p.cumulative > 100)
      return fail(line_no, strformat("cumulative value {} is above 100", f[1]));
    if (!cdf.points.empty()) {
      const CdfPoint& prev = cdf.points.back();
      if (p.bytes < prev.bytes)
        return fail(line_no, strformat("flow size {} is below the previous "
                                       "line's {}",
                                       f[0], previous_bytes_text));
      if (p.cumulative < prev.cumulative)
        return fail(line_no,
                    strformat("cumulative value {} is below the previous "
                              "line's {}: a CDF cannot decrease",
                              f[1], cumulative_text.back()));
    }
    cdf.points.push_back(p);
    cumulative_text.push_back(f[1]);
    previous_bytes_text = f[0];
    last_line = line_no;
    if (end == text.size()) break;
  }
  if (cdf.points.size() < 2)
    return fail(
        0, strformat("{} point(s): a CDF needs at least 2", cdf.points.size()));
  const double last = cdf.points.back().cumulative;
  double scale = 0;
  if (std::fabs(last - 1.0) < 1e-9) {
    scale = 1.0;
  } else if (std::fabs(last - 100.0) < 1e-7) {
    scale = 100.0;
  } else {
    return fail(last_line, strformat("last cumulative value is {}: expected 1 "
                                     "(fraction) or 100 (percent)",
                                     cumulative_text.back()));
  }
  if (scale == 1.0) {
    for (std::size_t i = 0; i < cdf.points.size(); ++i)
      if (cdf.points[i].cumulative > 1.0)
        return fail(0, strformat("point {} has cumulative {} above 1 while "
                                 "the last point says fractions",
                                 i + 1, cumulative_text[i]));
  }
  for (CdfPoint& p : cdf.points) p.cumulative /= scale;
  cdf.points.back().cumulative = 1.0;
  return cdf;
}

std::expected<FlowSizeCdf, CdfError> load_flow_cdf(const std::string& path) {
  auto text = read_file(path);
  if (!text) {
    return std::unexpected(
        CdfError{path, 0, "cannot read the file: " + text.error()});
  }
  return parse_flow_cdf(*text, path);
}

std::uint64_t FlowSizeCdf::sample(double u) const {
  // First point whose cumulative value reaches u (binary search).
  std::size_t lo = 0, hi = points.size() - 1;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (points[mid].cumulative >= u) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  double bytes = points[lo].bytes;
  if (lo > 0) {
    const CdfPoint& a = points[lo - 1];
    const CdfPoint& b = points[lo];
    const double span = b.cumulative - a.cumulative;
    if (span > 0)
      bytes = a.bytes + (b.bytes - a.bytes) * (u - a.cumulative) / span;
  }
  const double rounded = std::round(bytes);
  return rounded < 1 ? 1 : static_cast<std::uint64_t>(rounded);
}

double FlowSizeCdf::mean_bytes() const {
  double mean = points.front().cumulative * points.front().bytes;
  for (std::size_t i = 1; i < points.size(); ++i)
    mean += (points[i].cumulative - points[i - 1].cumulative) *
            (points[i].bytes + points[i - 1].bytes) / 2;
  return mean;
}

}  // namespace arfabric::sim
