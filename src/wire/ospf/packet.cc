#include "wire/ospf/packet.h"

#include <string>

#include "wire/inet/checksum.h"
#include "wire/ospf/lsa.h"

namespace arfabric::wire::ospf {
namespace {

constexpr std::size_t kChecksumOffset = 12;
constexpr std::size_t kAuthenticationOffset = 16;

// The IP checksum over the packet without its Authentication octets.
std::uint16_t packet_checksum(ByteSpan packet) {
  const std::uint16_t head =
      ones_complement_sum(packet.first(kAuthenticationOffset));
  return internet_checksum(packet.subspan(kOspfv2PacketHeaderSize), head);
}

}  // namespace

std::expected<ParsedOspfv2Packet, DecodeError> parse_ospfv2_packet(
    ByteSpan data, std::size_t base_offset) {
  ByteReader r(data, base_offset);
  Ospfv2PacketHeader h;
  const std::size_t version_at = r.offset();
  h.version = ARF_TRY(r.u8("ospf.packet.version"));
  if (h.version != 2)
    return std::unexpected(r.error_at(
        version_at, "ospf.packet.version",
        "version " + std::to_string(h.version) + ", want 2 (OSPFv2)"));
  const std::size_t type_at = r.offset();
  h.type = ARF_TRY(r.u8("ospf.packet.type"));
  if (h.type < kPacketHello || h.type > kPacketLinkStateAck)
    return std::unexpected(
        r.error_at(type_at, "ospf.packet.type",
                   "type " + std::to_string(h.type) + " is not 1..5"));
  const std::size_t length_at = r.offset();
  h.length = ARF_TRY(r.u16("ospf.packet.length"));
  h.router_id = ARF_TRY(r.array<4>("ospf.packet.router_id"));
  h.area_id = ARF_TRY(r.array<4>("ospf.packet.area_id"));
  h.checksum = ARF_TRY(r.u16("ospf.packet.checksum"));
  h.au_type = ARF_TRY(r.u16("ospf.packet.au_type"));
  h.authentication = ARF_TRY(r.array<8>("ospf.packet.authentication"));
  if (h.length < kOspfv2PacketHeaderSize || h.length > data.size())
    return std::unexpected(r.error_at(
        length_at, "ospf.packet.length",
        "packet length " + std::to_string(h.length) + " outside 24.." +
            std::to_string(data.size()) + " (the bytes available)"));
  const ByteSpan packet = data.first(h.length);
  ParsedOspfv2Packet out;
  out.header = h;
  out.body = packet.subspan(kOspfv2PacketHeaderSize);
  out.checksum_valid =
      h.au_type == kAuTypeCryptographic || packet_checksum(packet) == 0;
  return out;
}

std::expected<void, EncodeError> serialize_ospfv2_packet(
    const Ospfv2PacketHeader& h, ByteSpan body, ByteWriter& out,
    bool compute_checksum) {
  const std::size_t length = kOspfv2PacketHeaderSize + body.size();
  if (length > 0xffff)
    return std::unexpected(EncodeError{
        "ospf.packet.length",
        "packet of " + std::to_string(length) + " bytes exceeds 65535"});
  const std::size_t start = out.size();
  out.u8(h.version);
  out.u8(h.type);
  out.u16(static_cast<std::uint16_t>(length));
  out.bytes(h.router_id);
  out.bytes(h.area_id);
  out.u16(compute_checksum ? 0 : h.checksum);
  out.u16(h.au_type);
  out.bytes(h.authentication);
  out.bytes(body);
  if (compute_checksum)
    out.patch_u16(start + kChecksumOffset,
                  packet_checksum(ByteSpan(out.data()).subspan(start)));
  return {};
}

std::expected<std::vector<ByteSpan>, DecodeError> parse_ls_update(
    ByteSpan body, std::size_t base_offset) {
  ByteReader r(body, base_offset);
  const std::size_t count_at = r.offset();
  const std::uint32_t count = ARF_TRY(r.u32("ospf.ls_update.lsa_count"));
  std::vector<ByteSpan> lsas;
  while (!r.empty()) {
    if (lsas.size() == count)
      return std::unexpected(r.error_at(
          count_at, "ospf.ls_update.lsa_count",
          std::to_string(count) + " LSAs counted, but " +
              std::to_string(r.remaining()) + " bytes follow the last"));
    const std::size_t at = r.offset();
    const ByteSpan rest = body.subspan(r.position());
    auto lsa = parse_ospfv2_lsa(rest, at);
    if (!lsa) return std::unexpected(lsa.error());
    lsas.push_back(rest.first(lsa->header.length));
    ARF_TRY(r.bytes(lsa->header.length, "ospf.lsa"));
  }
  if (lsas.size() != count)
    return std::unexpected(
        r.error_at(count_at, "ospf.ls_update.lsa_count",
                   std::to_string(count) + " LSAs counted, " +
                       std::to_string(lsas.size()) + " present"));
  return lsas;
}

void serialize_ls_update(const std::vector<Bytes>& lsas, ByteWriter& out) {
  out.u32(static_cast<std::uint32_t>(lsas.size()));
  for (const Bytes& lsa : lsas) out.bytes(lsa);
}

}  // namespace arfabric::wire::ospf
