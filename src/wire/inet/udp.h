// UDP header (RFC 768) over IPv4, with the pseudo-header checksum.
#pragma once

#include <cstdint>
#include <expected>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire {

inline constexpr std::size_t kUdpHeaderSize = 8;

struct UdpHeader {
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  std::uint16_t length = 0;    // header + payload, filled by serialize
  std::uint16_t checksum = 0;  // 0 = none (IPv4 only)
  bool operator==(const UdpHeader&) const = default;
};

struct UdpDatagram {
  UdpHeader header;
  ByteSpan payload;
};

// Errors: truncation of a header field, "udp.length" below 8 or beyond the
// buffer. The payload is limited to the UDP length.
std::expected<UdpDatagram, DecodeError> parse_udp(ByteSpan data,
                                                  std::size_t base_offset = 0);

// Writes header + payload with the checksum computed over the IPv4
// pseudo-header. Error: "udp.length" when the datagram exceeds 65535 bytes.
std::expected<void, EncodeError> serialize_udp_ipv4(const UdpHeader& header,
                                                    const Ipv4Header& ip,
                                                    ByteSpan payload,
                                                    ByteWriter& out);

// True when the checksum is absent (0) or verifies over the pseudo-header.
// Only the UDP length's worth of `udp_segment` is covered (RFC 768); bytes
// after it (padding, a UDP-options surplus area) are not. False when the
// segment is shorter than 8 bytes or than its UDP length.
bool udp_checksum_valid(const Ipv4Header& ip, ByteSpan udp_segment);

}  // namespace arfabric::wire
