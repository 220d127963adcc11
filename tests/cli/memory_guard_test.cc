#include "cli/memory_guard.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sysdep/linux/memory.h"

namespace arfabric::cli {
namespace {

using std::chrono::milliseconds;

TEST(MemoryGuard, FormatsBytesInTheLargestUnit) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1 KiB");
  EXPECT_EQ(format_bytes(640ull << 20), "640 MiB");
  EXPECT_EQ(format_bytes(3ull << 29), "1.5 GiB");
  EXPECT_EQ(format_bytes(21'600'000'000), "20.1 GiB");
  // Two sizes that would read the same are given in bytes.
  using Pair = std::pair<std::string, std::string>;
  EXPECT_EQ(format_bytes_apart(40'000'000, 39'845'888),
            Pair("40000000 B", "39845888 B"));
  EXPECT_EQ(format_bytes_apart(42ull << 20, 40ull << 20),
            Pair("42 MiB", "40 MiB"));
  EXPECT_EQ(format_bytes_apart(5, 5), Pair("5 B", "5 B"));
}

// A limit already passed trips at start(), before any run could start.
TEST(MemoryGuard, ALimitAlreadyPassedTripsAtOnce) {
  auto guard = MemoryGuard::start(1 << 20, "--memory-limit");
  ASSERT_TRUE(guard) << guard.error();
  EXPECT_TRUE((*guard)->tripped());
  EXPECT_TRUE((*guard)->reason().ends_with(
      ", over the limit of 1 MiB (--memory-limit)"))
      << (*guard)->reason();
}

// A stop flag shared with other causes (arfabric sim's Ctrl-C) is set
// when the guard trips, and only then.
TEST(MemoryGuard, SetsASharedStopFlagWhenItTrips) {
  std::atomic<bool> stop{false};
  auto roomy =
      MemoryGuard::start(UINT64_MAX, "test", milliseconds(5), {}, &stop);
  ASSERT_TRUE(roomy) << roomy.error();
  EXPECT_FALSE(stop);
  roomy->reset();
  auto tight = MemoryGuard::start(1 << 20, "test", milliseconds(5), {}, &stop);
  ASSERT_TRUE(tight) << tight.error();
  EXPECT_TRUE(stop);
  EXPECT_TRUE((*tight)->set_the_flag_first());
}

// A flag another cause set already is not the guard's doing: arfabric sim
// then reports that cause, not the memory limit.
TEST(MemoryGuard, KnowsWhetherAnotherCauseSetTheSharedFlagFirst) {
  std::atomic<bool> stop{true};
  auto tight = MemoryGuard::start(1 << 20, "test", milliseconds(5), {}, &stop);
  ASSERT_TRUE(tight) << tight.error();
  EXPECT_TRUE((*tight)->tripped());
  EXPECT_FALSE((*tight)->set_the_flag_first());
  EXPECT_TRUE(stop);
  auto alone = MemoryGuard::start(1 << 20, "test");
  ASSERT_TRUE(alone) << alone.error();
  EXPECT_TRUE((*alone)->set_the_flag_first());
}

// The watch sees the process grow past the limit within a few intervals,
// and the flag stays set when the memory is given back.
TEST(MemoryGuard, TripsWhenTheProcessGrowsPastTheLimit) {
  const auto resident = sysdep::resident_bytes();
  ASSERT_TRUE(resident) << resident.error();
  const std::uint64_t limit = *resident + (128ull << 20);
  auto guard = MemoryGuard::start(limit, "test", milliseconds(5));
  ASSERT_TRUE(guard) << guard.error();
  EXPECT_FALSE((*guard)->tripped());
  {
    std::vector<char> block(256 << 20, 1);  // touched
    for (int i = 0; i < 1000 && !(*guard)->tripped(); ++i) {
      std::this_thread::sleep_for(milliseconds(5));
    }
    EXPECT_EQ(block[4567], 1);
  }
  ASSERT_TRUE((*guard)->tripped());
  std::this_thread::sleep_for(milliseconds(20));
  EXPECT_TRUE((*guard)->tripped());
  EXPECT_TRUE((*guard)->reason().starts_with("memory use reached "))
      << (*guard)->reason();
  // The limit as format_bytes() gives it, or in bytes when the use it
  // passed rounds to the same words (format_bytes_apart).
  const std::string reason = (*guard)->reason();
  EXPECT_TRUE(reason.ends_with("over the limit of " + format_bytes(limit) +
                               " (test)") ||
              reason.ends_with("over the limit of " + std::to_string(limit) +
                               " B (test)"))
      << reason;
}

// Tripped, the guard goes on watching when given a runaway callback, and
// calls it once memory has grown by more than kMinRunawayGrowth since
// (the limit is small here); not before.
TEST(MemoryGuard, CallsTheRunawayCallbackWhenMemoryGoesOnGrowing) {
  const auto resident = sysdep::resident_bytes();
  ASSERT_TRUE(resident) << resident.error();
  const std::uint64_t limit = *resident - (1 << 20);
  std::atomic<int> calls{0};
  std::string message;
  std::mutex mutex;
  auto guard = MemoryGuard::start(limit, "test", milliseconds(5),
                                  [&](const std::string& reason) {
                                    std::lock_guard lock(mutex);
                                    message = reason;
                                    ++calls;
                                  });
  ASSERT_TRUE(guard) << guard.error();
  EXPECT_TRUE((*guard)->tripped());
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(calls, 0);  // over the limit, but not growing
  {
    std::vector<char> block(2 * MemoryGuard::kMinRunawayGrowth, 1);
    for (int i = 0; i < 1000 && calls == 0; ++i) {
      std::this_thread::sleep_for(milliseconds(5));
    }
    EXPECT_EQ(block[4567], 1);
  }
  std::this_thread::sleep_for(milliseconds(30));
  EXPECT_EQ(calls, 1);
  std::lock_guard lock(mutex);
  EXPECT_TRUE(message.starts_with("memory use reached ")) << message;
  EXPECT_TRUE(message.ends_with("over the limit of " + format_bytes(limit) +
                                " (test), and still grows"))
      << message;
}

// Destroying a guard mid-wait ends its thread at once, not after the
// interval.
TEST(MemoryGuard, StopsWatchingWhenDestroyed) {
  const auto started = std::chrono::steady_clock::now();
  {
    auto guard = MemoryGuard::start(UINT64_MAX, "test", milliseconds(60000));
    ASSERT_TRUE(guard) << guard.error();
    EXPECT_FALSE((*guard)->tripped());
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(10'000));
}

}  // namespace
}  // namespace arfabric::cli
