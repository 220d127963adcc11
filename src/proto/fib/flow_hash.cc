#include "proto/fib/flow_hash.h"

#include <bit>
#include <cstring>

namespace arfabric::proto::fib {

namespace {

constexpr std::uint64_t kFold = 0x9E3779B97F4A7C15ull;  // 2^64 / golden ratio

inline std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline std::uint64_t fold(std::uint64_t h, std::uint64_t word) {
  return std::rotl(h ^ word, 29) * kFold;
}

}  // namespace

std::uint64_t flow_hash(const FlowKey& key, std::uint64_t seed) {
  std::uint64_t h = mix64(seed);
  h = fold(h, load64(key.source.data()));
  h = fold(h, load64(key.source.data() + 8));
  h = fold(h, load64(key.destination.data()));
  h = fold(h, load64(key.destination.data() + 8));
  h = fold(h, std::uint64_t{key.source_port} |
                  std::uint64_t{key.destination_port} << 16 |
                  std::uint64_t{key.protocol} << 32);
  return mix64(h);
}

}  // namespace arfabric::proto::fib
