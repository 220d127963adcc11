// Fuzzes the LSN frame parser. A frame that parses must serialize and parse
// back to the same value, with and without FCS. parse() takes its success
// from view(); its detailed walk must refuse exactly what view() refuses
// (else parse() reports "lsn.parse").
#include <cstddef>
#include <cstdint>

#include "wire/lsn/lsn_frame.h"

using namespace arfabric;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  for (bool fcs : {false, true}) {
    const wire::lsn::CodecOptions options{.fcs = fcs};
    auto frame = wire::lsn::parse(ByteSpan(data, size), options);
    if (!frame && frame.error().field == "lsn.parse") __builtin_trap();
    if (wire::lsn::view(ByteSpan(data, size), options).has_value() !=
        frame.has_value())
      __builtin_trap();
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
