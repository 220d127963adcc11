// The Adaptive Routing Notification message,
// draft-wh-rtgwg-adaptive-routing-arn-05 §3.2.
//
//   0                   1                   2                   3
//   |     Type      |Version| Rvsd  |    Metric     |   Para-Type   |
//   |                  Parameters (optional) ...                    |
//
// Para-Type is a bitmap of the parameters present, packed in bit order.
// arfabric numbers bits as the draft's figures do, bit 0 = most significant
// (docs/PROTOCOLS.md): bit 0 (0x80) the affected flow's 5-tuple, bit 1
// (0x40) the 32-bit Path ID, bit 2 (0x20) the inner 5-tuple of a tunnelled
// flow (the draft's VXLAN example). Bits 3..7 are reserved: their
// parameters, if any, follow the known ones (bit order) and have no known
// length, so everything after the known parameters is kept as opaque bytes.
//
// 5-tuple parameter (fixed layout, see docs/PROTOCOLS.md):
//   |Opcode | Mask  |        Rsvd (15 bits)        |   Protocol    |
//   Source address (4 or 16 bytes), Destination address (4 or 16),
//   |  Source Port  |  Destination Port  |
// Opcode 1 = IPv4, 2 = IPv6. Every field is always present; a Mask bit of 0
// marks the field as a wildcard (sent as zero). Mask bit 0 (MSB of the five)
// is Protocol, then Source, Destination, Source Port, Destination Port.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>

#include "common/bytes.h"

namespace arfabric::wire::arn {

enum class ArnType : std::uint8_t {
  congestion_detected = 1,
  congestion_eliminated = 2,
  failure_detected = 3,
  failure_eliminated = 4,
};
const char* to_string(ArnType type);
inline bool is_detection(ArnType t) {
  return t == ArnType::congestion_detected || t == ArnType::failure_detected;
}

inline constexpr std::uint8_t kVersion = 0;

// Para-Type bits (bit 0 = most significant).
inline constexpr std::uint8_t kParaFlow = 0x80;
inline constexpr std::uint8_t kParaPathId = 0x40;
inline constexpr std::uint8_t kParaInnerFlow = 0x20;
inline constexpr std::uint8_t kParaKnown =
    kParaFlow | kParaPathId | kParaInnerFlow;

// 5-tuple Mask bits (5-bit field, bit 0 = most significant = 0x10).
inline constexpr std::uint8_t kMaskProtocol = 0x10;
inline constexpr std::uint8_t kMaskSource = 0x08;
inline constexpr std::uint8_t kMaskDestination = 0x04;
inline constexpr std::uint8_t kMaskSourcePort = 0x02;
inline constexpr std::uint8_t kMaskDestinationPort = 0x01;
inline constexpr std::uint8_t kMaskAll = 0x1f;

enum class AddressFamily : std::uint8_t { ipv4 = 1, ipv6 = 2 };

struct FiveTuple {
  AddressFamily family = AddressFamily::ipv4;  // the Opcode
  std::uint8_t mask = kMaskAll;                // 5 bits
  std::uint16_t reserved = 0;                  // 15 bits, as received
  std::uint8_t protocol = 0;
  // IPv4 uses the first 4 bytes; the rest stay zero.
  std::array<std::uint8_t, 16> source{};
  std::array<std::uint8_t, 16> destination{};
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;

  std::size_t address_size() const {
    return family == AddressFamily::ipv4 ? 4 : 16;
  }
  bool operator==(const FiveTuple&) const = default;
};

struct ArnMessage {
  ArnType type = ArnType::congestion_detected;
  std::uint8_t version = kVersion;  // 4 bits
  std::uint8_t reserved = 0;        // 4 bits, as received
  std::uint8_t metric = 0;
  // Reserved Para-Type bits 3..7 as received; the known bits are derived
  // from which parameters are present.
  std::uint8_t reserved_para_bits = 0;
  std::optional<FiveTuple> flow;         // Para-Type bit 0
  std::optional<std::uint32_t> path_id;  // Para-Type bit 1
  std::optional<FiveTuple> inner_flow;   // Para-Type bit 2
  Bytes unknown_parameters;              // parameters of reserved bits, opaque

  std::uint8_t para_type() const;
  bool operator==(const ArnMessage&) const = default;
};

// Parses one whole ARN message (the transport gives its exact extent).
// Errors:
//   arn.type: not 1..4; arn.version: not 0 (unsupported version);
//   arn.<param>.opcode: neither 1 (IPv4) nor 2 (IPv6);
//   arn.parameters: bytes left over while no reserved Para-Type bit is set;
//   any field: truncated.
std::expected<ArnMessage, DecodeError> parse(ByteSpan message,
                                             std::size_t base_offset = 0);

// Errors: arn.version/arn.reserved > 15, arn.reserved_para_bits overlapping
// the known bits, arn.unknown_parameters without a reserved bit set,
// arn.<param>.mask > 31, arn.<param>.reserved > 0x7fff, arn.type not 1..4.
std::expected<void, EncodeError> serialize(const ArnMessage& message,
                                           ByteWriter& out);
std::size_t encoded_size(const ArnMessage& message);

}  // namespace arfabric::wire::arn
