// Test frames for the IBCS bindings, and full checksum recomputation to
// compare incremental updates against.
#pragma once

#include <optional>

#include "common/bytes.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/ibcs/hpcc_option.h"
#include "wire/ibcs/udp_shim.h"
#include "wire/inet/checksum.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace arfabric::testing {

inline void put_macs(ByteWriter& out) {
  out.bytes(Bytes{0x02, 0, 0, 0, 0, 0x02});
  out.bytes(Bytes{0x02, 0, 0, 0, 0, 0x01});
}

// Ethernet / CSIG tag / IPv4 (ethertype) with an opaque payload.
inline Bytes csig_frame(const wire::ibcs::CsigTag& tag, ByteSpan payload,
                        bool vlan = false) {
  ByteWriter out;
  put_macs(out);
  if (vlan) {
    out.u16(wire::kEtherTypeVlan);
    out.u16(0x0064);
  }
  (void)wire::ibcs::serialize(tag, out);
  out.u16(wire::kEtherTypeIpv4);
  out.bytes(payload);
  return out.take();
}

// Ethernet / IPv4 with `options` / UDP (checksummed unless zero_checksum).
inline Bytes ipv4_udp_frame(const Bytes& options, std::uint16_t dst_port,
                            ByteSpan udp_payload,
                            wire::Ipv4Address src = {10, 0, 0, 1},
                            wire::Ipv4Address dst = {10, 0, 0, 2},
                            bool zero_checksum = false) {
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoUdp;
  ip.source = src;
  ip.destination = dst;
  ip.options = options;
  ByteWriter udp;
  wire::UdpHeader uh{.source_port = 40000, .destination_port = dst_port};
  (void)wire::serialize_udp_ipv4(uh, ip, udp_payload, udp);
  Bytes seg = udp.take();
  if (zero_checksum) seg[6] = seg[7] = 0;
  ByteWriter out;
  put_macs(out);
  out.u16(wire::kEtherTypeIpv4);
  (void)wire::serialize(ip, seg.size(), out);
  out.bytes(seg);
  return out.take();
}

inline Bytes shim_bytes(const wire::ibcs::UdpShim& shim, ByteSpan rest = {}) {
  ByteWriter w;
  (void)wire::ibcs::serialize(shim, w);
  w.bytes(rest);
  return w.take();
}

inline Bytes hpcc_option_bytes(const wire::ibcs::HpccOption& o,
                               std::size_t nops = 0) {
  ByteWriter w;
  for (std::size_t i = 0; i < nops; ++i) w.u8(1);
  (void)wire::ibcs::serialize(o, w);
  while (w.size() % 4) w.u8(0);  // End of Option List padding
  return w.take();
}

constexpr std::size_t kIpOffset = 14;  // untagged Ethernet

inline std::uint16_t get16(ByteSpan b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}

// The IPv4 header checksum recomputed from scratch.
inline std::uint16_t full_ipv4_checksum(Bytes frame) {
  const std::size_t ihl = (frame[kIpOffset] & 0x0f) * 4u;
  frame[kIpOffset + 10] = frame[kIpOffset + 11] = 0;
  return wire::internet_checksum(ByteSpan(frame).subspan(kIpOffset, ihl));
}

// The UDP checksum recomputed from scratch, with the RFC 768 zero rule.
inline std::uint16_t full_udp_checksum(Bytes frame) {
  const ByteSpan f(frame);
  const std::size_t ihl = (frame[kIpOffset] & 0x0f) * 4u;
  const std::size_t udp = kIpOffset + ihl;
  const std::uint16_t length = get16(f, udp + 4);
  wire::Ipv4Address s, d;
  std::copy(f.begin() + kIpOffset + 12, f.begin() + kIpOffset + 16, s.begin());
  std::copy(f.begin() + kIpOffset + 16, f.begin() + kIpOffset + 20, d.begin());
  frame[udp + 6] = frame[udp + 7] = 0;
  std::uint16_t sum = wire::internet_checksum(
      ByteSpan(frame).subspan(udp, length),
      wire::ipv4_pseudo_header_sum(s, d, wire::kIpProtoUdp, length));
  return sum == 0 ? 0xffff : sum;
}

}  // namespace arfabric::testing
