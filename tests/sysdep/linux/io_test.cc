#include "sysdep/linux/io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace arfabric::sysdep {
namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() /
                     ("arfabric-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p;
}

// A control socket: a live one (another daemon's) is refused, a dead one
// (its daemon died) replaced, anything else left alone.
TEST(UnixListen, ReplacesOnlyASocketNobodyServes) {
  const fs::path path = fresh("sock");
  {
    auto first = unix_listen(path.string());
    ASSERT_TRUE(first) << first.error().to_string();
    auto second = unix_listen(path.string());
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().err, EADDRINUSE);
    EXPECT_NE(second.error().to_string().find("a running process serves it"),
              std::string::npos);
    EXPECT_TRUE(unix_connect(path.string()));  // still the first's
  }
  // The first closed without removing its file: a stale socket.
  ASSERT_TRUE(fs::is_socket(path));
  auto again = unix_listen(path.string());
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(unix_connect(path.string()));
  fs::remove(path);

  std::ofstream(path) << "notes";
  auto over_a_file = unix_listen(path.string());
  ASSERT_FALSE(over_a_file);
  EXPECT_EQ(over_a_file.error().err, EEXIST);
  std::ifstream f(path);
  std::string kept;
  f >> kept;
  EXPECT_EQ(kept, "notes");
  fs::remove(path);
}

}  // namespace
}  // namespace arfabric::sysdep
