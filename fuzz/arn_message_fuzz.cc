// Fuzzes the ARN message parser and both transports. Whatever parses must
// serialize to exactly the bytes it came from (ARN has no optional
// encodings) and parse back to the same value.
#include <cstddef>
#include <cstdint>

#include "wire/arn/arn_message.h"
#include "wire/arn/arn_transport.h"

using namespace arfabric;
namespace arn = arfabric::wire::arn;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  if (auto m = arn::parse(input)) {
    ByteWriter out;
    if (!arn::serialize(*m, out)) __builtin_trap();
    if (out.data() != Bytes(input.begin(), input.end())) __builtin_trap();
    if (out.size() != arn::encoded_size(*m)) __builtin_trap();
  }
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
