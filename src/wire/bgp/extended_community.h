// One BGP extended community (RFC 4360 section 2): 8 bytes, a type octet
// (high), a sub-type octet (low, for the types that have one) and a 6-byte
// value. The generic form keeps every community byte-exact, known or not;
// typed views such as the FARE Path Bandwidth community
// (wire/fare/path_bandwidth.h) convert from and to it.
#pragma once

#include <array>
#include <cstdint>

namespace arfabric::wire::bgp {

struct ExtendedCommunity {
  std::array<std::uint8_t, 8> bytes{};

  std::uint8_t type() const { return bytes[0]; }
  std::uint8_t sub_type() const { return bytes[1]; }
  // RFC 4360 section 2: bit 0x40 of the type set means non-transitive.
  bool transitive() const { return (bytes[0] & 0x40) == 0; }
  bool operator==(const ExtendedCommunity&) const = default;
};

}  // namespace arfabric::wire::bgp
