#include "sysdep/linux/io.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "support/capture.h"

namespace arfabric::sysdep {
namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path p = testing::temp_path(name);
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

  // A live socket of another type (a datagram server's, like /dev/log)
  // answers a stream connect with EPROTOTYPE: alive, and left alone.
  {
    Fd datagram(::socket(AF_UNIX, SOCK_DGRAM, 0));
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.c_str(), path.string().size() + 1);
    ASSERT_EQ(::bind(datagram.get(), reinterpret_cast<sockaddr*>(&a), sizeof a),
              0);
    auto over_datagram = unix_listen(path.string());
    ASSERT_FALSE(over_datagram);
    EXPECT_EQ(over_datagram.error().err, EADDRINUSE);
    EXPECT_TRUE(fs::is_socket(path));
  }
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
