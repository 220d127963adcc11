#include "wire/ospf/extended_prefix.h"

#include <algorithm>
#include <string>

namespace arfabric::wire::ospf {

std::expected<std::vector<ExtendedPrefixLsaTlv>, DecodeError>
parse_extended_prefix_lsa_body(ByteSpan body, std::size_t base_offset,
                               const CodecOptions& options) {
  ByteReader r(body, base_offset);
  std::vector<ExtendedPrefixLsaTlv> out;
  while (!r.empty()) {
    TlvView t = ARF_TRY(read_tlv(r, "ospf.ext_prefix.tlv"));
    ByteReader v = t.value;
    // Peek at the AF (third octet) to decide whether the layout is known.
    const bool known = t.type == kTlvExtendedPrefix &&
                       (v.remaining() < 3 || t.value.rest()[2] == 0);
    if (!known) {
      ByteSpan raw = v.rest();
      out.push_back(RawTlv{t.type, Bytes(raw.begin(), raw.end())});
      continue;
    }
    ExtendedPrefixTlv p;
    p.route_type = ARF_TRY(v.u8("ospf.ext_prefix.route_type"));
    const std::size_t length_at = v.offset();
    p.prefix_length = ARF_TRY(v.u8("ospf.ext_prefix.prefix_length"));
    if (p.prefix_length > 32)
      return std::unexpected(DecodeError{
          "ospf.ext_prefix.prefix_length", length_at,
          "prefix length " + std::to_string(p.prefix_length) + " over 32"});
    p.address_family = ARF_TRY(v.u8("ospf.ext_prefix.address_family"));
    p.flags = ARF_TRY(v.u8("ospf.ext_prefix.flags"));
    p.prefix = ARF_TRY(v.array<4>("ospf.ext_prefix.prefix"));
    p.sub_tlvs = ARF_TRY(
        parse_prefix_sub_tlvs(v, options.ospfv2_path_bandwidth_sub_tlv_type,
                              "ospf.ext_prefix.sub_tlv"));
    out.push_back(std::move(p));
  }
  return out;
}

std::expected<void, EncodeError> serialize_extended_prefix_lsa_body(
    const std::vector<ExtendedPrefixLsaTlv>& tlvs, ByteWriter& out,
    const CodecOptions& options) {
  const std::size_t start = out.size();
  for (const ExtendedPrefixLsaTlv& tlv : tlvs) {
    std::expected<void, EncodeError> ok;
    if (const auto* p = std::get_if<ExtendedPrefixTlv>(&tlv)) {
      if (p->address_family != 0)
        ok = std::unexpected(EncodeError{"ospf.ext_prefix.address_family",
                                         "only AF 0 (IPv4 unicast) is "
                                         "defined; send others as RawTlv"});
      else if (p->prefix_length > 32)
        ok = std::unexpected(
            EncodeError{"ospf.ext_prefix.prefix_length", "over 32"});
      else
        ok = write_tlv_with(kTlvExtendedPrefix, out, "ospf.ext_prefix",
                            [&]() -> std::expected<void, EncodeError> {
                              out.u8(p->route_type);
                              out.u8(p->prefix_length);
                              out.u8(p->address_family);
                              out.u8(p->flags);
                              out.bytes(p->prefix);
                              return serialize_prefix_sub_tlvs(
                                  p->sub_tlvs,
                                  options.ospfv2_path_bandwidth_sub_tlv_type,
                                  out, "ospf.ext_prefix.sub_tlv");
                            });
    } else {
      const RawTlv& raw = std::get<RawTlv>(tlv);
      // A raw type-1 TLV re-parses as decoded unless its AF is non-zero.
      if (raw.type == kTlvExtendedPrefix &&
          (raw.value.size() < 3 || raw.value[2] == 0))
        ok = std::unexpected(EncodeError{
            "ospf.ext_prefix.tlv",
            "raw Extended Prefix TLV with AF 0: use ExtendedPrefixTlv"});
      else
        ok = write_tlv(raw.type, raw.value, out, "ospf.ext_prefix.tlv");
    }
    if (!ok) {
      out.truncate(start);
      return ok;
    }
  }
  return {};
}

std::size_t encoded_size(const std::vector<ExtendedPrefixLsaTlv>& tlvs) {
  std::size_t n = 0;
  for (const ExtendedPrefixLsaTlv& tlv : tlvs) {
    if (const auto* p = std::get_if<ExtendedPrefixTlv>(&tlv))
      n += 12 + encoded_size(p->sub_tlvs);
    else
      n += 4 + padded(std::get<RawTlv>(tlv).value.size());
  }
  return n;
}

}  // namespace arfabric::wire::ospf
