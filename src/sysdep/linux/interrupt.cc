#include "sysdep/linux/interrupt.h"

#include <signal.h>

#include <cerrno>
#include <cstring>

namespace arfabric::sysdep {
namespace {

static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);

// What the handler may touch: lock-free atomics only.
std::atomic<std::atomic<bool>*> watched_flag{nullptr};
std::atomic<int> caught_signal{0};
std::atomic<bool> watching{false};

constexpr int kSignals[] = {SIGINT, SIGTERM};
struct sigaction replaced[std::size(kSignals)];

extern "C" void on_interrupt(int signal) {
  int none = 0;
  caught_signal.compare_exchange_strong(none, signal);
  if (std::atomic<bool>* flag = watched_flag.load()) flag->store(true);
  // SA_RESETHAND reset the signal delivered; the other is reset too, so
  // that any second signal ends the process (sigaction is
  // async-signal-safe).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  for (int s : kSignals) sigaction(s, &fallback, nullptr);
}

void restore(std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    sigaction(kSignals[i], &replaced[i], nullptr);
  }
}

}  // namespace

std::expected<std::unique_ptr<InterruptWatch>, std::string>
InterruptWatch::start(std::atomic<bool>& flag) {
  if (watching.exchange(true)) {
    return std::unexpected("an interrupt watch is already live");
  }
  caught_signal = 0;
  watched_flag = &flag;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the default action is back for the next signal.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    if (sigaction(kSignals[i], &action, &replaced[i]) != 0) {
      const std::string why = std::strerror(errno);
      restore(i);
      watched_flag = nullptr;
      watching = false;
      return std::unexpected(std::string("sigaction(SIG") +
                             sigabbrev_np(kSignals[i]) + "): " + why);
    }
  }
  return std::unique_ptr<InterruptWatch>(new InterruptWatch());
}

InterruptWatch::~InterruptWatch() {
  restore(std::size(kSignals));
  watched_flag = nullptr;
  watching = false;
}

std::string InterruptWatch::signal_name() const {
  const int s = caught_signal.load();
  if (s == 0) return "";
  return std::string("SIG") + sigabbrev_np(s);
}

}  // namespace arfabric::sysdep
