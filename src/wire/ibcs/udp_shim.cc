#include "wire/ibcs/udp_shim.h"

#include <string>

namespace arfabric::wire::ibcs {

std::expected<UdpShim, DecodeError> parse_udp_shim(ByteSpan data,
                                                   std::size_t base_offset) {
  ByteReader r(data, base_offset);
  UdpShim s;
  const std::uint8_t version_type = ARF_TRY(r.u8("ibcs_udp.version"));
  s.version = version_type >> 4;
  s.signal_type = version_type & 0x0f;
  if (s.version != kUdpShimVersion) {
    return std::unexpected(
        r.error_at(base_offset, "ibcs_udp.version",
                   "version " + std::to_string(s.version) + " is not 1"));
  }
  s.metric = ARF_TRY(r.u32("ibcs_udp.metric"));
  const ByteSpan reserved = ARF_TRY(r.bytes(3, "ibcs_udp.reserved"));
  std::copy(reserved.begin(), reserved.end(), s.reserved.begin());
  return s;
}

std::expected<void, EncodeError> serialize(const UdpShim& s, ByteWriter& out) {
  if (s.version > 0x0f) {
    return std::unexpected(EncodeError{"ibcs_udp.version", "exceeds 4 bits"});
  }
  if (s.signal_type > 0x0f) {
    return std::unexpected(
        EncodeError{"ibcs_udp.signal_type", "exceeds 4 bits"});
  }
  out.u8(static_cast<std::uint8_t>(s.version << 4 | s.signal_type));
  out.u32(s.metric);
  out.bytes(s.reserved);
  return {};
}

}  // namespace arfabric::wire::ibcs
