#include "wire/inet/ipv4.h"

#include "wire/inet/checksum.h"

namespace arfabric::wire {

std::expected<Ipv4Packet, DecodeError> parse_ipv4(ByteSpan data,
                                                  std::size_t base_offset) {
  ByteReader r(data, base_offset);
  Ipv4Packet out;
  out.header_offset = base_offset;
  Ipv4Header& h = out.header;
  const std::uint8_t version_ihl = ARF_TRY(r.u8("ipv4.version"));
  if (version_ihl >> 4 != 4) {
    return std::unexpected(
        r.error_at(base_offset, "ipv4.version",
                   "expected 4, got " + std::to_string(version_ihl >> 4)));
  }
  const std::size_t header_length = (version_ihl & 0x0f) * 4u;
  if (header_length < 20) {
    return std::unexpected(r.error_at(base_offset, "ipv4.ihl",
                                      "header length " +
                                          std::to_string(header_length) +
                                          " is below the minimum of 20"));
  }
  if (header_length > data.size()) {
    return std::unexpected(r.error_at(
        base_offset, "ipv4.ihl",
        "header length " + std::to_string(header_length) + " exceeds the " +
            std::to_string(data.size()) + " bytes available"));
  }
  const std::uint8_t tos = ARF_TRY(r.u8("ipv4.tos"));
  h.dscp = tos >> 2;
  h.ecn = tos & 3;
  h.total_length = ARF_TRY(r.u16("ipv4.total_length"));
  if (h.total_length < header_length || h.total_length > data.size()) {
    return std::unexpected(
        r.error_at(base_offset + 2, "ipv4.total_length",
                   "total length " + std::to_string(h.total_length) +
                       " does not fit between the " +
                       std::to_string(header_length) + "-byte header and the " +
                       std::to_string(data.size()) + " bytes available"));
  }
  h.identification = ARF_TRY(r.u16("ipv4.identification"));
  const std::uint16_t flags_frag = ARF_TRY(r.u16("ipv4.fragment_offset"));
  h.flags = flags_frag >> 13;
  h.fragment_offset = flags_frag & 0x1fff;
  h.ttl = ARF_TRY(r.u8("ipv4.ttl"));
  h.protocol = ARF_TRY(r.u8("ipv4.protocol"));
  h.checksum = ARF_TRY(r.u16("ipv4.checksum"));
  auto src = ARF_TRY(r.bytes(4, "ipv4.source"));
  std::copy(src.begin(), src.end(), h.source.begin());
  auto dst = ARF_TRY(r.bytes(4, "ipv4.destination"));
  std::copy(dst.begin(), dst.end(), h.destination.begin());
  auto options = ARF_TRY(r.bytes(header_length - 20, "ipv4.options"));
  h.options.assign(options.begin(), options.end());
  out.checksum_valid = internet_checksum(data.first(header_length)) == 0;
  out.payload = data.subspan(header_length, h.total_length - header_length);
  return out;
}

std::expected<void, EncodeError> serialize(const Ipv4Header& h,
                                           std::size_t payload_length,
                                           ByteWriter& out) {
  if (h.options.size() % 4 != 0 || h.options.size() > 40) {
    return std::unexpected(EncodeError{
        "ipv4.options", "length " + std::to_string(h.options.size()) +
                            " is not a multiple of 4 up to 40"});
  }
  if (h.dscp > 63)
    return std::unexpected(EncodeError{"ipv4.dscp", "exceeds 6 bits"});
  if (h.ecn > 3)
    return std::unexpected(EncodeError{"ipv4.ecn", "exceeds 2 bits"});
  if (h.flags > 7)
    return std::unexpected(EncodeError{"ipv4.flags", "exceeds 3 bits"});
  if (h.fragment_offset > 0x1fff) {
    return std::unexpected(
        EncodeError{"ipv4.fragment_offset", "exceeds 13 bits"});
  }
  const std::size_t header_length = 20 + h.options.size();
  if (header_length + payload_length > 0xffff) {
    return std::unexpected(
        EncodeError{"ipv4.total_length", "packet exceeds 65535 bytes"});
  }
  const std::size_t start = out.size();
  out.u8(static_cast<std::uint8_t>(0x40 | header_length / 4));
  out.u8(static_cast<std::uint8_t>(h.dscp << 2 | h.ecn));
  out.u16(static_cast<std::uint16_t>(header_length + payload_length));
  out.u16(h.identification);
  out.u16(static_cast<std::uint16_t>(h.flags << 13 | h.fragment_offset));
  out.u8(h.ttl);
  out.u8(h.protocol);
  out.u16(0);
  out.bytes(h.source);
  out.bytes(h.destination);
  out.bytes(h.options);
  const std::uint16_t sum =
      internet_checksum(ByteSpan(out.data()).subspan(start, header_length));
  out.patch_u16(start + 10, sum);
  return {};
}

std::size_t encoded_size(const Ipv4Header& header) {
  return 20 + header.options.size();
}

std::uint32_t ipv4_pseudo_header_sum(const Ipv4Address& s, const Ipv4Address& d,
                                     std::uint8_t protocol,
                                     std::uint16_t length) {
  return (std::uint32_t{s[0]} << 8 | s[1]) + (std::uint32_t{s[2]} << 8 | s[3]) +
         (std::uint32_t{d[0]} << 8 | d[1]) + (std::uint32_t{d[2]} << 8 | d[3]) +
         protocol + length;
}

std::string format_ipv4(const Ipv4Address& a) {
  return std::to_string(a[0]) + "." + std::to_string(a[1]) + "." +
         std::to_string(a[2]) + "." + std::to_string(a[3]);
}

}  // namespace arfabric::wire
