// Any BGP message: header dispatch over OPEN, UPDATE, NOTIFICATION,
// KEEPALIVE and ROUTE-REFRESH, for a byte stream that may hold several
// messages back to back (as one TCP segment often does).
#pragma once

#include <cstdint>
#include <expected>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/header.h"
#include "wire/bgp/notification.h"
#include "wire/bgp/open.h"
#include "wire/bgp/options.h"
#include "wire/bgp/route_refresh.h"
#include "wire/bgp/update.h"

namespace arfabric::wire::bgp {

struct Keepalive {
  bool operator==(const Keepalive&) const = default;
};

using Message =
    std::variant<Open, Update, Notification, Keepalive, RouteRefresh>;

struct ParsedMessage {
  Message message;
  std::size_t length = 0;  // bytes consumed: the header's length field
  // UPDATE only: non-fatal RFC 7606 errors (see UpdateParseResult).
  std::vector<BgpError> attribute_errors;
  std::optional<Rfc7606Action> worst;
};

// Parses the message at the front of `data` (more may follow). `base_offset`
// is added to error offsets. Errors: everything the per-type parsers report,
// plus a header length beyond `data` ("bgp.header.length", 1/2) -- for a
// stream reader this means "wait for more bytes".
std::expected<ParsedMessage, BgpError> parse_message(
    ByteSpan data, const ParseOptions& options = {},
    std::size_t base_offset = 0);

// Writes any message. Errors: those of the per-type serializers.
std::expected<void, EncodeError> serialize(const Message& message,
                                           const SessionCodecOptions& options,
                                           ByteWriter& out);
std::size_t encoded_size(const Message& message,
                         const SessionCodecOptions& options);

}  // namespace arfabric::wire::bgp
