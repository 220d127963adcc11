#include "wire/inet/ipv6.h"

#include <arpa/inet.h>

namespace arfabric::wire {

std::expected<Ipv6Packet, DecodeError> parse_ipv6(ByteSpan data,
                                                  std::size_t base_offset) {
  ByteReader r(data, base_offset);
  Ipv6Packet out;
  out.header_offset = base_offset;
  Ipv6Header& h = out.header;
  const std::uint32_t first = ARF_TRY(r.u32("ipv6.version"));
  if (first >> 28 != 6) {
    return std::unexpected(
        r.error_at(base_offset, "ipv6.version",
                   "expected 6, got " + std::to_string(first >> 28)));
  }
  h.traffic_class = static_cast<std::uint8_t>(first >> 20);
  h.flow_label = first & 0xfffff;
  h.payload_length = ARF_TRY(r.u16("ipv6.payload_length"));
  h.next_header = ARF_TRY(r.u8("ipv6.next_header"));
  h.hop_limit = ARF_TRY(r.u8("ipv6.hop_limit"));
  auto src = ARF_TRY(r.bytes(16, "ipv6.source"));
  std::copy(src.begin(), src.end(), h.source.begin());
  auto dst = ARF_TRY(r.bytes(16, "ipv6.destination"));
  std::copy(dst.begin(), dst.end(), h.destination.begin());
  if (h.payload_length > r.remaining()) {
    return std::unexpected(r.error_at(
        base_offset + 4, "ipv6.payload_length",
        "payload length " + std::to_string(h.payload_length) + " exceeds the " +
            std::to_string(r.remaining()) + " bytes after the header"));
  }
  out.payload = data.subspan(kIpv6HeaderBytes, h.payload_length);
  return out;
}

std::expected<void, EncodeError> serialize(const Ipv6Header& h,
                                           std::size_t payload_length,
                                           ByteWriter& out) {
  if (h.flow_label > 0xfffff)
    return std::unexpected(EncodeError{"ipv6.flow_label", "exceeds 20 bits"});
  if (payload_length > 0xffff) {
    return std::unexpected(
        EncodeError{"ipv6.payload_length", "payload exceeds 65535 bytes"});
  }
  out.u32(std::uint32_t{6} << 28 | std::uint32_t{h.traffic_class} << 20 |
          h.flow_label);
  out.u16(static_cast<std::uint16_t>(payload_length));
  out.u8(h.next_header);
  out.u8(h.hop_limit);
  out.bytes(h.source);
  out.bytes(h.destination);
  return {};
}

std::string format_ipv6(const Ipv6Address& address) {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET6, address.data(), text, sizeof text);
  return text;
}

}  // namespace arfabric::wire
