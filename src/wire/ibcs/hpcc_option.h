// HPCC-style maximum-utilisation IPv4 option, the second IBCS binding.
//
// HPCC++ (draft-miao-ccwg-hpcc) has every hop report its link load so that
// the sender can react to the most utilised link on the path; the IBCS
// draft reduces that to one compare-and-replace field with the MAX
// operator. Neither draft fixes a carriage for such a field, so arfabric
// carries it as an 8-byte IPv4 option, which keeps it independent of the
// transport and makes the IPv4 header checksum update real:
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +---------------+---------------+-------+-------+---------------+
//   |  Type (0x9e)  |  Length (8)   |Version| Flags |    Locator    |
//   +---------------+---------------+-------+-------+---------------+
//   |          Max utilisation (unsigned Q16.16, 1.0 = 0x00010000)  |
//   +---------------------------------------------------------------+
//
// Version is 1. Flags (4 bits) are reserved: sent as zero, carried and
// re-serialized on receipt. Locator is opaque to this codec (the hop that
// last replaced the value may write e.g. its TTL there). Utilisation can
// exceed 1.0: HPCC's U counts the standing queue on top of the link rate.
#pragma once

#include <cstdint>
#include <expected>

#include "common/bytes.h"

namespace arfabric::wire::ibcs {

// RFC 4727 "RFC3692-style experiment" option: copied flag set (every
// fragment crosses the same bottleneck), class 0, number 30.
inline constexpr std::uint8_t kDefaultHpccOptionType = 0x9e;
inline constexpr std::uint8_t kHpccOptionLength = 8;
inline constexpr std::uint8_t kHpccVersion = 1;
inline constexpr std::uint32_t kHpccUtilisationOne = 0x00010000;  // 100 %

struct HpccOption {
  std::uint8_t type = kDefaultHpccOptionType;
  std::uint8_t version = kHpccVersion;  // 4 bits
  std::uint8_t flags = 0;               // 4 bits
  std::uint8_t locator = 0;
  std::uint32_t max_utilisation = 0;  // Q16.16
  bool operator==(const HpccOption&) const = default;
};

// Parses one option starting at its type byte. Errors: truncation of
// "hpcc.type", "hpcc.length", "hpcc.version", "hpcc.locator",
// "hpcc.max_utilisation"; "hpcc.type" when it is not `type`;
// "hpcc.length" when not 8; "hpcc.version" when not 1.
std::expected<HpccOption, DecodeError> parse_hpcc_option(
    ByteSpan data, std::size_t base_offset = 0,
    std::uint8_t type = kDefaultHpccOptionType);

// Errors: "hpcc.version" or "hpcc.flags" over 4 bits.
std::expected<void, EncodeError> serialize(const HpccOption& option,
                                           ByteWriter& out);
constexpr std::size_t encoded_size(const HpccOption&) {
  return kHpccOptionLength;
}

// Utilisation as Q16.16 from a ratio numerator/denominator, saturating.
constexpr std::uint32_t utilisation_q16(std::uint64_t numerator,
                                        std::uint64_t denominator) {
  if (denominator == 0) return UINT32_MAX;
  const unsigned __int128 q =
      (static_cast<unsigned __int128>(numerator) << 16) / denominator;
  return q > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(q);
}

}  // namespace arfabric::wire::ibcs
