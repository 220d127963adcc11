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

Fib make_fib(std::uint32_t max_flow_overrides = 1024) {
  auto f = Fib::create({.max_destinations = kDests,
                        .table_size = 4096,
                        .max_flow_overrides = max_flow_overrides});
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

// Congestion notifications as a simulated leaf sees them (ARN, LSN): 32
// uplinks at equal weight, 256-entry tables, 1,024 destinations, and each
// change raising one destination's port to level 1 or lowering it back,
// round-robin over destinations, the port drawn per destination at
// random, so that nearly every change builds a table no other destination
// made (a resilient update from the destination's own history), as in
// the simulator. Reported per CongestionChange.
void BM_ApplyCongestionChange(benchmark::State& state) {
  constexpr NodeId kLeafDests = 1024;
  constexpr PortId kUplinks = 32;
  auto f = Fib::create({.max_destinations = kLeafDests, .table_size = 256});
  std::vector<WeightedMember> m;
  for (PortId p = 1; p <= kUplinks; ++p) m.push_back({p, 1});
  for (NodeId d = 0; d < kLeafDests; ++d) (void)f->set_route(d, m, Time());
  std::uint64_t i = 0;
  for (auto _ : state) {
    // Pass 2k raises a port of each destination, pass 2k + 1 lowers it.
    const NodeId dest = static_cast<NodeId>(i % kLeafDests);
    const std::uint64_t pass = i / kLeafDests;
    const auto port = static_cast<PortId>(
        1 + mix64(std::uint64_t{dest} << 32 | pass / 2) % kUplinks);
    const auto level = static_cast<std::uint8_t>(pass % 2 == 0);
    (void)f->apply(CongestionChange{port, dest, VetoSource::arn, level});
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ApplyCongestionChange);

// The FlowKey form of select() (per-flow mode) over the same 4096 flows
// as BM_HashAndSelectPerFlow, hashes precomputed. range(0): overrides on
// every destination: 0 (the common case, must cost what the old form
// costs), 1 (an aggregate matching every flow: RoCEv2 = UDP to 4791,
// vetoing one of 256 members, so 1/256 of the packets redraw), 64
// (per-source flow overrides; 1/64 of the flows match one).
// range(1) = 1 calls the old form (no key) on the same packets.
void BM_SelectWithKey(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Fib f = make_fib(static_cast<std::uint32_t>(n) * kDests);
  const bool old_form = state.range(1) != 0;
  const auto keys = flows(4096);
  std::vector<std::uint64_t> h(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) h[i] = flow_hash(keys[i], 1);
  for (NodeId d = 0; d < kDests; ++d) {
    for (int k = 0; k < n; ++k) {
      FlowOverrideChange c;
      c.destination = d;
      c.match.fields = kMatchProtocol | kMatchDestinationPort;
      c.match.key.protocol = 17;
      c.match.key.destination_port = 4791;
      if (n > 1) {  // one source each, 64 apart: 1/64 of the flows
        c.match.fields |= kMatchSource;
        c.match.key.source = keys[static_cast<std::size_t>(k) * 64].source;
      }
      c.port = static_cast<PortId>(3 + k);
      c.vetoed = true;
      if (!f.apply(c)) state.SkipWithError("apply");
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t j = i++ & 4095;
    const FlowKey& k = keys[j];
    auto p =
        old_form
            ? f.select(k.destination[2], h[j], Time(), SelectMode::per_flow)
            : f.select(k.destination[2], k, h[j], Time(), SelectMode::per_flow);
    benchmark::DoNotOptimize(p);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["matched"] = static_cast<double>(f.counters().flow_matched);
}
BENCHMARK(BM_SelectWithKey)
    ->Args({0, 1})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({64, 0})
    ->ArgNames({"overrides", "old_form"});

// One FlowOverrideChange set and removed (two records per iteration).
void BM_ApplyFlowOverride(benchmark::State& state) {
  Fib f = make_fib();
  FlowOverrideChange c;
  c.destination = 5;
  c.match.fields = kMatchAll;
  c.match.key = flows(1)[0];
  c.port = 3;
  for (auto _ : state) {
    c.vetoed = true;
    (void)f.apply(c);
    c.vetoed = false;
    (void)f.apply(c);
  }
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_ApplyFlowOverride);

}  // namespace
