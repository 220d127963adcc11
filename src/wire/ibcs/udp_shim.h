// IBCS shim at the start of a UDP payload, the third IBCS binding.
//
// The IBCS draft (section 6.2) requires the L3/L4 checksums to follow a
// rewrite when the field sits inside IPv4 or UDP. This binding puts the
// field in the UDP payload, covered by the UDP checksum, on a configurable
// destination port (kDefaultIbcsUdpPort):
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-------+-------+-----------------------------------------------+
//   |Version| Type  |              Metric (bits 31..8)              |
//   +-------+-------+-------------------------------+---------------+
//   | Metric (7..0) |            Reserved (3 bytes)                 |
//   +---------------+-----------------------------------------------+
//
// Version is 1. Type selects the signal (kUdpSignalTypes), and with it the
// operator. The metric starts at byte 1: the field is deliberately not
// 16-bit aligned, so the incremental checksum path handles odd alignment
// every time rather than only in corner cases. Reserved bytes are sent as
// zero and carried unchanged on receipt. The application payload follows.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "wire/ibcs/operator.h"

namespace arfabric::wire::ibcs {

// From the dynamic/private range (RFC 6335): no IANA assignment exists.
inline constexpr std::uint16_t kDefaultIbcsUdpPort = 49555;
inline constexpr std::size_t kUdpShimSize = 8;
inline constexpr std::uint8_t kUdpShimVersion = 1;

struct UdpSignalType {
  std::uint8_t code;
  std::string_view name;
  std::string_view unit;
  ExtremumOp op;
  std::uint32_t uninitialized;
};

inline constexpr std::array<UdpSignalType, 2> kUdpSignalTypes = {{
    {0, "min_available_bandwidth", "Mb/s", ExtremumOp::min, 0xffffffff},
    {1, "max_utilisation", "Q16.16 (1.0 = 0x10000)", ExtremumOp::max, 0},
}};

constexpr std::optional<UdpSignalType> udp_signal_type(std::uint8_t code) {
  for (const UdpSignalType& t : kUdpSignalTypes)
    if (t.code == code) return t;
  return std::nullopt;
}

struct UdpShim {
  std::uint8_t version = kUdpShimVersion;  // 4 bits
  std::uint8_t signal_type = 0;            // 4 bits
  std::uint32_t metric = 0;
  std::array<std::uint8_t, 3> reserved{};
  bool operator==(const UdpShim&) const = default;
};

// Parses the 8 shim bytes. Errors: truncation of "ibcs_udp.version",
// "ibcs_udp.metric", "ibcs_udp.reserved"; "ibcs_udp.version" when not 1.
// An unknown signal type is kept; locate() refuses it.
std::expected<UdpShim, DecodeError> parse_udp_shim(ByteSpan data,
                                                   std::size_t base_offset = 0);

// Errors: "ibcs_udp.version" or "ibcs_udp.signal_type" over 4 bits.
std::expected<void, EncodeError> serialize(const UdpShim& shim,
                                           ByteWriter& out);
constexpr std::size_t encoded_size(const UdpShim&) { return kUdpShimSize; }

}  // namespace arfabric::wire::ibcs
