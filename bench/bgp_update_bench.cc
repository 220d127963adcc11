// Parse + serialize throughput of 4 KB BGP UPDATEs, as a FARE fabric sends
// them: shared attributes (ORIGIN, AS_PATH of a 5-stage path, NEXT_HOP, the
// Path Bandwidth extended community) and as many IPv4 /24 NLRI as fit in
// 4096 bytes.
//   scripts/build release && build/release/bgp_update_bench
// Figures and the command line are recorded in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "wire/bgp/update.h"
#include "wire/fare/path_bandwidth.h"

namespace {

using namespace arfabric;
using namespace arfabric::wire::bgp;

Update full_update(const SessionCodecOptions& options) {
  Update u;
  u.attributes.push_back(make_attribute(attr_type::kOrigin, Origin{}));
  AsPath path;
  path.segments.push_back({segment_type::kAsSequence,
                           {4200000101, 4200000201, 4200000301, 4200000102}});
  u.attributes.push_back(make_attribute(attr_type::kAsPath, path));
  u.attributes.push_back(
      make_attribute(attr_type::kNextHop, NextHop{{10, 0, 0, 1}}));
  ExtendedCommunities ecs;
  ecs.values.push_back(
      wire::fare::encode(wire::fare::make_path_bandwidth(0x0a000001, 50.0)));
  u.attributes.push_back(make_attribute(attr_type::kExtendedCommunities, ecs));
  for (std::uint32_t i = 0;; ++i) {
    Prefix p;
    p.length = 24;
    p.address = {10, static_cast<std::uint8_t>(i >> 8),
                 static_cast<std::uint8_t>(i)};
    u.nlri.push_back(p);
    if (encoded_size(u, options) > options.max_message_length()) {
      u.nlri.pop_back();
      return u;
    }
  }
}

void BM_BgpUpdate4kParseSerialize(benchmark::State& state) {
  SessionCodecOptions options;
  options.four_octet_as = true;
  ByteWriter w;
  (void)serialize(full_update(options), options, w);
  const Bytes bytes = w.take();
  ByteWriter out;
  std::size_t prefixes = 0;
  for (auto _ : state) {
    auto parsed = parse_update(bytes, options);
    prefixes = parsed->update.nlri.size();
    out.clear();
    (void)serialize(parsed->update, options, out);
    benchmark::DoNotOptimize(out.data().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(bytes.size()));
  state.counters["bytes"] = static_cast<double>(bytes.size());
  state.counters["prefixes"] = static_cast<double>(prefixes);
}
BENCHMARK(BM_BgpUpdate4kParseSerialize);

void BM_BgpUpdate4kParseOnly(benchmark::State& state) {
  SessionCodecOptions options;
  options.four_octet_as = true;
  ByteWriter w;
  (void)serialize(full_update(options), options, w);
  const Bytes bytes = w.take();
  for (auto _ : state) {
    auto parsed = parse_update(bytes, options);
    benchmark::DoNotOptimize(parsed->update.nlri.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BgpUpdate4kParseOnly);

}  // namespace
