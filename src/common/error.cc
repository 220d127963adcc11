#include "common/error.h"

namespace arfabric {

std::string DecodeError::to_string() const {
  return field + " at offset " + std::to_string(offset) + ": " + reason;
}

std::string EncodeError::to_string() const { return field + ": " + reason; }

}  // namespace arfabric
