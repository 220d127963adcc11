#include "wire/lsr/fletcher.h"

namespace arfabric::wire::lsr {
namespace {

struct Sums {
  std::uint32_t c0 = 0;
  std::uint32_t c1 = 0;
};

// Sums with the octets at [skip, skip + 2) read as zero. Reducing every
// octet keeps both sums small whatever the length.
Sums fletcher_sums(ByteSpan data, std::size_t skip, bool zero_skip) {
  Sums s;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const std::uint32_t b =
        (zero_skip && (i == skip || i == skip + 1)) ? 0 : data[i];
    s.c0 = (s.c0 + b) % 255;
    s.c1 = (s.c1 + s.c0) % 255;
  }
  return s;
}

}  // namespace

std::uint16_t fletcher_checksum(ByteSpan data, std::size_t checksum_offset) {
  const Sums s = fletcher_sums(data, checksum_offset, true);
  const std::uint64_t l_minus_n = data.size() - checksum_offset - 1;
  // Work in non-negative residues: (a - b) mod 255 == (a + 255 - b) mod 255.
  std::uint32_t x =
      static_cast<std::uint32_t>((l_minus_n % 255) * s.c0 % 255 + 255 - s.c1) %
      255;
  std::uint32_t y = (255 - s.c0 + 255 - x) % 255;
  if (x == 0) x = 255;
  if (y == 0) y = 255;
  return static_cast<std::uint16_t>(x << 8 | y);
}

bool fletcher_checksum_valid(ByteSpan data, std::size_t checksum_offset) {
  if (data[checksum_offset] == 0 && data[checksum_offset + 1] == 0)
    return false;
  const Sums s = fletcher_sums(data, checksum_offset, false);
  return s.c0 == 0 && s.c1 == 0;
}

}  // namespace arfabric::wire::lsr
