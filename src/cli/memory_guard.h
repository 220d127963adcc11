// `arfabric sim`'s memory limit: a thread that reads the process's
// resident memory every `interval` and, once it is over the limit, sets a
// flag for good. The runs read the flag (sim::RunOptions::stop) and stop
// with an error, so a scenario too large for the machine ends with a
// message and the results of the modes already run, not with the OOM
// killer's SIGKILL.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace arfabric::cli {

// "1.5 GiB", "640 MiB", "12 KiB", "100 B".
std::string format_bytes(std::uint64_t bytes);
// Two sizes as format_bytes() gives them, or in bytes ("39845888 B") when
// it would give both the same words: a use over a limit must not read as
// "38 MiB, over the limit of 38 MiB".
std::pair<std::string, std::string> format_bytes_apart(std::uint64_t a,
                                                       std::uint64_t b);

class MemoryGuard {
 public:
  // Called once, from the guard's thread, when memory goes on growing
  // after the guard tripped, by more than kMinRunawayGrowth or 1/32 of the
  // limit, whichever is more: what was asked to stop did not (a run's
  // set-up does not stop part way), and the system may soon kill the
  // process. With the reason: "memory use reached 22.4 GiB, over the
  // limit of 21.5 GiB (<limit_source>), and still grows". It runs with
  // the guard's lock held: it must not destroy the guard.
  using Runaway = std::function<void(const std::string& reason)>;
  static constexpr std::uint64_t kMinRunawayGrowth = 64 << 20;

  // Checks once now (so a limit already passed trips before any run
  // starts), then every `interval` until it trips (with `on_runaway`:
  // until that is called) or is destroyed. `limit_source` says
  // where the limit came from, for the message ("--memory-limit", say).
  // `also_set`, when given, is set too when the guard trips (a stop flag
  // that other causes share) and must outlive the guard; see
  // set_the_flag_first().
  // Errors: the process's memory cannot be read (sysdep::resident_bytes).
  static std::expected<std::unique_ptr<MemoryGuard>, std::string> start(
      std::uint64_t limit, std::string limit_source,
      std::chrono::milliseconds interval = std::chrono::milliseconds(100),
      Runaway on_runaway = {}, std::atomic<bool>* also_set = nullptr);
  ~MemoryGuard();
  MemoryGuard(const MemoryGuard&) = delete;
  MemoryGuard& operator=(const MemoryGuard&) = delete;

  // Set, and never cleared, once resident memory was seen over the limit.
  const std::atomic<bool>& tripped() const { return tripped_; }
  // Once tripped: "memory use reached 21.6 GiB, over the limit of
  // 21.5 GiB (<limit_source>)".
  std::string reason() const;
  // Once tripped: whether the guard set `also_set` (or had none), rather
  // than finding it set by another cause already: which cause stopped the
  // runs first, when several did.
  bool set_the_flag_first() const { return set_the_flag_first_; }

 private:
  MemoryGuard(std::uint64_t limit, std::string limit_source, Runaway on_runaway,
              std::atomic<bool>* also_set);
  // Reads resident memory and trips when it is over the limit; returns
  // it. Errors: as start().
  std::expected<std::uint64_t, std::string> check();
  void watch(std::stop_token stop, std::chrono::milliseconds interval);
  std::string over_limit(std::uint64_t resident) const;

  const std::uint64_t limit_;
  const std::string limit_source_;
  const Runaway on_runaway_;
  std::atomic<bool>* const also_set_;
  std::atomic<bool> tripped_{false};
  std::atomic<bool> set_the_flag_first_{false};  // stored before tripped_
  std::atomic<std::uint64_t> seen_{0};  // resident bytes when it tripped
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: stopped and joined first
};

}  // namespace arfabric::cli
