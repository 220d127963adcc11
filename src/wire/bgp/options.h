// Capabilities negotiated on a BGP session that change the wire format.
//
// The same bytes mean different things depending on the OPEN exchange: an
// AS_PATH holds 2- or 4-octet ASNs (RFC 6793), NLRI carry a 4-byte path ID
// when ADD-PATH receive was negotiated for that AFI/SAFI (RFC 7911), and a
// message may be up to 65535 bytes after the Extended Message capability
// (RFC 8654). Parsers and serializers take these options; the defaults are
// those of a session with no capabilities (plain RFC 4271).
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <vector>

namespace arfabric::wire::bgp {

inline constexpr std::uint16_t kAfiIpv4 = 1;
inline constexpr std::uint16_t kAfiIpv6 = 2;
inline constexpr std::uint8_t kSafiUnicast = 1;

struct AfiSafi {
  std::uint16_t afi = 0;
  std::uint8_t safi = 0;
  auto operator<=>(const AfiSafi&) const = default;
};

struct SessionCodecOptions {
  bool extended_message = false;  // RFC 8654: max length 65535, not 4096
  bool four_octet_as = false;     // RFC 6793: AS_PATH/AGGREGATOR use 4 bytes
  // RFC 7911: AFI/SAFIs whose NLRI carry a path identifier (in the direction
  // being parsed or serialized).
  std::vector<AfiSafi> add_path;

  bool has_add_path(AfiSafi f) const {
    return std::find(add_path.begin(), add_path.end(), f) != add_path.end();
  }
  std::size_t max_message_length() const {
    return extended_message ? 65535 : 4096;
  }
};

using ParseOptions = SessionCodecOptions;

}  // namespace arfabric::wire::bgp
