// OPEN message (RFC 4271 section 4.2) with optional parameters, including
// the RFC 9072 extended optional parameters length, and capabilities
// (RFC 5492; see capability.h).
//
// Optional parameters other than Capabilities (type 2) are kept as raw
// bytes rather than rejected: whether to answer them with "Unsupported
// Optional Parameter" is the session's decision, and a decoder must show
// them. The encoding form (RFC 9072 or not) is remembered so that a round
// trip is byte-exact.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/capability.h"
#include "wire/bgp/error.h"
#include "wire/bgp/options.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::bgp {

inline constexpr std::uint8_t kParamCapabilities = 2;  // RFC 5492
inline constexpr std::uint16_t kAsTrans = 23456;       // RFC 6793

struct OptionalParameter {
  std::uint8_t type = kParamCapabilities;
  std::vector<Capability> capabilities;  // when type == 2
  Bytes raw;                             // any other type
  bool operator==(const OptionalParameter&) const = default;
};

struct Open {
  std::uint8_t version = 4;
  std::uint16_t my_as = 0;  // AS_TRANS when the real ASN needs 4 octets
  std::uint16_t hold_time = 0;
  Ipv4Address identifier{};
  // RFC 9072: use the extended form (also chosen when lengths need it).
  bool extended_parameters = false;
  std::vector<OptionalParameter> parameters;

  // Every capability in every Capabilities parameter, in order.
  std::vector<Capability> capabilities() const;
  // The 4-octet AS capability's ASN, if advertised (RFC 6793).
  std::optional<std::uint32_t> four_octet_as() const;
  bool operator==(const Open&) const = default;
};

// Parses a whole OPEN message. Errors (session_reset, RFC 4271 section
// 6.2): header errors; version other than 4 -> 2/1 with data 0x0004; hold
// time 1 or 2 -> 2/6; BGP Identifier 0 -> 2/3 (RFC 6286 section 2.2);
// optional parameters overrunning their length or the message, or leaving
// bytes unused, or a malformed capability -> 2/0.
std::expected<Open, BgpError> parse_open(ByteSpan message,
                                         const ParseOptions& options = {});
std::expected<Open, BgpError> parse_open_body(ByteReader body);

// Writes the whole message. Errors: a capability error, a parameter too
// long for the chosen form, or a message over 4096 bytes.
std::expected<void, EncodeError> serialize(const Open& open, ByteWriter& out);
std::size_t encoded_size(const Open& open);

// A session's codec options from both OPENs (RFC 6793 section 4, RFC 8654
// section 3, RFC 7911 section 4): 4-octet AS and extended message when both
// advertise them; ADD-PATH receive for each AFI/SAFI `local` may receive
// (1 or 3) and `remote` may send (2 or 3).
SessionCodecOptions negotiate(const Open& local, const Open& remote);

}  // namespace arfabric::wire::bgp
