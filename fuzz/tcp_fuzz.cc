// Fuzzes the TCP header parser: a parsed segment re-serializes and parses
// back to the same header fields (checksum aside).
#include <cstddef>
#include <cstdint>

#include "wire/inet/tcp.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  auto tcp = wire::parse_tcp(ByteSpan(data, size));
  if (!tcp) return 0;
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoTcp;
  ByteWriter out;
  if (!wire::serialize_tcp_ipv4(tcp->header, ip, tcp->payload, out)) return 0;
  auto again = wire::parse_tcp(out.data());
  if (!again) __builtin_trap();
  wire::TcpHeader a = tcp->header, b = again->header;
  a.checksum = b.checksum = 0;
  if (!(a == b) || again->payload.size() != tcp->payload.size())
    __builtin_trap();
  return 0;
}
