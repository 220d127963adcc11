#include "wire/isis/tlv.h"

#include <algorithm>
#include <string>

#include "common/overloaded.h"

namespace arfabric::wire::isis {
namespace {

struct TlvName {
  std::uint8_t type;
  std::string_view name;
};

constexpr TlvName kTlvNames[] = {
    {1, "area_addresses"},
    {2, "is_reachability"},
    {10, "authentication"},
    {kTlvExtendedIsReach, "extended_is_reachability"},
    {128, "ip_internal_reachability"},
    {kTlvProtocolsSupported, "protocols_supported"},
    {130, "ip_external_reachability"},
    {kTlvIpInterfaceAddress, "ip_interface_address"},
    {134, "te_router_id"},
    {kTlvExtendedIpReach, "extended_ip_reachability"},
    {kTlvDynamicHostname, "dynamic_hostname"},
    {222, "mt_is_reachability"},
    {229, "multi_topology"},
    {232, "ipv6_interface_address"},
    {kTlvMtIpReach, "mt_ip_reachability"},
    {kTlvIpv6Reach, "ipv6_reachability"},
    {kTlvMtIpv6Reach, "mt_ipv6_reachability"},
    {242, "router_capability"},
};

constexpr TlvName kIsReachSubTlvNames[] = {
    {3, "administrative_group"},
    {4, "link_local_remote_identifiers"},
    {kSubTlvIpv4InterfaceAddress, "ipv4_interface_address"},
    {kSubTlvIpv4NeighborAddress, "ipv4_neighbor_address"},
    {kSubTlvMaxLinkBandwidth, "max_link_bandwidth"},
    {10, "max_reservable_link_bandwidth"},
    {11, "unreserved_bandwidth"},
    {18, "te_default_metric"},
};

constexpr TlvName kPrefixSubTlvNames[] = {
    {1, "administrative_tag_32"},
    {2, "administrative_tag_64"},
    {3, "prefix_sid"},
    {kSubTlvPrefixAttributeFlags, "prefix_attribute_flags"},
    {11, "ipv4_source_router_id"},
    {12, "ipv6_source_router_id"},
};

std::string_view lookup(std::span<const TlvName> table, std::uint8_t type) {
  for (const TlvName& e : table)
    if (e.type == type) return e.name;
  return "unknown";
}

// Reads `n` octets into the front of a fixed array (the rest stays zero).
template <std::size_t N>
std::expected<std::array<std::uint8_t, N>, DecodeError> read_prefix(
    ByteReader& r, std::size_t n, std::string_view field) {
  std::array<std::uint8_t, N> out{};
  ByteSpan b = ARF_TRY(r.bytes(n, field));
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

DecodeError bad_length(std::size_t at, std::string_view field,
                       std::string_view what, std::size_t want,
                       std::size_t got) {
  return DecodeError{std::string(field), at,
                     std::string(what) + " must be " + std::to_string(want) +
                         " bytes, got " + std::to_string(got)};
}

// --- sub-TLVs --------------------------------------------------------------

std::expected<std::vector<IsReachSubTlv>, DecodeError> parse_is_sub_tlvs(
    ByteReader r) {
  std::vector<IsReachSubTlv> out;
  while (!r.empty()) {
    const std::uint8_t type = ARF_TRY(r.u8("isis.tlv22.sub_tlv.type"));
    const std::size_t length_at = r.offset();
    const std::uint8_t len = ARF_TRY(r.u8("isis.tlv22.sub_tlv.length"));
    ByteReader v = ARF_TRY(r.sub(len, "isis.tlv22.sub_tlv.value"));
    auto need4 =
        [&](std::string_view what) -> std::expected<void, DecodeError> {
      if (len != 4)
        return std::unexpected(
            bad_length(length_at, "isis.tlv22.sub_tlv.length", what, 4, len));
      return {};
    };
    switch (type) {
      case kSubTlvIpv4InterfaceAddress:
        ARF_TRY(need4("IPv4 interface address sub-TLV (6)"));
        out.push_back(Ipv4InterfaceAddressSubTlv{
            ARF_TRY(v.array<4>("isis.tlv22.ipv4_interface_address"))});
        break;
      case kSubTlvIpv4NeighborAddress:
        ARF_TRY(need4("IPv4 neighbor address sub-TLV (8)"));
        out.push_back(Ipv4NeighborAddressSubTlv{
            ARF_TRY(v.array<4>("isis.tlv22.ipv4_neighbor_address"))});
        break;
      case kSubTlvMaxLinkBandwidth:
        ARF_TRY(need4("maximum link bandwidth sub-TLV (9)"));
        out.push_back(MaxLinkBandwidthSubTlv{
            {ARF_TRY(v.u32("isis.tlv22.max_link_bandwidth"))}});
        break;
      default: {
        ByteSpan raw = v.rest();
        out.push_back(RawTlv{type, Bytes(raw.begin(), raw.end())});
      }
    }
  }
  return out;
}

std::expected<std::vector<PrefixSubTlv>, DecodeError> parse_prefix_sub_tlvs(
    ByteReader r, const CodecOptions& options) {
  std::vector<PrefixSubTlv> out;
  while (!r.empty()) {
    const std::uint8_t type = ARF_TRY(r.u8("isis.prefix.sub_tlv.type"));
    const std::size_t length_at = r.offset();
    const std::uint8_t len = ARF_TRY(r.u8("isis.prefix.sub_tlv.length"));
    ByteReader v = ARF_TRY(r.sub(len, "isis.prefix.sub_tlv.value"));
    if (type == options.path_bandwidth_sub_tlv_type) {
      if (len != 4)
        return std::unexpected(bad_length(length_at,
                                          "isis.prefix.sub_tlv.length",
                                          "path bandwidth sub-TLV", 4, len));
      out.push_back(
          PathBandwidthSubTlv{{ARF_TRY(v.u32("isis.prefix.path_bandwidth"))}});
    } else if (type == kSubTlvPrefixAttributeFlags) {
      ByteSpan f = v.rest();
      out.push_back(PrefixAttributeFlagsSubTlv{Bytes(f.begin(), f.end())});
    } else {
      ByteSpan raw = v.rest();
      out.push_back(RawTlv{type, Bytes(raw.begin(), raw.end())});
    }
  }
  return out;
}

// --- TLV bodies ------------------------------------------------------------

std::expected<ExtendedIsReachTlv, DecodeError> parse_tlv22(ByteReader r) {
  ExtendedIsReachTlv tlv;
  while (!r.empty()) {
    IsNeighbor n;
    ByteSpan id = ARF_TRY(r.bytes(7, "isis.tlv22.neighbor_id"));
    std::copy(id.begin(), id.begin() + 6, n.system_id.begin());
    n.pseudonode = id[6];
    n.metric = ARF_TRY(r.u24("isis.tlv22.metric"));
    const std::uint8_t sub_len = ARF_TRY(r.u8("isis.tlv22.sub_tlvs_length"));
    ByteReader subs = ARF_TRY(r.sub(sub_len, "isis.tlv22.sub_tlvs"));
    n.sub_tlvs = ARF_TRY(parse_is_sub_tlvs(subs));
    tlv.neighbors.push_back(std::move(n));
  }
  return tlv;
}

std::expected<std::vector<Ipv4Prefix>, DecodeError> parse_ipv4_prefixes(
    ByteReader r, const CodecOptions& options) {
  std::vector<Ipv4Prefix> out;
  while (!r.empty()) {
    Ipv4Prefix p;
    p.metric = ARF_TRY(r.u32("isis.tlv135.metric"));
    const std::size_t control_at = r.offset();
    const std::uint8_t control = ARF_TRY(r.u8("isis.tlv135.control"));
    p.up_down = (control & 0x80) != 0;
    const bool has_subs = (control & 0x40) != 0;
    p.prefix_length = control & 0x3f;
    if (p.prefix_length > 32)
      return std::unexpected(DecodeError{
          "isis.tlv135.prefix_length", control_at,
          "prefix length " + std::to_string(p.prefix_length) + " over 32"});
    p.prefix = ARF_TRY(
        read_prefix<4>(r, (p.prefix_length + 7) / 8, "isis.tlv135.prefix"));
    if (has_subs) {
      const std::uint8_t len = ARF_TRY(r.u8("isis.tlv135.sub_tlvs_length"));
      ByteReader subs = ARF_TRY(r.sub(len, "isis.tlv135.sub_tlvs"));
      p.sub_tlvs = ARF_TRY(parse_prefix_sub_tlvs(subs, options));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::expected<std::vector<Ipv6Prefix>, DecodeError> parse_ipv6_prefixes(
    ByteReader r, const CodecOptions& options) {
  std::vector<Ipv6Prefix> out;
  while (!r.empty()) {
    Ipv6Prefix p;
    p.metric = ARF_TRY(r.u32("isis.tlv236.metric"));
    const std::uint8_t flags = ARF_TRY(r.u8("isis.tlv236.flags"));
    p.up_down = (flags & 0x80) != 0;
    p.external = (flags & 0x40) != 0;
    const bool has_subs = (flags & 0x20) != 0;
    p.reserved_flags = flags & 0x1f;
    const std::size_t length_at = r.offset();
    p.prefix_length = ARF_TRY(r.u8("isis.tlv236.prefix_length"));
    if (p.prefix_length > 128)
      return std::unexpected(DecodeError{
          "isis.tlv236.prefix_length", length_at,
          "prefix length " + std::to_string(p.prefix_length) + " over 128"});
    p.prefix = ARF_TRY(
        read_prefix<16>(r, (p.prefix_length + 7) / 8, "isis.tlv236.prefix"));
    if (has_subs) {
      const std::uint8_t len = ARF_TRY(r.u8("isis.tlv236.sub_tlvs_length"));
      ByteReader subs = ARF_TRY(r.sub(len, "isis.tlv236.sub_tlvs"));
      p.sub_tlvs = ARF_TRY(parse_prefix_sub_tlvs(subs, options));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::expected<Tlv, DecodeError> parse_tlv(std::uint8_t type, std::size_t at,
                                          ByteReader v,
                                          const CodecOptions& options) {
  switch (type) {
    case kTlvProtocolsSupported: {
      ByteSpan b = v.rest();
      return ProtocolsSupportedTlv{Bytes(b.begin(), b.end())};
    }
    case kTlvIpInterfaceAddress: {
      if (v.remaining() % 4 != 0)
        return std::unexpected(DecodeError{"isis.tlv132.length", at + 1,
                                           "length " +
                                               std::to_string(v.remaining()) +
                                               " is not a multiple of 4"});
      IpInterfaceAddressTlv t;
      while (!v.empty())
        t.addresses.push_back(ARF_TRY(v.array<4>("isis.tlv132.address")));
      return t;
    }
    case kTlvDynamicHostname: {
      ByteSpan b = v.rest();
      return DynamicHostnameTlv{std::string(b.begin(), b.end())};
    }
    case kTlvExtendedIsReach:
      return ARF_TRY(parse_tlv22(v));
    case kTlvExtendedIpReach:
      return ExtendedIpReachTlv{ARF_TRY(parse_ipv4_prefixes(v, options))};
    case kTlvMtIpReach: {
      MtIpReachTlv t;
      const std::uint16_t mt = ARF_TRY(v.u16("isis.tlv235.mt_id"));
      t.mt_reserved = static_cast<std::uint8_t>(mt >> 12);
      t.mt_id = mt & 0x0fff;
      t.prefixes = ARF_TRY(parse_ipv4_prefixes(v, options));
      return t;
    }
    case kTlvIpv6Reach:
      return Ipv6ReachTlv{ARF_TRY(parse_ipv6_prefixes(v, options))};
    case kTlvMtIpv6Reach: {
      MtIpv6ReachTlv t;
      const std::uint16_t mt = ARF_TRY(v.u16("isis.tlv237.mt_id"));
      t.mt_reserved = static_cast<std::uint8_t>(mt >> 12);
      t.mt_id = mt & 0x0fff;
      t.prefixes = ARF_TRY(parse_ipv6_prefixes(v, options));
      return t;
    }
    default: {
      ByteSpan b = v.rest();
      return RawTlv{type, Bytes(b.begin(), b.end())};
    }
  }
}

// --- serialization -----------------------------------------------------------

// A raw item with a decoded type would not parse back as raw.
EncodeError raw_uses_decoded(std::string field, std::uint8_t type) {
  return EncodeError{std::move(field),
                     "raw item uses the decoded type " + std::to_string(type)};
}

bool is_decoded_tlv(std::uint8_t type) {
  switch (type) {
    case kTlvExtendedIsReach:
    case kTlvProtocolsSupported:
    case kTlvIpInterfaceAddress:
    case kTlvExtendedIpReach:
    case kTlvDynamicHostname:
    case kTlvMtIpReach:
    case kTlvIpv6Reach:
    case kTlvMtIpv6Reach:
      return true;
    default:
      return false;
  }
}

EncodeError too_long(std::string field, std::size_t size) {
  return EncodeError{std::move(field),
                     "value of " + std::to_string(size) +
                         " bytes exceeds the 255-byte length field"};
}

// Writes a type and a length placeholder, runs `body`, back-fills the length.
template <class F>
std::expected<void, EncodeError> with_length(ByteWriter& out,
                                             std::string_view field, F body) {
  const std::size_t len_at = out.size();
  out.u8(0);
  ARF_TRY(body());
  const std::size_t len = out.size() - len_at - 1;
  if (len > 255) return std::unexpected(too_long(std::string(field), len));
  out.patch_u8(len_at, static_cast<std::uint8_t>(len));
  return {};
}

std::expected<void, EncodeError> write_raw(const RawTlv& t, ByteWriter& out,
                                           std::string_view field) {
  if (t.value.size() > 255)
    return std::unexpected(too_long(std::string(field), t.value.size()));
  out.u8(t.type);
  out.u8(static_cast<std::uint8_t>(t.value.size()));
  out.bytes(t.value);
  return {};
}

std::expected<void, EncodeError> write_is_sub_tlv(const IsReachSubTlv& s,
                                                  ByteWriter& out) {
  return std::visit(
      Overloaded{
          [&](const Ipv4InterfaceAddressSubTlv& t)
              -> std::expected<void, EncodeError> {
            out.u8(kSubTlvIpv4InterfaceAddress);
            out.u8(4);
            out.bytes(t.address);
            return {};
          },
          [&](const Ipv4NeighborAddressSubTlv& t)
              -> std::expected<void, EncodeError> {
            out.u8(kSubTlvIpv4NeighborAddress);
            out.u8(4);
            out.bytes(t.address);
            return {};
          },
          [&](const MaxLinkBandwidthSubTlv& t)
              -> std::expected<void, EncodeError> {
            out.u8(kSubTlvMaxLinkBandwidth);
            out.u8(4);
            out.u32(t.bandwidth.bits);
            return {};
          },
          [&](const RawTlv& t) -> std::expected<void, EncodeError> {
            if (t.type == kSubTlvIpv4InterfaceAddress ||
                t.type == kSubTlvIpv4NeighborAddress ||
                t.type == kSubTlvMaxLinkBandwidth)
              return std::unexpected(
                  raw_uses_decoded("isis.tlv22.sub_tlv", t.type));
            return write_raw(t, out, "isis.tlv22.sub_tlv");
          },
      },
      s);
}

std::expected<void, EncodeError> write_prefix_sub_tlv(
    const PrefixSubTlv& s, ByteWriter& out, const CodecOptions& options) {
  return std::visit(
      Overloaded{
          [&](const PathBandwidthSubTlv& t)
              -> std::expected<void, EncodeError> {
            out.u8(options.path_bandwidth_sub_tlv_type);
            out.u8(4);
            out.u32(t.bandwidth.bits);
            return {};
          },
          [&](const PrefixAttributeFlagsSubTlv& t) {
            return write_raw(RawTlv{kSubTlvPrefixAttributeFlags, t.flags}, out,
                             "isis.prefix.prefix_attribute_flags");
          },
          [&](const RawTlv& t) -> std::expected<void, EncodeError> {
            if (t.type == kSubTlvPrefixAttributeFlags ||
                t.type == options.path_bandwidth_sub_tlv_type)
              return std::unexpected(
                  raw_uses_decoded("isis.prefix.sub_tlv", t.type));
            return write_raw(t, out, "isis.prefix.sub_tlv");
          },
      },
      s);
}

std::expected<void, EncodeError> write_prefix_sub_tlvs(
    const std::vector<PrefixSubTlv>& subs, ByteWriter& out,
    const CodecOptions& options, std::string_view field) {
  return with_length(out, field, [&]() -> std::expected<void, EncodeError> {
    for (const PrefixSubTlv& s : subs)
      ARF_TRY(write_prefix_sub_tlv(s, out, options));
    return {};
  });
}

std::expected<void, EncodeError> write_ipv4_prefix(
    const Ipv4Prefix& p, ByteWriter& out, const CodecOptions& options) {
  if (p.prefix_length > 32)
    return std::unexpected(
        EncodeError{"isis.tlv135.prefix_length", "prefix length over 32"});
  out.u32(p.metric);
  out.u8(static_cast<std::uint8_t>((p.up_down ? 0x80 : 0) |
                                   (p.sub_tlvs ? 0x40 : 0) | p.prefix_length));
  out.bytes(ByteSpan(p.prefix).first((p.prefix_length + 7) / 8));
  if (p.sub_tlvs)
    ARF_TRY(write_prefix_sub_tlvs(*p.sub_tlvs, out, options,
                                  "isis.tlv135.sub_tlvs"));
  return {};
}

std::expected<void, EncodeError> write_ipv6_prefix(
    const Ipv6Prefix& p, ByteWriter& out, const CodecOptions& options) {
  if (p.prefix_length > 128)
    return std::unexpected(
        EncodeError{"isis.tlv236.prefix_length", "prefix length over 128"});
  if (p.reserved_flags > 0x1f)
    return std::unexpected(
        EncodeError{"isis.tlv236.reserved_flags", "over 5 bits"});
  out.u32(p.metric);
  out.u8(static_cast<std::uint8_t>((p.up_down ? 0x80 : 0) |
                                   (p.external ? 0x40 : 0) |
                                   (p.sub_tlvs ? 0x20 : 0) | p.reserved_flags));
  out.u8(p.prefix_length);
  out.bytes(ByteSpan(p.prefix).first((p.prefix_length + 7) / 8));
  if (p.sub_tlvs)
    ARF_TRY(write_prefix_sub_tlvs(*p.sub_tlvs, out, options,
                                  "isis.tlv236.sub_tlvs"));
  return {};
}

std::expected<void, EncodeError> write_mt_id(std::uint8_t reserved,
                                             std::uint16_t mt_id,
                                             ByteWriter& out,
                                             std::string_view field) {
  if (reserved > 0xf || mt_id > 0xfff)
    return std::unexpected(EncodeError{
        std::string(field), "MT ID over 12 bits or reserved over 4 bits"});
  out.u16(static_cast<std::uint16_t>(reserved << 12 | mt_id));
  return {};
}

std::size_t prefix_sub_tlv_size(const PrefixSubTlv& s) {
  return std::visit(
      Overloaded{
          [](const PathBandwidthSubTlv&) -> std::size_t { return 6; },
          [](const PrefixAttributeFlagsSubTlv& t) {
            return 2 + t.flags.size();
          },
          [](const RawTlv& t) { return 2 + t.value.size(); },
      },
      s);
}

std::size_t sub_block_size(
    const std::optional<std::vector<PrefixSubTlv>>& subs) {
  if (!subs) return 0;
  std::size_t n = 1;
  for (const PrefixSubTlv& s : *subs) n += prefix_sub_tlv_size(s);
  return n;
}

std::size_t prefix_size(const Ipv4Prefix& p) {
  return 5 + (p.prefix_length + 7) / 8 + sub_block_size(p.sub_tlvs);
}
std::size_t prefix_size(const Ipv6Prefix& p) {
  return 6 + (p.prefix_length + 7) / 8 + sub_block_size(p.sub_tlvs);
}

template <class T>
std::size_t prefixes_size(const std::vector<T>& v) {
  std::size_t n = 0;
  for (const T& p : v) n += prefix_size(p);
  return n;
}

}  // namespace

std::uint8_t tlv_type(const Tlv& tlv) {
  return std::visit(
      Overloaded{
          [](const ProtocolsSupportedTlv&) { return kTlvProtocolsSupported; },
          [](const IpInterfaceAddressTlv&) { return kTlvIpInterfaceAddress; },
          [](const DynamicHostnameTlv&) { return kTlvDynamicHostname; },
          [](const ExtendedIsReachTlv&) { return kTlvExtendedIsReach; },
          [](const ExtendedIpReachTlv&) { return kTlvExtendedIpReach; },
          [](const MtIpReachTlv&) { return kTlvMtIpReach; },
          [](const Ipv6ReachTlv&) { return kTlvIpv6Reach; },
          [](const MtIpv6ReachTlv&) { return kTlvMtIpv6Reach; },
          [](const RawTlv& t) { return t.type; },
      },
      tlv);
}

std::string_view tlv_name(std::uint8_t type) { return lookup(kTlvNames, type); }

std::string_view is_reach_sub_tlv_name(std::uint8_t type) {
  return lookup(kIsReachSubTlvNames, type);
}

std::string_view prefix_sub_tlv_name(std::uint8_t type,
                                     const CodecOptions& options) {
  if (type == options.path_bandwidth_sub_tlv_type) return "path_bandwidth";
  return lookup(kPrefixSubTlvNames, type);
}

std::expected<std::vector<Tlv>, DecodeError> parse_tlvs(
    ByteSpan data, std::size_t base_offset, const CodecOptions& options) {
  ByteReader r(data, base_offset);
  std::vector<Tlv> out;
  while (!r.empty()) {
    const std::size_t at = r.offset();
    const std::uint8_t type = ARF_TRY(r.u8("isis.tlv.type"));
    const std::uint8_t len = ARF_TRY(r.u8("isis.tlv.length"));
    ByteReader v = ARF_TRY(r.sub(len, "isis.tlv.value"));
    out.push_back(ARF_TRY(parse_tlv(type, at, v, options)));
  }
  return out;
}

std::expected<void, EncodeError> serialize(const Tlv& tlv, ByteWriter& out,
                                           const CodecOptions& options) {
  if (options.path_bandwidth_sub_tlv_type == kSubTlvPrefixAttributeFlags)
    return std::unexpected(
        EncodeError{"isis.options.path_bandwidth_sub_tlv_type",
                    "collides with Prefix Attribute Flags (4)"});
  if (const auto* raw = std::get_if<RawTlv>(&tlv)) {
    if (is_decoded_tlv(raw->type))
      return std::unexpected(raw_uses_decoded("isis.tlv", raw->type));
    return write_raw(*raw, out, "isis.tlv");
  }
  const std::size_t start = out.size();
  out.u8(tlv_type(tlv));
  auto body = [&]() -> std::expected<void, EncodeError> {
    return std::visit(
        Overloaded{
            [&](const ProtocolsSupportedTlv& t)
                -> std::expected<void, EncodeError> {
              out.bytes(t.nlpids);
              return {};
            },
            [&](const IpInterfaceAddressTlv& t)
                -> std::expected<void, EncodeError> {
              for (const Ipv4Address& a : t.addresses) out.bytes(a);
              return {};
            },
            [&](const DynamicHostnameTlv& t)
                -> std::expected<void, EncodeError> {
              for (char c : t.hostname) out.u8(static_cast<std::uint8_t>(c));
              return {};
            },
            [&](const ExtendedIsReachTlv& t)
                -> std::expected<void, EncodeError> {
              for (const IsNeighbor& n : t.neighbors) {
                if (n.metric > 0xffffff)
                  return std::unexpected(
                      EncodeError{"isis.tlv22.metric", "metric over 24 bits"});
                out.bytes(n.system_id);
                out.u8(n.pseudonode);
                out.u24(n.metric);
                ARF_TRY(with_length(out, "isis.tlv22.sub_tlvs",
                                    [&]() -> std::expected<void, EncodeError> {
                                      for (const IsReachSubTlv& s : n.sub_tlvs)
                                        ARF_TRY(write_is_sub_tlv(s, out));
                                      return {};
                                    }));
              }
              return {};
            },
            [&](const ExtendedIpReachTlv& t)
                -> std::expected<void, EncodeError> {
              for (const Ipv4Prefix& p : t.prefixes)
                ARF_TRY(write_ipv4_prefix(p, out, options));
              return {};
            },
            [&](const MtIpReachTlv& t) -> std::expected<void, EncodeError> {
              ARF_TRY(write_mt_id(t.mt_reserved, t.mt_id, out,
                                  "isis.tlv235.mt_id"));
              for (const Ipv4Prefix& p : t.prefixes)
                ARF_TRY(write_ipv4_prefix(p, out, options));
              return {};
            },
            [&](const Ipv6ReachTlv& t) -> std::expected<void, EncodeError> {
              for (const Ipv6Prefix& p : t.prefixes)
                ARF_TRY(write_ipv6_prefix(p, out, options));
              return {};
            },
            [&](const MtIpv6ReachTlv& t) -> std::expected<void, EncodeError> {
              ARF_TRY(write_mt_id(t.mt_reserved, t.mt_id, out,
                                  "isis.tlv237.mt_id"));
              for (const Ipv6Prefix& p : t.prefixes)
                ARF_TRY(write_ipv6_prefix(p, out, options));
              return {};
            },
            [&](const RawTlv&) -> std::expected<void, EncodeError> {
              return {};  // handled above
            },
        },
        tlv);
  };
  auto done = with_length(
      out, "isis.tlv" + std::to_string(tlv_type(tlv)) + ".value", body);
  if (!done) {
    out.truncate(start);
    return std::unexpected(done.error());
  }
  return {};
}

std::expected<void, EncodeError> serialize(const std::vector<Tlv>& tlvs,
                                           ByteWriter& out,
                                           const CodecOptions& options) {
  for (const Tlv& t : tlvs) ARF_TRY(serialize(t, out, options));
  return {};
}

std::size_t encoded_size(const Tlv& tlv) {
  const std::size_t body = std::visit(
      Overloaded{
          [](const ProtocolsSupportedTlv& t) { return t.nlpids.size(); },
          [](const IpInterfaceAddressTlv& t) { return 4 * t.addresses.size(); },
          [](const DynamicHostnameTlv& t) { return t.hostname.size(); },
          [](const ExtendedIsReachTlv& t) {
            std::size_t n = 0;
            for (const IsNeighbor& nb : t.neighbors) {
              n += 11;
              for (const IsReachSubTlv& s : nb.sub_tlvs)
                n += std::holds_alternative<RawTlv>(s)
                         ? 2 + std::get<RawTlv>(s).value.size()
                         : 6;
            }
            return n;
          },
          [](const ExtendedIpReachTlv& t) { return prefixes_size(t.prefixes); },
          [](const MtIpReachTlv& t) { return 2 + prefixes_size(t.prefixes); },
          [](const Ipv6ReachTlv& t) { return prefixes_size(t.prefixes); },
          [](const MtIpv6ReachTlv& t) { return 2 + prefixes_size(t.prefixes); },
          [](const RawTlv& t) { return t.value.size(); },
      },
      tlv);
  return 2 + body;
}

}  // namespace arfabric::wire::isis
