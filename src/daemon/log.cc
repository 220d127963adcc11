#include "daemon/log.h"

#include <ostream>

namespace arfabric::daemon {

void Logger::log(LogLevel level, std::string_view message) {
  if (!enabled(level)) return;
  // One write per line so that lines of concurrent daemons sharing a
  // terminal or test log do not interleave mid-line.
  std::string line;
  line.reserve(message.size() + 16);
  line += log_level_name(level);
  line += ' ';
  line += message;
  line += '\n';
  out_->write(line.data(), static_cast<std::streamsize>(line.size()));
  out_->flush();
}

}  // namespace arfabric::daemon
