// OPEN capabilities (RFC 5492 section 4): code, length, value. Decoded:
// multiprotocol (1, RFC 4760), route refresh (2, RFC 2918), extended
// message (6, RFC 8654), graceful restart (64, RFC 4724), 4-octet AS (65,
// RFC 6793), ADD-PATH (69, RFC 7911). Any other code is kept as raw bytes.
#pragma once

#include <cstdint>
#include <expected>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/options.h"

namespace arfabric::wire::bgp {

namespace capability_code {
inline constexpr std::uint8_t kMultiprotocol = 1;
inline constexpr std::uint8_t kRouteRefresh = 2;
inline constexpr std::uint8_t kExtendedMessage = 6;
inline constexpr std::uint8_t kGracefulRestart = 64;
inline constexpr std::uint8_t kFourOctetAs = 65;
inline constexpr std::uint8_t kAddPath = 69;
}  // namespace capability_code

struct MultiprotocolCapability {
  AfiSafi family;
  std::uint8_t reserved = 0;
  bool operator==(const MultiprotocolCapability&) const = default;
};
struct RouteRefreshCapability {
  bool operator==(const RouteRefreshCapability&) const = default;
};
struct ExtendedMessageCapability {
  bool operator==(const ExtendedMessageCapability&) const = default;
};
struct FourOctetAsCapability {
  std::uint32_t asn = 0;
  bool operator==(const FourOctetAsCapability&) const = default;
};
struct AddPathCapability {
  struct Entry {
    AfiSafi family;
    std::uint8_t send_receive = 0;  // 1 receive, 2 send, 3 both
    bool operator==(const Entry&) const = default;
  };
  std::vector<Entry> entries;
  bool operator==(const AddPathCapability&) const = default;
};
struct GracefulRestartCapability {
  std::uint8_t flags = 0;          // 4 bits: R (0x8), N (0x4, RFC 8538)
  std::uint16_t restart_time = 0;  // 12 bits, seconds
  struct Entry {
    AfiSafi family;
    std::uint8_t flags = 0;  // F bit 0x80: forwarding state preserved
    bool operator==(const Entry&) const = default;
  };
  std::vector<Entry> entries;
  bool operator==(const GracefulRestartCapability&) const = default;
};
struct RawCapability {
  Bytes value;
  bool operator==(const RawCapability&) const = default;
};

using CapabilityValue =
    std::variant<RawCapability, MultiprotocolCapability, RouteRefreshCapability,
                 ExtendedMessageCapability, FourOctetAsCapability,
                 AddPathCapability, GracefulRestartCapability>;

struct Capability {
  std::uint8_t code = 0;
  CapabilityValue value;
  bool operator==(const Capability&) const = default;
};

std::string_view capability_name(std::uint8_t code);

// Parses every capability in `r` (one Capabilities optional parameter).
// Errors (session_reset, 2/0 "Unspecific", RFC 4271 section 6.2: a
// recognized but malformed optional parameter): a capability running past
// the parameter, or a known capability whose length is wrong for its code.
std::expected<std::vector<Capability>, BgpError> parse_capabilities(
    ByteReader r);

// Errors: a value over 255 bytes, or a typed value not matching its code.
std::expected<void, EncodeError> serialize(const Capability& c,
                                           ByteWriter& out);
std::size_t encoded_size(const Capability& c);

}  // namespace arfabric::wire::bgp
