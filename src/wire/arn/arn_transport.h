// Transports for ARN messages. The draft defines the message only ("ARNs
// could be sent by unicast or multicast ... SHOULD be set as high priority",
// §2.1); arfabric carries it two ways (docs/PROTOCOLS.md):
//
// - IPv4/UDP: the UDP payload is exactly one ARN message. Destination port
//   configurable (default 53456, dynamic range, so it collides with no IANA
//   assignment); DSCP configurable (default 48, CS6 network control) for
//   "high priority". Reaches nodes several hops away, unicast or multicast.
// - Raw Ethernet, for directly attached neighbours: EtherType configurable
//   (default 0x88B5, IEEE 802 Local Experimental), then a 2-byte Length of
//   the ARN message, the message, and zero padding to the 60-byte minimum.
//   The Length is needed because padding would otherwise be indistinguishable
//   from parameters of reserved Para-Type bits.
#pragma once

#include <cstdint>
#include <expected>

#include "common/bytes.h"
#include "wire/arn/arn_message.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace arfabric::wire::arn {

inline constexpr std::uint16_t kDefaultUdpPort = 53456;
inline constexpr std::uint8_t kDefaultDscp = 48;
inline constexpr std::uint16_t kDefaultEtherType = 0x88b5;
// Locally administered group address ("ARN" after the 0x03 prefix).
inline constexpr MacAddress kDefaultGroupAddress = {0x03, 0x41, 0x52,
                                                    0x4e, 0x00, 0x00};

struct UdpOptions {
  std::uint16_t port = kDefaultUdpPort;
  std::uint8_t dscp = kDefaultDscp;
  std::uint8_t ttl = 64;
};

struct ArnDatagram {
  Ipv4Header ip;
  UdpHeader udp;
  ArnMessage message;
  bool ip_checksum_valid = false;
  bool udp_checksum_valid = false;
};

// Writes an IPv4 header, a UDP header (source and destination port =
// options.port) and the message. Errors: those of arn::serialize.
std::expected<void, EncodeError> serialize_ipv4_udp(
    const ArnMessage& message, const Ipv4Address& source,
    const Ipv4Address& destination, const UdpOptions& options, ByteWriter& out);
// The bytes serialize_ipv4_udp writes for `message`.
std::size_t encoded_size_ipv4_udp(const ArnMessage& message);

// Parses an IPv4 packet carrying ARN over UDP. Errors: those of the IPv4 and
// UDP parsers; "arn.udp.destination_port" when the port is not
// options.port; "ipv4.protocol" when not UDP; then those of arn::parse.
// Checksums are reported, not enforced.
std::expected<ArnDatagram, DecodeError> parse_ipv4_udp(
    ByteSpan ipv4_packet, const UdpOptions& options = {},
    std::size_t base_offset = 0);

struct L2Options {
  std::uint16_t ethertype = kDefaultEtherType;
};

struct ArnL2Frame {
  MacAddress destination = kDefaultGroupAddress;
  MacAddress source{};
  ArnMessage message;
  bool operator==(const ArnL2Frame&) const = default;
};

// Errors: truncation, "arn.l2.ethertype" not the configured one,
// "arn.l2.length" beyond the frame, then those of arn::parse.
std::expected<ArnL2Frame, DecodeError> parse_l2(ByteSpan frame,
                                                const L2Options& options = {});
std::expected<void, EncodeError> serialize_l2(const ArnL2Frame& frame,
                                              ByteWriter& out,
                                              const L2Options& options = {});
std::size_t encoded_size_l2(const ArnL2Frame& frame);

}  // namespace arfabric::wire::arn
