// Ctrl-C (SIGINT) and SIGTERM as a flag, for a long computation that
// checks a stop flag now and then (`arfabric sim`'s runs): while an
// InterruptWatch lives, the first such signal sets the flag and records
// which signal it was; the default actions are back at once, so a second
// Ctrl-C (or SIGTERM) ends the process as usual. Destroying the watch restores
// the actions it replaced.
#pragma once

#include <atomic>
#include <expected>
#include <memory>
#include <string>

namespace arfabric::sysdep {

class InterruptWatch {
 public:
  // Watches SIGINT and SIGTERM, setting `flag` (which must outlive the
  // watch) on the first. One watch at a time in a process.
  // Errors: another watch is live; sigaction fails (the message names
  // the signal and errno's text).
  static std::expected<std::unique_ptr<InterruptWatch>, std::string> start(
      std::atomic<bool>& flag);
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  // The signal that set the flag ("SIGINT", "SIGTERM"), or empty.
  std::string signal_name() const;

 private:
  InterruptWatch() = default;
};

}  // namespace arfabric::sysdep
