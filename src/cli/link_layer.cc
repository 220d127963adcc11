#include "cli/link_layer.h"

namespace arfabric::cli {
namespace {

constexpr int kDltEthernet = 1;
constexpr int kDltRaw = 12;
constexpr int kLinktypeRaw = 101;  // raw IP, as some pcap files say it
constexpr int kDltIpv4 = 228;
constexpr int kDltIpv6 = 229;
constexpr int kDltLinuxSll = 113;
constexpr int kDltLinuxSll2 = 276;

std::uint16_t be16(ByteSpan b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}

bool is_tag(std::uint16_t ethertype) {
  return ethertype == 0x8100 || ethertype == 0x88a8 || ethertype == 0x9100;
}

// The EtherType at `at` (inside the frame), tags after it stepped over.
std::optional<NetworkPacket> after_tags(ByteSpan frame, std::size_t at) {
  if (frame.size() < at + 2) return std::nullopt;
  std::uint16_t type = be16(frame, at);
  at += 2;
  while (is_tag(type)) {
    if (frame.size() < at + 4) return std::nullopt;
    type = be16(frame, at + 2);
    at += 4;
  }
  return NetworkPacket{type, at};
}

}  // namespace

bool known_link_type(int link_type) {
  switch (link_type) {
    case kDltEthernet:
    case kDltRaw:
    case kLinktypeRaw:
    case kDltIpv4:
    case kDltIpv6:
    case kDltLinuxSll:
    case kDltLinuxSll2:
      return true;
    default:
      return false;
  }
}

std::optional<NetworkPacket> network_packet(int link_type, ByteSpan frame) {
  switch (link_type) {
    case kDltEthernet:
      return after_tags(frame, 12);
    case kDltRaw:
    case kLinktypeRaw:
    case kDltIpv4:
    case kDltIpv6: {
      if (frame.empty()) return std::nullopt;
      const int version = frame[0] >> 4;
      if (version == 4) return NetworkPacket{0x0800, 0};
      if (version == 6) return NetworkPacket{0x86dd, 0};
      return std::nullopt;
    }
    case kDltLinuxSll:  // 16 octets, the protocol in the last two
      return after_tags(frame, 14);
    case kDltLinuxSll2: {  // 20 octets, the protocol in the first two
      if (frame.size() < 20) return std::nullopt;
      const std::uint16_t type = be16(frame, 0);
      if (!is_tag(type)) return NetworkPacket{type, 20};
      // The tag put back after the header: its TCI, then the protocol.
      return after_tags(frame, 20 + 2);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace arfabric::cli
