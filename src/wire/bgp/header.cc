#include "wire/bgp/header.h"

#include <string>

namespace arfabric::wire::bgp {
namespace {

// Smallest legal length per type (RFC 4271 section 4, RFC 2918 section 3).
std::size_t min_length(std::uint8_t type) {
  switch (static_cast<MessageType>(type)) {
    case MessageType::open:
      return 29;
    case MessageType::update:
      return 23;
    case MessageType::notification:
      return 21;
    case MessageType::keepalive:
      return 19;
    case MessageType::route_refresh:
      return 23;
  }
  return kHeaderSize;
}

}  // namespace

std::string_view message_type_name(std::uint8_t type) {
  switch (type) {
    case 1:
      return "OPEN";
    case 2:
      return "UPDATE";
    case 3:
      return "NOTIFICATION";
    case 4:
      return "KEEPALIVE";
    case 5:
      return "ROUTE-REFRESH";
  }
  return "unknown";
}

std::expected<Header, BgpError> parse_header(ByteSpan data,
                                             const ParseOptions& options,
                                             std::size_t base_offset) {
  ByteReader r(data, base_offset);
  auto marker = ARF_TRY(lift(r.bytes(kMarkerSize, "bgp.header.marker"),
                             error_code::kMessageHeader,
                             subcode::kConnectionNotSynchronized));
  for (std::uint8_t b : marker) {
    if (b != 0xff) {
      return std::unexpected(session_reset(
          r.error_at(base_offset, "bgp.header.marker", "not all ones"),
          error_code::kMessageHeader, subcode::kConnectionNotSynchronized));
    }
  }
  const std::size_t length_at = r.offset();
  Header h;
  h.length =
      ARF_TRY(lift(r.u16("bgp.header.length"), error_code::kMessageHeader,
                   subcode::kBadMessageLength));
  h.type = ARF_TRY(lift(r.u8("bgp.header.type"), error_code::kMessageHeader,
                        subcode::kBadMessageType));
  const Bytes length_data = {static_cast<std::uint8_t>(h.length >> 8),
                             static_cast<std::uint8_t>(h.length)};
  if (h.type < 1 || h.type > 5) {
    return std::unexpected(session_reset(
        r.error_at(length_at + 2, "bgp.header.type",
                   "unknown message type " + std::to_string(h.type)),
        error_code::kMessageHeader, subcode::kBadMessageType, {h.type}));
  }
  // RFC 8654 section 4: OPEN and KEEPALIVE never exceed 4096 bytes.
  std::size_t max = options.max_message_length();
  if (h.type == 1) max = 4096;
  if (h.type == 4) max = kHeaderSize;  // section 6.1: KEEPALIVE is exactly 19
  if (h.length < min_length(h.type) || h.length > max) {
    return std::unexpected(session_reset(
        r.error_at(length_at, "bgp.header.length",
                   "length " + std::to_string(h.length) + " outside " +
                       std::to_string(min_length(h.type)) + ".." +
                       std::to_string(max) + " for " +
                       std::string(message_type_name(h.type))),
        error_code::kMessageHeader, subcode::kBadMessageLength, length_data));
  }
  return h;
}

void serialize(const Header& header, ByteWriter& out) {
  for (std::size_t i = 0; i < kMarkerSize; ++i) out.u8(0xff);
  out.u16(header.length);
  out.u8(header.type);
}

}  // namespace arfabric::wire::bgp
