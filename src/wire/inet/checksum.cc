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

std::uint16_t update_checksum_bytes(std::uint16_t checksum, bool odd_offset,
                                    ByteSpan old_bytes, ByteSpan new_bytes) {
  if (old_bytes.size() != new_bytes.size()) return checksum;
  // Position of byte i within the aligned word stream: odd runs are shifted
  // by one so that their first byte lands in the low half of a word.
  const std::size_t shift = odd_offset ? 1 : 0;
  const std::size_t end = old_bytes.size() + shift;
  for (std::size_t w = 0; w < end; w += 2) {
    std::uint16_t m = 0;
    std::uint16_t m_new = 0;
    for (std::size_t k = w; k < w + 2 && k < end; ++k) {
      if (k < shift) continue;
      const int bit = k == w ? 8 : 0;
      m = static_cast<std::uint16_t>(m | old_bytes[k - shift] << bit);
      m_new = static_cast<std::uint16_t>(m_new | new_bytes[k - shift] << bit);
    }
    if (m != m_new) checksum = update_checksum(checksum, m, m_new);
  }
  return checksum;
}

}  // namespace arfabric::wire
