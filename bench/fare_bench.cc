// FARE path-bandwidth policy: import_weights for 64 equal-cost routes.
//   scripts/build release && build/release/fare_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "proto/fare/policy.h"

namespace {

using namespace arfabric;
using namespace arfabric::proto::fare;

std::vector<Candidate> candidates(std::size_t n) {
  std::vector<Candidate> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    c[i].link_bandwidth = gbps(100 + 100 * (i % 4));
    c[i].peer_role = Role::spine;
    c[i].transitive = to_path_bandwidth(static_cast<std::uint32_t>(i + 1),
                                        gbps(200 * (1 + i % 8)));
  }
  return c;
}

const FareConfig kLeaf{.role = Role::leaf, .router_id = 1};

// Returns a fresh ImportResult (two vector allocations per call).
void BM_ImportWeights64(benchmark::State& state) {
  const auto c = candidates(64);
  for (auto _ : state) {
    auto r = import_weights(kLeaf, c, 2);
    benchmark::DoNotOptimize(r.weights.data());
  }
}
BENCHMARK(BM_ImportWeights64);

// Into a reused ImportResult: no allocation.
void BM_ImportWeights64Into(benchmark::State& state) {
  const auto c = candidates(64);
  ImportResult r;
  for (auto _ : state) {
    import_weights(kLeaf, c, 2, r);
    benchmark::DoNotOptimize(r.weights.data());
  }
}
BENCHMARK(BM_ImportWeights64Into);

// Spine re-advertising 64 routes (sum of minima, one binary16 encode).
void BM_Readvertise64(benchmark::State& state) {
  const auto c = candidates(64);
  const FareConfig spine{.role = Role::spine, .router_id = 2};
  const auto imp = import_weights(spine, c);
  for (auto _ : state) {
    auto e = readvertise(spine, c, imp, true);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_Readvertise64);

}  // namespace
