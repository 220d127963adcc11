// Fuzzes the IPv6 header parser: whatever parses re-serializes to the same
// header bytes and parses to the same fields and payload.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "wire/inet/ipv6.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  auto packet = wire::parse_ipv6(input);
  if (!packet) return 0;
  if (packet->payload.size() != packet->header.payload_length) __builtin_trap();
  ByteWriter out;
  if (!wire::serialize(packet->header, packet->payload.size(), out))
    __builtin_trap();
  if (!std::equal(out.data().begin(), out.data().end(), input.begin()))
    __builtin_trap();
  out.bytes(packet->payload);
  auto again = wire::parse_ipv6(out.data());
  if (!again || !(again->header == packet->header) ||
      again->payload.size() != packet->payload.size()) {
    __builtin_trap();
  }
  return 0;
}
