#include "sim/output/control_frames.h"

#include <gtest/gtest.h>

#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/tcp.h"
#include "wire/inet/udp.h"

namespace arfabric::sim::output {
namespace {

// A BGP KEEPALIVE: 16-byte marker, length 19, type 4.
Bytes keepalive() {
  Bytes b(16, 0xff);
  b.insert(b.end(), {0x00, 0x13, 0x04});
  return b;
}

ControlCapture bgp(NodeIndex from, NodeIndex to, std::uint32_t connection,
                   const Bytes& bytes) {
  return {.at = us(3),
          .node = from,
          .port = 1,
          .neighbour = to,
          .protocol = ControlProtocol::bgp,
          .connection = connection,
          .bytes = bytes};
}

struct Parsed {
  wire::EthernetHeader eth;
  wire::Ipv4Header ip;
  wire::TcpHeader tcp;
  Bytes payload;
};

Parsed parse(const Bytes& frame) {
  Parsed p;
  auto eth = wire::parse_ethernet(frame);
  EXPECT_TRUE(eth);
  if (!eth) return p;
  p.eth = eth->header;
  auto ip = wire::parse_ipv4(eth->payload);
  EXPECT_TRUE(ip);
  if (!ip) return p;
  EXPECT_TRUE(ip->checksum_valid);
  p.ip = ip->header;
  auto tcp = wire::parse_tcp(ip->payload);
  EXPECT_TRUE(tcp);
  if (!tcp) return p;
  p.tcp = tcp->header;
  p.payload.assign(tcp->payload.begin(), tcp->payload.end());
  return p;
}

TEST(ControlFrames, BgpMessagesBecomeSegmentsOfOneTcpStreamPerConnection) {
  std::vector<std::pair<Time, Bytes>> seen;
  ControlFrameTap tap([&](Time at, ByteSpan f) {
    seen.emplace_back(at, Bytes(f.begin(), f.end()));
  });
  const Bytes ka = keepalive();
  Bytes open(29, 0xff);  // any bytes: the tap does not parse BGP
  // Connection 3/4 (k = 2): node 258 connected to node 5.
  tap.on_control_sent(bgp(258, 5, 3, open));
  tap.on_control_sent(bgp(5, 258, 4, ka));
  tap.on_control_sent(bgp(258, 5, 3, ka));
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(tap.frames(), 3u);
  EXPECT_EQ(seen[0].first, us(3));

  const Parsed a = parse(seen[0].second);
  EXPECT_EQ(a.eth.source, (wire::MacAddress{2, 0, 0x0a, 0xff, 1, 2}));
  EXPECT_EQ(a.eth.destination, (wire::MacAddress{2, 0, 0x0a, 0xff, 0, 5}));
  EXPECT_EQ(a.eth.ethertype, wire::kEtherTypeIpv4);
  EXPECT_EQ(a.ip.source, (wire::Ipv4Address{10, 255, 1, 2}));
  EXPECT_EQ(a.ip.destination, (wire::Ipv4Address{10, 255, 0, 5}));
  EXPECT_EQ(a.ip.protocol, wire::kIpProtoTcp);
  EXPECT_EQ(a.tcp.source_port, 49153);  // 49152 + (k - 1)
  EXPECT_EQ(a.tcp.destination_port, 179);
  EXPECT_EQ(a.tcp.sequence, 1u);
  EXPECT_EQ(a.tcp.acknowledgment, 1u);
  EXPECT_EQ(a.payload, open);

  // The accepting side answers from port 179, acknowledging the OPEN.
  const Parsed b = parse(seen[1].second);
  EXPECT_EQ(b.ip.source, (wire::Ipv4Address{10, 255, 0, 5}));
  EXPECT_EQ(b.tcp.source_port, 179);
  EXPECT_EQ(b.tcp.destination_port, 49153);
  EXPECT_EQ(b.tcp.sequence, 1u);
  EXPECT_EQ(b.tcp.acknowledgment, 1u + 29);
  EXPECT_EQ(b.payload, ka);

  // The connecting side's next segment follows its first.
  const Parsed c = parse(seen[2].second);
  EXPECT_EQ(c.tcp.sequence, 1u + 29);
  EXPECT_EQ(c.tcp.acknowledgment, 1u + 19);
}

TEST(ControlFrames, ConnectionsAreSeparateStreams) {
  ControlFrameTap tap(nullptr);
  const Bytes ka = keepalive();
  (void)tap.frame(bgp(0, 1, 1, ka));
  const Parsed other = parse(tap.frame(bgp(0, 1, 5, ka)));  // k = 3
  EXPECT_EQ(other.tcp.source_port, 49154);
  EXPECT_EQ(other.tcp.sequence, 1u);
  const Parsed again = parse(tap.frame(bgp(0, 1, 1, ka)));
  EXPECT_EQ(again.tcp.sequence, 20u);
}

TEST(ControlFrames, LsnFramesAndArnL2FramesAreWrittenAsTheyAre) {
  ControlFrameTap tap(nullptr);
  Bytes lsn(60, 0);
  lsn[12] = 0x88;
  lsn[13] = 0x08;
  ControlCapture c{.at = us(1),
                   .node = 1,
                   .port = 2,
                   .neighbour = 3,
                   .protocol = ControlProtocol::lsn,
                   .connection = 0,
                   .bytes = lsn};
  EXPECT_EQ(tap.frame(c), lsn);
  // An Ethernet frame whose first byte happens to look like an IPv4
  // version/IHL (0x45) is still not an IPv4 packet.
  Bytes l2(64, 0);
  l2[0] = 0x45;
  l2[12] = 0x88;
  l2[13] = 0xb5;
  c.protocol = ControlProtocol::arn;
  c.bytes = l2;
  EXPECT_EQ(tap.frame(c), l2);
}

TEST(ControlFrames, ArnUdpPacketsGetAnEthernetHeader) {
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoUdp;
  ip.source = {10, 255, 0, 1};
  ip.destination = {10, 255, 0, 3};
  const Bytes message = {1, 2, 3, 4};
  ByteWriter udp;
  ASSERT_TRUE(wire::serialize_udp_ipv4(
      {.source_port = 53456, .destination_port = 53456}, ip, message, udp));
  ByteWriter packet;
  ASSERT_TRUE(wire::serialize(ip, udp.size(), packet));
  packet.bytes(udp.data());
  ControlFrameTap tap(nullptr);
  const Bytes f = tap.frame({.at = us(1),
                             .node = 1,
                             .port = 2,
                             .neighbour = 3,
                             .protocol = ControlProtocol::arn,
                             .connection = 0,
                             .bytes = packet.data()});
  auto eth = wire::parse_ethernet(f);
  ASSERT_TRUE(eth);
  EXPECT_EQ(eth->header.ethertype, wire::kEtherTypeIpv4);
  EXPECT_EQ(eth->header.source, (wire::MacAddress{2, 0, 0x0a, 0xff, 0, 1}));
  EXPECT_EQ(eth->header.destination,
            (wire::MacAddress{2, 0, 0x0a, 0xff, 0, 3}));
  EXPECT_EQ(Bytes(eth->payload.begin(), eth->payload.end()), packet.data());
}

}  // namespace
}  // namespace arfabric::sim::output
