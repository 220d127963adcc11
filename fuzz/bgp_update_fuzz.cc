// libFuzzer target: an UPDATE body. The input's first byte picks the
// session options as in bgp_message_fuzz; the rest is wrapped in a valid
// UPDATE header so that every input reaches the attribute parsers. A parsed
// UPDATE must re-serialize to exactly the input and parse to the same
// value and the same RFC 7606 errors.
#include <cstddef>
#include <cstdint>

#include "wire/bgp/update.h"

using namespace arfabric;
using namespace arfabric::wire::bgp;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 1 || size - 1 > 65535 - 19) return 0;
  SessionCodecOptions o;
  o.four_octet_as = data[0] & 1;
  if (data[0] & 2) o.add_path.push_back({kAfiIpv4, kSafiUnicast});
  if (data[0] & 4) o.add_path.push_back({kAfiIpv6, kSafiUnicast});
  o.extended_message = true;
  ByteWriter msg;
  for (int i = 0; i < 16; ++i) msg.u8(0xff);
  msg.u16(static_cast<std::uint16_t>(19 + size - 1));
  msg.u8(2);
  msg.bytes(ByteSpan(data + 1, size - 1));
  auto first = parse_update(msg.data(), o);
  if (!first) {
    if (first.error().decode.field.empty()) __builtin_trap();
    return 0;
  }
  for (const BgpError& e : first->attribute_errors) {
    if (e.action == Rfc7606Action::session_reset) __builtin_trap();
  }
  ByteWriter w;
  if (!serialize(first->update, o, w)) __builtin_trap();
  if (w.data() != msg.data()) __builtin_trap();  // byte-exact
  if (w.size() != encoded_size(first->update, o)) __builtin_trap();
  auto second = parse_update(w.data(), o);
  if (!second) __builtin_trap();
  if (!(second->update == first->update)) __builtin_trap();
  if (second->attribute_errors != first->attribute_errors) __builtin_trap();
  return 0;
}
