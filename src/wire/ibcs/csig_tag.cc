#include "wire/ibcs/csig_tag.h"

#include <string>

#include "wire/inet/ethernet.h"

namespace arfabric::wire::ibcs {

std::expected<CsigTag, DecodeError> parse_csig_tag(ByteSpan data,
                                                   std::size_t base_offset,
                                                   std::uint16_t tpid) {
  ByteReader r(data, base_offset);
  CsigTag tag;
  tag.tpid = ARF_TRY(r.u16("csig.tpid"));
  if (tag.tpid != tpid) {
    return std::unexpected(r.error_at(base_offset, "csig.tpid",
                                      "TPID " + std::to_string(tag.tpid) +
                                          " is not the CSIG TPID " +
                                          std::to_string(tpid)));
  }
  const std::uint16_t control = ARF_TRY(r.u16("csig.control"));
  tag.signal_type = static_cast<std::uint8_t>(control >> 13);
  tag.reserved = static_cast<std::uint8_t>(control >> 12 & 1);
  tag.signal_value = static_cast<std::uint8_t>(control >> 7 & 0x1f);
  tag.locator_metadata = static_cast<std::uint8_t>(control & 0x7f);
  return tag;
}

std::expected<void, EncodeError> serialize(const CsigTag& tag,
                                           ByteWriter& out) {
  if (tag.signal_type > 7)
    return std::unexpected(EncodeError{"csig.signal_type", "exceeds 3 bits"});
  if (tag.reserved > 1)
    return std::unexpected(EncodeError{"csig.reserved", "exceeds 1 bit"});
  if (tag.signal_value > kCsigMaxSignalValue) {
    return std::unexpected(EncodeError{"csig.signal_value", "exceeds 5 bits"});
  }
  if (tag.locator_metadata > kCsigMaxLocator) {
    return std::unexpected(
        EncodeError{"csig.locator_metadata", "exceeds 7 bits"});
  }
  out.u16(tag.tpid);
  out.u16(
      static_cast<std::uint16_t>(tag.signal_type << 13 | tag.reserved << 12 |
                                 tag.signal_value << 7 | tag.locator_metadata));
  return {};
}

std::optional<std::string> csig_tpid_problem(std::uint16_t tpid) {
  if (tpid < 0x0600)
    return "not an EtherType (802.3 lengths go up to 1500, EtherTypes start "
           "at 0x0600)";
  if (is_vlan_tpid(tpid)) return "a VLAN tag's TPID";
  if (tpid == kEtherTypeIpv4) return "IPv4's EtherType";
  if (tpid == kEtherTypeIpv6) return "IPv6's EtherType";
  if (tpid == kEtherTypeArp) return "ARP's EtherType";
  return std::nullopt;
}

}  // namespace arfabric::wire::ibcs
