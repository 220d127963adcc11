#include "sysdep/linux/pid_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "support/capture.h"

namespace arfabric::sysdep {
namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path p = testing::temp_path(name);
  fs::remove_all(p);
  return p;
}

std::string contents(const fs::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  return s;
}

TEST(PidFile, HoldsTheFileWithThePidAndRemovesItAtTheEnd) {
  const fs::path path = fresh("pid");
  {
    auto held = PidFile::acquire(path.string());
    ASSERT_TRUE(held) << held.error().to_string();
    EXPECT_EQ(contents(path), std::to_string(::getpid()));
    // Another holder (a second open file, as another daemon's would be) is
    // refused, naming the holder, and changes nothing.
    auto second = PidFile::acquire(path.string());
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().err, EWOULDBLOCK);
    EXPECT_NE(second.error().to_string().find("held by process " +
                                              std::to_string(::getpid())),
              std::string::npos)
        << second.error().to_string();
    EXPECT_EQ(contents(path), std::to_string(::getpid()));
  }
  EXPECT_FALSE(fs::exists(path));
}

// A holder removes the file only while the path still names it: once
// someone removed it and another daemon made its own, that one stays.
TEST(PidFile, LeavesAFileThatIsNoLongerItsOwn) {
  const fs::path path = fresh("pid-replaced");
  auto first = std::make_optional(*PidFile::acquire(path.string()));
  fs::remove(path);
  auto second = PidFile::acquire(path.string());
  ASSERT_TRUE(second) << second.error().to_string();
  first.reset();
  EXPECT_TRUE(fs::exists(path));
}

// A file a daemon that died left behind holds no lock: it is taken over.
TEST(PidFile, TakesOverAFileNobodyHolds) {
  const fs::path path = fresh("pid-stale");
  std::ofstream(path) << "999999999\nleft over\n";
  auto held = PidFile::acquire(path.string());
  ASSERT_TRUE(held) << held.error().to_string();
  EXPECT_EQ(contents(path), std::to_string(::getpid()));
  std::ifstream f(path);
  std::string all((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(all, std::to_string(::getpid()) + "\n");
}

// A file that is not a pid file is neither overwritten nor removed: a
// config file given by mistake, a symbolic link (to a file it would have
// overwritten), a directory or a device.
TEST(PidFile, OnlyAPidFileIsTakenOver) {
  const fs::path dir = fresh("pid-not");
  fs::create_directories(dir);
  const fs::path config = dir / "bgpd.yaml";
  std::ofstream(config) << "router_id: 10.0.0.1\n";
  auto mistaken = PidFile::acquire(config.string());
  ASSERT_FALSE(mistaken);
  EXPECT_EQ(mistaken.error().err, EEXIST);
  EXPECT_NE(mistaken.error().to_string().find("holds something other than"),
            std::string::npos);
  EXPECT_EQ(contents(config), "router_id: 10.0.0.1");

  const fs::path precious = dir / "precious";
  std::ofstream(precious) << "12\n";
  fs::create_symlink(precious, dir / "link.pid");
  auto linked = PidFile::acquire((dir / "link.pid").string());
  ASSERT_FALSE(linked);
  EXPECT_EQ(linked.error().err, ELOOP);
  EXPECT_EQ(contents(precious), "12");
  EXPECT_TRUE(fs::is_symlink(dir / "link.pid"));

  auto directory = PidFile::acquire(dir.string());
  EXPECT_FALSE(directory);
  auto device = PidFile::acquire("/dev/null");
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error().err, EINVAL);
}

TEST(PidFile, AFileThatCannotBeCreatedIsAnError) {
  const fs::path path = fresh("pid-dir") / "missing" / "a.pid";
  auto held = PidFile::acquire(path.string());
  ASSERT_FALSE(held);
  EXPECT_EQ(held.error().err, ENOENT);
  EXPECT_NE(held.error().to_string().find(path.string()), std::string::npos);
}

}  // namespace
}  // namespace arfabric::sysdep
