// WCMP next-hop selection and veto rebuild cost of the FIB.
//   scripts/build release && build/release/fib_bench
// Needs arfabric_proto linked into the benchmarks (one-line CMake change).
#include <benchmark/benchmark.h>

#include <vector>

#include "proto/fib/fib.h"
#include "proto/fib/flow_hash.h"

namespace {

using namespace arfabric;
using namespace arfabric::proto;
using namespace arfabric::proto::fib;

constexpr NodeId kDests = 256;

Fib make_fib() {
  auto f = Fib::create({.max_destinations = kDests, .table_size = 4096});
  std::vector<WeightedMember> m;
  for (PortId p = 0; p < 256; ++p) m.push_back({p, 1u + p % 4});
  for (NodeId d = 0; d < kDests; ++d) (void)f->set_route(d, m, Time());
  return std::move(*f);
}

std::vector<FlowKey> flows(std::size_t n) {
  std::vector<FlowKey> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].source = {10, 0, static_cast<std::uint8_t>(i >> 8),
                     static_cast<std::uint8_t>(i)};
    out[i].destination = {10, 1, static_cast<std::uint8_t>(i % 256), 1};
    out[i].source_port = static_cast<std::uint16_t>(i * 7919);
    out[i].destination_port = 4791;
    out[i].protocol = 17;
  }
  return out;
}

// flow_hash of a FlowKey + select(), per-flow mode, 256-member group.
void BM_HashAndSelectPerFlow(benchmark::State& state) {
  Fib f = make_fib();
  const auto keys = flows(4096);
  std::size_t i = 0;
  for (auto _ : state) {
    const FlowKey& k = keys[i++ & 4095];
    auto p = f.select(k.destination[2], flow_hash(k, 1), Time(),
                      SelectMode::per_flow);
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HashAndSelectPerFlow);

std::vector<std::uint64_t> hashes(std::size_t n) {
  std::vector<std::uint64_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = mix64(i + 1);
  return h;
}

// One packet per ns over 4096 flows: each flow recurs every 4.1 us, within
// the 50 us flowlet gap, as in a busy fabric.
void BM_SelectOnly(benchmark::State& state) {
  Fib f = make_fib();
  const auto mode = static_cast<SelectMode>(state.range(0));
  const auto h = hashes(4096);
  std::size_t i = 0;
  std::int64_t t = 0;
  for (auto _ : state) {
    const std::uint64_t hash = h[i++ & 4095];
    auto p = f.select(static_cast<NodeId>(hash >> 56), hash, ns(++t), mode);
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SelectOnly)
    ->Arg(static_cast<int>(SelectMode::per_flow))
    ->Arg(static_cast<int>(SelectMode::per_packet))
    ->Arg(static_cast<int>(SelectMode::flowlet))
    ->ArgName("mode(0=flow,1=packet,2=flowlet)");

// One LSN veto followed by its ARN-style clear: two rebuilds of one
// destination's 4096-entry table (255 <-> 256 members). Reported per
// VetoChange.
void BM_ApplyVetoChange(benchmark::State& state) {
  Fib f = make_fib();
  std::int64_t t = 0;
  for (auto _ : state) {
    (void)f.apply(VetoChange{3, 5, VetoSource::arn, true}, ns(++t));
    (void)f.apply(VetoChange{3, 5, VetoSource::arn, false}, ns(++t));
  }
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_ApplyVetoChange);

}  // namespace
