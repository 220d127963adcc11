// Reading a whole file (a scenario, a flow-size CDF or a daemon
// configuration the user named; a /proc file), with an error that says
// why it cannot be read.
#pragma once

#include <expected>
#include <string>

namespace arfabric {

// The file's bytes. Errors: why it cannot be read, for the caller to put
// after the file's name and what it was for: "it is a directory", the
// system's reason it cannot be opened ("No such file or directory",
// "Permission denied"), or "it cannot be read: <the system's reason>"
// for an error part way (nothing read is returned then).
std::expected<std::string, std::string> read_file(const std::string& path);

}  // namespace arfabric
