// libFuzzer target: the parsers of /proc/self/statm, /proc/meminfo and the
// cgroup memory files (sysdep/linux/memory.h), the input being a file's
// text. None may crash. What each accepts must be what the text says: a
// cgroup value is "max" or digits only (and an optional newline); a
// meminfo value is a whole number of KiB from a "MemAvailable:" line; a
// statm value's digits are in the text.
#include <algorithm>
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
    if (text.find(std::to_string(*pages)) == std::string_view::npos &&
        text.find('0') == std::string_view::npos)  // leading zeros
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
  return 0;
}
