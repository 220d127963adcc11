// Configuration errors of the IBCS engine: the bad field and why.
#pragma once

#include <string>

namespace arfabric::proto::ibcs {

struct ConfigError {
  std::string field;   // dotted path, e.g. "ports[3].edge_action"
  std::string reason;  // e.g. "strip is only possible for csig_l2"
  std::string to_string() const { return field + ": " + reason; }
  bool operator==(const ConfigError&) const = default;
};

}  // namespace arfabric::proto::ibcs
