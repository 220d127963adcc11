#include "sim/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <memory_resource>
#include <sstream>
#include <string>
#include <vector>

namespace arfabric::sim {
namespace {

struct alignas(64) Line {
  std::uint64_t words[8];
};

// Small arrays keep their type's alignment; arrays of a huge page or more
// start on a huge-page boundary. Either way the memory is usable to its
// last byte, and a vector growing across the threshold keeps its contents.
TEST(HugePageAllocator, AlignsLargeArraysToHugePagesAndKeepsContents) {
  HugePageAllocator<Line> alloc;
  constexpr std::size_t kPage = kHugePage;
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{100}, kPage / sizeof(Line) - 1,
        kPage / sizeof(Line), 3 * kPage / sizeof(Line) + 5}) {
    Line* p = alloc.allocate(n);
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    EXPECT_EQ(address % alignof(Line), 0u) << n;
    if (n * sizeof(Line) >= kPage) EXPECT_EQ(address % kPage, 0u) << n;
    p[0].words[0] = 1;
    p[n - 1].words[7] = 2;
    EXPECT_EQ(p[0].words[0] + p[n - 1].words[7], 3u);
    alloc.deallocate(p, n);
  }
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> v;
  for (std::uint32_t i = 0; i < 3 * kPage / sizeof(std::uint32_t); ++i) {
    v.push_back(i * 7);
  }
  for (std::uint32_t i = 0; i < v.size(); i += 4099) EXPECT_EQ(v[i], i * 7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kPage, 0u);
  EXPECT_THROW((void)alloc.allocate(std::size_t(-1) / sizeof(Line) + 1),
               std::bad_array_new_length);
}

// The arena packs allocations, each at its alignment, into huge-page
// mappings, starts a new mapping for what does not fit, and gives the
// memory back only when it is destroyed (ASan's leak check would see a
// lost mapping only as an mmap, so the mapped() total is checked).
TEST(HugePageArena, PacksAlignedAllocationsIntoHugePageMappings) {
  HugePageArena arena;
  EXPECT_EQ(arena.mapped(), 0u);
  auto* a = static_cast<char*>(arena.allocate(100, 64));
  auto* b = static_cast<char*>(arena.allocate(1000, 64));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % kHugePage, 0u);
  EXPECT_EQ(b - a, 128);  // the next 64-byte boundary after 100 bytes
  EXPECT_EQ(arena.mapped(), HugePageArena::kChunk);
  EXPECT_EQ(arena.allocated(), 1100u);
  a[99] = 1;
  b[999] = 2;
  // Larger than a chunk: a mapping of its own, rounded to huge pages.
  const std::size_t big = HugePageArena::kChunk + 5;
  auto* c = static_cast<char*>(arena.allocate(big, 64));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % kHugePage, 0u);
  c[big - 1] = 3;
  EXPECT_EQ(arena.mapped(), HugePageArena::kChunk + huge_page_size(big + 64));
  arena.deallocate(b, 1000, 64);  // nothing until the arena goes
  EXPECT_EQ(a[99] + b[999] + c[big - 1], 6);
  // A pmr vector of 64-byte-aligned entries (the FIB's destination table).
  std::pmr::vector<Line> lines(1000, &arena);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines.data()) % 64, 0u);
  lines[999].words[7] = 4;
  EXPECT_EQ(lines[999].words[7], 4u);
  EXPECT_TRUE(arena.is_equal(arena));
  HugePageArena other;
  EXPECT_FALSE(arena.is_equal(other));
}

// The arena's memory is a mapping advised for huge pages before it is
// touched: the kernel lists it with the flag "hg" (VmFlags in
// /proc/self/smaps). malloc'd memory that was recycled is what never got
// huge pages.
TEST(HugePageArena, MapsMemoryAdvisedForHugePages) {
  HugePageArena arena;
  const auto p = reinterpret_cast<std::uintptr_t>(arena.allocate(64, 64));
  std::ifstream smaps("/proc/self/smaps");
  ASSERT_TRUE(smaps) << "no /proc/self/smaps";
  std::string line;
  bool inside = false, found = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t from = 0, to = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> from >> dash >> to && dash == '-') {
      inside = from <= p && p < to;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) {
      EXPECT_NE((line + " ").find(" hg "), std::string::npos) << line;
      found = true;
    }
  }
  EXPECT_TRUE(found) << "the arena's mapping is not in /proc/self/smaps";
}

}  // namespace
}  // namespace arfabric::sim
