#include "sim/output/control_frames.h"

#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/tcp.h"

namespace arfabric::sim::output {

namespace {

constexpr std::uint16_t kBgpPort = 179;
constexpr std::uint16_t kEphemeralBase = 49152;

wire::MacAddress mac(NodeIndex n) {
  return {0x02,
          0x00,
          0x0a,
          0xff,
          static_cast<std::uint8_t>(n >> 8),
          static_cast<std::uint8_t>(n)};
}

wire::Ipv4Address ipv4(NodeIndex n) {
  return {10, 255, static_cast<std::uint8_t>(n >> 8),
          static_cast<std::uint8_t>(n)};
}

wire::EthernetHeader ethernet(const ControlCapture& c) {
  return {.destination = mac(c.neighbour),
          .source = mac(c.node),
          .vlan_tci = std::nullopt,
          .ethertype = wire::kEtherTypeIpv4};
}

// An IPv4 packet, not an Ethernet frame: a valid header checksum and a total
// length that covers exactly the message.
bool is_ipv4_packet(ByteSpan bytes) {
  auto p = wire::parse_ipv4(bytes);
  return p && p->checksum_valid && p->header.total_length == bytes.size();
}

}  // namespace

Bytes ControlFrameTap::frame(const ControlCapture& c) {
  if (c.protocol == ControlProtocol::lsn)
    return Bytes(c.bytes.begin(), c.bytes.end());
  if (c.protocol == ControlProtocol::arn) {
    if (!is_ipv4_packet(c.bytes)) return Bytes(c.bytes.begin(), c.bytes.end());
    ByteWriter out;
    wire::serialize(ethernet(c), out);
    out.bytes(c.bytes);
    return out.take();
  }
  // BGP: one TCP segment per message on the connection's stream.
  const std::uint32_t id = c.connection == 0 ? 1 : c.connection;
  const std::uint32_t other = id % 2 == 1 ? id + 1 : id - 1;
  if (next_sequence_.size() < std::max(id, other)) {
    next_sequence_.resize(std::max(id, other), 1);
  }
  const std::uint16_t ephemeral =
      static_cast<std::uint16_t>(kEphemeralBase + ((id + 1) / 2 - 1) % 16384);
  wire::TcpHeader th;
  th.source_port = id % 2 == 1 ? ephemeral : kBgpPort;
  th.destination_port = id % 2 == 1 ? kBgpPort : ephemeral;
  th.sequence = next_sequence_[id - 1];
  th.acknowledgment = next_sequence_[other - 1];
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoTcp;
  ip.dscp = 48;  // CS6, network control
  ip.flags = 2;  // DF
  ip.ttl = 1;    // eBGP between neighbours
  ip.source = ipv4(c.node);
  ip.destination = ipv4(c.neighbour);
  ByteWriter tcp;
  if (!wire::serialize_tcp_ipv4(th, ip, c.bytes, tcp)) return {};
  ByteWriter out;
  wire::serialize(ethernet(c), out);
  if (!wire::serialize(ip, tcp.size(), out)) return {};
  out.bytes(tcp.data());
  next_sequence_[id - 1] += static_cast<std::uint32_t>(c.bytes.size());
  return out.take();
}

void ControlFrameTap::on_control_sent(const ControlCapture& capture) {
  const Bytes f = frame(capture);
  if (f.empty()) {
    ++unframed_;
    return;
  }
  ++frames_;
  if (sink_) sink_(capture.at, f);
}

}  // namespace arfabric::sim::output
