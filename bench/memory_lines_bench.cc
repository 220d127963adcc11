// What this machine's memory gives one core: random 64-byte lines per
// second out of a buffer of a given size, read (or read and written back)
// with a given number of loads asked for ahead. It bounds the simulator:
// a packet-hop that needs N lines from memory cannot run faster than
// (lines per second) / N, however its code is arranged (docs/PERFORMANCE.md
// "What memory gives a hop").
//
//   scripts/build release && build/release/memory_lines_bench
//
// BM_DependentLines: each line holds the index of the next, a random
// cycle through the whole buffer (Sattolo's shuffle): one load at a time,
// so a line's time is the memory latency at that size.
// BM_RandomLines/MB/AHEAD: independent random lines, with a prefetch
// issued AHEAD loads before each one (0: none; the core's out-of-order
// window then overlaps what it can), as the simulator's look-ahead does.
// BM_RandomLineUpdates: the same, each line incremented in place, so that
// every line is also written back, as a hop's links and packets are.
// The buffer is in huge pages where the kernel grants them (as the
// simulator's links, packets and events are), so TLB misses are rare;
// the huge_MB counter says how much of the process is.
#include <benchmark/benchmark.h>

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/huge_pages.h"

namespace {

using arfabric::sim::huge_page_size;
using arfabric::sim::map_huge_pages;
using arfabric::sim::unmap_huge_pages;

constexpr std::size_t kLine = 64;
// Loads per benchmark iteration: enough that the loop's set-up is noise.
constexpr std::size_t kBatch = 4096;

// `megabytes` MB of lines (a power of two), every page touched; mapped
// in whole huge pages, of which only those bytes are used.
class LineBuffer {
 public:
  explicit LineBuffer(std::size_t megabytes)
      : bytes_(megabytes << 20),
        mapped_(huge_page_size(bytes_)),
        base_(static_cast<std::byte*>(map_huge_pages(mapped_))) {
    assert(std::has_single_bit(bytes_));
    std::memset(base_, 1, mapped_);
  }
  ~LineBuffer() { unmap_huge_pages(base_, mapped_); }
  LineBuffer(const LineBuffer&) = delete;
  LineBuffer& operator=(const LineBuffer&) = delete;

  std::size_t lines() const { return bytes_ / kLine; }  // a power of two
  std::uint64_t* line(std::size_t i) {
    return reinterpret_cast<std::uint64_t*>(base_ + i * kLine);
  }

 private:
  std::size_t bytes_;
  std::size_t mapped_;
  std::byte* base_;
};

// MB of this process's memory in transparent huge pages
// (/proc/self/smaps_rollup), or -1 where that cannot be read: the
// benchmarks report it, since a buffer in 4 KB pages would time the TLB
// as much as the caches.
double huge_page_megabytes() {
  std::ifstream in("/proc/self/smaps_rollup");
  std::string key;
  double kilobytes = 0;
  while (in >> key) {
    if (key == "AnonHugePages:" && in >> kilobytes) return kilobytes / 1024;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return -1;
}

// xorshift64*: a random line index, cheap enough not to be what is timed.
struct LineIndices {
  std::uint64_t state;
  std::uint64_t mask;
  std::size_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<std::size_t>((state * 2685821657736338717ull) >> 20) &
           mask;
  }
};

void BM_DependentLines(benchmark::State& state) {
  LineBuffer buffer(static_cast<std::size_t>(state.range(0)));
  const std::size_t n = buffer.lines();
  // Sattolo's shuffle: a single cycle through every line.
  std::vector<std::uint32_t> next(n);
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937_64 rng(1);
  for (std::size_t i = n - 1; i > 0; --i) {
    std::uniform_int_distribution<std::size_t> pick(0, i - 1);
    std::swap(next[i], next[pick(rng)]);
  }
  for (std::size_t i = 0; i < n; ++i) *buffer.line(i) = next[i];
  state.counters["huge_MB"] = huge_page_megabytes();
  std::uint64_t at = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < kBatch; ++k) at = *buffer.line(at);
    benchmark::DoNotOptimize(at);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kBatch));
}

template <bool kWrite>
void random_lines(benchmark::State& state) {
  LineBuffer buffer(static_cast<std::size_t>(state.range(0)));
  const auto ahead = static_cast<std::size_t>(state.range(1));
  const std::uint64_t mask = buffer.lines() - 1;
  // Two copies of one sequence, `ahead` apart: the first names the line to
  // prefetch, the second the one to load.
  LineIndices loads{88172645463325252ull, mask};
  LineIndices prefetches = loads;
  for (std::size_t k = 0; k < ahead; ++k) prefetches.next();
  state.counters["huge_MB"] = huge_page_megabytes();
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < kBatch; ++k) {
      if (ahead != 0) {
        __builtin_prefetch(buffer.line(prefetches.next()), kWrite ? 1 : 0);
      }
      std::uint64_t* word = buffer.line(loads.next());
      if constexpr (kWrite) {
        ++*word;
      } else {
        sum += *word;
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kBatch));
}

void BM_RandomLines(benchmark::State& state) { random_lines<false>(state); }
void BM_RandomLineUpdates(benchmark::State& state) {
  random_lines<true>(state);
}

// 1 MB: one core's L2 here; 4 and 16 MB: within the shared 32 MB L3; 64
// and 256 MB: memory, as the 4,096-host fabric's working set is.
BENCHMARK(BM_DependentLines)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Arg(256);
BENCHMARK(BM_RandomLines)->ArgsProduct({{1, 4, 16, 64, 256}, {0, 8, 32, 64}});
BENCHMARK(BM_RandomLineUpdates)->ArgsProduct({{64, 256}, {0, 32, 64}});

}  // namespace
