#include "wire/inet/checksum.h"

namespace arfabric::wire {

std::uint16_t ones_complement_sum(ByteSpan data, std::uint32_t initial) {
  std::uint64_t sum = initial;
  std::size_t i = 0;
  for (; i + 1 < data.size(); i += 2)
    sum += std::uint32_t{data[i]} << 8 | data[i + 1];
  if (i < data.size()) sum += std::uint32_t{data[i]} << 8;
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(sum);
}

std::uint16_t internet_checksum(ByteSpan data, std::uint32_t initial) {
  return static_cast<std::uint16_t>(~ones_complement_sum(data, initial));
}

}  // namespace arfabric::wire
