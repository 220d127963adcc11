#include "wire/fare/binary16.h"

#include <cmath>

namespace arfabric::wire::fare {

double binary16_to_double(std::uint16_t bits) {
  const bool negative = bits & 0x8000;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x03ff;
  double value;
  if (exponent == 0) {
    value = std::ldexp(mantissa, -24);  // subnormal: m * 2^-24
  } else if (exponent == 0x1f) {
    value = mantissa ? std::nan("") : INFINITY;
  } else {
    value = std::ldexp(1024 + mantissa, exponent - 25);  // 1.m * 2^(e-15)
  }
  return negative ? -value : value;
}

std::uint16_t double_to_binary16(double value) {
  if (!(value > 0)) return 0;  // zero, negative or NaN
  if (value >= kBinary16MaxFiniteValue) return kBinary16MaxFinite;
  int exp2;
  const double fraction = std::frexp(value, &exp2);  // value = f * 2^exp2
  const int exponent = exp2 - 1 + 15;                // biased, for 1.m form
  if (exponent <= 0) {
    // Subnormal: value = m * 2^-24, m < 1024; floor rounds toward zero.
    return static_cast<std::uint16_t>(std::floor(std::ldexp(value, 24)));
  }
  // fraction in [0.5, 1): 1.m = 2f, m = floor((2f - 1) * 1024), exact in
  // double arithmetic because scaling by powers of two is exact.
  const auto mantissa =
      static_cast<std::uint16_t>(std::floor((2 * fraction - 1) * 1024));
  return static_cast<std::uint16_t>(exponent << 10 | mantissa);
}

}  // namespace arfabric::wire::fare
