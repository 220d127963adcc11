// Where the network-layer packet starts in a captured frame, for the link
// types `tcpdump` and `dumpcap` save on a router: Ethernet (DLT 1), raw IP
// (DLT 12, 101, 228, 229) and Linux cooked captures (DLT 113 and 276,
// `tcpdump -i any`). VLAN tags (wire::is_vlan_tpid: 802.1Q, 802.1ad and
// the older QinQ 0x9100) are stepped over, any number of them, and kept,
// also where libpcap put a tag the kernel took off back after a cooked
// header; so is one 4-byte tag whose TPID the caller names (IBCS's CSIG
// tag).
//
// Errors (DecodeError, offsets in the frame):
//   "pcap.link_type"  a link type not listed above;
//   "eth.header"      an Ethernet frame shorter than its 14-byte header;
//   "sll.header", "sll2.header"  a cooked frame shorter than its header;
//   "<link>.vlan.tci", "<link>.vlan.ethertype" (".csig.control",
//                     ".csig.ethertype" for the named tag), <link> eth,
//                     sll or sll2: a tag cut short, at the missing field;
//   "ip.version"      a raw IP packet that is empty or neither IPv4 nor
//                     IPv6.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "common/bytes.h"

namespace arfabric::cli {

struct LinkTag {
  std::uint16_t tpid = 0;
  std::uint16_t tci = 0;  // the 16 bits after the TPID
  bool operator==(const LinkTag&) const = default;
};

struct NetworkPacket {
  // The EtherType of what follows (0x0800 IPv4, 0x86DD IPv6, ...); in an
  // Ethernet frame an 802.3 length (at most 1500) for an LLC frame.
  std::uint16_t ethertype = 0;
  std::size_t offset = 0;     // where it starts in the frame
  std::vector<LinkTag> tags;  // outermost first
};

// `extra_tag_tpid`, when not 0, is stepped over as a tag too, once.
std::expected<NetworkPacket, DecodeError> network_packet(
    int link_type, ByteSpan frame, std::uint16_t extra_tag_tpid = 0);

// The 802.2 LLC frame (an IS-IS PDU's, say) `packet` is, if it is one:
// in Ethernet, what an 802.3 length counts (padding may follow it); in a
// Linux cooked capture, what follows protocol 4 (ETH_P_802_2). Nothing
// for another packet or link type.
std::optional<ByteSpan> llc_frame(int link_type, ByteSpan frame,
                                  const NetworkPacket& packet);

// Whether network_packet() knows `link_type`.
bool known_link_type(int link_type);

}  // namespace arfabric::cli
