// Bandwidth values carried as IEEE 754 binary32 in bytes per second, as the
// link-state TE extensions (RFC 3630 section 2.5.6, RFC 5305 section 3.4) and
// the FARE Path Bandwidth sub-TLV (draft-xu-lsr-fare-04 section 3) define.
//
// The codecs keep the raw 32-bit pattern, not a float, so that every value a
// peer sends (including NaN payloads, negative zero, infinities and
// denormals) re-serializes byte-exact and compares bit-for-bit. The codecs
// reject nothing: what a NaN, an infinity or a negative value means for path
// bandwidth is a policy question answered by the FARE engine (see
// docs/PROTOCOLS.md (IS-IS and OSPF), "Units and special values").
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace arfabric::wire::lsr {

struct Bandwidth32 {
  std::uint32_t bits = 0;  // the binary32 pattern, as on the wire

  static constexpr Bandwidth32 from_bytes_per_second(float value) {
    return {std::bit_cast<std::uint32_t>(value)};
  }
  constexpr float bytes_per_second() const {
    return std::bit_cast<float>(bits);
  }
  // Bits per second as double, for the proto layer (rates there are bits/s).
  double bits_per_second() const {
    return static_cast<double>(bytes_per_second()) * 8.0;
  }
  // A finite, non-negative value: the only kind the draft gives a meaning.
  bool usable() const {
    const float f = bytes_per_second();
    return std::isfinite(f) && !std::signbit(f);
  }
  bool operator==(const Bandwidth32&) const = default;
};

}  // namespace arfabric::wire::lsr
