#include "wire/isis/frame.h"

#include <string>

namespace arfabric::wire::isis {
namespace {

struct PduTypeName {
  std::uint8_t type;
  std::string_view name;
};

// IANA "IS-IS PDU Registry".
constexpr PduTypeName kPduTypes[] = {
    {15, "l1_lan_hello"}, {16, "l2_lan_hello"}, {17, "p2p_hello"},
    {18, "l1_lsp"},       {20, "l2_lsp"},       {24, "l1_csnp"},
    {25, "l2_csnp"},      {26, "l1_psnp"},      {27, "l2_psnp"},
};

std::expected<void, DecodeError> expect_u8(ByteReader& r, std::uint8_t want,
                                           std::string_view field) {
  const std::size_t at = r.offset();
  const std::uint8_t got = ARF_TRY(r.u8(field));
  if (got != want)
    return std::unexpected(r.error_at(
        at, field,
        "value " + std::to_string(got) + ", want " + std::to_string(want)));
  return {};
}

}  // namespace

bool is_isis_destination(const MacAddress& mac) {
  return mac == kAllL1Iss || mac == kAllL2Iss || mac == kAllIss;
}

std::expected<IsisFramePdu, DecodeError> parse_isis_frame_payload(
    ByteSpan llc_payload, const CodecOptions& options) {
  ByteReader r(llc_payload);
  ARF_TRY(expect_u8(r, kLlcSapIsis, "llc.dsap"));
  ARF_TRY(expect_u8(r, kLlcSapIsis, "llc.ssap"));
  ARF_TRY(expect_u8(r, kLlcControlUi, "llc.control"));
  IsisFramePdu out;
  out.pdu = llc_payload.subspan(kLlcHeaderSize);
  ByteReader header_reader(out.pdu, kLlcHeaderSize);
  out.header = ARF_TRY(parse_common_header(header_reader));
  if (out.header.pdu_type == kPduTypeL1Lsp ||
      out.header.pdu_type == kPduTypeL2Lsp)
    out.lsp = ARF_TRY(parse_lsp(out.pdu, kLlcHeaderSize, options));
  return out;
}

void serialize_llc(ByteWriter& out) {
  out.u8(kLlcSapIsis);
  out.u8(kLlcSapIsis);
  out.u8(kLlcControlUi);
}

std::string_view pdu_type_name(std::uint8_t pdu_type) {
  for (const PduTypeName& e : kPduTypes)
    if (e.type == pdu_type) return e.name;
  return "unknown";
}

}  // namespace arfabric::wire::isis
