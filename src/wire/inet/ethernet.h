// Ethernet II header (IEEE 802.3 with EtherType), and 802.3 length frames with
// an LLC header, as carried around LSN, ARN (raw L2) and IS-IS PDUs.
//
// Parsing yields the header and a view of the payload. An optional 802.1Q tag
// is kept. Frames whose type/length field is <= 1500 are 802.3 length frames:
// `ethertype` then holds the length and `is_length` is set.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>

#include "common/bytes.h"

namespace arfabric::wire {

using MacAddress = std::array<std::uint8_t, 6>;

inline constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr std::uint16_t kEtherTypeVlan = 0x8100;
inline constexpr std::uint16_t kEtherTypeQinQ = 0x88a8;     // 802.1ad S-tag
inline constexpr std::uint16_t kEtherTypeQinQOld = 0x9100;  // before 802.1ad
inline constexpr std::uint16_t kEtherTypeIpv6 = 0x86dd;
inline constexpr std::uint16_t kEtherTypeArp = 0x0806;
inline constexpr std::uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr std::size_t kEthernetHeaderSize = 14;
// Minimum frame size without FCS; shorter frames are padded with zeros.
inline constexpr std::size_t kEthernetMinFrameSize = 60;

// Whether `tpid` starts a VLAN tag (4 bytes: the TPID, then the TCI):
// 802.1Q, 802.1ad, or the pre-standard QinQ 0x9100. parse_ethernet()
// reads one 802.1Q tag; the walkers of IBCS (wire/ibcs/signal_field,
// proto/ibcs/flow_key) and cli/link_layer step over any of them.
constexpr bool is_vlan_tpid(std::uint16_t tpid) {
  return tpid == kEtherTypeVlan || tpid == kEtherTypeQinQ ||
         tpid == kEtherTypeQinQOld;
}

struct EthernetHeader {
  MacAddress destination{};
  MacAddress source{};
  std::optional<std::uint16_t> vlan_tci;  // present when 802.1Q tagged
  std::uint16_t ethertype = 0;            // or the length, see is_length()
  bool is_length() const { return ethertype <= 1500; }
  bool operator==(const EthernetHeader&) const = default;
};

struct EthernetFrame {
  EthernetHeader header;
  ByteSpan payload;  // view into the parsed buffer, may include padding
};

// Errors: "eth.destination", "eth.source", "eth.ethertype", "eth.vlan" when
// the frame is shorter than its header.
std::expected<EthernetFrame, DecodeError> parse_ethernet(ByteSpan frame);
void serialize(const EthernetHeader& header, ByteWriter& out);
std::size_t encoded_size(const EthernetHeader& header);

std::string format_mac(const MacAddress& mac);

}  // namespace arfabric::wire
