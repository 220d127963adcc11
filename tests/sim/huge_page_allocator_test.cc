#include "sim/huge_page_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
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
  constexpr std::size_t kPage = HugePageAllocator<Line>::kHugePage;
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

}  // namespace
}  // namespace arfabric::sim
