// Bandwidth arithmetic of FARE (draft-xu-idr-fare-04 §3, §4.1): conversion
// between the Path Bandwidth extended community (binary16 GB/s, see
// wire/fare/path_bandwidth.h) and BitsPerSecond, and the saturating sum and
// product the §4.1 "sum of the minimum bandwidth value of each route" and the
// multi-homing rule need.
//
// kUnlimited stands for the originating leaf's "maximum bandwidth value"
// (65504 GB/s, the largest finite binary16) and for a received +Inf: both
// mean "no bottleneck yet", so min(link, kUnlimited) == link. Sums and
// products saturate at kUnlimited rather than wrap, so an overflow can never
// turn into a small bandwidth.
//
// Both directions round toward zero so that a bottleneck is never overstated:
// decoding floors the exact GB/s * 8e9 (only binary16 subnormals below
// 1/8 GB/s are not whole bit/s), encoding gives the largest binary16 not
// above the rate.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "common/units.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::proto::fare {

inline constexpr BitsPerSecond kUnlimited =
    std::numeric_limits<BitsPerSecond>::max();
inline constexpr BitsPerSecond kBitsPerSecondPerGigabytePerSecond =
    8'000'000'000;
// 65504 GB/s: rates at or above it encode as the maximum value.
inline constexpr BitsPerSecond kLargestEncodable =
    65504 * kBitsPerSecondPerGigabytePerSecond;

constexpr BitsPerSecond saturating_add(BitsPerSecond a, BitsPerSecond b) {
  return a > kUnlimited - b ? kUnlimited : a + b;
}

constexpr BitsPerSecond saturating_multiply(BitsPerSecond a, std::uint64_t n) {
  BitsPerSecond product;
  return __builtin_mul_overflow(a, n, &product) ? kUnlimited : product;
}

// Rounded toward zero; kUnlimited / n stays kUnlimited (no limit shared by
// n is still no limit). n == 0 is treated as 1.
constexpr BitsPerSecond divide(BitsPerSecond a, std::uint64_t n) {
  if (a == kUnlimited || n <= 1) return a;
  return a / n;
}

// The rate a received community stands for. nullopt when !pb.valid() (NaN,
// negative other than -0: treated as absent, docs/PROTOCOLS.md); +Inf and
// 65504 GB/s give kUnlimited; -0 gives 0.
std::optional<BitsPerSecond> to_bits_per_second(
    const wire::fare::PathBandwidth& pb);

// The community for `rate`, rounded toward zero; rates >= kLargestEncodable
// (including kUnlimited) give the maximum value 65504 GB/s. No error case.
wire::fare::PathBandwidth to_path_bandwidth(std::uint32_t router_id,
                                            BitsPerSecond rate,
                                            bool transitive = true);

}  // namespace arfabric::proto::fare
