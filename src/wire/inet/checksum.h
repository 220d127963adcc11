// The Internet checksum (RFC 1071) and its incremental update (RFC 1624).
//
// ones_complement_sum() folds a buffer into a 16-bit one's complement sum;
// internet_checksum() is its complement, as stored in IPv4/UDP/TCP headers.
// update_checksum() implements RFC 1624 equation 3, HC' = ~(~HC + ~m + m'),
// for a 16-bit field that changed from m to m'; it never produces the
// RFC 1624 section 3 "-0" anomaly that equation 2 has.
// update_checksum_bytes() applies it to a run of bytes at any alignment.
#pragma once

#include <cstdint>

#include "common/bytes.h"

namespace arfabric::wire {

// Sum of 16-bit big-endian words, an odd trailing byte padded with zero,
// folded to 16 bits. `initial` continues an earlier sum (pseudo-headers).
std::uint16_t ones_complement_sum(ByteSpan data, std::uint32_t initial = 0);
std::uint16_t internet_checksum(ByteSpan data, std::uint32_t initial = 0);

// RFC 1624 eqn. 3 for one 16-bit word that changed from old_word to new_word.
constexpr std::uint16_t update_checksum(std::uint16_t checksum,
                                        std::uint16_t old_word,
                                        std::uint16_t new_word) {
  std::uint32_t sum = static_cast<std::uint16_t>(~checksum);
  sum += static_cast<std::uint16_t>(~old_word);
  sum += new_word;
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum);
}

// RFC 1624 eqn. 3 for a run of bytes that changed from old_bytes to
// new_bytes (same length). `odd_offset` tells whether the run starts at an
// odd byte offset from the start of the region the checksum covers: the
// checksum sums 16-bit words aligned to that region, so a run at an odd
// offset occupies the low byte of its first word. The unchanged neighbour
// bytes of the partial words cancel out of ~m + m', so they are not needed.
// Returns `checksum` unchanged when the lengths differ. Equals a full
// recomputation unless the change leaves the covered data summing to zero
// (all zero bytes): then it gives 0x0000 where recomputation gives 0xffff,
// the other one's complement zero.
std::uint16_t update_checksum_bytes(std::uint16_t checksum, bool odd_offset,
                                    ByteSpan old_bytes, ByteSpan new_bytes);

}  // namespace arfabric::wire
