// Where the network-layer packet starts in a captured frame, for the link
// types `tcpdump` and `dumpcap` save on a router: Ethernet (DLT 1), raw IP
// (DLT 12, 101, 228, 229) and Linux cooked captures (DLT 113 and 276,
// `tcpdump -i any`). 802.1Q and 802.1ad tags are stepped over, any number
// of them (libpcap puts a tag the kernel took off back after the cooked
// header).
#pragma once

#include <cstdint>
#include <optional>

#include "common/bytes.h"

namespace arfabric::cli {

struct NetworkPacket {
  // The EtherType of what follows (0x0800 IPv4, 0x86DD IPv6, ...); an
  // 802.3 length (at most 1500) for an LLC frame.
  std::uint16_t ethertype = 0;
  std::size_t offset = 0;  // where it starts in the frame
};

// nullopt: a link type not listed above, or a frame too short for its
// link header and tags (or a raw IP frame whose version is not 4 or 6).
std::optional<NetworkPacket> network_packet(int link_type, ByteSpan frame);

// Whether network_packet() knows `link_type`.
bool known_link_type(int link_type);

}  // namespace arfabric::cli
