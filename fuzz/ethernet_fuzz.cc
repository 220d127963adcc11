// Fuzzes the Ethernet header parser: a parsed header serializes to the bytes
// it was read from.
#include <cstddef>
#include <cstdint>

#include "wire/inet/ethernet.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  auto frame = wire::parse_ethernet(input);
  if (!frame) return 0;
  ByteWriter out;
  wire::serialize(frame->header, out);
  const std::size_t header = input.size() - frame->payload.size();
  if (out.size() != header || out.size() != wire::encoded_size(frame->header)) {
    __builtin_trap();
  }
  if (!std::equal(out.data().begin(), out.data().end(), input.begin())) {
    __builtin_trap();
  }
  return 0;
}
