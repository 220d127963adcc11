// BGP error values: a DecodeError plus what the protocol says to do about it.
//
// RFC 4271 section 6 names a NOTIFICATION (code, subcode, data) for every
// malformed message; RFC 7606 softens UPDATE attribute errors so that most of
// them no longer reset the session. A BgpError carries both, so the session
// layer can act on it without re-deriving the rules: send `code/subcode/data`
// only when `action` is session_reset (or, with multi-session, per AFI/SAFI).
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/error.h"
#include "wire/bgp/options.h"

namespace arfabric::wire::bgp {

// RFC 7606 section 2 approaches, ordered from mildest to most severe so that
// std::max picks the one to apply when an UPDATE has several errors.
enum class Rfc7606Action : std::uint8_t {
  attribute_discard = 0,  // drop the attribute, keep the routes
  treat_as_withdraw = 1,  // withdraw every prefix in the UPDATE
  afi_safi_disable = 2,   // RFC 4760 section 7: disable the AFI/SAFI
  session_reset = 3,      // send NOTIFICATION and close (RFC 4271 section 6)
};

std::string_view rfc7606_action_name(Rfc7606Action a);

// NOTIFICATION error codes (RFC 4271 section 4.5, RFC 7313 section 5).
namespace error_code {
inline constexpr std::uint8_t kMessageHeader = 1;
inline constexpr std::uint8_t kOpenMessage = 2;
inline constexpr std::uint8_t kUpdateMessage = 3;
inline constexpr std::uint8_t kHoldTimerExpired = 4;
inline constexpr std::uint8_t kFsm = 5;
inline constexpr std::uint8_t kCease = 6;
inline constexpr std::uint8_t kRouteRefresh = 7;
}  // namespace error_code

// Subcodes used by this codec (RFC 4271 section 6.1-6.3, RFC 7313 section 5).
namespace subcode {
// Message Header Error
inline constexpr std::uint8_t kConnectionNotSynchronized = 1;
inline constexpr std::uint8_t kBadMessageLength = 2;
inline constexpr std::uint8_t kBadMessageType = 3;
// OPEN Message Error
inline constexpr std::uint8_t kUnspecific = 0;
inline constexpr std::uint8_t kUnsupportedVersion = 1;
inline constexpr std::uint8_t kBadPeerAs = 2;
inline constexpr std::uint8_t kBadBgpIdentifier = 3;
inline constexpr std::uint8_t kUnsupportedOptionalParameter = 4;
inline constexpr std::uint8_t kUnacceptableHoldTime = 6;
// UPDATE Message Error
inline constexpr std::uint8_t kMalformedAttributeList = 1;
inline constexpr std::uint8_t kUnrecognizedWellKnownAttribute = 2;
inline constexpr std::uint8_t kMissingWellKnownAttribute = 3;
inline constexpr std::uint8_t kAttributeFlagsError = 4;
inline constexpr std::uint8_t kAttributeLengthError = 5;
inline constexpr std::uint8_t kInvalidOrigin = 6;
inline constexpr std::uint8_t kInvalidNextHop = 8;
inline constexpr std::uint8_t kOptionalAttributeError = 9;
inline constexpr std::uint8_t kInvalidNetworkField = 10;
inline constexpr std::uint8_t kMalformedAsPath = 11;
// ROUTE-REFRESH Message Error
inline constexpr std::uint8_t kInvalidMessageLength = 1;
}  // namespace subcode

struct BgpError {
  DecodeError decode;
  std::uint8_t code = 0;     // NOTIFICATION error code
  std::uint8_t subcode = 0;  // NOTIFICATION error subcode
  Bytes data;                // NOTIFICATION data (RFC 4271 section 6)
  Rfc7606Action action = Rfc7606Action::session_reset;
  std::uint8_t attribute_type = 0;  // the path attribute concerned, or 0
  AfiSafi family{};  // for afi_safi_disable: the family to disable

  std::string to_string() const;
  bool operator==(const BgpError&) const = default;
};

// A session-reset error from a plain DecodeError (truncation and the like).
BgpError session_reset(DecodeError decode, std::uint8_t code,
                       std::uint8_t subcode, Bytes data = {});

// Turns a ByteReader result into one carrying a session-reset BgpError, for
// fields whose truncation RFC 4271 section 6 maps to one NOTIFICATION.
template <typename T>
std::expected<T, BgpError> lift(std::expected<T, DecodeError> r,
                                std::uint8_t code, std::uint8_t subcode) {
  if (!r)
    return std::unexpected(session_reset(std::move(r).error(), code, subcode));
  return *std::move(r);
}

}  // namespace arfabric::wire::bgp
