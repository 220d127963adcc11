#include "wire/bgp/message_util.h"

#include <string>

namespace arfabric::wire::bgp {

std::expected<ByteReader, BgpError> message_body(ByteSpan message,
                                                 MessageType type,
                                                 const ParseOptions& options) {
  const Header h = ARF_TRY(parse_header(message, options));
  if (h.type != static_cast<std::uint8_t>(type)) {
    return std::unexpected(session_reset(
        DecodeError{"bgp.header.type", 18,
                    "expected " + std::string(message_type_name(
                                      static_cast<std::uint8_t>(type)))},
        error_code::kMessageHeader, subcode::kBadMessageType, {h.type}));
  }
  if (h.length > message.size()) {
    return std::unexpected(session_reset(
        DecodeError{"bgp.header.length", 16,
                    "length " + std::to_string(h.length) + " exceeds the " +
                        std::to_string(message.size()) + " bytes given"},
        error_code::kMessageHeader, subcode::kBadMessageLength,
        {static_cast<std::uint8_t>(h.length >> 8),
         static_cast<std::uint8_t>(h.length)}));
  }
  return ByteReader(message.subspan(kHeaderSize, h.length - kHeaderSize),
                    kHeaderSize);
}

}  // namespace arfabric::wire::bgp
