// The JSON form of a decode error, shared by every `arfabric decode` family:
// {"error": {"field": ..., "offset": ..., "reason": ...}}.
#pragma once

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace arfabric::cli {

inline nlohmann::json error_json(const DecodeError& e) {
  return {{"error",
           {{"field", e.field}, {"offset", e.offset}, {"reason", e.reason}}}};
}

}  // namespace arfabric::cli
