// IEEE 754 binary16 (half precision) <-> double, for the 2-byte bandwidth of
// the FARE Path Bandwidth extended community (docs/PROTOCOLS.md).
//
// Decoding is exact: every binary16 value is a double. Encoding rounds
// toward zero so that a path's bottleneck is never overstated: the encoded
// value is the largest binary16 <= the input. Inputs above the largest
// finite binary16 (65504) encode as 65504, not infinity.
#pragma once

#include <cstdint>

namespace arfabric::wire::fare {

inline constexpr std::uint16_t kBinary16MaxFinite = 0x7bff;  // 65504
inline constexpr std::uint16_t kBinary16PositiveInfinity = 0x7c00;
inline constexpr double kBinary16MaxFiniteValue = 65504.0;

double binary16_to_double(std::uint16_t bits);

// Round toward zero. Requires value >= 0 and not NaN; negative inputs and NaN
// encode as +0 (there is no negative bandwidth).
std::uint16_t double_to_binary16(double value);

inline bool binary16_is_nan(std::uint16_t bits) {
  return (bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0;
}
inline bool binary16_is_infinite(std::uint16_t bits) {
  return (bits & 0x7fff) == 0x7c00;
}
inline bool binary16_is_negative(std::uint16_t bits) {
  return (bits & 0x8000) != 0;
}

}  // namespace arfabric::wire::fare
