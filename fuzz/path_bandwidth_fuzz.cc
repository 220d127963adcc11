// Fuzzes the Path Bandwidth / Link Bandwidth community decoders and the
// binary16 conversion: decode(encode(x)) == x, and for valid finite values
// the binary16 round trip through double is exact.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "wire/fare/binary16.h"
#include "wire/fare/path_bandwidth.h"

using namespace arfabric::wire;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size < 9) return 0;
  bgp::ExtendedCommunity ec;
  std::memcpy(ec.bytes.data(), data, 8);
  const std::uint8_t sub_type = data[8];
  if (auto pb = fare::decode_path_bandwidth(ec, sub_type)) {
    if (!(fare::encode(*pb, sub_type) == ec)) __builtin_trap();
    const double v = pb->gigabytes_per_second();
    if (pb->valid() && std::isfinite(v) && v >= 0 &&
        fare::double_to_binary16(v) != (pb->bandwidth_bits & 0x7fff)) {
      __builtin_trap();
    }
  }
  if (auto lb = fare::decode_link_bandwidth(ec)) {
    if (!(fare::encode(*lb) == ec)) __builtin_trap();
  }
  return 0;
}
