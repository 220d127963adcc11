// Fuzzes the ARN message parser. Whatever parses must serialize to exactly
// the bytes it came from (ARN has no optional encodings).
#include <cstddef>
#include <cstdint>

#include "wire/arn/arn_message.h"

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
  return 0;
}
