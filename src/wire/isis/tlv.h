// IS-IS TLVs carried in LSPs, as FARE (draft-xu-lsr-fare-04) needs them.
//
// Decoded: 129 Protocols Supported (RFC 1195), 132 IP Interface Address
// (RFC 1195), 137 Dynamic Hostname (RFC 5301), 22 Extended IS Reachability
// (RFC 5305) with sub-TLVs 6/8/9 (9 = Maximum Link Bandwidth, binary32
// bytes/s), 135 Extended IP Reachability (RFC 5305), 235/237 MT IP/IPv6
// Reachability (RFC 5120), 236 IPv6 Reachability (RFC 5308). Prefix sub-TLVs
// (RFC 5305 section 4, RFC 7794): the FARE Path Bandwidth sub-TLV (type TBD
// in the draft, a codec option here) and Prefix Attribute Flags (4).
// Everything else (TLVs, sub-TLVs) is kept as RawTlv and re-serialized byte
// for byte.
//
// A decoded item whose length is wrong for its type (a 3-byte Maximum Link
// Bandwidth, a TLV 132 that is not a multiple of 4, a prefix longer than its
// address family) is an error, not a raw item: a decoder should point at it.
// Prefix bytes are kept as sent (host bits included); array bytes past the
// encoded ceil(length / 8) octets are zero.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/inet/ipv4.h"
#include "wire/lsr/bandwidth.h"

namespace arfabric::wire::isis {

using SystemId = std::array<std::uint8_t, 6>;
using Ipv6Address = std::array<std::uint8_t, 16>;

// Default type of the FARE Path Bandwidth prefix sub-TLV (draft section 3
// says "TBD"). 31 is unassigned in the IANA "Sub-TLVs for TLVs 27, 135, 235,
// 236, and 237" registry as we read it; see docs/PROTOCOLS.md (IS-IS and OSPF).
inline constexpr std::uint8_t kDefaultPathBandwidthSubTlvType = 31;

struct CodecOptions {
  std::uint8_t path_bandwidth_sub_tlv_type = kDefaultPathBandwidthSubTlvType;
};

// TLV type codes (IANA "IS-IS TLV Codepoints").
inline constexpr std::uint8_t kTlvExtendedIsReach = 22;
inline constexpr std::uint8_t kTlvProtocolsSupported = 129;
inline constexpr std::uint8_t kTlvIpInterfaceAddress = 132;
inline constexpr std::uint8_t kTlvExtendedIpReach = 135;
inline constexpr std::uint8_t kTlvDynamicHostname = 137;
inline constexpr std::uint8_t kTlvMtIpReach = 235;
inline constexpr std::uint8_t kTlvIpv6Reach = 236;
inline constexpr std::uint8_t kTlvMtIpv6Reach = 237;
// Sub-TLVs of TLV 22 (RFC 5305 section 3).
inline constexpr std::uint8_t kSubTlvIpv4InterfaceAddress = 6;
inline constexpr std::uint8_t kSubTlvIpv4NeighborAddress = 8;
inline constexpr std::uint8_t kSubTlvMaxLinkBandwidth = 9;
// Prefix sub-TLV (RFC 7794 section 2.1).
inline constexpr std::uint8_t kSubTlvPrefixAttributeFlags = 4;

// A TLV or sub-TLV kept as it came: type and value (length implied).
struct RawTlv {
  std::uint8_t type = 0;
  Bytes value;  // at most 255 bytes
  bool operator==(const RawTlv&) const = default;
};

// --- TLV 22 and its sub-TLVs ---------------------------------------------
struct Ipv4InterfaceAddressSubTlv {  // 6
  Ipv4Address address{};
  bool operator==(const Ipv4InterfaceAddressSubTlv&) const = default;
};
struct Ipv4NeighborAddressSubTlv {  // 8
  Ipv4Address address{};
  bool operator==(const Ipv4NeighborAddressSubTlv&) const = default;
};
struct MaxLinkBandwidthSubTlv {  // 9, RFC 5305 section 3.4
  lsr::Bandwidth32 bandwidth;
  bool operator==(const MaxLinkBandwidthSubTlv&) const = default;
};
using IsReachSubTlv =
    std::variant<Ipv4InterfaceAddressSubTlv, Ipv4NeighborAddressSubTlv,
                 MaxLinkBandwidthSubTlv, RawTlv>;

struct IsNeighbor {
  SystemId system_id{};
  std::uint8_t pseudonode = 0;
  std::uint32_t metric = 0;  // 24 bits
  std::vector<IsReachSubTlv> sub_tlvs;
  bool operator==(const IsNeighbor&) const = default;
};
struct ExtendedIsReachTlv {  // 22
  std::vector<IsNeighbor> neighbors;
  bool operator==(const ExtendedIsReachTlv&) const = default;
};

// --- Prefix sub-TLVs (TLVs 135, 235, 236, 237) ----------------------------
struct PathBandwidthSubTlv {  // draft-xu-lsr-fare-04 section 3, type TBD
  lsr::Bandwidth32 bandwidth;
  bool operator==(const PathBandwidthSubTlv&) const = default;
};
struct PrefixAttributeFlagsSubTlv {  // 4, RFC 7794 section 2.1
  Bytes flags;  // variable length; first octet X=0x80 R=0x40 N=0x20
  bool operator==(const PrefixAttributeFlagsSubTlv&) const = default;
};
using PrefixSubTlv =
    std::variant<PathBandwidthSubTlv, PrefixAttributeFlagsSubTlv, RawTlv>;

// An entry of TLV 135 / 235 (RFC 5305 section 4).
struct Ipv4Prefix {
  std::uint32_t metric = 0;
  bool up_down = false;
  std::uint8_t prefix_length = 0;  // 0..32
  Ipv4Address prefix{};
  // nullopt: the S bit is clear; otherwise the sub-TLVs (S bit set).
  std::optional<std::vector<PrefixSubTlv>> sub_tlvs;
  bool operator==(const Ipv4Prefix&) const = default;
};
// An entry of TLV 236 / 237 (RFC 5308 section 2).
struct Ipv6Prefix {
  std::uint32_t metric = 0;
  bool up_down = false;
  bool external = false;
  std::uint8_t reserved_flags = 0;  // the low 5 bits of the flags octet
  std::uint8_t prefix_length = 0;   // 0..128
  Ipv6Address prefix{};
  std::optional<std::vector<PrefixSubTlv>> sub_tlvs;
  bool operator==(const Ipv6Prefix&) const = default;
};

struct ExtendedIpReachTlv {  // 135
  std::vector<Ipv4Prefix> prefixes;
  bool operator==(const ExtendedIpReachTlv&) const = default;
};
struct MtIpReachTlv {            // 235, RFC 5120 section 7.3
  std::uint8_t mt_reserved = 0;  // 4 bits
  std::uint16_t mt_id = 0;       // 12 bits
  std::vector<Ipv4Prefix> prefixes;
  bool operator==(const MtIpReachTlv&) const = default;
};
struct Ipv6ReachTlv {  // 236
  std::vector<Ipv6Prefix> prefixes;
  bool operator==(const Ipv6ReachTlv&) const = default;
};
struct MtIpv6ReachTlv {          // 237, RFC 5120 section 7.5
  std::uint8_t mt_reserved = 0;  // 4 bits
  std::uint16_t mt_id = 0;       // 12 bits
  std::vector<Ipv6Prefix> prefixes;
  bool operator==(const MtIpv6ReachTlv&) const = default;
};

// --- Simple TLVs ------------------------------------------------------------
struct ProtocolsSupportedTlv {  // 129: one NLPID per octet (0xcc IPv4,
  Bytes nlpids;                 // 0x8e IPv6)
  bool operator==(const ProtocolsSupportedTlv&) const = default;
};
struct IpInterfaceAddressTlv {  // 132
  std::vector<Ipv4Address> addresses;
  bool operator==(const IpInterfaceAddressTlv&) const = default;
};
struct DynamicHostnameTlv {  // 137
  std::string hostname;
  bool operator==(const DynamicHostnameTlv&) const = default;
};

using Tlv =
    std::variant<ProtocolsSupportedTlv, IpInterfaceAddressTlv,
                 DynamicHostnameTlv, ExtendedIsReachTlv, ExtendedIpReachTlv,
                 MtIpReachTlv, Ipv6ReachTlv, MtIpv6ReachTlv, RawTlv>;

// The type code a TLV is written with.
std::uint8_t tlv_type(const Tlv& tlv);
// Registry name of a TLV or prefix sub-TLV code ("unknown" if not known).
std::string_view tlv_name(std::uint8_t type);
std::string_view is_reach_sub_tlv_name(std::uint8_t type);
std::string_view prefix_sub_tlv_name(std::uint8_t type,
                                     const CodecOptions& options = {});

// Parses a sequence of TLVs filling `data` exactly; `base_offset` is the
// position of data[0] in the outermost buffer (for error offsets).
// Errors (field names start with "isis.tlv"): a TLV or sub-TLV value running
// past its container (".value", ".sub_tlvs"), a wrong length for a decoded
// type (".length"), a prefix length over 32 / 128 (".prefix_length"), an
// entry cut short inside its TLV (the entry field that is truncated).
std::expected<std::vector<Tlv>, DecodeError> parse_tlvs(
    ByteSpan data, std::size_t base_offset = 0,
    const CodecOptions& options = {});

// Appends TLVs. Errors: a value over 255 octets (a TLV, an entry's sub-TLV
// block), a metric over 24 bits (TLV 22), a prefix length over 32 / 128, MT
// fields out of range, a Path Bandwidth type colliding with type 4, a
// RawTlv (TLV or sub-TLV) using a decoded type (it would not parse back as
// raw).
std::expected<void, EncodeError> serialize(const std::vector<Tlv>& tlvs,
                                           ByteWriter& out,
                                           const CodecOptions& options = {});
std::expected<void, EncodeError> serialize(const Tlv& tlv, ByteWriter& out,
                                           const CodecOptions& options = {});
std::size_t encoded_size(const Tlv& tlv);

}  // namespace arfabric::wire::isis
