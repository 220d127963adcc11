// IPv6 fixed header (RFC 8200 section 3): parse and serialize, enough to
// find BGP sessions over IPv6 in captures and to write them into test
// pcaps.
//
// Extension headers are not walked: `next_header` names the first one and
// the payload starts right after the fixed header, so a packet with
// extension headers decodes as one whose upper layer is the extension
// header. parse_ipv6() checks the version and the payload length against
// the buffer and returns the payload limited to that length (trailing
// Ethernet padding is not payload). A jumbogram (payload length 0 with a
// Jumbo Payload option, RFC 2675) decodes with an empty payload.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>

#include "common/bytes.h"

namespace arfabric::wire {

using Ipv6Address = std::array<std::uint8_t, 16>;

inline constexpr std::size_t kIpv6HeaderBytes = 40;

struct Ipv6Header {
  std::uint8_t traffic_class = 0;    // DSCP << 2 | ECN
  std::uint32_t flow_label = 0;      // 20 bits
  std::uint16_t payload_length = 0;  // set by serialize from the payload
  std::uint8_t next_header = 0;      // an IP protocol number (6: TCP)
  std::uint8_t hop_limit = 64;
  Ipv6Address source{};
  Ipv6Address destination{};
  bool operator==(const Ipv6Header&) const = default;
};

struct Ipv6Packet {
  Ipv6Header header;
  std::size_t header_offset = 0;  // where the header starts in the buffer
  ByteSpan payload;
};

// Errors: "ipv6.version" (not 6), "ipv6.payload_length" (longer than the
// buffer after the header), and truncation of any fixed field
// ("ipv6.<field>": shorter than 40 bytes).
std::expected<Ipv6Packet, DecodeError> parse_ipv6(ByteSpan data,
                                                  std::size_t base_offset = 0);

// Writes the fixed header with payload_length = `payload_length` (the
// header's own field is not read). Errors: "ipv6.flow_label" over 20 bits,
// "ipv6.payload_length" over 65535.
std::expected<void, EncodeError> serialize(const Ipv6Header& header,
                                           std::size_t payload_length,
                                           ByteWriter& out);

// RFC 5952 text: "2001:db8::1", "fe80::1".
std::string format_ipv6(const Ipv6Address& address);

}  // namespace arfabric::wire
