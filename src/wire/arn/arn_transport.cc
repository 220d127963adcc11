#include "wire/arn/arn_transport.h"

#include <string>

namespace arfabric::wire::arn {

std::expected<void, EncodeError> serialize_ipv4_udp(
    const ArnMessage& message, const Ipv4Address& source,
    const Ipv4Address& destination, const UdpOptions& options,
    ByteWriter& out) {
  // Sized up front: one allocation instead of a vector's doublings.
  Bytes buffer;
  buffer.reserve(encoded_size(message));
  ByteWriter payload(std::move(buffer));
  ARF_TRY(serialize(message, payload));
  Ipv4Header ip;
  ip.dscp = options.dscp;
  ip.ttl = options.ttl;
  ip.protocol = kIpProtoUdp;
  ip.source = source;
  ip.destination = destination;
  const std::size_t start = out.size();
  if (auto ok = wire::serialize(ip, kUdpHeaderSize + payload.size(), out);
      !ok) {
    out.truncate(start);
    return ok;
  }
  UdpHeader udp{.source_port = options.port, .destination_port = options.port};
  if (auto ok = serialize_udp_ipv4(udp, ip, payload.data(), out); !ok) {
    out.truncate(start);
    return ok;
  }
  return {};
}

std::size_t encoded_size_ipv4_udp(const ArnMessage& message) {
  return encoded_size(Ipv4Header{}) + kUdpHeaderSize + encoded_size(message);
}

std::expected<ArnDatagram, DecodeError> parse_ipv4_udp(
    ByteSpan ipv4_packet, const UdpOptions& options, std::size_t base_offset) {
  ArnDatagram out;
  auto ip = ARF_TRY(parse_ipv4(ipv4_packet, base_offset));
  out.ip = ip.header;
  out.ip_checksum_valid = ip.checksum_valid;
  const std::size_t udp_offset = base_offset + encoded_size(ip.header);
  if (ip.header.protocol != kIpProtoUdp) {
    return std::unexpected(DecodeError{
        "ipv4.protocol", base_offset + 9,
        "protocol " + std::to_string(ip.header.protocol) + " is not UDP"});
  }
  auto udp = ARF_TRY(parse_udp(ip.payload, udp_offset));
  out.udp = udp.header;
  out.udp_checksum_valid = udp_checksum_valid(ip.header, ip.payload);
  if (udp.header.destination_port != options.port) {
    return std::unexpected(DecodeError{
        "arn.udp.destination_port", udp_offset + 2,
        "port " + std::to_string(udp.header.destination_port) +
            " is not the ARN port " + std::to_string(options.port)});
  }
  out.message = ARF_TRY(parse(udp.payload, udp_offset + kUdpHeaderSize));
  return out;
}

std::expected<ArnL2Frame, DecodeError> parse_l2(ByteSpan frame,
                                                const L2Options& options) {
  ByteReader r(frame);
  ArnL2Frame out;
  auto da = ARF_TRY(r.bytes(6, "arn.l2.destination"));
  std::copy(da.begin(), da.end(), out.destination.begin());
  auto sa = ARF_TRY(r.bytes(6, "arn.l2.source"));
  std::copy(sa.begin(), sa.end(), out.source.begin());
  const std::uint16_t ethertype = ARF_TRY(r.u16("arn.l2.ethertype"));
  if (ethertype != options.ethertype) {
    return std::unexpected(
        r.error_at(12, "arn.l2.ethertype",
                   "EtherType " + std::to_string(ethertype) +
                       " is not the configured ARN EtherType " +
                       std::to_string(options.ethertype)));
  }
  const std::uint16_t length = ARF_TRY(r.u16("arn.l2.length"));
  if (length > r.remaining()) {
    return std::unexpected(
        r.error_at(14, "arn.l2.length",
                   "length " + std::to_string(length) + " exceeds the " +
                       std::to_string(r.remaining()) + " bytes that follow"));
  }
  auto body = ARF_TRY(r.sub(length, "arn.l2.message"));
  out.message = ARF_TRY(parse(body.rest(), 16));
  return out;
}

std::expected<void, EncodeError> serialize_l2(const ArnL2Frame& frame,
                                              ByteWriter& out,
                                              const L2Options& options) {
  if (encoded_size(frame.message) > 0xffff) {
    return std::unexpected(
        EncodeError{"arn.l2.length", "message exceeds 65535 bytes"});
  }
  const std::size_t start = out.size();
  out.bytes(frame.destination);
  out.bytes(frame.source);
  out.u16(options.ethertype);
  out.u16(static_cast<std::uint16_t>(encoded_size(frame.message)));
  if (auto ok = serialize(frame.message, out); !ok) {
    out.truncate(start);
    return ok;
  }
  if (out.size() - start < kEthernetMinFrameSize) {
    out.zeros(kEthernetMinFrameSize - (out.size() - start));
  }
  return {};
}

std::size_t encoded_size_l2(const ArnL2Frame& frame) {
  const std::size_t n = kEthernetHeaderSize + 2 + encoded_size(frame.message);
  return n < kEthernetMinFrameSize ? kEthernetMinFrameSize : n;
}

}  // namespace arfabric::wire::arn
