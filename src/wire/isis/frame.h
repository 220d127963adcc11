// IS-IS PDUs on Ethernet: 802.3 length frames with an LLC header
// (DSAP 0xFE, SSAP 0xFE, control 0x03 UI; ISO 10589 section 8.4.8 /
// ISO 9542), sent to AllL1ISs 01-80-C2-00-00-14, AllL2ISs
// 01-80-C2-00-00-15 or (point-to-point hellos, common practice) AllISs
// 09-00-2B-00-00-05.
//
// parse_isis_frame_payload() takes the 802.3 payload (the LLC header and
// what follows, trailing padding allowed) and decodes LSPs fully; other PDU
// types (hellos, SNPs) come back with their common header and raw bytes.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>

#include "common/bytes.h"
#include "wire/inet/ethernet.h"
#include "wire/isis/lsp.h"

namespace arfabric::wire::isis {

inline constexpr MacAddress kAllL1Iss = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x14};
inline constexpr MacAddress kAllL2Iss = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x15};
inline constexpr MacAddress kAllIss = {0x09, 0x00, 0x2b, 0x00, 0x00, 0x05};
inline constexpr std::uint8_t kLlcSapIsis = 0xfe;
inline constexpr std::uint8_t kLlcControlUi = 0x03;
inline constexpr std::size_t kLlcHeaderSize = 3;

// True for the three IS-IS destination addresses above.
bool is_isis_destination(const MacAddress& mac);

struct IsisFramePdu {
  CommonHeader header;
  std::optional<ParsedLsp> lsp;  // set for PDU types 18 and 20
  ByteSpan pdu;  // the PDU from its IRPD octet (may include frame padding)
};

// Errors: "llc.dsap", "llc.ssap" (not 0xFE), "llc.control" (not 0x03),
// truncation; then those of parse_common_header and, for LSPs, parse_lsp.
// Offsets are relative to llc_payload[0].
std::expected<IsisFramePdu, DecodeError> parse_isis_frame_payload(
    ByteSpan llc_payload, const CodecOptions& options = {});

// Appends the LLC header (FE FE 03).
void serialize_llc(ByteWriter& out);

// Name of an IS-IS PDU type ("l2_lsp", "p2p_hello", ...; "unknown").
std::string_view pdu_type_name(std::uint8_t pdu_type);

}  // namespace arfabric::wire::isis
