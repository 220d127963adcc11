// The daemon's log: one line per event on stderr, "LEVEL message", below a
// configured level nothing is written. Foreground daemons under a service
// manager get timestamps from the journal, so none are added here.
#pragma once

#include <iosfwd>
#include <string_view>

#include "daemon/config.h"

namespace arfabric::daemon {

class Logger {
 public:
  explicit Logger(std::ostream& out, LogLevel level = LogLevel::info)
      : out_(&out), level_(level) {}
  void set_level(LogLevel level) { level_ = level; }
  LogLevel level() const { return level_; }
  bool enabled(LogLevel level) const { return level <= level_; }
  void log(LogLevel level, std::string_view message);
  void error(std::string_view m) { log(LogLevel::error, m); }
  void warning(std::string_view m) { log(LogLevel::warning, m); }
  void info(std::string_view m) { log(LogLevel::info, m); }
  void debug(std::string_view m) { log(LogLevel::debug, m); }

 private:
  std::ostream* out_;
  LogLevel level_;
};

}  // namespace arfabric::daemon
