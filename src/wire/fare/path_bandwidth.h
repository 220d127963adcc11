// The FARE Path Bandwidth extended community (draft-xu-idr-fare-04 §3) and
// the RFC 10005 Link Bandwidth extended community, read from and written to
// the generic 8-byte bgp::ExtendedCommunity.
//
// Path Bandwidth: an IPv4-Address-Specific extended community (RFC 4360
// §3.2), type 0x01 (transitive) or 0x41 (non-transitive), sub-type TBD
// (configurable; default 0xAA, see docs/PROTOCOLS.md):
//
//   | 0x01/0x41 | sub-type | Global Administrator: router ID (4 bytes) |
//   | Local Administrator: bandwidth, GB/s, IEEE 754 binary16 (2 bytes) |
//
// The draft asks for "IEEE floating point" in a 2-byte field; only binary16
// fits. 400 Gb/s = 50 GB/s is exact in binary16.
//
// Link Bandwidth (RFC 10005): Two-Octet AS-Specific, type 0x40
// (non-transitive) or 0x00 (transitive), sub-type 0x04; Global
// Administrator = AS number (2 bytes), Local Administrator = bandwidth in
// bytes per second, IEEE 754 binary32 (4 bytes). FRR uses it for UCMP.
#pragma once

#include <cstdint>
#include <optional>

#include "wire/bgp/extended_community.h"

namespace arfabric::wire::fare {

inline constexpr std::uint8_t kPathBandwidthTransitiveType = 0x01;
inline constexpr std::uint8_t kPathBandwidthNonTransitiveType = 0x41;
inline constexpr std::uint8_t kDefaultPathBandwidthSubType = 0xaa;
inline constexpr std::uint8_t kLinkBandwidthTransitiveType = 0x00;
inline constexpr std::uint8_t kLinkBandwidthNonTransitiveType = 0x40;
inline constexpr std::uint8_t kLinkBandwidthSubType = 0x04;

struct PathBandwidth {
  bool transitive = true;
  std::uint32_t router_id = 0;       // Global Administrator
  std::uint16_t bandwidth_bits = 0;  // binary16 GB/s, as carried

  double gigabytes_per_second() const;
  // What the value means for FARE (docs/PROTOCOLS.md): NaN and negative
  // values (other than -0) are invalid and the community is treated as
  // absent; +Inf means "no limit".
  bool valid() const;
  bool operator==(const PathBandwidth&) const = default;
};

// Builds the value with round-toward-zero encoding of `gigabytes_per_second`.
PathBandwidth make_path_bandwidth(std::uint32_t router_id,
                                  double gigabytes_per_second,
                                  bool transitive = true);

// The value the originating leaf attaches (draft §4.1 "maximum bandwidth
// value"): the largest finite binary16, 65504 GB/s.
PathBandwidth max_path_bandwidth(std::uint32_t router_id,
                                 bool transitive = true);

// Reads a Path Bandwidth community; nullopt when `ec` is of another type or
// sub-type.
std::optional<PathBandwidth> decode_path_bandwidth(
    const bgp::ExtendedCommunity& ec,
    std::uint8_t sub_type = kDefaultPathBandwidthSubType);
bgp::ExtendedCommunity encode(
    const PathBandwidth& pb,
    std::uint8_t sub_type = kDefaultPathBandwidthSubType);

struct LinkBandwidth {
  bool transitive = false;
  std::uint16_t as_number = 0;
  std::uint32_t bandwidth_bits = 0;  // binary32 bytes/s, as carried

  double bytes_per_second() const;
  bool operator==(const LinkBandwidth&) const = default;
};

LinkBandwidth make_link_bandwidth(std::uint16_t as_number,
                                  float bytes_per_second,
                                  bool transitive = false);
std::optional<LinkBandwidth> decode_link_bandwidth(
    const bgp::ExtendedCommunity& ec);
bgp::ExtendedCommunity encode(const LinkBandwidth& lb);

}  // namespace arfabric::wire::fare
