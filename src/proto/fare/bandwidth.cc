#include "proto/fare/bandwidth.h"

#include "wire/fare/binary16.h"

namespace arfabric::proto::fare {

namespace {

static_assert(kBitsPerSecondPerGigabytePerSecond % 1024 == 0);

// GB/s * 8e9 is exact in a double: a binary16 has at most 11 significant
// bits and 8e9 = 2^10 * 7812500 needs 23, and the result stays below 2^53.
double exact_bits_per_second(std::uint16_t bits) {
  return wire::fare::binary16_to_double(bits) *
         static_cast<double>(kBitsPerSecondPerGigabytePerSecond);
}

}  // namespace

std::optional<BitsPerSecond> to_bits_per_second(
    const wire::fare::PathBandwidth& pb) {
  if (!pb.valid()) return std::nullopt;
  const std::uint16_t magnitude = pb.bandwidth_bits & 0x7fff;  // -0 -> +0
  if (magnitude >= wire::fare::kBinary16MaxFinite) return kUnlimited;
  // Integer form of floor(value * 8e9), on the import path of every route:
  // 8e9 = 7812500 * 2^10, so a normal (1024 + m) * 2^(e - 25) GB/s is
  // (1024 + m) * 7812500 * 2^(e - 15) bit/s and a subnormal m * 2^-24 GB/s
  // is m * 7812500 * 2^-14 bit/s; significands stay below 2^34.
  constexpr std::uint64_t kScale = kBitsPerSecondPerGigabytePerSecond >> 10;
  const int exponent = magnitude >> 10;
  const std::uint64_t mantissa = magnitude & 0x3ff;
  if (exponent == 0) return mantissa * kScale >> 14;
  const std::uint64_t significand = (1024 + mantissa) * kScale;
  return exponent >= 15 ? significand << (exponent - 15)
                        : significand >> (15 - exponent);
}

wire::fare::PathBandwidth to_path_bandwidth(std::uint32_t router_id,
                                            BitsPerSecond rate,
                                            bool transitive) {
  if (rate >= kLargestEncodable) {
    return wire::fare::max_path_bandwidth(router_id, transitive);
  }
  // rate < 2^53 here, so it is exact as a double and the comparison below is
  // exact; the division may round up to the next binary16, which the loop
  // undoes (at most one step: the quotient's error is far below one ulp).
  const double r = static_cast<double>(rate);
  std::uint16_t bits = wire::fare::double_to_binary16(
      r / static_cast<double>(kBitsPerSecondPerGigabytePerSecond));
  while (bits > 0 && exact_bits_per_second(bits) > r) --bits;
  return {transitive, router_id, bits};
}

}  // namespace arfabric::proto::fare
