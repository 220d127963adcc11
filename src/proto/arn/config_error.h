// Configuration errors of the ARN engine: the bad field and why.
#pragma once

#include <string>

namespace arfabric::proto::arn {

struct ConfigError {
  std::string field;   // dotted path, e.g. "monitored[0].queue_low_bytes"
  std::string reason;  // e.g. "must be below queue_high_bytes"
  std::string to_string() const { return field + ": " + reason; }
  bool operator==(const ConfigError&) const = default;
};

}  // namespace arfabric::proto::arn
