// Quantities with units as scenario and bgpd configuration files write
// them: rates ("400G"), times ("10us"), sizes ("64KB") and fractions ("0.5"
// or "50%").
//
// Parsing is exact: the number is read as a decimal (integer and fraction
// digits) and scaled with integer arithmetic, so "1.6T" is exactly
// 1,600,000,000,000 b/s and "0.5ns" exactly 500 ps. A value that is not a
// whole number of the base unit (bits/s, picoseconds, bytes) is an error,
// never silently rounded. Errors are plain messages; the file's parser
// (sim/scenario, daemon/config) adds the file, line and key.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "common/units.h"

namespace arfabric {

// "400G", "400Gbps", "100M", "1.6T", "25000000000" (b/s). Suffixes K, M,
// G, T are decimal (10^3..10^12), case-insensitive, optionally followed by
// "bps" or "b/s". Errors: empty, not a number, unknown suffix, a capital B
// (bytes: "50GB", "50GBps"), zero, fractional bits, or above 10^15 b/s.
std::expected<BitsPerSecond, std::string> parse_rate(std::string_view text);

// "10us", "5ms", "1.5us", "200ns", "3ps", "2s", "0". Units ps, ns, us (or
// µs with the micro sign or the Greek mu), ms, s. A non-zero number without a
// unit is an error (ambiguous), as is a negative time, fractional picoseconds
// or more than 10^6 s.
std::expected<Time, std::string> parse_time(std::string_view text);

// "64KB", "1MB", "4096", "1.5MiB". B, KB (or kB)/MB/GB/TB are decimal (10^3..),
// KiB/MiB/GiB/TiB binary (2^10..); no suffix means bytes. Case-sensitive
// in the B (bytes, not bits: "64Kb" is an error). Errors: not a number,
// unknown suffix, fractional bytes, above 2^50 bytes.
std::expected<std::uint64_t, std::string> parse_size(std::string_view text);

// "0.5", "50%", "1". Errors: not a number, negative, above 1 (100%).
std::expected<double, std::string> parse_fraction(std::string_view text);

// Formats for messages and documentation, in the largest unit that
// divides the value exactly: "400G", "1500ns", "200KB".
std::string format_rate(BitsPerSecond rate);
std::string format_size(std::uint64_t bytes);
std::string format_time(Time t);
// A time rounded for reading, in the largest unit from ns to s: "1.234 s",
// "12.345 ms", "3.5 us", "40.0 ns" (0 is "0.0 us"); "-" for Time::max()
// (never happened).
std::string format_time_rounded(Time t);

}  // namespace arfabric
