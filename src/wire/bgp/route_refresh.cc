#include "wire/bgp/route_refresh.h"

#include <string>

#include "wire/bgp/header.h"
#include "wire/bgp/message_util.h"

namespace arfabric::wire::bgp {

std::expected<RouteRefresh, BgpError> parse_route_refresh_body(
    ByteReader body, ByteSpan whole_message) {
  if (body.remaining() != 4) {
    return std::unexpected(
        session_reset(DecodeError{"bgp.header.length", 16,
                                  "ROUTE-REFRESH body of " +
                                      std::to_string(body.remaining()) +
                                      " bytes, expected 4"},
                      error_code::kRouteRefresh, subcode::kInvalidMessageLength,
                      Bytes(whole_message.begin(), whole_message.end())));
  }
  RouteRefresh rr;
  rr.family.afi = *body.u16("bgp.route_refresh.afi");
  rr.subtype = *body.u8("bgp.route_refresh.subtype");
  rr.family.safi = *body.u8("bgp.route_refresh.safi");
  return rr;
}

std::expected<RouteRefresh, BgpError> parse_route_refresh(
    ByteSpan message, const ParseOptions& options) {
  ByteReader body =
      ARF_TRY(message_body(message, MessageType::route_refresh, options));
  const std::size_t len = kHeaderSize + body.remaining();
  return parse_route_refresh_body(body, message.first(len));
}

void serialize(const RouteRefresh& rr, ByteWriter& out) {
  serialize(Header{23, static_cast<std::uint8_t>(MessageType::route_refresh)},
            out);
  out.u16(rr.family.afi);
  out.u8(rr.subtype);
  out.u8(rr.family.safi);
}

}  // namespace arfabric::wire::bgp
