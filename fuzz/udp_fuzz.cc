// Fuzzes the UDP header parser and checksum check: a parsed datagram
// re-serialized over a fixed IPv4 pseudo-header verifies and parses back.
#include <cstddef>
#include <cstdint>

#include "wire/inet/udp.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  auto udp = wire::parse_udp(input);
  if (!udp) return 0;
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoUdp;
  ip.source = {10, 0, 0, 1};
  ip.destination = {10, 0, 0, 2};
  (void)wire::udp_checksum_valid(ip, input.first(udp->header.length));
  ByteWriter out;
  if (!wire::serialize_udp_ipv4(udp->header, ip, udp->payload, out))
    __builtin_trap();
  if (!wire::udp_checksum_valid(ip, out.data())) __builtin_trap();
  auto again = wire::parse_udp(out.data());
  if (!again || again->header.source_port != udp->header.source_port ||
      again->payload.size() != udp->payload.size()) {
    __builtin_trap();
  }
  return 0;
}
