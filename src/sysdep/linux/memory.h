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
// in use: /proc/meminfo's MemAvailable, or less when a memory cgroup of
// this process has a limit with less left under it. The cgroups are this
// process's (/proc/self/cgroup) and their parents under /sys/fs/cgroup:
// v2's memory.max against memory.current, v1's memory.limit_in_bytes
// (or memory.stat's hierarchical_memory_limit) against
// memory.usage_in_bytes, the usage less the page cache the kernel would
// drop first (memory.stat's inactive_file, v1 total_inactive_file).
// Errors: /proc/meminfo cannot be read or has no MemAvailable (the
// message names the file); a cgroup file that cannot be read is taken as
// no limit.
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
// A cgroup's memory.stat: the value of the line "<key> <n>".
std::optional<std::uint64_t> parse_memory_stat(std::string_view text,
                                               std::string_view key);
// /proc/self/cgroup ("<id>:<controllers>:<path>" lines): the path of the
// v1 hierarchy whose controllers include `controller`, or, for an empty
// `controller`, of the v2 one ("0::<path>"). Errors: no such line.
std::optional<std::string> parse_proc_cgroup(std::string_view text,
                                             std::string_view controller);

}  // namespace arfabric::sysdep
