// IS-IS Link State PDU (ISO 10589 section 9.8/9.9): the 8-octet common PDU
// header, the LSP header and the TLVs (wire/isis/tlv.h).
//
//   0 IRPD 0x83 | 1 length indicator (27) | 2 version/protocol ID ext (1)
//   3 ID length (0 = 6) | 4 PDU type (18 L1 LSP, 20 L2 LSP) | 5 version (1)
//   6 reserved | 7 maximum area addresses (0 = 3)
//   8 PDU length (2) | 10 remaining lifetime (2) | 12 LSP ID (6 + 1 + 1)
//  20 sequence number (4) | 24 checksum (2) | 26 P/ATT/OL/IS-type flags
//  27 TLVs ... up to PDU length
//
// Only 6-octet system IDs (ID length 0 or 6) are supported: every deployed
// IS-IS uses them and the header layout depends on it. Octets after PDU
// length (Ethernet padding) are ignored. The checksum (wire/lsr/fletcher.h)
// is verified on parse and reported, never enforced, so a decoder can show a
// bad one; serialize computes it unless told to keep the struct's value.
#pragma once

#include <cstdint>
#include <expected>
#include <vector>

#include "common/bytes.h"
#include "wire/isis/tlv.h"

namespace arfabric::wire::isis {

inline constexpr std::uint8_t kIrpd = 0x83;
inline constexpr std::uint8_t kPduTypeL1Lsp = 18;
inline constexpr std::uint8_t kPduTypeL2Lsp = 20;
inline constexpr std::size_t kCommonHeaderSize = 8;
inline constexpr std::size_t kLspHeaderSize = 27;
// Where the checksummed range starts (the LSP ID) and where the checksum is.
inline constexpr std::size_t kLspChecksumRangeStart = 12;
inline constexpr std::size_t kLspChecksumOffset = 24;

// The fixed part every IS-IS PDU starts with (ISO 10589 section 9.5).
struct CommonHeader {
  std::uint8_t irpd = kIrpd;
  std::uint8_t length_indicator = kLspHeaderSize;
  std::uint8_t version_ext = 1;
  std::uint8_t id_length = 0;             // 0 means 6
  std::uint8_t pdu_type = kPduTypeL2Lsp;  // low 5 bits
  std::uint8_t pdu_type_reserved = 0;     // high 3 bits, kept for round trip
  std::uint8_t version = 1;
  std::uint8_t reserved = 0;
  std::uint8_t max_area_addresses = 0;  // 0 means 3
  bool operator==(const CommonHeader&) const = default;
};

struct LspId {
  SystemId system_id{};
  std::uint8_t pseudonode = 0;
  std::uint8_t fragment = 0;
  bool operator==(const LspId&) const = default;
};

// P/ATT/OL/IS-type octet (ISO 10589 section 9.9).
inline constexpr std::uint8_t kLspFlagPartitionRepair = 0x80;
inline constexpr std::uint8_t kLspFlagAttachedMask = 0x78;
inline constexpr std::uint8_t kLspFlagOverload = 0x04;
inline constexpr std::uint8_t kLspIsTypeMask = 0x03;  // 1 = L1, 3 = L1+L2

struct Lsp {
  CommonHeader header;
  std::uint16_t remaining_lifetime = 1200;
  LspId lsp_id;
  std::uint32_t sequence_number = 1;
  std::uint16_t checksum = 0;  // as received; see SerializeOptions
  std::uint8_t flags = 0x03;
  std::vector<Tlv> tlvs;
  bool operator==(const Lsp&) const = default;
};

struct ParsedLsp {
  Lsp lsp;
  std::uint16_t pdu_length = 0;
  // Fletcher checksum over LSP ID..PDU end verifies and is non-zero.
  bool checksum_valid = false;
};

// Parses the common header. Errors: truncation, "isis.irpd" not 0x83,
// "isis.id_length" other than 0 or 6.
std::expected<CommonHeader, DecodeError> parse_common_header(ByteReader& r);
void serialize(const CommonHeader& header, ByteWriter& out);

// Parses an LSP starting at its IRPD octet; `base_offset` is where data[0]
// sits in the outermost buffer. Errors: those of parse_common_header,
// "isis.pdu_type" not 18/20, "isis.length_indicator" not 27,
// "isis.lsp.pdu_length" below 27 or beyond the buffer, truncation of any
// header field, and every error of parse_tlvs on the TLV area.
std::expected<ParsedLsp, DecodeError> parse_lsp(
    ByteSpan data, std::size_t base_offset = 0,
    const CodecOptions& options = {});

struct SerializeOptions {
  CodecOptions codec;
  // Compute the Fletcher checksum (normal). False writes lsp.checksum as is:
  // for re-emitting a received LSP byte-exact, or forging a bad one in tests.
  bool compute_checksum = true;
};

// Writes the LSP with the PDU length computed. Errors: those of serialize
// for TLVs, "isis.pdu_type" not 18/20 or over 5 bits, "isis.id_length" not
// 0/6, "isis.lsp.pdu_length" over 65535.
std::expected<void, EncodeError> serialize(
    const Lsp& lsp, ByteWriter& out, const SerializeOptions& options = {});
std::size_t encoded_size(const Lsp& lsp);

}  // namespace arfabric::wire::isis
