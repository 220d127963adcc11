// libFuzzer target for OSPFv2 packets and the LSAs they flood
// (wire/ospf/packet.h, wire/ospf/ospfv2_lsa.h with the Router-LSA and
// Summary-LSA codecs). The input is an OSPF packet as an IP payload.
// Invariants: a parsed packet re-serializes, keeping its checksum, to
// exactly its bytes; each LSA of a Link State Update that decodes
// serializes and decodes back to the same header (checksum and length
// recomputed) and body, with a valid checksum.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "wire/ospf/ospfv2_lsa.h"
#include "wire/ospf/packet.h"

using namespace arfabric;
using namespace arfabric::wire::ospf;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan in(data, size);
  auto packet = parse_ospfv2_packet(in);
  if (!packet) return 0;
  ByteWriter again;
  if (!serialize_ospfv2_packet(packet->header, packet->body, again,
                               /*compute_checksum=*/false))
    __builtin_trap();
  const ByteSpan bytes = in.first(packet->header.length);
  if (again.size() != bytes.size() ||
      !std::equal(bytes.begin(), bytes.end(), again.data().begin()))
    __builtin_trap();
  if (packet->header.type != kPacketLinkStateUpdate) return 0;
  auto lsas = parse_ls_update(packet->body, kOspfv2PacketHeaderSize);
  if (!lsas) return 0;
  for (ByteSpan raw : *lsas) {
    auto lsa = parse_ospfv2_lsa_decoded(raw);
    if (!lsa) continue;
    ByteWriter out;
    if (!serialize_ospfv2_lsa(*lsa, out)) __builtin_trap();
    auto back = parse_ospfv2_lsa_decoded(out.data());
    if (!back || !back->checksum_valid || !(back->body == lsa->body))
      __builtin_trap();
    Ospfv2LsaHeader h = back->header;
    h.checksum = lsa->header.checksum;
    if (!(h == lsa->header)) __builtin_trap();
  }
  return 0;
}
