#include "wire/bgp/message.h"

#include <string>

namespace arfabric::wire::bgp {

std::expected<ParsedMessage, BgpError> parse_message(
    ByteSpan data, const ParseOptions& options, std::size_t base_offset) {
  const Header h = ARF_TRY(parse_header(data, options, base_offset));
  if (h.length > data.size()) {
    return std::unexpected(session_reset(
        DecodeError{"bgp.header.length", base_offset + kMarkerSize,
                    "length " + std::to_string(h.length) + " exceeds the " +
                        std::to_string(data.size()) + " bytes given"},
        error_code::kMessageHeader, subcode::kBadMessageLength,
        {static_cast<std::uint8_t>(h.length >> 8),
         static_cast<std::uint8_t>(h.length)}));
  }
  const ByteSpan whole = data.first(h.length);
  ByteReader body(whole.subspan(kHeaderSize), base_offset + kHeaderSize);
  ParsedMessage out{Keepalive{}, h.length, {}, std::nullopt};
  switch (static_cast<MessageType>(h.type)) {
    case MessageType::open:
      out.message = ARF_TRY(parse_open_body(body));
      break;
    case MessageType::update: {
      UpdateParseResult u = ARF_TRY(parse_update_body(body, options));
      out.message = std::move(u.update);
      out.attribute_errors = std::move(u.attribute_errors);
      out.worst = u.worst;
      break;
    }
    case MessageType::notification:
      out.message = ARF_TRY(parse_notification_body(body));
      break;
    case MessageType::keepalive:
      break;  // parse_header checked the length is 19
    case MessageType::route_refresh:
      out.message = ARF_TRY(parse_route_refresh_body(body, whole));
      break;
  }
  return out;
}

std::expected<void, EncodeError> serialize(const Message& message,
                                           const SessionCodecOptions& options,
                                           ByteWriter& out) {
  return std::visit(
      [&](const auto& m) -> std::expected<void, EncodeError> {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Update>) {
          return serialize(m, options, out);
        } else if constexpr (std::is_same_v<T, Keepalive>) {
          serialize(Header{kHeaderSize,
                           static_cast<std::uint8_t>(MessageType::keepalive)},
                    out);
          return {};
        } else if constexpr (std::is_same_v<T, RouteRefresh>) {
          serialize(m, out);
          return {};
        } else {
          return serialize(m, out);
        }
      },
      message);
}

std::size_t encoded_size(const Message& message,
                         const SessionCodecOptions& options) {
  return std::visit(
      [&](const auto& m) -> std::size_t {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Update>) {
          return encoded_size(m, options);
        } else if constexpr (std::is_same_v<T, Keepalive>) {
          return kHeaderSize;
        } else {
          return encoded_size(m);
        }
      },
      message);
}

}  // namespace arfabric::wire::bgp
