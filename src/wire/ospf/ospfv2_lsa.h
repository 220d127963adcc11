// A whole OSPFv2 LSA with its body decoded by type: what FARE over OSPFv2
// reads from an area's database (draft-xu-lsr-fare-04 §3, §4).
//
//   LS type 1                      Router-LSA   (wire/ospf/router_lsa.h)
//   LS type 3, 4                   Summary-LSA  (wire/ospf/summary_lsa.h)
//   LS type 9-11, opaque type 1    TE           (wire/ospf/te_link.h)
//   LS type 9-11, opaque type 7    Extended Prefix
//                                               (wire/ospf/extended_prefix.h)
//   anything else                  kept as raw bytes
//
// The header is decoded and its checksum checked by parse_ospfv2_lsa
// (wire/ospf/lsa.h); serialize computes length and checksum.
#pragma once

#include <expected>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "wire/ospf/extended_prefix.h"
#include "wire/ospf/lsa.h"
#include "wire/ospf/router_lsa.h"
#include "wire/ospf/summary_lsa.h"
#include "wire/ospf/te_link.h"
#include "wire/ospf/tlv.h"

namespace arfabric::wire::ospf {

struct TeLsa {
  std::vector<TeTlv> tlvs;
  bool operator==(const TeLsa&) const = default;
};
struct ExtendedPrefixLsa {
  std::vector<ExtendedPrefixLsaTlv> tlvs;
  bool operator==(const ExtendedPrefixLsa&) const = default;
};
// An LSA whose type this codec does not decode (Network-LSAs, AS-external
// LSAs, other opaque types, ...).
struct UndecodedLsaBody {
  Bytes body;
  bool operator==(const UndecodedLsaBody&) const = default;
};
using Ospfv2LsaBody = std::variant<RouterLsa, SummaryLsa, TeLsa,
                                   ExtendedPrefixLsa, UndecodedLsaBody>;

struct Ospfv2Lsa {
  Ospfv2LsaHeader header;
  Ospfv2LsaBody body;
  bool checksum_valid = false;  // as parsed; serialize computes it
  bool operator==(const Ospfv2Lsa&) const = default;
};

// One LSA from the start of `data` (bytes after its length are not looked
// at). Errors: those of parse_ospfv2_lsa, then of the body's codec (their
// offsets count from the start of `data` plus base_offset).
std::expected<Ospfv2Lsa, DecodeError> parse_ospfv2_lsa_decoded(
    ByteSpan data, std::size_t base_offset = 0,
    const CodecOptions& options = {});

// The body's type must match the header's LS type and opaque type (an
// UndecodedLsaBody only where no decoded type applies). Errors:
// "ospf.lsa.body" for a mismatch, then the body's codec errors and
// serialize_ospfv2_lsa's.
std::expected<void, EncodeError> serialize_ospfv2_lsa(
    const Ospfv2Lsa& lsa, ByteWriter& out, const CodecOptions& options = {});

}  // namespace arfabric::wire::ospf
