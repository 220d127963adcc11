#include "common/text_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/capture.h"

namespace arfabric {
namespace {

namespace fs = std::filesystem;

TEST(ReadFile, GivesTheWholeFile) {
  const fs::path dir = testing::temp_path("read-file");
  fs::create_directories(dir);
  const std::string text("a: 1\n\0binary\r\n", 15);
  std::ofstream(dir / "f.yaml", std::ios::binary) << text;
  EXPECT_EQ(read_file((dir / "f.yaml").string()), text);
  std::ofstream(dir / "empty.yaml");
  EXPECT_EQ(read_file((dir / "empty.yaml").string()), "");
}

// Each reason a file cannot be read is said, not taken for an empty file.
TEST(ReadFile, SaysWhyAFileCannotBeRead) {
  const fs::path dir = testing::temp_path("read-file-errors");
  fs::create_directories(dir);
  EXPECT_EQ(read_file((dir / "missing.yaml").string()),
            std::unexpected(std::string("No such file or directory")));
  EXPECT_EQ(read_file(dir.string()),
            std::unexpected(std::string("it is a directory")));
  EXPECT_EQ(read_file((dir / "missing" / "x.yaml").string()),
            std::unexpected(std::string("No such file or directory")));
  std::ofstream(dir / "file") << "x";
  EXPECT_EQ(read_file((dir / "file" / "x.yaml").string()),
            std::unexpected(std::string("Not a directory")));
}

// A file that does not end within the limit (a device that never ends, a
// huge file named by mistake) is an error, not a hang or an abort; a file
// of exactly the limit is read.
TEST(ReadFile, StopsAtItsLimit) {
  const fs::path dir = testing::temp_path("read-file-limit");
  fs::create_directories(dir);
  std::ofstream(dir / "f") << std::string(100'000, 'x');
  EXPECT_EQ(read_file((dir / "f").string(), 100'000)->size(), 100'000u);
  EXPECT_EQ(read_file((dir / "f").string(), 99'999),
            std::unexpected(std::string("it holds more than 99999 bytes")));
  EXPECT_EQ(read_file("/dev/zero", 1 << 20),
            std::unexpected(std::string("it holds more than 1048576 bytes")));
}

}  // namespace
}  // namespace arfabric
