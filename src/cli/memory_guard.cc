#include "cli/memory_guard.h"

#include <fmt/format.h>

#include "sysdep/linux/memory.h"

namespace arfabric::cli {

std::string format_bytes(std::uint64_t bytes) {
  constexpr std::uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10;
  const auto in = [&](std::uint64_t unit) {
    return static_cast<double>(bytes) / static_cast<double>(unit);
  };
  if (bytes >= kGiB) return fmt::format("{:.1f} GiB", in(kGiB));
  if (bytes >= kMiB) return fmt::format("{:.0f} MiB", in(kMiB));
  if (bytes >= kKiB) return fmt::format("{:.0f} KiB", in(kKiB));
  return fmt::format("{} B", bytes);
}

MemoryGuard::MemoryGuard(std::uint64_t limit, std::string limit_source)
    : limit_(limit), limit_source_(std::move(limit_source)) {}

// thread_, the last member, is destroyed first: its destructor asks the
// watch to stop, which wakes its wait, and joins it.
MemoryGuard::~MemoryGuard() = default;

std::expected<std::unique_ptr<MemoryGuard>, std::string> MemoryGuard::start(
    std::uint64_t limit, std::string limit_source,
    std::chrono::milliseconds interval) {
  std::unique_ptr<MemoryGuard> guard(
      new MemoryGuard(limit, std::move(limit_source)));
  if (auto checked = guard->check(); !checked) {
    return std::unexpected(checked.error());
  }
  if (!guard->tripped_) {
    guard->thread_ =
        std::jthread([g = guard.get(), interval](std::stop_token stop) {
          g->watch(stop, interval);
        });
  }
  return guard;
}

std::expected<void, std::string> MemoryGuard::check() {
  const auto resident = sysdep::resident_bytes();
  if (!resident) return std::unexpected(resident.error());
  if (*resident > limit_) {
    seen_ = *resident;
    tripped_ = true;
  }
  return {};
}

void MemoryGuard::watch(std::stop_token stop,
                        std::chrono::milliseconds interval) {
  std::unique_lock lock(mutex_);
  while (!tripped_) {
    wake_.wait_for(lock, stop, interval, [] { return false; });
    if (stop.stop_requested()) return;
    // A read that fails later (it worked at start) is not a reason to
    // stop the runs: try again at the next interval.
    (void)check();
  }
}

std::string MemoryGuard::reason() const {
  return fmt::format("memory use reached {}, over the limit of {} ({})",
                     format_bytes(seen_), format_bytes(limit_), limit_source_);
}

}  // namespace arfabric::cli
