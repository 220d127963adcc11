// JSON for `arfabric decode` of IS-IS PDUs (wire/isis).
//
// isis_pdu_to_json() is the entry point for an 802.3/LLC frame payload: it
// never fails; a malformed PDU yields {"error": {"field", "offset",
// "reason"}} with offsets counted from the LLC header. LSPs are decoded down
// to sub-TLVs; other PDU types show their common header and hex bytes.
// Field names are snake_case; addresses are strings; unknown TLVs and
// sub-TLVs are {"type", "value" (hex)}. Bandwidths (binary32 bytes/s) are
// {"bytes_per_second": number (or "nan", "inf", "-inf"), "raw": hex bits}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/bytes.h"
#include "wire/isis/frame.h"
#include "wire/isis/lsp.h"
#include "wire/lsr/bandwidth.h"

namespace arfabric::cli {

nlohmann::json isis_pdu_to_json(ByteSpan llc_payload,
                                const wire::isis::CodecOptions& options = {});
nlohmann::json isis_lsp_to_json(const wire::isis::ParsedLsp& lsp,
                                const wire::isis::CodecOptions& options = {});
nlohmann::json isis_tlv_to_json(const wire::isis::Tlv& tlv,
                                const wire::isis::CodecOptions& options = {});

// Shared with the OSPF JSON: a binary32 bytes/s value.
nlohmann::json bandwidth_to_json(const wire::lsr::Bandwidth32& bw);

// "0000.0000.0001" / "0000.0000.0001.00-00", as IS-IS tools print them.
std::string format_system_id(const wire::isis::SystemId& id);
std::string format_lsp_id(const wire::isis::LspId& id);
// RFC 5952 text for an IPv6 address.
std::string format_ipv6(const std::array<std::uint8_t, 16>& address);

}  // namespace arfabric::cli
