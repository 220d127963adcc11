// IPv4 header (RFC 791): parse, serialize and header checksum.
//
// Options are kept as raw bytes. parse_ipv4() checks version, IHL and total
// length against the buffer and returns the payload limited to total length
// (trailing Ethernet padding is not payload). The header checksum is
// reported, not enforced, so a decoder can show a bad one: see
// checksum_valid.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>

#include "common/bytes.h"

namespace arfabric::wire {

using Ipv4Address = std::array<std::uint8_t, 4>;

inline constexpr std::uint8_t kIpProtoTcp = 6;
inline constexpr std::uint8_t kIpProtoUdp = 17;

struct Ipv4Header {
  std::uint8_t dscp = 0;           // 6 bits
  std::uint8_t ecn = 0;            // 2 bits
  std::uint16_t total_length = 0;  // filled by serialize_ipv4 when 0
  std::uint16_t identification = 0;
  std::uint8_t flags = 0;             // 3 bits (bit 1 = DF)
  std::uint16_t fragment_offset = 0;  // 13 bits
  std::uint8_t ttl = 64;
  std::uint8_t protocol = 0;
  std::uint16_t checksum = 0;
  Ipv4Address source{};
  Ipv4Address destination{};
  Bytes options;  // multiple of 4 bytes
  bool operator==(const Ipv4Header&) const = default;

  // A piece of a fragmented packet: more fragments follow (MF), or it is
  // not the first.
  bool is_fragment() const {
    return (flags & 0x1) != 0 || fragment_offset != 0;
  }
};

struct Ipv4Packet {
  Ipv4Header header;
  bool checksum_valid = false;
  std::size_t header_offset = 0;  // where the header starts in the buffer
  ByteSpan payload;
};

// Errors: "ipv4.version" (not 4), "ipv4.ihl" (< 5 or past the buffer),
// "ipv4.total_length" (shorter than the header or longer than the buffer),
// and truncation of any fixed field.
std::expected<Ipv4Packet, DecodeError> parse_ipv4(ByteSpan data,
                                                  std::size_t base_offset = 0);

// Writes the header with the given payload length; computes total_length and
// the header checksum. Errors: "ipv4.options" not a multiple of 4 or > 40,
// "ipv4.dscp"/"ipv4.ecn"/"ipv4.flags"/"ipv4.fragment_offset" out of range,
// "ipv4.total_length" over 65535.
std::expected<void, EncodeError> serialize(const Ipv4Header& header,
                                           std::size_t payload_length,
                                           ByteWriter& out);
std::size_t encoded_size(const Ipv4Header& header);

// One's complement sum of the TCP/UDP pseudo-header (RFC 768/793).
std::uint32_t ipv4_pseudo_header_sum(const Ipv4Address& source,
                                     const Ipv4Address& destination,
                                     std::uint8_t protocol,
                                     std::uint16_t length);

std::string format_ipv4(const Ipv4Address& address);

}  // namespace arfabric::wire
