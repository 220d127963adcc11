#include "wire/inet/udp.h"

#include "wire/inet/checksum.h"

namespace arfabric::wire {

std::expected<UdpDatagram, DecodeError> parse_udp(ByteSpan data,
                                                  std::size_t base_offset) {
  ByteReader r(data, base_offset);
  UdpDatagram out;
  out.header.source_port = ARF_TRY(r.u16("udp.source_port"));
  out.header.destination_port = ARF_TRY(r.u16("udp.destination_port"));
  out.header.length = ARF_TRY(r.u16("udp.length"));
  out.header.checksum = ARF_TRY(r.u16("udp.checksum"));
  if (out.header.length < kUdpHeaderSize || out.header.length > data.size()) {
    return std::unexpected(
        r.error_at(base_offset + 4, "udp.length",
                   "length " + std::to_string(out.header.length) +
                       " is outside 8.." + std::to_string(data.size())));
  }
  out.payload =
      data.subspan(kUdpHeaderSize, out.header.length - kUdpHeaderSize);
  return out;
}

std::expected<void, EncodeError> serialize_udp_ipv4(const UdpHeader& header,
                                                    const Ipv4Header& ip,
                                                    ByteSpan payload,
                                                    ByteWriter& out) {
  const std::size_t length = kUdpHeaderSize + payload.size();
  if (length > 0xffff) {
    return std::unexpected(
        EncodeError{"udp.length", "datagram exceeds 65535 bytes"});
  }
  const std::size_t start = out.size();
  out.u16(header.source_port);
  out.u16(header.destination_port);
  out.u16(static_cast<std::uint16_t>(length));
  out.u16(0);
  out.bytes(payload);
  std::uint16_t sum = internet_checksum(
      ByteSpan(out.data()).subspan(start, length),
      ipv4_pseudo_header_sum(ip.source, ip.destination, kIpProtoUdp,
                             static_cast<std::uint16_t>(length)));
  if (sum == 0) sum = 0xffff;  // RFC 768: a computed zero is sent as all ones
  out.patch_u16(start + 6, sum);
  return {};
}

bool udp_checksum_valid(const Ipv4Header& ip, ByteSpan udp_segment) {
  if (udp_segment.size() < kUdpHeaderSize) return false;
  if (udp_segment[6] == 0 && udp_segment[7] == 0) return true;
  // RFC 768: the UDP length, not the IP payload size, bounds what the
  // checksum covers and is the length in the pseudo-header.
  const std::uint16_t length =
      static_cast<std::uint16_t>(udp_segment[4] << 8 | udp_segment[5]);
  if (length < kUdpHeaderSize || length > udp_segment.size()) return false;
  return internet_checksum(udp_segment.first(length),
                           ipv4_pseudo_header_sum(ip.source, ip.destination,
                                                  kIpProtoUdp, length)) == 0;
}

}  // namespace arfabric::wire
