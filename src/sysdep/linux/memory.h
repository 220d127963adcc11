// How much memory this process uses and how much more it may take before
// the kernel's OOM killer steps in, read from /proc and the cgroup
// filesystem. `arfabric sim` uses it to stop a scenario too large for the
// machine with an error, rather than be killed without one.
//
// The readers are split from the parsers of the files' text, so the
// parsers can be tested and fuzzed on any input.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace arfabric::sysdep {

// The resident set of this process in bytes (/proc/self/statm's second
// field times the page size). Errors: the file cannot be read or parsed
// (the message names it).
std::expected<std::uint64_t, std::string> resident_bytes();

// The largest resident set this process has had, in bytes
// (getrusage's ru_maxrss).
std::uint64_t peak_resident_bytes();

// Bytes that can still be allocated without swapping or reclaiming memory
// in use: /proc/meminfo's MemAvailable, or less when this process's cgroup
// (v2 /sys/fs/cgroup/memory.max, v1 /sys/fs/cgroup/memory/
// memory.limit_in_bytes, as mounted for the process) has a limit with
// less left under it. Errors: /proc/meminfo cannot be read or has no
// MemAvailable (the message names the file); an unreadable cgroup file is
// taken as no limit.
std::expected<std::uint64_t, std::string> available_bytes();

// The text parsers. Each returns std::nullopt on text it does not
// recognise: empty, not a decimal number, too large for 64 bits.

// /proc/self/statm: "size resident shared text lib data dt", in pages;
// returns `resident`.
std::optional<std::uint64_t> parse_statm_resident_pages(std::string_view text);
// /proc/meminfo: the value of the line "<field>: <n> kB", in bytes.
std::optional<std::uint64_t> parse_meminfo_bytes(std::string_view text,
                                                 std::string_view field);
// A cgroup limit or usage file: a decimal byte count, or "max" (v2's no
// limit, returned as UINT64_MAX), with an optional trailing newline.
std::optional<std::uint64_t> parse_cgroup_bytes(std::string_view text);

}  // namespace arfabric::sysdep
