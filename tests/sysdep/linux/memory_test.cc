#include "sysdep/linux/memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace arfabric::sysdep {
namespace {

TEST(Memory, StatmGivesTheResidentPages) {
  EXPECT_EQ(parse_statm_resident_pages("765 403 375 5 0 123 0\n"), 403u);
  EXPECT_EQ(parse_statm_resident_pages("1 2"), 2u);
  for (const char* bad :
       {"", "\n", "765", "765 ", "765 x 1", "765 -3 1", "x 403 1",
        "765 18446744073709551616 1", "765  403 1"}) {
    EXPECT_EQ(parse_statm_resident_pages(bad), std::nullopt) << bad;
  }
}

TEST(Memory, MeminfoGivesAFieldInBytes) {
  const char* text =
      "MemTotal:       24684084 kB\n"
      "MemFree:         1000 kB\n"
      "MemAvailable:   24290312 kB\n"
      "HugePages_Total:       0\n";
  EXPECT_EQ(parse_meminfo_bytes(text, "MemAvailable"), 24290312ull * 1024);
  EXPECT_EQ(parse_meminfo_bytes(text, "MemTotal"), 24684084ull * 1024);
  // Not there, a prefix of a field, or a line without kB.
  EXPECT_EQ(parse_meminfo_bytes(text, "SwapFree"), std::nullopt);
  EXPECT_EQ(parse_meminfo_bytes(text, "Mem"), std::nullopt);
  EXPECT_EQ(parse_meminfo_bytes(text, "HugePages_Total"), std::nullopt);
  for (const char* bad :
       {"", "MemAvailable:", "MemAvailable: kB", "MemAvailable: 12",
        "MemAvailable: x kB", "MemAvailable: -1 kB",
        "MemAvailable: 18014398509481984 kB"}) {  // 2^54 KiB: 2^64 bytes
    EXPECT_EQ(parse_meminfo_bytes(bad, "MemAvailable"), std::nullopt) << bad;
  }
}

TEST(Memory, CgroupFilesAreACountOrMax) {
  EXPECT_EQ(parse_cgroup_bytes("26275840\n"), 26275840u);
  EXPECT_EQ(parse_cgroup_bytes("0"), 0u);
  EXPECT_EQ(parse_cgroup_bytes("max\n"),
            std::numeric_limits<std::uint64_t>::max());
  for (const char* bad : {"", "\n", "max max", " 12", "12 ", "-1", "1e9"}) {
    EXPECT_EQ(parse_cgroup_bytes(bad), std::nullopt) << bad;
  }
}

// This process: resident, growing when it touches more memory, and less
// than what is available plus what it holds.
TEST(Memory, ThisProcessReadsItsOwnUse) {
  const auto before = resident_bytes();
  ASSERT_TRUE(before) << before.error();
  EXPECT_GT(*before, 0u);
  std::vector<char> block(64 << 20, 1);  // 64 MiB, touched
  const auto after = resident_bytes();
  ASSERT_TRUE(after) << after.error();
  EXPECT_GE(*after, *before + (48 << 20));
  EXPECT_GE(peak_resident_bytes(), *after - (4 << 20));  // sampled apart
  EXPECT_EQ(block[12345], 1);
  const auto available = available_bytes();
  ASSERT_TRUE(available) << available.error();
  EXPECT_GT(*available, 0u);
}

}  // namespace
}  // namespace arfabric::sysdep
