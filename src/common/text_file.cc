#include "common/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

namespace arfabric {

std::expected<std::string, std::string> read_file(const std::string& path,
                                                  std::size_t max_bytes) {
  // A directory opens and reads as empty on Linux: say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return std::unexpected("it is a directory");
  }
  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    return std::unexpected(errno != 0 ? std::strerror(errno)
                                      : "it cannot be opened");
  }
  std::string text;
  char buffer[1 << 16];
  while (const std::size_t n =
             std::fread(buffer, 1, sizeof buffer, file.get())) {
    if (n > max_bytes - text.size()) {
      return std::unexpected("it holds more than " + std::to_string(max_bytes) +
                             " bytes");
    }
    text.append(buffer, n);
  }
  if (std::ferror(file.get())) {
    return std::unexpected(std::string("it cannot be read: ") +
                           (errno != 0 ? std::strerror(errno) : "I/O error"));
  }
  return text;
}

}  // namespace arfabric
