// Configuration errors of the FARE path-bandwidth policy: the bad field and
// why.
#pragma once

#include <string>

namespace arfabric::proto::fare {

struct ConfigError {
  std::string field;   // the FareConfig member, e.g. "router_id"
  std::string reason;  // e.g. "0 is not a valid BGP Identifier"
  std::string to_string() const { return field + ": " + reason; }
  bool operator==(const ConfigError&) const = default;
};

}  // namespace arfabric::proto::fare
