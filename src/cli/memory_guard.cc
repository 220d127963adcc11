#include "cli/memory_guard.h"

#include <fmt/format.h>

#include <algorithm>

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

std::pair<std::string, std::string> format_bytes_apart(std::uint64_t a,
                                                       std::uint64_t b) {
  std::string fa = format_bytes(a), fb = format_bytes(b);
  if (a != b && fa == fb) {
    fa = fmt::format("{} B", a);
    fb = fmt::format("{} B", b);
  }
  return {fa, fb};
}

MemoryGuard::MemoryGuard(std::uint64_t limit, std::string limit_source,
                         Runaway on_runaway, std::atomic<bool>* also_set)
    : limit_(limit),
      limit_source_(std::move(limit_source)),
      on_runaway_(std::move(on_runaway)),
      also_set_(also_set) {}

// thread_, the last member, is destroyed first: its destructor asks the
// watch to stop, which wakes its wait, and joins it.
MemoryGuard::~MemoryGuard() = default;

std::expected<std::unique_ptr<MemoryGuard>, std::string> MemoryGuard::start(
    std::uint64_t limit, std::string limit_source,
    std::chrono::milliseconds interval, Runaway on_runaway,
    std::atomic<bool>* also_set) {
  std::unique_ptr<MemoryGuard> guard(new MemoryGuard(
      limit, std::move(limit_source), std::move(on_runaway), also_set));
  if (auto checked = guard->check(); !checked) {
    return std::unexpected(checked.error());
  }
  guard->thread_ =
      std::jthread([g = guard.get(), interval](std::stop_token stop) {
        g->watch(stop, interval);
      });
  return guard;
}

std::expected<std::uint64_t, std::string> MemoryGuard::check() {
  const auto resident = sysdep::resident_bytes();
  if (!resident) return std::unexpected(resident.error());
  if (*resident > limit_ && !tripped_) {
    seen_ = *resident;
    set_the_flag_first_ = also_set_ == nullptr || !also_set_->exchange(true);
    tripped_ = true;
  }
  return *resident;
}

// Until tripped, then (with on_runaway_) until memory runs away.
void MemoryGuard::watch(std::stop_token stop,
                        std::chrono::milliseconds interval) {
  const std::uint64_t growth = std::max(limit_ / 32, kMinRunawayGrowth);
  std::unique_lock lock(mutex_);
  while (!tripped_ || on_runaway_) {
    wake_.wait_for(lock, stop, interval, [] { return false; });
    if (stop.stop_requested()) return;
    // A read that fails later (it worked at start) is not a reason to
    // stop the runs: try again at the next interval.
    const auto resident = check();
    if (resident && tripped_ && on_runaway_ && *resident > seen_ + growth) {
      on_runaway_(over_limit(*resident) + ", and still grows");
      return;
    }
  }
}

std::string MemoryGuard::over_limit(std::uint64_t resident) const {
  const auto [used, limit] = format_bytes_apart(resident, limit_);
  return fmt::format("memory use reached {}, over the limit of {} ({})", used,
                     limit, limit_source_);
}

std::string MemoryGuard::reason() const { return over_limit(seen_); }

}  // namespace arfabric::cli
