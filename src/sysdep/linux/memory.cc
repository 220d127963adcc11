#include "sysdep/linux/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "common/text_file.h"

namespace arfabric::sysdep {
namespace {

constexpr char kStatm[] = "/proc/self/statm";
constexpr char kMeminfo[] = "/proc/meminfo";

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

// The lines of a text, without their '\n', until `each` returns true.
template <typename Each>
void for_each_line(std::string_view text, Each each) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (each(text.substr(0, end))) return;
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
}

// In "<key><separator><value>" lines (/proc/meminfo, memory.stat): the
// value of the first line for `key`.
std::optional<std::string_view> value_of(std::string_view text,
                                         std::string_view key, char separator) {
  std::optional<std::string_view> value;
  for_each_line(text, [&](std::string_view line) {
    if (!line.starts_with(key) || line.size() <= key.size() ||
        line[key.size()] != separator) {
      return false;
    }
    value = line.substr(key.size() + 1);
    return true;
  });
  return value;
}

// The files of one cgroup version.
struct CgroupFiles {
  const char* limit;
  const char* usage;
  const char* inactive_key;  // in memory.stat
  const char* stat_limit;    // a limit in memory.stat too, or null
};
constexpr CgroupFiles kV2{"memory.max", "memory.current", "inactive_file",
                          nullptr};
constexpr CgroupFiles kV1{"memory.limit_in_bytes", "memory.usage_in_bytes",
                          "total_inactive_file", "hierarchical_memory_limit"};

// What the cgroup in `dir` leaves under its limit, or nothing when it has
// none (or its files cannot be read).
std::optional<std::uint64_t> cgroup_headroom(const std::string& dir,
                                             const CgroupFiles& files) {
  const auto read_bytes =
      [&](const char* name) -> std::optional<std::uint64_t> {
    const auto text = read_file(dir + "/" + name);
    return text ? parse_cgroup_bytes(*text) : std::nullopt;
  };
  auto limit = read_bytes(files.limit);
  const auto usage = read_bytes(files.usage);
  const auto stat = read_file(dir + "/memory.stat");
  if (stat && files.stat_limit != nullptr) {
    if (const auto l = parse_memory_stat(*stat, files.stat_limit)) {
      limit = limit ? std::min(*limit, *l) : *l;
    }
  }
  // v1 writes "no limit" as the largest page-aligned int64.
  constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 62;
  if (!limit || !usage || *limit >= kNoLimit) return std::nullopt;
  const std::uint64_t inactive =
      stat ? parse_memory_stat(*stat, files.inactive_key).value_or(0) : 0;
  const std::uint64_t used = *usage - std::min(*usage, inactive);
  return *limit > used ? *limit - used : 0;
}

// The least headroom of this process's cgroups of one version: `root`'s
// directory for `path` and each of its parents up to `root`.
std::optional<std::uint64_t> least_headroom(const std::string& root,
                                            std::string path,
                                            const CgroupFiles& files) {
  std::optional<std::uint64_t> least;
  while (true) {
    if (const auto h = cgroup_headroom(root + path, files)) {
      least = least ? std::min(*least, *h) : *h;
    }
    if (path.empty() || path == "/") break;
    path.erase(path.rfind('/'));
  }
  return least;
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
  const auto line = value_of(text, field, ':');
  if (!line) return std::nullopt;
  std::string_view value = trim_spaces(*line);
  if (!value.ends_with(" kB")) return std::nullopt;
  value.remove_suffix(3);
  const auto kib = parse_count(trim_spaces(value));
  if (!kib || *kib > std::numeric_limits<std::uint64_t>::max() / 1024)
    return std::nullopt;
  return *kib * 1024;
}

std::optional<std::uint64_t> parse_memory_stat(std::string_view text,
                                               std::string_view key) {
  const auto value = value_of(text, key, ' ');
  return value ? parse_count(*value) : std::nullopt;
}

std::optional<std::string> parse_proc_cgroup(std::string_view text,
                                             std::string_view controller) {
  std::optional<std::string> path;
  for_each_line(text, [&](std::string_view line) {
    const std::size_t first = line.find(':');
    const std::size_t second = line.find(':', first + 1);
    if (first == std::string_view::npos || second == std::string_view::npos)
      return false;
    const std::string_view id = line.substr(0, first);
    const std::string_view controllers =
        line.substr(first + 1, second - first - 1);
    bool match = false;
    if (controller.empty()) {
      match = id == "0" && controllers.empty();
    } else {
      for (std::string_view rest = controllers; !match;) {
        const std::size_t comma = rest.find(',');
        match = rest.substr(0, comma) == controller;
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
    if (match) path = std::string(line.substr(second + 1));
    return match;
  });
  if (path && !path->starts_with('/')) return std::nullopt;
  return path;
}

std::optional<std::uint64_t> parse_cgroup_bytes(std::string_view text) {
  if (text.ends_with('\n')) text.remove_suffix(1);
  if (text == "max") return std::numeric_limits<std::uint64_t>::max();
  return parse_count(text);
}

std::expected<std::uint64_t, std::string> resident_bytes() {
  const auto text = read_file(kStatm);
  if (!text) {
    return std::unexpected(std::string("cannot read ") + kStatm + ": " +
                           text.error());
  }
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
  const auto text = read_file(kMeminfo);
  if (!text) {
    return std::unexpected(std::string("cannot read ") + kMeminfo + ": " +
                           text.error());
  }
  auto available = parse_meminfo_bytes(*text, "MemAvailable");
  if (!available) {
    return std::unexpected(std::string(kMeminfo) +
                           " has no 'MemAvailable: <n> kB' line");
  }
  if (const auto cgroups = read_file("/proc/self/cgroup")) {
    // The path as this process's cgroup namespace sees it; without a
    // namespace of its own the mount has the whole tree.
    const std::array<std::optional<std::uint64_t>, 2> headroom = {
        least_headroom("/sys/fs/cgroup",
                       parse_proc_cgroup(*cgroups, "").value_or(""), kV2),
        least_headroom("/sys/fs/cgroup/memory",
                       parse_proc_cgroup(*cgroups, "memory").value_or(""),
                       kV1)};
    for (const auto& h : headroom) {
      if (h) available = std::min(*available, *h);
    }
  }
  return *available;
}

}  // namespace arfabric::sysdep
