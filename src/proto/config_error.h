// The one error type of every forwarding-plane and policy engine's
// configuration (src/proto/*): which field is wrong and why. Engines also
// use it for API misuse they refuse (a port or destination out of range),
// naming the argument as the field.
//
// Hosts (simulator, CLI, agent) print to_string(); tests compare `field`,
// which is a dotted path into the configuration struct
// (e.g. "ports[3].id", "config.table_size") or the argument name
// (e.g. "port", "set_route.members[3]").
#pragma once

#include <string>

namespace arfabric::proto {

struct ConfigError {
  std::string field;
  std::string reason;
  std::string to_string() const { return field + ": " + reason; }
  bool operator==(const ConfigError&) const = default;
};

}  // namespace arfabric::proto
