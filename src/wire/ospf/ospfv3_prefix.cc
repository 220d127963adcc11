#include "wire/ospf/ospfv3_prefix.h"

#include <algorithm>
#include <string>

namespace arfabric::wire::ospf {
namespace {

std::size_t prefix_words_bytes(std::uint8_t length) {
  return (static_cast<std::size_t>(length) + 31) / 32 * 4;
}

std::expected<Ospfv3Prefix, DecodeError> read_prefix(ByteReader& v) {
  Ospfv3Prefix p;
  const std::size_t at = v.offset();
  p.prefix_length = ARF_TRY(v.u8("ospfv3.prefix_length"));
  if (p.prefix_length > 128)
    return std::unexpected(DecodeError{
        "ospfv3.prefix_length", at,
        "prefix length " + std::to_string(p.prefix_length) + " over 128"});
  p.prefix_options = ARF_TRY(v.u8("ospfv3.prefix_options"));
  p.reserved = ARF_TRY(v.u16("ospfv3.prefix_reserved"));
  ByteSpan a =
      ARF_TRY(v.bytes(prefix_words_bytes(p.prefix_length), "ospfv3.prefix"));
  std::copy(a.begin(), a.end(), p.address.begin());
  return p;
}

void write_prefix(const Ospfv3Prefix& p, ByteWriter& out) {
  out.u8(p.prefix_length);
  out.u8(p.prefix_options);
  out.u16(p.reserved);
  out.bytes(ByteSpan(p.address).first(prefix_words_bytes(p.prefix_length)));
}

std::expected<Ospfv3Tlv, DecodeError> parse_one(TlvView& t,
                                                const CodecOptions& options) {
  ByteReader& v = t.value;
  const std::uint16_t bw = options.ospfv3_path_bandwidth_sub_tlv_type;
  switch (t.type) {
    case kV3TlvInterAreaPrefix: {
      InterAreaPrefixTlv x;
      x.reserved = ARF_TRY(v.u8("ospfv3.inter_area_prefix.reserved"));
      x.metric = ARF_TRY(v.u24("ospfv3.inter_area_prefix.metric"));
      x.prefix = ARF_TRY(read_prefix(v));
      x.sub_tlvs = ARF_TRY(parse_prefix_sub_tlvs(v, bw, "ospfv3.sub_tlv"));
      return x;
    }
    case kV3TlvExternalPrefix: {
      ExternalPrefixTlv x;
      x.flags = ARF_TRY(v.u8("ospfv3.external_prefix.flags"));
      x.metric = ARF_TRY(v.u24("ospfv3.external_prefix.metric"));
      x.prefix = ARF_TRY(read_prefix(v));
      x.sub_tlvs = ARF_TRY(parse_prefix_sub_tlvs(v, bw, "ospfv3.sub_tlv"));
      return x;
    }
    case kV3TlvIntraAreaPrefix: {
      IntraAreaPrefixTlv x;
      x.reserved = ARF_TRY(v.u16("ospfv3.intra_area_prefix.reserved"));
      x.metric = ARF_TRY(v.u16("ospfv3.intra_area_prefix.metric"));
      x.prefix = ARF_TRY(read_prefix(v));
      x.sub_tlvs = ARF_TRY(parse_prefix_sub_tlvs(v, bw, "ospfv3.sub_tlv"));
      return x;
    }
    default: {
      ByteSpan raw = v.rest();
      return RawTlv{t.type, Bytes(raw.begin(), raw.end())};
    }
  }
}

template <class T>
std::expected<void, EncodeError> check_prefix(const T& x) {
  if (x.prefix.prefix_length > 128)
    return std::unexpected(EncodeError{"ospfv3.prefix_length", "over 128"});
  return {};
}

}  // namespace

std::expected<std::vector<Ospfv3Tlv>, DecodeError> parse_ospfv3_tlvs(
    ByteSpan data, std::size_t base_offset, const CodecOptions& options) {
  ByteReader r(data, base_offset);
  std::vector<Ospfv3Tlv> out;
  while (!r.empty()) {
    TlvView t = ARF_TRY(read_tlv(r, "ospfv3.tlv"));
    out.push_back(ARF_TRY(parse_one(t, options)));
  }
  return out;
}

std::expected<void, EncodeError> serialize_ospfv3_tlvs(
    const std::vector<Ospfv3Tlv>& tlvs, ByteWriter& out,
    const CodecOptions& options) {
  const std::uint16_t bw = options.ospfv3_path_bandwidth_sub_tlv_type;
  const std::size_t start = out.size();
  for (const Ospfv3Tlv& tlv : tlvs) {
    std::expected<void, EncodeError> ok;
    if (const auto* x = std::get_if<InterAreaPrefixTlv>(&tlv)) {
      ok = check_prefix(*x);
      if (ok && x->metric > 0xffffff)
        ok = std::unexpected(
            EncodeError{"ospfv3.inter_area_prefix.metric", "over 24 bits"});
      if (ok)
        ok = write_tlv_with(kV3TlvInterAreaPrefix, out, "ospfv3.tlv",
                            [&]() -> std::expected<void, EncodeError> {
                              out.u8(x->reserved);
                              out.u24(x->metric);
                              write_prefix(x->prefix, out);
                              return serialize_prefix_sub_tlvs(
                                  x->sub_tlvs, bw, out, "ospfv3.sub_tlv");
                            });
    } else if (const auto* x = std::get_if<ExternalPrefixTlv>(&tlv)) {
      ok = check_prefix(*x);
      if (ok && x->metric > 0xffffff)
        ok = std::unexpected(
            EncodeError{"ospfv3.external_prefix.metric", "over 24 bits"});
      if (ok)
        ok = write_tlv_with(kV3TlvExternalPrefix, out, "ospfv3.tlv",
                            [&]() -> std::expected<void, EncodeError> {
                              out.u8(x->flags);
                              out.u24(x->metric);
                              write_prefix(x->prefix, out);
                              return serialize_prefix_sub_tlvs(
                                  x->sub_tlvs, bw, out, "ospfv3.sub_tlv");
                            });
    } else if (const auto* x = std::get_if<IntraAreaPrefixTlv>(&tlv)) {
      ok = check_prefix(*x);
      if (ok)
        ok = write_tlv_with(kV3TlvIntraAreaPrefix, out, "ospfv3.tlv",
                            [&]() -> std::expected<void, EncodeError> {
                              out.u16(x->reserved);
                              out.u16(x->metric);
                              write_prefix(x->prefix, out);
                              return serialize_prefix_sub_tlvs(
                                  x->sub_tlvs, bw, out, "ospfv3.sub_tlv");
                            });
    } else {
      const RawTlv& raw = std::get<RawTlv>(tlv);
      if (raw.type == kV3TlvInterAreaPrefix ||
          raw.type == kV3TlvExternalPrefix || raw.type == kV3TlvIntraAreaPrefix)
        ok = std::unexpected(EncodeError{
            "ospfv3.tlv",
            "raw TLV uses decoded type " + std::to_string(raw.type)});
      else
        ok = write_tlv(raw.type, raw.value, out, "ospfv3.tlv");
    }
    if (!ok) {
      out.truncate(start);
      return ok;
    }
  }
  return {};
}

std::size_t encoded_size(const std::vector<Ospfv3Tlv>& tlvs) {
  std::size_t n = 0;
  for (const Ospfv3Tlv& tlv : tlvs) {
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, RawTlv>) {
            n += 4 + padded(x.value.size());
          } else {
            n += 12 + prefix_words_bytes(x.prefix.prefix_length) +
                 encoded_size(x.sub_tlvs);
          }
        },
        tlv);
  }
  return n;
}

}  // namespace arfabric::wire::ospf
