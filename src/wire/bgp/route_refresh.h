// ROUTE-REFRESH message (RFC 2918 section 3, RFC 7313 section 3): AFI,
// a byte that RFC 2918 reserved and RFC 7313 made the Message Subtype
// (0 normal request, 1 BoRR, 2 EoRR, 255 reserved), SAFI.
#pragma once

#include <cstdint>
#include <expected>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/options.h"

namespace arfabric::wire::bgp {

struct RouteRefresh {
  AfiSafi family;
  std::uint8_t subtype = 0;
  bool operator==(const RouteRefresh&) const = default;
};

// Parses a whole ROUTE-REFRESH message. Errors: header errors; a body that
// is not exactly 4 bytes -> 7/1 "Invalid Message Length" with the whole
// message as data (RFC 7313 section 5; applied to every subtype).
std::expected<RouteRefresh, BgpError> parse_route_refresh(
    ByteSpan message, const ParseOptions& options = {});
std::expected<RouteRefresh, BgpError> parse_route_refresh_body(
    ByteReader body, ByteSpan whole_message);

void serialize(const RouteRefresh& rr, ByteWriter& out);
inline std::size_t encoded_size(const RouteRefresh&) { return 23; }

}  // namespace arfabric::wire::bgp
