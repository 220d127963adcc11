#include "wire/inet/ethernet.h"

#include <cstdio>

namespace arfabric::wire {
namespace {

std::expected<MacAddress, DecodeError> read_mac(ByteReader& r,
                                                std::string_view field) {
  auto b = r.bytes(6, field);
  if (!b) return std::unexpected(b.error());
  MacAddress mac;
  std::copy(b->begin(), b->end(), mac.begin());
  return mac;
}

}  // namespace

std::expected<EthernetFrame, DecodeError> parse_ethernet(ByteSpan frame) {
  ByteReader r(frame);
  EthernetFrame out;
  out.header.destination = ARF_TRY(read_mac(r, "eth.destination"));
  out.header.source = ARF_TRY(read_mac(r, "eth.source"));
  std::uint16_t type = ARF_TRY(r.u16("eth.ethertype"));
  if (type == kEtherTypeVlan) {
    out.header.vlan_tci = ARF_TRY(r.u16("eth.vlan.tci"));
    type = ARF_TRY(r.u16("eth.vlan.ethertype"));
  }
  out.header.ethertype = type;
  out.payload = r.rest();
  return out;
}

void serialize(const EthernetHeader& header, ByteWriter& out) {
  out.bytes(header.destination);
  out.bytes(header.source);
  if (header.vlan_tci) {
    out.u16(kEtherTypeVlan);
    out.u16(*header.vlan_tci);
  }
  out.u16(header.ethertype);
}

std::size_t encoded_size(const EthernetHeader& header) {
  return kEthernetHeaderSize + (header.vlan_tci ? 4 : 0);
}

std::string format_mac(const MacAddress& mac) {
  char buf[18];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0],
                mac[1], mac[2], mac[3], mac[4], mac[5]);
  return buf;
}

}  // namespace arfabric::wire
