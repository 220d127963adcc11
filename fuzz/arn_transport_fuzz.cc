// Fuzzes both ARN transports (raw Ethernet and IPv4/UDP): whatever parses
// serializes and parses back to the same message, with valid checksums.
#include <cstddef>
#include <cstdint>

#include "wire/arn/arn_transport.h"

using namespace arfabric;
namespace arn = arfabric::wire::arn;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  if (auto f = arn::parse_l2(input)) {
    ByteWriter out;
    if (!arn::serialize_l2(*f, out)) __builtin_trap();
    auto again = arn::parse_l2(out.data());
    if (!again || !(*again == *f)) __builtin_trap();
  }
  if (auto d = arn::parse_ipv4_udp(input, {.port = 53456})) {
    ByteWriter out;
    if (!arn::serialize_ipv4_udp(d->message, d->ip.source, d->ip.destination,
                                 {}, out)) {
      __builtin_trap();
    }
    auto again = arn::parse_ipv4_udp(out.data());
    if (!again || !(again->message == d->message) ||
        !again->udp_checksum_valid || !again->ip_checksum_valid) {
      __builtin_trap();
    }
  }
  return 0;
}
