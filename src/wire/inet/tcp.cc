#include "wire/inet/tcp.h"

#include "wire/inet/checksum.h"

namespace arfabric::wire {

std::expected<TcpSegment, DecodeError> parse_tcp(ByteSpan data,
                                                 std::size_t base_offset) {
  ByteReader r(data, base_offset);
  TcpSegment out;
  TcpHeader& h = out.header;
  h.source_port = ARF_TRY(r.u16("tcp.source_port"));
  h.destination_port = ARF_TRY(r.u16("tcp.destination_port"));
  h.sequence = ARF_TRY(r.u32("tcp.sequence"));
  h.acknowledgment = ARF_TRY(r.u32("tcp.acknowledgment"));
  const std::uint8_t data_offset = ARF_TRY(r.u8("tcp.data_offset"));
  h.reserved = data_offset & 0x0f;
  h.flags = ARF_TRY(r.u8("tcp.flags"));
  h.window = ARF_TRY(r.u16("tcp.window"));
  h.checksum = ARF_TRY(r.u16("tcp.checksum"));
  h.urgent = ARF_TRY(r.u16("tcp.urgent"));
  const std::size_t header_length = (data_offset >> 4) * 4u;
  if (header_length < 20 || header_length > data.size()) {
    return std::unexpected(
        r.error_at(base_offset + 12, "tcp.data_offset",
                   "header length " + std::to_string(header_length) +
                       " is outside 20.." + std::to_string(data.size())));
  }
  auto options = ARF_TRY(r.bytes(header_length - 20, "tcp.options"));
  h.options.assign(options.begin(), options.end());
  out.payload = r.rest();
  return out;
}

std::expected<void, EncodeError> serialize_tcp_ipv4(const TcpHeader& h,
                                                    const Ipv4Header& ip,
                                                    ByteSpan payload,
                                                    ByteWriter& out) {
  if (h.options.size() % 4 != 0 || h.options.size() > 40) {
    return std::unexpected(
        EncodeError{"tcp.options", "not a multiple of 4 up to 40"});
  }
  if (h.reserved > 0x0f) {
    return std::unexpected(EncodeError{"tcp.reserved", "exceeds 4 bits"});
  }
  const std::size_t header_length = 20 + h.options.size();
  const std::size_t length = header_length + payload.size();
  if (length > 0xffff)
    return std::unexpected(EncodeError{"tcp", "segment exceeds 65535"});
  const std::size_t start = out.size();
  out.u16(h.source_port);
  out.u16(h.destination_port);
  out.u32(h.sequence);
  out.u32(h.acknowledgment);
  out.u8(static_cast<std::uint8_t>(header_length / 4 << 4 | h.reserved));
  out.u8(h.flags);
  out.u16(h.window);
  out.u16(0);
  out.u16(h.urgent);
  out.bytes(h.options);
  out.bytes(payload);
  out.patch_u16(start + 16,
                internet_checksum(ByteSpan(out.data()).subspan(start, length),
                                  ipv4_pseudo_header_sum(
                                      ip.source, ip.destination, kIpProtoTcp,
                                      static_cast<std::uint16_t>(length))));
  return {};
}

}  // namespace arfabric::wire
