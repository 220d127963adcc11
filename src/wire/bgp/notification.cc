#include "wire/bgp/notification.h"

#include <array>

#include "wire/bgp/header.h"
#include "wire/bgp/message_util.h"

namespace arfabric::wire::bgp {
namespace {

struct CodeName {
  std::uint8_t code;
  std::uint8_t subcode;
  std::string_view name;
};

constexpr std::array<CodeName, 7> kCodes = {{
    {1, 0, "Message Header Error"},
    {2, 0, "OPEN Message Error"},
    {3, 0, "UPDATE Message Error"},
    {4, 0, "Hold Timer Expired"},
    {5, 0, "Finite State Machine Error"},
    {6, 0, "Cease"},
    {7, 0, "ROUTE-REFRESH Message Error"},
}};

constexpr std::array<CodeName, 38> kSubcodes = {{
    {1, 1, "Connection Not Synchronized"},
    {1, 2, "Bad Message Length"},
    {1, 3, "Bad Message Type"},
    {2, 0, "Unspecific"},
    {2, 1, "Unsupported Version Number"},
    {2, 2, "Bad Peer AS"},
    {2, 3, "Bad BGP Identifier"},
    {2, 4, "Unsupported Optional Parameter"},
    {2, 6, "Unacceptable Hold Time"},
    {2, 7, "Unsupported Capability"},  // RFC 5492
    {2, 11, "Role Mismatch"},          // RFC 9234
    {3, 0, "Unspecific"},
    {3, 1, "Malformed Attribute List"},
    {3, 2, "Unrecognized Well-known Attribute"},
    {3, 3, "Missing Well-known Attribute"},
    {3, 4, "Attribute Flags Error"},
    {3, 5, "Attribute Length Error"},
    {3, 6, "Invalid ORIGIN Attribute"},
    {3, 8, "Invalid NEXT_HOP Attribute"},
    {3, 9, "Optional Attribute Error"},
    {3, 10, "Invalid Network Field"},
    {3, 11, "Malformed AS_PATH"},
    {5, 0, "Unspecified Error"},  // RFC 6608
    {5, 1, "Receive Unexpected Message in OpenSent State"},
    {5, 2, "Receive Unexpected Message in OpenConfirm State"},
    {5, 3, "Receive Unexpected Message in Established State"},
    {6, 1, "Maximum Number of Prefixes Reached"},  // RFC 4486
    {6, 2, "Administrative Shutdown"},
    {6, 3, "Peer De-configured"},
    {6, 4, "Administrative Reset"},
    {6, 5, "Connection Rejected"},
    {6, 6, "Other Configuration Change"},
    {6, 7, "Connection Collision Resolution"},
    {6, 8, "Out of Resources"},
    {6, 9, "Hard Reset"},  // RFC 8538
    {6, 10, "BFD Down"},   // RFC 9384
    {7, 0, "Reserved"},    // RFC 7313
    {7, 1, "Invalid Message Length"},
}};

}  // namespace

std::string_view notification_code_name(std::uint8_t code) {
  for (const CodeName& c : kCodes) {
    if (c.code == code) return c.name;
  }
  return "unknown";
}

std::string_view notification_subcode_name(std::uint8_t code,
                                           std::uint8_t subcode) {
  for (const CodeName& c : kSubcodes) {
    if (c.code == code && c.subcode == subcode) return c.name;
  }
  return "unknown";
}

Notification notification_for(const BgpError& error) {
  return Notification{error.code, error.subcode, error.data};
}

std::expected<Notification, BgpError> parse_notification_body(ByteReader body) {
  Notification n;
  n.code =
      ARF_TRY(lift(body.u8("bgp.notification.code"), error_code::kMessageHeader,
                   subcode::kBadMessageLength));
  n.subcode =
      ARF_TRY(lift(body.u8("bgp.notification.subcode"),
                   error_code::kMessageHeader, subcode::kBadMessageLength));
  const ByteSpan data = body.rest();
  n.data.assign(data.begin(), data.end());
  return n;
}

std::expected<Notification, BgpError> parse_notification(
    ByteSpan message, const ParseOptions& options) {
  ByteReader body =
      ARF_TRY(message_body(message, MessageType::notification, options));
  return parse_notification_body(body);
}

std::expected<void, EncodeError> serialize(const Notification& n,
                                           ByteWriter& out) {
  const std::size_t total = encoded_size(n);
  if (total > 4096) {
    return std::unexpected(EncodeError{
        "notification.data",
        "message of " + std::to_string(total) + " bytes exceeds 4096"});
  }
  serialize(Header{static_cast<std::uint16_t>(total),
                   static_cast<std::uint8_t>(MessageType::notification)},
            out);
  out.u8(n.code);
  out.u8(n.subcode);
  out.bytes(n.data);
  return {};
}

std::size_t encoded_size(const Notification& n) {
  return kHeaderSize + 2 + n.data.size();
}

}  // namespace arfabric::wire::bgp
