#include "wire/ospf/lsa.h"

#include <string>

#include "wire/lsr/fletcher.h"

namespace arfabric::wire::ospf {
namespace {

// The checksummed range starts after LS age.
constexpr std::size_t kRangeStart = 2;

// The part after the type-specific first 4 octets; shared by v2 and v3.
template <class Header>
std::expected<ParsedLsa<Header>, DecodeError> finish(ByteReader& r,
                                                     ByteSpan data, Header h) {
  h.link_state_id = ARF_TRY(r.array<4>("ospf.lsa.link_state_id"));
  h.advertising_router = ARF_TRY(r.array<4>("ospf.lsa.advertising_router"));
  h.sequence_number = ARF_TRY(r.u32("ospf.lsa.sequence_number"));
  h.checksum = ARF_TRY(r.u16("ospf.lsa.checksum"));
  const std::size_t length_at = r.offset();
  h.length = ARF_TRY(r.u16("ospf.lsa.length"));
  if (h.length < kLsaHeaderSize || h.length > data.size())
    return std::unexpected(
        r.error_at(length_at, "ospf.lsa.length",
                   "LSA length " + std::to_string(h.length) + " outside 20.." +
                       std::to_string(data.size()) + " (the bytes available)"));
  ParsedLsa<Header> out;
  out.header = h;
  const ByteSpan lsa = data.first(h.length);
  out.body = lsa.subspan(kLsaHeaderSize);
  out.checksum_valid = lsr::fletcher_checksum_valid(
      lsa.subspan(kRangeStart), kLsaChecksumOffset - kRangeStart);
  return out;
}

template <class Header, class WriteFirst>
std::expected<void, EncodeError> write(const Header& h, ByteSpan body,
                                       ByteWriter& out, bool compute_checksum,
                                       WriteFirst first) {
  const std::size_t length = kLsaHeaderSize + body.size();
  if (length > 0xffff)
    return std::unexpected(EncodeError{
        "ospf.lsa.length",
        "LSA of " + std::to_string(length) + " bytes exceeds 65535"});
  const std::size_t start = out.size();
  first();
  out.bytes(h.link_state_id);
  out.bytes(h.advertising_router);
  out.u32(h.sequence_number);
  out.u16(h.checksum);
  out.u16(static_cast<std::uint16_t>(length));
  out.bytes(body);
  if (compute_checksum) {
    const ByteSpan range = ByteSpan(out.data()).subspan(start + kRangeStart);
    out.patch_u16(
        start + kLsaChecksumOffset,
        lsr::fletcher_checksum(range, kLsaChecksumOffset - kRangeStart));
  }
  return {};
}

}  // namespace

std::expected<ParsedLsa<Ospfv2LsaHeader>, DecodeError> parse_ospfv2_lsa(
    ByteSpan data, std::size_t base_offset) {
  ByteReader r(data, base_offset);
  Ospfv2LsaHeader h;
  h.ls_age = ARF_TRY(r.u16("ospf.lsa.ls_age"));
  h.options = ARF_TRY(r.u8("ospf.lsa.options"));
  h.ls_type = ARF_TRY(r.u8("ospf.lsa.ls_type"));
  return finish(r, data, h);
}

std::expected<ParsedLsa<Ospfv3LsaHeader>, DecodeError> parse_ospfv3_lsa(
    ByteSpan data, std::size_t base_offset) {
  ByteReader r(data, base_offset);
  Ospfv3LsaHeader h;
  h.ls_age = ARF_TRY(r.u16("ospf.lsa.ls_age"));
  h.ls_type = ARF_TRY(r.u16("ospf.lsa.ls_type"));
  return finish(r, data, h);
}

std::expected<void, EncodeError> serialize_ospfv2_lsa(const Ospfv2LsaHeader& h,
                                                      ByteSpan body,
                                                      ByteWriter& out,
                                                      bool compute_checksum) {
  return write(h, body, out, compute_checksum, [&] {
    out.u16(h.ls_age);
    out.u8(h.options);
    out.u8(h.ls_type);
  });
}

std::expected<void, EncodeError> serialize_ospfv3_lsa(const Ospfv3LsaHeader& h,
                                                      ByteSpan body,
                                                      ByteWriter& out,
                                                      bool compute_checksum) {
  return write(h, body, out, compute_checksum, [&] {
    out.u16(h.ls_age);
    out.u16(h.ls_type);
  });
}

std::optional<std::size_t> elsa_tlv_offset(std::uint16_t function_code) {
  switch (function_code) {
    case 35:  // E-Inter-Area-Prefix-LSA
    case 37:  // E-AS-External-LSA
    case 39:  // E-NSSA-LSA
      return 0;
    case 40:  // E-Link-LSA
      return 4;
    case 41:  // E-Intra-Area-Prefix-LSA
      return 12;
    default:
      return std::nullopt;
  }
}

}  // namespace arfabric::wire::ospf
