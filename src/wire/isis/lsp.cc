#include "wire/isis/lsp.h"

#include <algorithm>
#include <string>

#include "wire/lsr/fletcher.h"

namespace arfabric::wire::isis {

std::expected<CommonHeader, DecodeError> parse_common_header(ByteReader& r) {
  CommonHeader h;
  const std::size_t irpd_at = r.offset();
  h.irpd = ARF_TRY(r.u8("isis.irpd"));
  if (h.irpd != kIrpd)
    return std::unexpected(r.error_at(
        irpd_at, "isis.irpd",
        "not an IS-IS PDU (IRPD " + std::to_string(h.irpd) + ", want 131)"));
  h.length_indicator = ARF_TRY(r.u8("isis.length_indicator"));
  h.version_ext = ARF_TRY(r.u8("isis.version_ext"));
  const std::size_t id_at = r.offset();
  h.id_length = ARF_TRY(r.u8("isis.id_length"));
  if (h.id_length != 0 && h.id_length != 6)
    return std::unexpected(
        r.error_at(id_at, "isis.id_length",
                   "system ID length " + std::to_string(h.id_length) +
                       " unsupported (only 6, sent as 0 or 6)"));
  const std::uint8_t type = ARF_TRY(r.u8("isis.pdu_type"));
  h.pdu_type = type & 0x1f;
  h.pdu_type_reserved = type >> 5;
  h.version = ARF_TRY(r.u8("isis.version"));
  h.reserved = ARF_TRY(r.u8("isis.reserved"));
  h.max_area_addresses = ARF_TRY(r.u8("isis.max_area_addresses"));
  return h;
}

void serialize(const CommonHeader& h, ByteWriter& out) {
  out.u8(h.irpd);
  out.u8(h.length_indicator);
  out.u8(h.version_ext);
  out.u8(h.id_length);
  out.u8(static_cast<std::uint8_t>(h.pdu_type_reserved << 5 |
                                   (h.pdu_type & 0x1f)));
  out.u8(h.version);
  out.u8(h.reserved);
  out.u8(h.max_area_addresses);
}

std::expected<ParsedLsp, DecodeError> parse_lsp(ByteSpan data,
                                                std::size_t base_offset,
                                                const CodecOptions& options) {
  ByteReader r(data, base_offset);
  ParsedLsp out;
  Lsp& lsp = out.lsp;
  lsp.header = ARF_TRY(parse_common_header(r));
  if (lsp.header.pdu_type != kPduTypeL1Lsp &&
      lsp.header.pdu_type != kPduTypeL2Lsp)
    return std::unexpected(r.error_at(
        base_offset + 4, "isis.pdu_type",
        "PDU type " + std::to_string(lsp.header.pdu_type) + " is not an LSP"));
  if (lsp.header.length_indicator != kLspHeaderSize)
    return std::unexpected(r.error_at(
        base_offset + 1, "isis.length_indicator",
        "LSP header length " + std::to_string(lsp.header.length_indicator) +
            ", want 27"));
  const std::size_t pdu_length_at = r.offset();
  out.pdu_length = ARF_TRY(r.u16("isis.lsp.pdu_length"));
  if (out.pdu_length < kLspHeaderSize || out.pdu_length > data.size())
    return std::unexpected(r.error_at(
        pdu_length_at, "isis.lsp.pdu_length",
        "PDU length " + std::to_string(out.pdu_length) + " outside 27.." +
            std::to_string(data.size()) + " (the bytes available)"));
  lsp.remaining_lifetime = ARF_TRY(r.u16("isis.lsp.remaining_lifetime"));
  ByteSpan id = ARF_TRY(r.bytes(8, "isis.lsp.lsp_id"));
  std::copy(id.begin(), id.begin() + 6, lsp.lsp_id.system_id.begin());
  lsp.lsp_id.pseudonode = id[6];
  lsp.lsp_id.fragment = id[7];
  lsp.sequence_number = ARF_TRY(r.u32("isis.lsp.sequence_number"));
  lsp.checksum = ARF_TRY(r.u16("isis.lsp.checksum"));
  lsp.flags = ARF_TRY(r.u8("isis.lsp.flags"));
  const ByteSpan pdu = data.first(out.pdu_length);
  lsp.tlvs = ARF_TRY(parse_tlvs(pdu.subspan(kLspHeaderSize),
                                base_offset + kLspHeaderSize, options));
  out.checksum_valid =
      lsr::fletcher_checksum_valid(pdu.subspan(kLspChecksumRangeStart),
                                   kLspChecksumOffset - kLspChecksumRangeStart);
  return out;
}

std::expected<void, EncodeError> serialize(const Lsp& lsp, ByteWriter& out,
                                           const SerializeOptions& options) {
  const CommonHeader& h = lsp.header;
  if (h.pdu_type != kPduTypeL1Lsp && h.pdu_type != kPduTypeL2Lsp)
    return std::unexpected(
        EncodeError{"isis.pdu_type", "not an LSP type (18 or 20)"});
  if (h.pdu_type_reserved > 7)
    return std::unexpected(
        EncodeError{"isis.pdu_type_reserved", "over 3 bits"});
  if (h.id_length != 0 && h.id_length != 6)
    return std::unexpected(
        EncodeError{"isis.id_length", "only 6-octet system IDs (0 or 6)"});
  const std::size_t start = out.size();
  serialize(h, out);
  out.u16(0);  // PDU length, back-filled
  out.u16(lsp.remaining_lifetime);
  out.bytes(lsp.lsp_id.system_id);
  out.u8(lsp.lsp_id.pseudonode);
  out.u8(lsp.lsp_id.fragment);
  out.u32(lsp.sequence_number);
  out.u16(lsp.checksum);
  out.u8(lsp.flags);
  if (auto tlvs = serialize(lsp.tlvs, out, options.codec); !tlvs) {
    out.truncate(start);
    return std::unexpected(tlvs.error());
  }
  const std::size_t length = out.size() - start;
  if (length > 0xffff) {
    out.truncate(start);
    return std::unexpected(EncodeError{
        "isis.lsp.pdu_length",
        "LSP of " + std::to_string(length) + " bytes exceeds 65535"});
  }
  out.patch_u16(start + 8, static_cast<std::uint16_t>(length));
  if (options.compute_checksum) {
    const ByteSpan range =
        ByteSpan(out.data()).subspan(start + kLspChecksumRangeStart);
    out.patch_u16(start + kLspChecksumOffset,
                  lsr::fletcher_checksum(
                      range, kLspChecksumOffset - kLspChecksumRangeStart));
  }
  return {};
}

std::size_t encoded_size(const Lsp& lsp) {
  std::size_t n = kLspHeaderSize;
  for (const Tlv& t : lsp.tlvs) n += encoded_size(t);
  return n;
}

}  // namespace arfabric::wire::isis
