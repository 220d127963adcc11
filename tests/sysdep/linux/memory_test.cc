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

TEST(Memory, MemoryStatGivesAKeysValue) {
  const char* text =
      "cache 123\ninactive_file 5558272\ntotal_inactive_file 7\n"
      "hierarchical_memory_limit 9223372036854771712\n";
  EXPECT_EQ(parse_memory_stat(text, "inactive_file"), 5558272u);
  EXPECT_EQ(parse_memory_stat(text, "total_inactive_file"), 7u);
  EXPECT_EQ(parse_memory_stat(text, "hierarchical_memory_limit"),
            9223372036854771712u);
  // Not there, a prefix of a key, or not a count.
  EXPECT_EQ(parse_memory_stat(text, "active_file"), std::nullopt);
  EXPECT_EQ(parse_memory_stat(text, "inactive"), std::nullopt);
  for (const char* bad :
       {"", "inactive_file", "inactive_file ", "inactive_file x",
        "inactive_file -1", "inactive_file 18446744073709551616"}) {
    EXPECT_EQ(parse_memory_stat(bad, "inactive_file"), std::nullopt) << bad;
  }
}

// v1 lines name their controllers, the v2 line is "0::<path>".
TEST(Memory, ProcCgroupGivesAHierarchysPath) {
  const char* v1 =
      "9:name=systemd:/\n5:devices:/\n4:cpu,cpuacct:/c\n"
      "3:memory:/process_api/0453\n0::/\n";
  EXPECT_EQ(parse_proc_cgroup(v1, "memory"), "/process_api/0453");
  EXPECT_EQ(parse_proc_cgroup(v1, "cpuacct"), "/c");
  EXPECT_EQ(parse_proc_cgroup(v1, ""), "/");
  EXPECT_EQ(parse_proc_cgroup(v1, "pids"), std::nullopt);
  EXPECT_EQ(parse_proc_cgroup("0::/user.slice/session-3.scope\n", ""),
            "/user.slice/session-3.scope");
  EXPECT_EQ(parse_proc_cgroup("0::/a\n", "memory"), std::nullopt);
  for (const char* bad : {"", "0:", "0::", "0::relative", "memory", "x::/"}) {
    EXPECT_EQ(parse_proc_cgroup(bad, ""), std::nullopt) << bad;
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
