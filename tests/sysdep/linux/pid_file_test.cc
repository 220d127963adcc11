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

TEST(PidFile, AFileThatCannotBeCreatedIsAnError) {
  const fs::path path = fresh("pid-dir") / "missing" / "a.pid";
  auto held = PidFile::acquire(path.string());
  ASSERT_FALSE(held);
  EXPECT_EQ(held.error().err, ENOENT);
  EXPECT_NE(held.error().to_string().find(path.string()), std::string::npos);
}

}  // namespace
}  // namespace arfabric::sysdep
