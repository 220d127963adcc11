#include "wire/bgp/path_attribute.h"

#include <algorithm>
#include <array>
#include <string>

#include "common/hex.h"

namespace arfabric::wire::bgp {
namespace {

using Fault = std::unexpected<AttributeFault>;
using Options = SessionCodecOptions;

AttributeFault make_fault(DecodeError e, std::uint8_t sub) {
  AttributeFault f;
  f.decode = std::move(e);
  f.subcode = sub;
  return f;
}

Fault length_fault(const ByteReader& r, std::string_view field,
                   std::string reason,
                   std::uint8_t sub = subcode::kAttributeLengthError) {
  return Fault(make_fault(
      DecodeError{std::string(field), r.offset(), std::move(reason)}, sub));
}

std::string wrong_length(std::size_t got, std::string_view want) {
  return "length " + std::to_string(got) + ", expected " + std::string(want);
}

std::string ipv4_text(const Ipv4Address& a) { return format_ipv4(a); }

Ipv4Address read_ipv4(ByteReader& r) {
  Ipv4Address a{};
  auto b = r.bytes(4, "ipv4");
  if (b) std::copy(b->begin(), b->end(), a.begin());
  return a;
}

template <typename T>
const T& as(const AttributeValue& v) {
  return std::get<T>(v);
}

// --- ORIGIN (RFC 4271 section 5.1.1, RFC 7606 section 7.1) ---
std::expected<AttributeValue, AttributeFault> parse_origin(ByteReader r,
                                                           const Options&) {
  if (r.remaining() != 1) {
    return length_fault(r, "bgp.update.origin",
                        wrong_length(r.remaining(), "1"));
  }
  const std::uint8_t v = *r.u8("bgp.update.origin");
  if (v > 2) {
    return Fault(make_fault(r.error_at(r.offset() - 1, "bgp.update.origin",
                                       "undefined ORIGIN " + std::to_string(v)),
                            subcode::kInvalidOrigin));
  }
  return Origin{static_cast<OriginValue>(v)};
}
std::expected<void, EncodeError> ser_origin(const AttributeValue& v,
                                            const Options&, ByteWriter& out) {
  out.u8(static_cast<std::uint8_t>(as<Origin>(v).value));
  return {};
}
std::size_t size_origin(const AttributeValue&, const Options&) { return 1; }
std::string fmt_origin(const AttributeValue& v) {
  switch (as<Origin>(v).value) {
    case OriginValue::igp:
      return "IGP";
    case OriginValue::egp:
      return "EGP";
    case OriginValue::incomplete:
      return "INCOMPLETE";
  }
  return "?";
}

// --- AS_PATH / AS4_PATH (RFC 7606 section 7.2, RFC 6793 section 6) ---
std::size_t as_path_width(const Options& o) { return o.four_octet_as ? 4 : 2; }

std::expected<AttributeValue, AttributeFault> parse_as_path_attr(
    ByteReader r, const Options& o) {
  auto p = parse_as_path(r, as_path_width(o), "bgp.update.as_path");
  if (!p) {
    return Fault(make_fault(std::move(p).error(), subcode::kMalformedAsPath));
  }
  return *std::move(p);
}
std::expected<AttributeValue, AttributeFault> parse_as4_path(ByteReader r,
                                                             const Options&) {
  auto p = parse_as_path(r, 4, "bgp.update.as4_path");
  if (!p) {
    return Fault(
        make_fault(std::move(p).error(), subcode::kOptionalAttributeError));
  }
  return *std::move(p);
}
std::expected<void, EncodeError> ser_as_path(const AttributeValue& v,
                                             const Options& o,
                                             ByteWriter& out) {
  return serialize(as<AsPath>(v), as_path_width(o), out);
}
std::size_t size_as_path(const AttributeValue& v, const Options& o) {
  return encoded_size(as<AsPath>(v), as_path_width(o));
}
std::expected<void, EncodeError> ser_as4_path(const AttributeValue& v,
                                              const Options&, ByteWriter& out) {
  return serialize(as<AsPath>(v), 4, out);
}
std::size_t size_as4_path(const AttributeValue& v, const Options&) {
  return encoded_size(as<AsPath>(v), 4);
}
std::string fmt_as_path(const AttributeValue& v) {
  return format_as_path(as<AsPath>(v));
}

// --- NEXT_HOP (RFC 7606 section 7.3) ---
std::expected<AttributeValue, AttributeFault> parse_next_hop(ByteReader r,
                                                             const Options&) {
  if (r.remaining() != 4) {
    return length_fault(r, "bgp.update.next_hop",
                        wrong_length(r.remaining(), "4"));
  }
  return NextHop{read_ipv4(r)};
}
std::expected<void, EncodeError> ser_next_hop(const AttributeValue& v,
                                              const Options&, ByteWriter& out) {
  out.bytes(as<NextHop>(v).address);
  return {};
}
std::size_t size4(const AttributeValue&, const Options&) { return 4; }
std::string fmt_next_hop(const AttributeValue& v) {
  return ipv4_text(as<NextHop>(v).address);
}

// --- MED (RFC 7606 section 7.4), LOCAL_PREF (section 7.5) ---
template <typename T>
constexpr std::string_view kU32Field =
    std::is_same_v<T, Med> ? "bgp.update.multi_exit_disc"
                           : "bgp.update.local_pref";

template <typename T>
std::expected<AttributeValue, AttributeFault> parse_u32(ByteReader r,
                                                        const Options&) {
  if (r.remaining() != 4) {
    return length_fault(r, kU32Field<T>, wrong_length(r.remaining(), "4"));
  }
  return T{*r.u32(kU32Field<T>)};
}
template <typename T>
std::expected<void, EncodeError> ser_u32(const AttributeValue& v,
                                         const Options&, ByteWriter& out) {
  out.u32(as<T>(v).value);
  return {};
}
template <typename T>
std::string fmt_u32(const AttributeValue& v) {
  return std::to_string(as<T>(v).value);
}

// --- ATOMIC_AGGREGATE (RFC 7606 section 7.6) ---
std::expected<AttributeValue, AttributeFault> parse_atomic(ByteReader r,
                                                           const Options&) {
  if (!r.empty()) {
    return length_fault(r, "bgp.update.atomic_aggregate",
                        wrong_length(r.remaining(), "0"));
  }
  return AtomicAggregate{};
}
std::expected<void, EncodeError> ser_nothing(const AttributeValue&,
                                             const Options&, ByteWriter&) {
  return {};
}
std::size_t size0(const AttributeValue&, const Options&) { return 0; }
std::string fmt_nothing(const AttributeValue&) { return ""; }

// --- AGGREGATOR (RFC 7606 section 7.7), AS4_AGGREGATOR (RFC 6793 s. 6) ---
std::expected<AttributeValue, AttributeFault> parse_aggregator_n(
    ByteReader r, std::size_t asn_size, std::string_view field) {
  if (r.remaining() != asn_size + 4) {
    return length_fault(
        r, field, wrong_length(r.remaining(), std::to_string(asn_size + 4)),
        subcode::kAttributeLengthError);
  }
  Aggregator a;
  a.asn = asn_size == 4 ? *r.u32(field) : *r.u16(field);
  a.address = read_ipv4(r);
  return a;
}
std::expected<AttributeValue, AttributeFault> parse_aggregator(
    ByteReader r, const Options& o) {
  return parse_aggregator_n(r, as_path_width(o), "bgp.update.aggregator");
}
std::expected<AttributeValue, AttributeFault> parse_as4_aggregator(
    ByteReader r, const Options&) {
  return parse_aggregator_n(r, 4, "bgp.update.as4_aggregator");
}
std::expected<void, EncodeError> ser_aggregator_n(const AttributeValue& v,
                                                  std::size_t asn_size,
                                                  ByteWriter& out) {
  const Aggregator& a = as<Aggregator>(v);
  if (asn_size == 4) {
    out.u32(a.asn);
  } else if (a.asn > 0xffff) {
    return std::unexpected(EncodeError{
        "aggregator.asn", "ASN " + std::to_string(a.asn) +
                              " does not fit 2 octets (use AS_TRANS)"});
  } else {
    out.u16(static_cast<std::uint16_t>(a.asn));
  }
  out.bytes(a.address);
  return {};
}
std::expected<void, EncodeError> ser_aggregator(const AttributeValue& v,
                                                const Options& o,
                                                ByteWriter& out) {
  return ser_aggregator_n(v, as_path_width(o), out);
}
std::expected<void, EncodeError> ser_as4_aggregator(const AttributeValue& v,
                                                    const Options&,
                                                    ByteWriter& out) {
  return ser_aggregator_n(v, 4, out);
}
std::size_t size_aggregator(const AttributeValue&, const Options& o) {
  return as_path_width(o) + 4;
}
std::size_t size8(const AttributeValue&, const Options&) { return 8; }
std::string fmt_aggregator(const AttributeValue& v) {
  const Aggregator& a = as<Aggregator>(v);
  return std::to_string(a.asn) + " " + ipv4_text(a.address);
}

// --- COMMUNITIES (RFC 7606 section 7.8) ---
std::expected<AttributeValue, AttributeFault> parse_communities(
    ByteReader r, const Options&) {
  if (r.empty() || r.remaining() % 4 != 0) {
    return length_fault(r, "bgp.update.communities",
                        wrong_length(r.remaining(), "a non-zero multiple of 4"),
                        subcode::kOptionalAttributeError);
  }
  Communities c;
  while (!r.empty()) c.values.push_back(*r.u32("community"));
  return c;
}
std::expected<void, EncodeError> ser_communities(const AttributeValue& v,
                                                 const Options&,
                                                 ByteWriter& out) {
  for (std::uint32_t c : as<Communities>(v).values) out.u32(c);
  return {};
}
std::size_t size_communities(const AttributeValue& v, const Options&) {
  return 4 * as<Communities>(v).values.size();
}
std::string fmt_communities(const AttributeValue& v) {
  std::string s;
  for (std::uint32_t c : as<Communities>(v).values) {
    if (!s.empty()) s += ' ';
    s += std::to_string(c >> 16) + ":" + std::to_string(c & 0xffff);
  }
  return s;
}

// --- EXTENDED_COMMUNITIES (RFC 7606 section 7.14) ---
std::expected<AttributeValue, AttributeFault> parse_ext_communities(
    ByteReader r, const Options&) {
  if (r.empty() || r.remaining() % 8 != 0) {
    return length_fault(r, "bgp.update.extended_communities",
                        wrong_length(r.remaining(), "a non-zero multiple of 8"),
                        subcode::kOptionalAttributeError);
  }
  ExtendedCommunities c;
  while (!r.empty()) {
    ExtendedCommunity ec;
    auto b = *r.bytes(8, "extended_community");
    std::copy(b.begin(), b.end(), ec.bytes.begin());
    c.values.push_back(ec);
  }
  return c;
}
std::expected<void, EncodeError> ser_ext_communities(const AttributeValue& v,
                                                     const Options&,
                                                     ByteWriter& out) {
  for (const ExtendedCommunity& c : as<ExtendedCommunities>(v).values) {
    out.bytes(c.bytes);
  }
  return {};
}
std::size_t size_ext_communities(const AttributeValue& v, const Options&) {
  return 8 * as<ExtendedCommunities>(v).values.size();
}
std::string fmt_ext_communities(const AttributeValue& v) {
  std::string s;
  for (const ExtendedCommunity& c : as<ExtendedCommunities>(v).values) {
    if (!s.empty()) s += ' ';
    s += to_hex(c.bytes);
  }
  return s;
}

// --- MP_REACH_NLRI / MP_UNREACH_NLRI (RFC 4760, RFC 7606 section 7.11) ---
std::uint8_t max_bits(AfiSafi f) {
  if (f.safi != kSafiUnicast) return 0;
  if (f.afi == kAfiIpv4) return 32;
  if (f.afi == kAfiIpv6) return 128;
  return 0;  // not decoded
}

// A malformed MP attribute whose AFI/SAFI is known disables that family
// (RFC 7606 section 7.11 via RFC 4760 section 7); before the AFI/SAFI is
// known only a session reset is possible.
Fault mp_fault(DecodeError e, std::optional<AfiSafi> family) {
  AttributeFault f = make_fault(std::move(e), subcode::kOptionalAttributeError);
  f.action =
      family ? Rfc7606Action::afi_safi_disable : Rfc7606Action::session_reset;
  if (family) f.family = *family;
  return Fault(std::move(f));
}

std::expected<AfiSafi, AttributeFault> read_family(ByteReader& r,
                                                   std::string_view field) {
  const std::string f(field);
  auto afi = r.u16(f + ".afi");
  if (!afi) return mp_fault(afi.error(), std::nullopt);
  auto safi = r.u8(f + ".safi");
  if (!safi) return mp_fault(safi.error(), std::nullopt);
  return AfiSafi{*afi, *safi};
}

std::expected<std::vector<Prefix>, AttributeFault> read_mp_prefixes(
    ByteReader& r, AfiSafi family, const Options& o, std::string_view field) {
  auto p = parse_prefixes(ByteReader(r.rest(), r.offset()), max_bits(family),
                          o.has_add_path(family), field,
                          subcode::kOptionalAttributeError);
  if (!p) return mp_fault(std::move(p).error().decode, family);
  return *std::move(p);
}

std::expected<AttributeValue, AttributeFault> parse_mp_reach(ByteReader r,
                                                             const Options& o) {
  MpReachNlri m;
  auto fam = read_family(r, "bgp.update.mp_reach");
  if (!fam) return Fault(std::move(fam).error());
  m.family = *fam;
  const std::size_t nh_at = r.offset();
  auto nh_len = r.u8("bgp.update.mp_reach.next_hop_length");
  if (!nh_len) return mp_fault(nh_len.error(), m.family);
  auto nh = r.bytes(*nh_len, "bgp.update.mp_reach.next_hop");
  if (!nh) return mp_fault(nh.error(), m.family);
  m.next_hop.assign(nh->begin(), nh->end());
  const std::uint8_t bits = max_bits(m.family);
  // RFC 7606 section 7.11: a next-hop length the AFI/SAFI cannot have.
  const bool nh_ok =
      bits == 0 ||
      (bits == 32 && (*nh_len == 4 || *nh_len == 16 || *nh_len == 32)) ||
      (bits == 128 && (*nh_len == 16 || *nh_len == 32));
  if (!nh_ok) {
    return mp_fault(
        r.error_at(nh_at, "bgp.update.mp_reach.next_hop_length",
                   "next hop length " + std::to_string(*nh_len) +
                       " invalid for AFI " + std::to_string(m.family.afi)),
        m.family);
  }
  auto reserved = r.u8("bgp.update.mp_reach.reserved");
  if (!reserved) return mp_fault(reserved.error(), m.family);
  m.reserved = *reserved;
  if (bits == 0) {
    auto rest = r.rest();
    m.raw_nlri.assign(rest.begin(), rest.end());
  } else {
    auto p = read_mp_prefixes(r, m.family, o, "bgp.update.mp_reach.nlri");
    if (!p) return Fault(std::move(p).error());
    m.nlri = *std::move(p);
  }
  return m;
}
std::expected<void, EncodeError> ser_mp_reach(const AttributeValue& v,
                                              const Options& o,
                                              ByteWriter& out) {
  const MpReachNlri& m = as<MpReachNlri>(v);
  if (m.next_hop.size() > 255) {
    return std::unexpected(
        EncodeError{"mp_reach.next_hop", "longer than 255 bytes"});
  }
  out.u16(m.family.afi);
  out.u8(m.family.safi);
  out.u8(static_cast<std::uint8_t>(m.next_hop.size()));
  out.bytes(m.next_hop);
  out.u8(m.reserved);
  const std::uint8_t bits = max_bits(m.family);
  if (bits == 0) {
    if (!m.nlri.empty()) {
      return std::unexpected(EncodeError{
          "mp_reach.nlri", "typed NLRI for an AFI/SAFI kept as raw bytes"});
    }
    out.bytes(m.raw_nlri);
    return {};
  }
  if (!m.raw_nlri.empty()) {
    return std::unexpected(
        EncodeError{"mp_reach.raw_nlri", "raw NLRI for a decoded AFI/SAFI"});
  }
  return serialize_prefixes(m.nlri, bits, o.has_add_path(m.family), out);
}
std::size_t size_mp_reach(const AttributeValue& v, const Options& o) {
  const MpReachNlri& m = as<MpReachNlri>(v);
  return 5 + m.next_hop.size() + m.raw_nlri.size() +
         encoded_size(m.nlri, o.has_add_path(m.family));
}
std::string fmt_mp_reach(const AttributeValue& v) {
  const MpReachNlri& m = as<MpReachNlri>(v);
  std::string s = "afi " + std::to_string(m.family.afi) + " safi " +
                  std::to_string(m.family.safi);
  for (const Prefix& p : m.nlri)
    s += " " + format_prefix(p, max_bits(m.family));
  return s;
}

std::expected<AttributeValue, AttributeFault> parse_mp_unreach(
    ByteReader r, const Options& o) {
  MpUnreachNlri m;
  auto fam = read_family(r, "bgp.update.mp_unreach");
  if (!fam) return Fault(std::move(fam).error());
  m.family = *fam;
  if (max_bits(m.family) == 0) {
    auto rest = r.rest();
    m.raw_withdrawn.assign(rest.begin(), rest.end());
  } else {
    auto p =
        read_mp_prefixes(r, m.family, o, "bgp.update.mp_unreach.withdrawn");
    if (!p) return Fault(std::move(p).error());
    m.withdrawn = *std::move(p);
  }
  return m;
}
std::expected<void, EncodeError> ser_mp_unreach(const AttributeValue& v,
                                                const Options& o,
                                                ByteWriter& out) {
  const MpUnreachNlri& m = as<MpUnreachNlri>(v);
  out.u16(m.family.afi);
  out.u8(m.family.safi);
  const std::uint8_t bits = max_bits(m.family);
  if (bits == 0) {
    if (!m.withdrawn.empty()) {
      return std::unexpected(EncodeError{
          "mp_unreach.withdrawn", "typed NLRI for an AFI/SAFI kept raw"});
    }
    out.bytes(m.raw_withdrawn);
    return {};
  }
  if (!m.raw_withdrawn.empty()) {
    return std::unexpected(EncodeError{"mp_unreach.raw_withdrawn",
                                       "raw NLRI for a decoded AFI/SAFI"});
  }
  return serialize_prefixes(m.withdrawn, bits, o.has_add_path(m.family), out);
}
std::size_t size_mp_unreach(const AttributeValue& v, const Options& o) {
  const MpUnreachNlri& m = as<MpUnreachNlri>(v);
  return 3 + m.raw_withdrawn.size() +
         encoded_size(m.withdrawn, o.has_add_path(m.family));
}
std::string fmt_mp_unreach(const AttributeValue& v) {
  const MpUnreachNlri& m = as<MpUnreachNlri>(v);
  std::string s = "afi " + std::to_string(m.family.afi) + " safi " +
                  std::to_string(m.family.safi);
  for (const Prefix& p : m.withdrawn) {
    s += " " + format_prefix(p, max_bits(m.family));
  }
  return s;
}

constexpr std::uint8_t kWellKnown = attr_flag::kTransitive;
constexpr std::uint8_t kOptTrans =
    attr_flag::kOptional | attr_flag::kTransitive;
constexpr std::uint8_t kOptNonTrans = attr_flag::kOptional;
using A = Rfc7606Action;

constexpr std::array<AttributeSpec, 13> kAttributeRegistry = {{
    {attr_type::kOrigin, "ORIGIN", kWellKnown, true, A::treat_as_withdraw,
     "7.1", parse_origin, ser_origin, size_origin, fmt_origin},
    {attr_type::kAsPath, "AS_PATH", kWellKnown, true, A::treat_as_withdraw,
     "7.2", parse_as_path_attr, ser_as_path, size_as_path, fmt_as_path},
    {attr_type::kNextHop, "NEXT_HOP", kWellKnown, true, A::treat_as_withdraw,
     "7.3", parse_next_hop, ser_next_hop, size4, fmt_next_hop},
    {attr_type::kMed, "MULTI_EXIT_DISC", kOptNonTrans, false,
     A::treat_as_withdraw, "7.4", parse_u32<Med>, ser_u32<Med>, size4,
     fmt_u32<Med>},
    {attr_type::kLocalPref, "LOCAL_PREF", kWellKnown, false,
     A::treat_as_withdraw, "7.5", parse_u32<LocalPref>, ser_u32<LocalPref>,
     size4, fmt_u32<LocalPref>},
    {attr_type::kAtomicAggregate, "ATOMIC_AGGREGATE", kWellKnown, false,
     A::attribute_discard, "7.6", parse_atomic, ser_nothing, size0,
     fmt_nothing},
    {attr_type::kAggregator, "AGGREGATOR", kOptTrans, false,
     A::attribute_discard, "7.7", parse_aggregator, ser_aggregator,
     size_aggregator, fmt_aggregator},
    {attr_type::kCommunities, "COMMUNITIES", kOptTrans, false,
     A::treat_as_withdraw, "7.8", parse_communities, ser_communities,
     size_communities, fmt_communities},
    {attr_type::kMpReachNlri, "MP_REACH_NLRI", kOptNonTrans, false,
     A::afi_safi_disable, "7.11", parse_mp_reach, ser_mp_reach, size_mp_reach,
     fmt_mp_reach},
    {attr_type::kMpUnreachNlri, "MP_UNREACH_NLRI", kOptNonTrans, false,
     A::afi_safi_disable, "7.12", parse_mp_unreach, ser_mp_unreach,
     size_mp_unreach, fmt_mp_unreach},
    {attr_type::kExtendedCommunities, "EXTENDED_COMMUNITIES", kOptTrans, false,
     A::treat_as_withdraw, "7.14", parse_ext_communities, ser_ext_communities,
     size_ext_communities, fmt_ext_communities},
    // RFC 6793 section 6: malformed AS4_* attributes are discarded.
    {attr_type::kAs4Path, "AS4_PATH", kOptTrans, false, A::attribute_discard,
     "RFC 6793 6", parse_as4_path, ser_as4_path, size_as4_path, fmt_as_path},
    {attr_type::kAs4Aggregator, "AS4_AGGREGATOR", kOptTrans, false,
     A::attribute_discard, "RFC 6793 6", parse_as4_aggregator,
     ser_as4_aggregator, size8, fmt_aggregator},
}};

// Which variant alternative each registry entry parses into.
bool value_matches(std::uint8_t type, const AttributeValue& v) {
  switch (type) {
    case attr_type::kOrigin:
      return std::holds_alternative<Origin>(v);
    case attr_type::kAsPath:
    case attr_type::kAs4Path:
      return std::holds_alternative<AsPath>(v);
    case attr_type::kNextHop:
      return std::holds_alternative<NextHop>(v);
    case attr_type::kMed:
      return std::holds_alternative<Med>(v);
    case attr_type::kLocalPref:
      return std::holds_alternative<LocalPref>(v);
    case attr_type::kAtomicAggregate:
      return std::holds_alternative<AtomicAggregate>(v);
    case attr_type::kAggregator:
    case attr_type::kAs4Aggregator:
      return std::holds_alternative<Aggregator>(v);
    case attr_type::kCommunities:
      return std::holds_alternative<Communities>(v);
    case attr_type::kMpReachNlri:
      return std::holds_alternative<MpReachNlri>(v);
    case attr_type::kMpUnreachNlri:
      return std::holds_alternative<MpUnreachNlri>(v);
    case attr_type::kExtendedCommunities:
      return std::holds_alternative<ExtendedCommunities>(v);
  }
  return false;
}

std::size_t value_size(const PathAttribute& a, const Options& o) {
  if (auto* raw = std::get_if<RawAttribute>(&a.value)) return raw->value.size();
  const AttributeSpec* spec = find_attribute_spec(a.type);
  if (!spec || !value_matches(a.type, a.value)) return 0;
  return spec->size(a.value, o);
}

}  // namespace

const AttributeSpec* find_attribute_spec(std::uint8_t type) {
  for (const AttributeSpec& s : kAttributeRegistry) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

std::span<const AttributeSpec> attribute_registry() {
  return kAttributeRegistry;
}

std::string_view attribute_name(std::uint8_t type) {
  const AttributeSpec* s = find_attribute_spec(type);
  return s ? s->name : "unknown";
}

PathAttribute make_attribute(std::uint8_t type, AttributeValue value) {
  const AttributeSpec* s = find_attribute_spec(type);
  return PathAttribute{s ? s->flags : kOptTrans, type, std::move(value)};
}

std::expected<void, EncodeError> serialize(const PathAttribute& a,
                                           const Options& options,
                                           ByteWriter& out) {
  const AttributeSpec* spec = find_attribute_spec(a.type);
  const bool raw = std::holds_alternative<RawAttribute>(a.value);
  if (!raw && (!spec || !value_matches(a.type, a.value))) {
    return std::unexpected(EncodeError{
        "path_attribute.value",
        "value does not match attribute type " + std::to_string(a.type)});
  }
  const std::size_t len = value_size(a, options);
  if (len > 0xffff) {
    return std::unexpected(EncodeError{"path_attribute.length",
                                       std::to_string(len) + " bytes > 65535"});
  }
  const bool ext = (a.flags & attr_flag::kExtendedLength) || len > 255;
  out.u8(ext ? a.flags | attr_flag::kExtendedLength : a.flags);
  out.u8(a.type);
  if (ext) {
    out.u16(static_cast<std::uint16_t>(len));
  } else {
    out.u8(static_cast<std::uint8_t>(len));
  }
  if (raw) {
    out.bytes(std::get<RawAttribute>(a.value).value);
    return {};
  }
  const std::size_t before = out.size();
  auto r = spec->serialize(a.value, options, out);
  if (!r) {
    out.truncate(before);
    return r;
  }
  return {};
}

std::size_t encoded_size(const PathAttribute& a, const Options& options) {
  const std::size_t len = value_size(a, options);
  const bool ext = (a.flags & attr_flag::kExtendedLength) || len > 255;
  return 2 + (ext ? 2 : 1) + len;
}

std::string format_attribute(const PathAttribute& a) {
  if (auto* raw = std::get_if<RawAttribute>(&a.value))
    return to_hex(raw->value);
  const AttributeSpec* spec = find_attribute_spec(a.type);
  if (!spec || !value_matches(a.type, a.value)) return "";
  return spec->format(a.value);
}

void prepare_for_propagation(std::vector<PathAttribute>& attributes) {
  std::erase_if(attributes, [](const PathAttribute& a) {
    return !find_attribute_spec(a.type) && (a.flags & attr_flag::kOptional) &&
           !(a.flags & attr_flag::kTransitive);
  });
  for (PathAttribute& a : attributes) {
    if (!find_attribute_spec(a.type) && (a.flags & attr_flag::kOptional) &&
        (a.flags & attr_flag::kTransitive)) {
      a.flags |= attr_flag::kPartial;
    }
  }
}

}  // namespace arfabric::wire::bgp
