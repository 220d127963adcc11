// The one 64-bit mixing function the project's hash tables and flow hashes
// share (a bijection, so distinct inputs stay distinct).
#pragma once

#include <cstdint>

namespace arfabric {

// splitmix64's finaliser: a bijective 64-bit mix with full avalanche (every
// input bit reaches every output bit, the high bits included, which the
// open-addressing tables index by).
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

}  // namespace arfabric
