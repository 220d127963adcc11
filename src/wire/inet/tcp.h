// TCP header (RFC 9293) over IPv4: enough to find BGP messages in captured
// segments and to write segments into test pcaps.
#pragma once

#include <cstdint>
#include <expected>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire {

inline constexpr std::uint8_t kTcpFlagFin = 0x01;
inline constexpr std::uint8_t kTcpFlagSyn = 0x02;
inline constexpr std::uint8_t kTcpFlagPsh = 0x08;
inline constexpr std::uint8_t kTcpFlagAck = 0x10;

struct TcpHeader {
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  std::uint32_t sequence = 0;
  std::uint32_t acknowledgment = 0;
  std::uint8_t reserved = 0;  // 4 bits after Data Offset, kept as received
  std::uint8_t flags = kTcpFlagAck | kTcpFlagPsh;
  std::uint16_t window = 65535;
  std::uint16_t checksum = 0;
  std::uint16_t urgent = 0;
  Bytes options;  // multiple of 4 bytes, at most 40
  bool operator==(const TcpHeader&) const = default;
};

struct TcpSegment {
  TcpHeader header;
  ByteSpan payload;
};

// Errors: truncation, "tcp.data_offset" below 5 words or past the buffer.
std::expected<TcpSegment, DecodeError> parse_tcp(ByteSpan data,
                                                 std::size_t base_offset = 0);

// Writes header + payload, checksum over the IPv4 pseudo-header. Errors:
// "tcp.options" not a multiple of 4 up to 40, "tcp.reserved" over 4 bits.
std::expected<void, EncodeError> serialize_tcp_ipv4(const TcpHeader& header,
                                                    const Ipv4Header& ip,
                                                    ByteSpan payload,
                                                    ByteWriter& out);

}  // namespace arfabric::wire
