// UPDATE path attributes (RFC 4271 section 4.3) and their registry.
//
// Each attribute keeps its received flags octet, so the Extended Length
// choice and the Partial bit survive a round trip byte-exact. Known
// attributes are decoded into typed values; unknown ones, and known ones
// that failed to parse under RFC 7606 (treat-as-withdraw, attribute-discard),
// are kept as RawAttribute so that re-serialization gives the same bytes.
//
// The registry (kAttributeRegistry, in the style of BIRD's bgp_attr_table)
// maps a type code to its name, the Optional/Transitive flags it must
// carry, whether it is well-known mandatory, the RFC 7606 action when it is
// malformed, and its parse / serialize / size / format functions.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/as_path.h"
#include "wire/bgp/error.h"
#include "wire/bgp/extended_community.h"
#include "wire/bgp/nlri.h"
#include "wire/bgp/options.h"
#include "wire/inet/ipv4.h"

namespace arfabric::wire::bgp {

namespace attr_flag {
inline constexpr std::uint8_t kOptional = 0x80;
inline constexpr std::uint8_t kTransitive = 0x40;
inline constexpr std::uint8_t kPartial = 0x20;
inline constexpr std::uint8_t kExtendedLength = 0x10;
}  // namespace attr_flag

namespace attr_type {
inline constexpr std::uint8_t kOrigin = 1;
inline constexpr std::uint8_t kAsPath = 2;
inline constexpr std::uint8_t kNextHop = 3;
inline constexpr std::uint8_t kMed = 4;
inline constexpr std::uint8_t kLocalPref = 5;
inline constexpr std::uint8_t kAtomicAggregate = 6;
inline constexpr std::uint8_t kAggregator = 7;
inline constexpr std::uint8_t kCommunities = 8;           // RFC 1997
inline constexpr std::uint8_t kMpReachNlri = 14;          // RFC 4760
inline constexpr std::uint8_t kMpUnreachNlri = 15;        // RFC 4760
inline constexpr std::uint8_t kExtendedCommunities = 16;  // RFC 4360
inline constexpr std::uint8_t kAs4Path = 17;              // RFC 6793
inline constexpr std::uint8_t kAs4Aggregator = 18;        // RFC 6793
}  // namespace attr_type

enum class OriginValue : std::uint8_t { igp = 0, egp = 1, incomplete = 2 };

struct Origin {
  OriginValue value = OriginValue::igp;
  bool operator==(const Origin&) const = default;
};
struct NextHop {
  Ipv4Address address{};
  bool operator==(const NextHop&) const = default;
};
struct Med {
  std::uint32_t value = 0;
  bool operator==(const Med&) const = default;
};
struct LocalPref {
  std::uint32_t value = 0;
  bool operator==(const LocalPref&) const = default;
};
struct AtomicAggregate {
  bool operator==(const AtomicAggregate&) const = default;
};
// AGGREGATOR (2- or 4-byte ASN by session) and AS4_AGGREGATOR (4-byte).
struct Aggregator {
  std::uint32_t asn = 0;
  Ipv4Address address{};
  bool operator==(const Aggregator&) const = default;
};
struct Communities {
  std::vector<std::uint32_t> values;
  bool operator==(const Communities&) const = default;
};
struct ExtendedCommunities {
  std::vector<ExtendedCommunity> values;
  bool operator==(const ExtendedCommunities&) const = default;
};
// RFC 4760 section 3. IPv4/IPv6 unicast NLRI are decoded into `nlri`; for
// any other AFI/SAFI they stay in `raw_nlri`. The next hop stays as bytes:
// 4 (IPv4), 16 or 32 (IPv6 global [+ link-local], RFC 2545 section 3), or
// RFC 8950 IPv6 next hops for IPv4 NLRI.
struct MpReachNlri {
  AfiSafi family;
  Bytes next_hop;
  std::uint8_t reserved = 0;  // formerly the SNPA count (RFC 2858)
  std::vector<Prefix> nlri;
  Bytes raw_nlri;
  bool operator==(const MpReachNlri&) const = default;
};
struct MpUnreachNlri {
  AfiSafi family;
  std::vector<Prefix> withdrawn;
  Bytes raw_withdrawn;
  bool operator==(const MpUnreachNlri&) const = default;
};
// An unknown attribute, or a known one kept undecoded because it was
// malformed (see UpdateParseResult::attribute_errors) or a duplicate.
struct RawAttribute {
  Bytes value;
  bool operator==(const RawAttribute&) const = default;
};

using AttributeValue =
    std::variant<RawAttribute, Origin, AsPath, NextHop, Med, LocalPref,
                 AtomicAggregate, Aggregator, Communities, ExtendedCommunities,
                 MpReachNlri, MpUnreachNlri>;

struct PathAttribute {
  std::uint8_t flags = 0;  // as received, including Extended Length
  std::uint8_t type = 0;
  AttributeValue value;
  bool operator==(const PathAttribute&) const = default;
};

// Why one attribute failed to parse; the UPDATE parser turns it into a
// BgpError with the attribute bytes as NOTIFICATION data.
struct AttributeFault {
  DecodeError decode;
  std::uint8_t subcode = subcode::kAttributeLengthError;
  std::optional<Rfc7606Action> action;  // overrides the registry's default
  AfiSafi family{};
};

struct AttributeSpec {
  std::uint8_t type;
  std::string_view name;
  std::uint8_t flags;  // the Optional and Transitive bits it must carry
  bool well_known_mandatory;
  Rfc7606Action malformed_action;
  std::string_view rfc7606_section;  // where malformed_action comes from
  std::expected<AttributeValue, AttributeFault> (*parse)(
      ByteReader r, const SessionCodecOptions& options);
  std::expected<void, EncodeError> (*serialize)(
      const AttributeValue& v, const SessionCodecOptions& options,
      ByteWriter& out);
  std::size_t (*size)(const AttributeValue& v,
                      const SessionCodecOptions& options);
  std::string (*format)(const AttributeValue& v);
};

// The registry entries, by type code; nullptr for unknown codes.
const AttributeSpec* find_attribute_spec(std::uint8_t type);
std::span<const AttributeSpec> attribute_registry();
std::string_view attribute_name(std::uint8_t type);  // "unknown" if unknown

// A typed attribute with the flags its registry entry prescribes (Extended
// Length chosen by size at serialization).
PathAttribute make_attribute(std::uint8_t type, AttributeValue value);

// Writes flags, type, length and value. The length is 2 bytes when the
// received flags asked for it or when the value exceeds 255 bytes (then
// the Extended Length bit is set in the output). Errors: value over 65535
// bytes, a typed value that does not match the type code's registry entry,
// or the value's own encoding errors.
std::expected<void, EncodeError> serialize(const PathAttribute& a,
                                           const SessionCodecOptions& options,
                                           ByteWriter& out);
std::size_t encoded_size(const PathAttribute& a,
                         const SessionCodecOptions& options);

// A short human-readable value, e.g. "IGP", "65001 65002", "10.0.0.1".
std::string format_attribute(const PathAttribute& a);

// RFC 4271 section 5 / 9.1.3 before re-advertising received attributes:
// unrecognized optional transitive attributes get the Partial bit set,
// unrecognized optional non-transitive ones are dropped. Known attributes
// are left alone (the speaker decides about MED, LOCAL_PREF, etc.).
void prepare_for_propagation(std::vector<PathAttribute>& attributes);

}  // namespace arfabric::wire::bgp
