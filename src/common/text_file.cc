#include "common/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace arfabric {
namespace {

std::string system_reason(const char* otherwise) {
  return errno != 0 ? std::strerror(errno) : otherwise;
}

}  // namespace

std::expected<std::string, std::string> read_file(const std::string& path) {
  // A directory opens and reads as empty on Linux: say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return std::unexpected("it is a directory");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(system_reason("it cannot be opened"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::unexpected(system_reason("it cannot be read"));
  return std::move(text).str();
}

}  // namespace arfabric
