// libFuzzer target: one BGP message. The first input byte picks the session
// options (bit 0: 4-octet AS, bit 1: ADD-PATH IPv4 unicast, bit 2: ADD-PATH
// IPv6 unicast, bit 3: extended message); the rest is the message. A parsed
// message must re-serialize, and parse again to the same value.
#include <cstddef>
#include <cstdint>

#include "wire/bgp/message.h"

using namespace arfabric;
using namespace arfabric::wire::bgp;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 1) return 0;
  SessionCodecOptions o;
  o.four_octet_as = data[0] & 1;
  if (data[0] & 2) o.add_path.push_back({kAfiIpv4, kSafiUnicast});
  if (data[0] & 4) o.add_path.push_back({kAfiIpv6, kSafiUnicast});
  o.extended_message = data[0] & 8;
  const ByteSpan input(data + 1, size - 1);
  auto first = parse_message(input, o);
  if (!first) {
    if (first.error().decode.field.empty()) __builtin_trap();
    return 0;
  }
  ByteWriter w;
  if (!serialize(first->message, o, w)) __builtin_trap();
  if (w.size() != encoded_size(first->message, o)) __builtin_trap();
  auto second = parse_message(w.data(), o);
  if (!second) __builtin_trap();
  if (!(second->message == first->message)) __builtin_trap();
  if (second->attribute_errors != first->attribute_errors) __builtin_trap();
  return 0;
}
