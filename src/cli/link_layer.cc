#include "cli/link_layer.h"

#include <algorithm>
#include <string>

#include "common/hex.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"

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

// The tags stepped over: any number of VLAN tags, the extra one once.
class TagWalk {
 public:
  TagWalk(ByteSpan frame, const char* link, std::uint16_t extra_tag_tpid)
      : frame_(frame), link_(link), extra_(extra_tag_tpid) {}

  bool is_tag(std::uint16_t type) const {
    return wire::is_vlan_tpid(type) ||
           (extra_ != 0 && type == extra_ && !extra_seen_);
  }

  // Steps over the tag whose TPID `packet.ethertype` is and whose TCI is
  // at `at`, to the EtherType after it. Errors name the missing field:
  // "<link>.vlan.tci", "<link>.vlan.ethertype" (".csig." for the extra
  // tag), at its offset.
  std::expected<std::size_t, DecodeError> step(NetworkPacket& packet,
                                               std::size_t at) {
    const bool vlan = wire::is_vlan_tpid(packet.ethertype);
    if (!vlan) extra_seen_ = true;
    const std::string tag = std::string(link_) + (vlan ? ".vlan" : ".csig");
    const std::string what =
        "a tag (TPID " + to_hex16(packet.ethertype) + ") cut short";
    if (frame_.size() < at + 2)
      return std::unexpected(
          DecodeError{tag + (vlan ? ".tci" : ".control"), at, what});
    if (frame_.size() < at + 4)
      return std::unexpected(DecodeError{tag + ".ethertype", at + 2, what});
    packet.tags.push_back(LinkTag{packet.ethertype, load_be16(frame_, at)});
    packet.ethertype = load_be16(frame_, at + 2);
    return at + 4;
  }

  // `packet` has its first EtherType, just before `at`; the tags from
  // there are stepped over and kept.
  std::expected<NetworkPacket, DecodeError> after_tags(NetworkPacket packet,
                                                       std::size_t at) {
    while (is_tag(packet.ethertype)) at = ARF_TRY(step(packet, at));
    packet.offset = at;
    return packet;
  }

 private:
  ByteSpan frame_;
  const char* link_;
  std::uint16_t extra_;
  bool extra_seen_ = false;
};

DecodeError short_header(const char* field, std::size_t size,
                         std::size_t header) {
  return DecodeError{field, size,
                     "a frame of " + std::to_string(size) +
                         " bytes is shorter than the " +
                         std::to_string(header) + "-byte header"};
}

}  // namespace

std::optional<ByteSpan> llc_frame(int link_type, ByteSpan frame,
                                  const NetworkPacket& packet) {
  constexpr std::uint16_t kCookedLlc = 0x0004;  // Linux's ETH_P_802_2
  const ByteSpan rest = frame.subspan(packet.offset);
  if (link_type == kDltEthernet && packet.ethertype <= 1500)
    return rest.first(std::min<std::size_t>(packet.ethertype, rest.size()));
  if ((link_type == kDltLinuxSll || link_type == kDltLinuxSll2) &&
      packet.ethertype == kCookedLlc)
    return rest;
  return std::nullopt;
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
      return TagWalk(frame, "eth", extra_tag_tpid)
          .after_tags({load_be16(frame, 12), 0, {}}, kEthernetHeader);
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
      return TagWalk(frame, "sll", extra_tag_tpid)
          .after_tags({load_be16(frame, 14), 0, {}}, kSllHeader);
    case kDltLinuxSll2: {
      if (frame.size() < kSll2Header)
        return std::unexpected(
            short_header("sll2.header", frame.size(), kSll2Header));
      NetworkPacket packet{load_be16(frame, 0), 0, {}};
      TagWalk walk(frame, "sll2", extra_tag_tpid);
      if (!walk.is_tag(packet.ethertype)) {
        packet.offset = kSll2Header;
        return packet;
      }
      // The tag put back after the header: its TCI, then the protocol.
      const std::size_t at = ARF_TRY(walk.step(packet, kSll2Header));
      return walk.after_tags(std::move(packet), at);
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
