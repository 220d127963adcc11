// The IBCS extremum operator (draft-tian-ccwg-ibcs-datapath-processing-00
// section 6.1): MIN when the signal is a bottleneck's spare capacity
// (available bandwidth), MAX when it is a bottleneck's load (utilisation,
// delay, queue depth).
#pragma once

#include <cstdint>
#include <string_view>

namespace arfabric::wire::ibcs {

enum class ExtremumOp : std::uint8_t { min, max };

constexpr std::string_view to_string(ExtremumOp op) {
  return op == ExtremumOp::min ? "min" : "max";
}

}  // namespace arfabric::wire::ibcs
