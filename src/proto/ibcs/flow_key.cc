#include "proto/ibcs/flow_key.h"

#include <algorithm>

#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"

namespace arfabric::proto::ibcs {

std::optional<FlowKey> extract_flow_key(ByteSpan frame,
                                        std::uint16_t csig_ethertype) {
  std::size_t p = 12;
  bool csig = false;
  std::uint16_t type = 0;
  for (;;) {
    if (frame.size() < p + 2) return std::nullopt;
    type = load_be16(frame, p);
    p += 2;
    if (wire::is_vlan_tpid(type)) {
      p += 2;
    } else if (type == csig_ethertype && !csig) {
      csig = true;
      p += 2;
    } else {
      break;
    }
  }
  if (type != wire::kEtherTypeIpv4 || frame.size() < p + 20)
    return std::nullopt;
  const ByteSpan ip = frame.subspan(p);
  if (ip[0] >> 4 != 4) return std::nullopt;
  const std::size_t ihl = (ip[0] & 0x0f) * 4u;
  if (ihl < 20 || ip.size() < ihl) return std::nullopt;
  FlowKey key;
  key.protocol = ip[9];
  std::copy_n(ip.begin() + 12, 4, key.source.begin());
  std::copy_n(ip.begin() + 16, 4, key.destination.begin());
  if (key.protocol != wire::kIpProtoUdp && key.protocol != wire::kIpProtoTcp)
    return key;
  if ((load_be16(ip, 6) & 0x1fff) != 0 || ip.size() < ihl + 4)
    return std::nullopt;
  key.source_port = load_be16(ip, ihl);
  key.destination_port = load_be16(ip, ihl + 2);
  return key;
}

}  // namespace arfabric::proto::ibcs
