// NOTIFICATION message (RFC 4271 section 4.5): error code, subcode, data.
// Code and subcode names come from constexpr tables (RFC 4271 section 4.5,
// RFC 4486 / RFC 8538 / RFC 9384 Cease subcodes, RFC 5492, RFC 6608 FSM
// subcodes, RFC 7313 ROUTE-REFRESH).
#pragma once

#include <cstdint>
#include <expected>
#include <string_view>

#include "common/bytes.h"
#include "wire/bgp/error.h"

namespace arfabric::wire::bgp {

struct Notification {
  std::uint8_t code = 0;
  std::uint8_t subcode = 0;
  Bytes data;
  bool operator==(const Notification&) const = default;
};

// "unknown" for unregistered values.
std::string_view notification_code_name(std::uint8_t code);
std::string_view notification_subcode_name(std::uint8_t code,
                                           std::uint8_t subcode);

// The NOTIFICATION that reports `error` (RFC 4271 section 6).
Notification notification_for(const BgpError& error);

// Parses a whole NOTIFICATION message. Errors: header errors (see
// parse_header), another message type, message longer than `message`.
std::expected<Notification, BgpError> parse_notification(
    ByteSpan message, const ParseOptions& options = {});
// The body after the header (at least 2 bytes, checked by parse_header).
std::expected<Notification, BgpError> parse_notification_body(ByteReader body);

// Writes the whole message. Errors: longer than 4096 bytes (RFC 8654
// section 4 lets NOTIFICATION grow only once extended_message was
// negotiated, which this simple form does not assume).
std::expected<void, EncodeError> serialize(const Notification& n,
                                           ByteWriter& out);
std::size_t encoded_size(const Notification& n);

}  // namespace arfabric::wire::bgp
