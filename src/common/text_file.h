// Reading a whole file (a scenario, a flow-size CDF or a daemon
// configuration the user named; a /proc file), with an error that says
// why it cannot be read.
#pragma once

#include <cstddef>
#include <expected>
#include <string>

namespace arfabric {

// The most read_file() reads unless told otherwise: far more than any
// scenario, configuration or CDF a person writes or a generator would
// (a scenario listing a 65,536-host fabric's cables is ~40 MB).
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

// The file's bytes. Errors: why it cannot be read, for the caller to put
// after the file's name and what it was for: "it is a directory", the
// system's reason it cannot be opened ("No such file or directory",
// "Permission denied"), "it cannot be read: <the system's reason>" for
// an error part way, or "it holds more than <max_bytes> bytes" when it
// does not end within `max_bytes` (a device such as /dev/zero, or the
// wrong file); nothing read is returned then. Not only regular files are
// read: a pipe (`-s <(...)`) and /proc files are.
std::expected<std::string, std::string> read_file(
    const std::string& path, std::size_t max_bytes = kMaxTextFileBytes);

}  // namespace arfabric
