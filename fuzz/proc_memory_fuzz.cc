// libFuzzer target: the parsers of /proc/self/statm, /proc/meminfo,
// /proc/self/cgroup and the cgroup memory files (sysdep/linux/memory.h),
// the input being a file's text. None may crash. What each accepts must
// be what the text says: a statm value is its second field; a cgroup
// value is "max" or digits only (and an optional newline); a meminfo
// value is a whole number of KiB from a "MemAvailable:" line; a
// memory.stat value comes from an "inactive_file " line; a cgroup path
// is absolute, one line, and in the text.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "sysdep/linux/memory.h"

using namespace arfabric::sysdep;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (const auto pages = parse_statm_resident_pages(text)) {
    // The second of the space-separated fields, read as a number.
    std::string_view rest = text.substr(text.find_first_not_of(" \t"));
    rest.remove_prefix(rest.find(' ') + 1);
    rest = rest.substr(0, rest.find_first_of(" \t\n"));
    std::uint64_t second = 0;
    const auto [at, ec] =
        std::from_chars(rest.data(), rest.data() + rest.size(), second);
    if (ec != std::errc{} || at != rest.data() + rest.size() ||
        second != *pages)
      __builtin_trap();
  }

  if (const auto bytes = parse_meminfo_bytes(text, "MemAvailable")) {
    if (*bytes % 1024 != 0) __builtin_trap();
    if (text.find("MemAvailable:") == std::string_view::npos) __builtin_trap();
    if (text.find(" kB") == std::string_view::npos) __builtin_trap();
  }

  if (const auto bytes = parse_cgroup_bytes(text)) {
    std::string_view value = text;
    if (value.ends_with('\n')) value.remove_suffix(1);
    const bool digits =
        !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
          return c >= '0' && c <= '9';
        });
    const bool max = *bytes == std::numeric_limits<std::uint64_t>::max();
    if (!digits && !(max && value == "max")) __builtin_trap();
  }
  if (const auto value = parse_memory_stat(text, "inactive_file")) {
    if (text.find("inactive_file ") == std::string_view::npos) __builtin_trap();
  }

  for (std::string_view controller : {"", "memory"}) {
    if (const auto path = parse_proc_cgroup(text, controller)) {
      if (!path->starts_with('/') || path->find('\n') != std::string::npos ||
          text.find(*path) == std::string_view::npos)
        __builtin_trap();
    }
  }
  return 0;
}
