#include "wire/ospf/tlv.h"

#include <string>

namespace arfabric::wire::ospf {
namespace {

std::string join(std::string_view a, std::string_view b) {
  std::string s(a);
  s += '.';
  s += b;
  return s;
}

}  // namespace

std::expected<TlvView, DecodeError> read_tlv(ByteReader& r,
                                             std::string_view field) {
  TlvView t{0, r.offset(), ByteReader(ByteSpan{})};
  t.type = ARF_TRY(r.u16(join(field, "type")));
  const std::uint16_t len = ARF_TRY(r.u16(join(field, "length")));
  t.value = ARF_TRY(r.sub(len, join(field, "value")));
  ARF_TRY(r.bytes(padded(len) - len, join(field, "padding")));
  return t;
}

std::expected<void, EncodeError> write_tlv(std::uint16_t type, ByteSpan value,
                                           ByteWriter& out,
                                           std::string_view field) {
  if (value.size() > 0xffff)
    return std::unexpected(
        EncodeError{std::string(field), "value over 65535 bytes"});
  out.u16(type);
  out.u16(static_cast<std::uint16_t>(value.size()));
  out.bytes(value);
  out.zeros(padded(value.size()) - value.size());
  return {};
}

std::expected<std::vector<PrefixSubTlv>, DecodeError> parse_prefix_sub_tlvs(
    ByteReader& r, std::uint16_t path_bandwidth_type, std::string_view field) {
  std::vector<PrefixSubTlv> out;
  while (!r.empty()) {
    TlvView t = ARF_TRY(read_tlv(r, field));
    if (t.type == path_bandwidth_type) {
      if (t.value.remaining() != 4)
        return std::unexpected(
            DecodeError{join(field, "length"), t.offset + 2,
                        "path bandwidth sub-TLV must be 4 bytes, got " +
                            std::to_string(t.value.remaining())});
      out.push_back(PathBandwidthSubTlv{
          {ARF_TRY(t.value.u32(join(field, "path_bandwidth")))}});
    } else {
      ByteSpan v = t.value.rest();
      out.push_back(RawTlv{t.type, Bytes(v.begin(), v.end())});
    }
  }
  return out;
}

std::expected<void, EncodeError> serialize_prefix_sub_tlvs(
    const std::vector<PrefixSubTlv>& subs, std::uint16_t path_bandwidth_type,
    ByteWriter& out, std::string_view field) {
  for (const PrefixSubTlv& s : subs) {
    if (const auto* bw = std::get_if<PathBandwidthSubTlv>(&s)) {
      out.u16(path_bandwidth_type);
      out.u16(4);
      out.u32(bw->bandwidth.bits);
    } else {
      const RawTlv& raw = std::get<RawTlv>(s);
      if (raw.type == path_bandwidth_type)
        return std::unexpected(EncodeError{
            std::string(field), "raw sub-TLV uses the Path Bandwidth type " +
                                    std::to_string(raw.type)});
      ARF_TRY(write_tlv(raw.type, raw.value, out, field));
    }
  }
  return {};
}

std::size_t encoded_size(const std::vector<PrefixSubTlv>& subs) {
  std::size_t n = 0;
  for (const PrefixSubTlv& s : subs) {
    if (std::holds_alternative<PathBandwidthSubTlv>(s))
      n += 8;
    else
      n += 4 + padded(std::get<RawTlv>(s).value.size());
  }
  return n;
}

}  // namespace arfabric::wire::ospf
