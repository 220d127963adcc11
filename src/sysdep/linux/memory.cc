#include "sysdep/linux/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>

namespace arfabric::sysdep {
namespace {

constexpr char kStatm[] = "/proc/self/statm";
constexpr char kMeminfo[] = "/proc/meminfo";

// The whole of a (/proc or /sys) file, whose size stat() does not tell.
std::optional<std::string> read_text(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

// A whole decimal number (digits only).
std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || at != end) return std::nullopt;
  return value;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

// What a cgroup's limit leaves: limit - usage (0 when over), or nothing
// when the files are missing or say there is no limit.
std::optional<std::uint64_t> cgroup_headroom(const char* limit_path,
                                             const char* usage_path) {
  const auto limit_text = read_text(limit_path);
  const auto usage_text = read_text(usage_path);
  if (!limit_text || !usage_text) return std::nullopt;
  const auto limit = parse_cgroup_bytes(*limit_text);
  const auto usage = parse_cgroup_bytes(*usage_text);
  // v1 writes "no limit" as the largest page-aligned int64.
  constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 62;
  if (!limit || !usage || *limit >= kNoLimit) return std::nullopt;
  return *limit > *usage ? *limit - *usage : 0;
}

}  // namespace

std::optional<std::uint64_t> parse_statm_resident_pages(std::string_view text) {
  text = trim_spaces(text);
  const std::size_t first_space = text.find(' ');
  if (first_space == std::string_view::npos) return std::nullopt;
  if (!parse_count(text.substr(0, first_space))) return std::nullopt;
  std::string_view rest = text.substr(first_space + 1);
  return parse_count(rest.substr(0, rest.find(' ')));
}

std::optional<std::uint64_t> parse_meminfo_bytes(std::string_view text,
                                                 std::string_view field) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || line.substr(0, colon) != field)
      continue;
    std::string_view value = trim_spaces(line.substr(colon + 1));
    if (!value.ends_with(" kB")) return std::nullopt;
    value.remove_suffix(3);
    const auto kib = parse_count(trim_spaces(value));
    if (!kib || *kib > std::numeric_limits<std::uint64_t>::max() / 1024)
      return std::nullopt;
    return *kib * 1024;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_cgroup_bytes(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  if (text == "max") return std::numeric_limits<std::uint64_t>::max();
  return parse_count(text);
}

std::expected<std::uint64_t, std::string> resident_bytes() {
  const auto text = read_text(kStatm);
  if (!text) return std::unexpected(std::string("cannot read ") + kStatm);
  const auto pages = parse_statm_resident_pages(*text);
  if (!pages) {
    return std::unexpected(std::string("cannot parse ") + kStatm + ": '" +
                           *text + "'");
  }
  return *pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);  // cannot fail with RUSAGE_SELF
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // from KiB
}

std::expected<std::uint64_t, std::string> available_bytes() {
  const auto text = read_text(kMeminfo);
  if (!text) return std::unexpected(std::string("cannot read ") + kMeminfo);
  auto available = parse_meminfo_bytes(*text, "MemAvailable");
  if (!available) {
    return std::unexpected(std::string(kMeminfo) +
                           " has no 'MemAvailable: <n> kB' line");
  }
  for (const auto& headroom :
       {cgroup_headroom("/sys/fs/cgroup/memory.max",
                        "/sys/fs/cgroup/memory.current"),
        cgroup_headroom("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                        "/sys/fs/cgroup/memory/memory.usage_in_bytes")}) {
    if (headroom) available = std::min(*available, *headroom);
  }
  return *available;
}

}  // namespace arfabric::sysdep
