// libFuzzer target for the OSPF parsers (wire/ospf). The first input byte
// picks the parser (mod 5: TE LSA body, OSPFv2 Extended Prefix LSA body,
// OSPFv3 prefix TLVs, OSPFv2 LSA, OSPFv3 LSA); the rest is its input. A
// parsed TLV run must serialize and parse back equal (padding contents are
// not kept, so only the size must match); a parsed LSA must re-serialize,
// keeping its checksum, to exactly its bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "wire/ospf/extended_prefix.h"
#include "wire/ospf/lsa.h"
#include "wire/ospf/ospfv3_prefix.h"
#include "wire/ospf/te_link.h"

using namespace arfabric;
using namespace arfabric::wire::ospf;

namespace {

template <class Parse, class Serialize>
void round_trip(ByteSpan in, Parse parse, Serialize serialize) {
  auto first = parse(in);
  if (!first) return;
  ByteWriter out;
  if (!serialize(*first, out)) __builtin_trap();
  if (out.size() != in.size()) __builtin_trap();  // only padding may differ
  auto second = parse(ByteSpan(out.data()));
  if (!second || !(*second == *first)) __builtin_trap();
}

template <class Parse, class Serialize>
void lsa_round_trip(ByteSpan in, Parse parse, Serialize serialize) {
  auto first = parse(in);
  if (!first) return;
  ByteWriter out;
  if (!serialize(first->header, first->body, out)) __builtin_trap();
  const ByteSpan lsa = in.first(first->header.length);
  if (out.size() != lsa.size() ||
      !std::equal(lsa.begin(), lsa.end(), out.data().begin()))
    __builtin_trap();
  auto second = parse(ByteSpan(out.data()));
  if (!second || !(second->header == first->header) ||
      second->checksum_valid != first->checksum_valid)
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  const ByteSpan in(data + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      round_trip(
          in, [](ByteSpan b) { return parse_te_lsa_body(b); },
          [](const auto& v, ByteWriter& w) {
            return serialize_te_lsa_body(v, w);
          });
      break;
    case 1:
      round_trip(
          in, [](ByteSpan b) { return parse_extended_prefix_lsa_body(b); },
          [](const auto& v, ByteWriter& w) {
            return serialize_extended_prefix_lsa_body(v, w);
          });
      break;
    case 3:
      lsa_round_trip(
          in, [](ByteSpan b) { return parse_ospfv2_lsa(b); },
          [](const auto& h, ByteSpan body, ByteWriter& w) {
            return serialize_ospfv2_lsa(h, body, w, false);
          });
      break;
    case 4:
      lsa_round_trip(
          in, [](ByteSpan b) { return parse_ospfv3_lsa(b); },
          [](const auto& h, ByteSpan body, ByteWriter& w) {
            return serialize_ospfv3_lsa(h, body, w, false);
          });
      break;
    default:
      round_trip(
          in, [](ByteSpan b) { return parse_ospfv3_tlvs(b); },
          [](const auto& v, ByteWriter& w) {
            return serialize_ospfv3_tlvs(v, w);
          });
  }
  return 0;
}
