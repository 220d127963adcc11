// Fuzzes the IPv4 header parser: whatever parses re-serializes to a header
// that parses to the same fields, with a valid checksum.
#include <cstddef>
#include <cstdint>

#include "wire/inet/ipv4.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  auto packet = wire::parse_ipv4(ByteSpan(data, size));
  if (!packet) return 0;
  if (packet->payload.size() + wire::encoded_size(packet->header) !=
      packet->header.total_length) {
    __builtin_trap();
  }
  ByteWriter out;
  if (!wire::serialize(packet->header, packet->payload.size(), out))
    __builtin_trap();
  out.bytes(packet->payload);
  auto again = wire::parse_ipv4(out.data());
  if (!again || !again->checksum_valid) __builtin_trap();
  wire::Ipv4Header a = packet->header, b = again->header;
  a.checksum = b.checksum = 0;
  if (!(a == b)) __builtin_trap();
  return 0;
}
