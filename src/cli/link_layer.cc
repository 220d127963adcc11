#include "cli/link_layer.h"

#include <string>

#include "common/hex.h"
#include "sysdep/linux/pcap_file.h"

namespace arfabric::cli {
namespace {

constexpr int kDltEthernet = 1;
constexpr int kDltRaw = 12;
constexpr int kLinktypeRaw = 101;  // raw IP, as some pcap files say it
constexpr int kDltIpv4 = 228;
constexpr int kDltIpv6 = 229;
constexpr int kDltLinuxSll = 113;   // 16 octets, the protocol in the last two
constexpr int kDltLinuxSll2 = 276;  // 20 octets, the protocol in the first two
constexpr std::size_t kEthernetHeader = 14;
constexpr std::size_t kSllHeader = 16;
constexpr std::size_t kSll2Header = 20;

std::uint16_t be16(ByteSpan b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}

DecodeError cut_tag(const char* link, std::size_t at, std::uint16_t tpid) {
  return DecodeError{std::string(link) + ".tag", at,
                     "a tag (TPID " + to_hex16(tpid) +
                         ") needs 2 bytes after its TPID, then an EtherType"};
}

// `packet` has its first EtherType, at `at` - 2 in the frame; the tags that
// follow are stepped over and kept.
std::expected<NetworkPacket, DecodeError> after_tags(
    ByteSpan frame, std::size_t at, NetworkPacket packet, const char* link,
    std::uint16_t extra_tag_tpid) {
  const auto is_tag = [&](std::uint16_t type) {
    return is_vlan_tpid(type) ||
           (extra_tag_tpid != 0 && type == extra_tag_tpid);
  };
  while (is_tag(packet.ethertype)) {
    if (frame.size() < at + 4)
      return std::unexpected(cut_tag(link, at - 2, packet.ethertype));
    packet.tags.push_back(LinkTag{packet.ethertype, be16(frame, at)});
    packet.ethertype = be16(frame, at + 2);
    at += 4;
  }
  packet.offset = at;
  return packet;
}

DecodeError short_header(const char* field, std::size_t size,
                         std::size_t header) {
  return DecodeError{field, size,
                     "a frame of " + std::to_string(size) +
                         " bytes is shorter than the " +
                         std::to_string(header) + "-byte header"};
}

}  // namespace

bool is_vlan_tpid(std::uint16_t tpid) {
  return tpid == 0x8100 || tpid == 0x88a8 || tpid == 0x9100;
}

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

std::expected<NetworkPacket, DecodeError> network_packet(
    int link_type, ByteSpan frame, std::uint16_t extra_tag_tpid) {
  switch (link_type) {
    case kDltEthernet:
      if (frame.size() < kEthernetHeader)
        return std::unexpected(
            short_header("eth.header", frame.size(), kEthernetHeader));
      return after_tags(frame, kEthernetHeader, {be16(frame, 12), 0, {}}, "eth",
                        extra_tag_tpid);
    case kDltRaw:
    case kLinktypeRaw:
    case kDltIpv4:
    case kDltIpv6: {
      if (frame.empty())
        return std::unexpected(DecodeError{"ip.version", 0, "no IP header"});
      const int version = frame[0] >> 4;
      if (version == 4) return NetworkPacket{0x0800, 0, {}};
      if (version == 6) return NetworkPacket{0x86dd, 0, {}};
      return std::unexpected(DecodeError{
          "ip.version", 0,
          "version " + std::to_string(version) + " is neither IPv4 nor IPv6"});
    }
    case kDltLinuxSll:
      if (frame.size() < kSllHeader)
        return std::unexpected(
            short_header("sll.header", frame.size(), kSllHeader));
      return after_tags(frame, kSllHeader, {be16(frame, 14), 0, {}}, "sll",
                        extra_tag_tpid);
    case kDltLinuxSll2: {
      if (frame.size() < kSll2Header)
        return std::unexpected(
            short_header("sll2.header", frame.size(), kSll2Header));
      NetworkPacket packet{be16(frame, 0), 0, {}};
      const bool tagged =
          is_vlan_tpid(packet.ethertype) ||
          (extra_tag_tpid != 0 && packet.ethertype == extra_tag_tpid);
      if (!tagged) {
        packet.offset = kSll2Header;
        return packet;
      }
      // The tag put back after the header: its TCI, then the protocol.
      if (frame.size() < kSll2Header + 4)
        return std::unexpected(cut_tag("sll2", kSll2Header, packet.ethertype));
      packet.tags.push_back(
          LinkTag{packet.ethertype, be16(frame, kSll2Header)});
      packet.ethertype = be16(frame, kSll2Header + 2);
      return after_tags(frame, kSll2Header + 4, std::move(packet), "sll2",
                        extra_tag_tpid);
    }
    default:
      return std::unexpected(DecodeError{
          "pcap.link_type", 0,
          "link type " + std::to_string(link_type) + " (" +
              sysdep::link_type_name(link_type) +
              ") is not read: Ethernet, raw IP and Linux cooked captures "
              "are"});
  }
}

}  // namespace arfabric::cli
