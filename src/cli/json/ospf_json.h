// JSON for the OSPF TLV codecs (wire/ospf): TE LSA bodies (RFC 3630),
// OSPFv2 Extended Prefix LSA bodies (RFC 7684) and OSPFv3 prefix TLVs
// (RFC 8362). Same conventions as cli/json/isis_json.h. The *_body_to_json
// entry points taking bytes never fail: errors become {"error": {...}}.
#pragma once

#include <nlohmann/json.hpp>

#include "common/bytes.h"
#include "wire/ospf/extended_prefix.h"
#include "wire/ospf/lsa.h"
#include "wire/ospf/ospfv3_prefix.h"
#include "wire/ospf/te_link.h"

namespace arfabric::cli {

nlohmann::json ospf_te_tlvs_to_json(const std::vector<wire::ospf::TeTlv>& tlvs);
nlohmann::json ospf_extended_prefix_tlvs_to_json(
    const std::vector<wire::ospf::ExtendedPrefixLsaTlv>& tlvs,
    const wire::ospf::CodecOptions& options = {});
nlohmann::json ospfv3_tlvs_to_json(
    const std::vector<wire::ospf::Ospfv3Tlv>& tlvs,
    const wire::ospf::CodecOptions& options = {});

// Parse-and-convert entry points for opaque LSA bodies / TLV runs.
nlohmann::json ospf_te_lsa_body_to_json(ByteSpan body);
nlohmann::json ospf_extended_prefix_lsa_body_to_json(
    ByteSpan body, const wire::ospf::CodecOptions& options = {});
nlohmann::json ospfv3_prefix_tlvs_body_to_json(
    ByteSpan body, const wire::ospf::CodecOptions& options = {});
// OSPFv2 Router-LSA (RFC 2328 A.4.2) and Summary-LSA (A.4.4) bodies.
nlohmann::json ospf_router_lsa_body_to_json(ByteSpan body);
nlohmann::json ospf_summary_lsa_body_to_json(ByteSpan body);

// A whole LSA (header + body): OSPFv2 Router-LSAs, Summary-LSAs, opaque
// TE (1) and Extended Prefix (7) LSAs and RFC 8362 E-LSAs with prefix TLVs
// get their body decoded; other LSAs show the body as hex. Never fails; errors
// become {"error": {...}} (offsets from the LSA's first octet).
nlohmann::json ospfv2_lsa_to_json(ByteSpan lsa,
                                  const wire::ospf::CodecOptions& options = {});
nlohmann::json ospfv3_lsa_to_json(ByteSpan lsa,
                                  const wire::ospf::CodecOptions& options = {});

// An OSPFv2 packet (RFC 2328 A.3; an IP payload, `offset` octets into
// what the caller reports offsets from): its header with the checksum
// checked, and for a Link State Update its LSAs as ospfv2_lsa_to_json
// gives them ("lsas"); other packets' bodies as hex. Never fails: a
// header that does not decode gives {"error": {...}}; after it, a Link
// State Update's framing error is "body_error", an LSA's body error its
// "body_error" (offsets counted as the caller's).
nlohmann::json ospfv2_packet_to_json(
    ByteSpan packet, std::size_t offset = 0,
    const wire::ospf::CodecOptions& options = {});

}  // namespace arfabric::cli
