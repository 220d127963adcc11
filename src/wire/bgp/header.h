// BGP message header (RFC 4271 section 4.1): 16-byte marker of all ones,
// 2-byte length (whole message, 19..4096, or ..65535 with RFC 8654), type.
#pragma once

#include <cstdint>
#include <expected>
#include <string_view>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/options.h"

namespace arfabric::wire::bgp {

inline constexpr std::size_t kHeaderSize = 19;
inline constexpr std::size_t kMarkerSize = 16;

enum class MessageType : std::uint8_t {
  open = 1,
  update = 2,
  notification = 3,
  keepalive = 4,
  route_refresh = 5,  // RFC 2918
};

std::string_view message_type_name(std::uint8_t type);

struct Header {
  std::uint16_t length = 0;  // whole message, header included
  std::uint8_t type = 0;
  bool operator==(const Header&) const = default;
};

// Reads and checks the header at the front of `data` (RFC 4271 section 6.1).
// Errors (all session_reset, code 1): marker not all ones -> subcode 1
// "bgp.header.marker"; length below 19, above the negotiated maximum, or
// below the minimum of its type -> subcode 2 "bgp.header.length" (data: the
// length field); unknown type -> subcode 3 "bgp.header.type" (data: the
// type); truncation of any field. A length longer than `data` is NOT checked
// here: see parse_message.
std::expected<Header, BgpError> parse_header(ByteSpan data,
                                             const ParseOptions& options,
                                             std::size_t base_offset = 0);

void serialize(const Header& header, ByteWriter& out);

}  // namespace arfabric::wire::bgp
