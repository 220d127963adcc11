// OSPFv2 packets (RFC 2328 A.3): the 24-octet packet header (A.3.1) and
// the body of a Link State Update (A.3.5), the packet that floods LSAs.
//
//   Version (1) | Type (1) | Packet length (2)
//   Router ID (4)
//   Area ID (4)
//   Checksum (2) | AuType (2)
//   Authentication (8)
//   Body: for a Link State Update, # LSAs (4) then the LSAs, each framed
//   by the length in its own header (wire/ospf/lsa.h).
//
// The checksum is the IP checksum of the packet up to its length with the
// 8 Authentication octets left out (A.3.1). With cryptographic
// authentication (AuType 2) it is not computed (D.4.3): such packets count
// as checksum_valid, and their digest, which follows the packet length,
// is not looked at. IP (protocol 89) is the caller's.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::ospf {

inline constexpr std::uint8_t kIpProtocolOspf = 89;
inline constexpr std::size_t kOspfv2PacketHeaderSize = 24;
inline constexpr std::uint8_t kPacketHello = 1;
inline constexpr std::uint8_t kPacketDatabaseDescription = 2;
inline constexpr std::uint8_t kPacketLinkStateRequest = 3;
inline constexpr std::uint8_t kPacketLinkStateUpdate = 4;
inline constexpr std::uint8_t kPacketLinkStateAck = 5;
inline constexpr std::uint16_t kAuTypeCryptographic = 2;

struct Ospfv2PacketHeader {
  std::uint8_t version = 2;
  std::uint8_t type = kPacketLinkStateUpdate;
  std::uint16_t length = 0;  // as received; computed by serialize
  Ipv4Address router_id{};
  Ipv4Address area_id{};
  std::uint16_t checksum = 0;  // as received; computed by serialize
  std::uint16_t au_type = 0;
  std::array<std::uint8_t, 8> authentication{};
  bool operator==(const Ospfv2PacketHeader&) const = default;
};

struct ParsedOspfv2Packet {
  Ospfv2PacketHeader header;
  ByteSpan body;  // after the header, up to the packet length
  bool checksum_valid = false;
};

// Errors (fields "ospf.packet.*"): a truncated header field, ".version"
// not 2, ".type" not 1..5, ".length" below 24 or beyond the buffer.
std::expected<ParsedOspfv2Packet, DecodeError> parse_ospfv2_packet(
    ByteSpan data, std::size_t base_offset = 0);

// Writes header + body with the length and (unless told not to) the
// checksum computed. Error: "ospf.packet.length" over 65535.
std::expected<void, EncodeError> serialize_ospfv2_packet(
    const Ospfv2PacketHeader& header, ByteSpan body, ByteWriter& out,
    bool compute_checksum = true);

// The LSAs of a Link State Update body, each a view of exactly its
// length (its header checked for framing only: decode it with
// parse_ospfv2_lsa). Errors: ".ls_update.lsa_count" truncated, an LSA
// header truncated or its "ospf.lsa.length" below 20 or beyond the body,
// ".ls_update.lsa_count" larger than the LSAs present or smaller (bytes
// left after the counted LSAs).
std::expected<std::vector<ByteSpan>, DecodeError> parse_ls_update(
    ByteSpan body, std::size_t base_offset = 0);

// A Link State Update body holding `lsas` (whole encoded LSAs).
void serialize_ls_update(const std::vector<Bytes>& lsas, ByteWriter& out);

}  // namespace arfabric::wire::ospf
