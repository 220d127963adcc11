// Fuzzes the LSN frame parser. A frame that parses must serialize and parse
// back to the same value, with and without FCS.
#include <cstddef>
#include <cstdint>

#include "wire/lsn/lsn_frame.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  for (bool fcs : {false, true}) {
    const wire::lsn::CodecOptions options{.fcs = fcs};
    auto frame = wire::lsn::parse(ByteSpan(data, size), options);
    if (!frame) continue;
    ByteWriter out;
    if (!wire::lsn::serialize(*frame, out, options)) __builtin_trap();
    if (out.size() != wire::lsn::encoded_size(*frame, options))
      __builtin_trap();
    auto again = wire::lsn::parse(out.data(), options);
    if (!again || !(*again == *frame)) __builtin_trap();
  }
  return 0;
}
