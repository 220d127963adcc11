// Packet-hop throughput of the simulator's data plane (issue 5 aim: 10 M
// packet-hops per second per core, held from 128 to 4,096 hosts, at most
// 1.5 events per packet-hop).
//
// The workload is bench/clos_loop.h (a 3-stage CLOS, 8 packets per host
// in a closed loop), in two shapes: BM_ClosPacketHops/LEAVES, the dense
// CLOS (leaves / 2 spines, 8 hosts per leaf, so the fabric grows with the
// square of the hosts), and BM_NonBlockingClosPacketHops/K, K leaves of K
// hosts and K uplinks each. The timed part is the event loop alone: link
// arrivals, FIB selection (per-flow hash), egress queueing with drop-tail
// and ECN, delivery. For counts that the machine's timing noise cannot
// blur, see sim_hop_count.cc.
#include <benchmark/benchmark.h>

#include <exception>

#include "clos_loop.h"

namespace {

using arfabric::sim::bench::ClosLoop;
using arfabric::sim::bench::ClosShape;

void run_packet_hops(benchmark::State& state, const ClosShape& shape) {
  std::unique_ptr<ClosLoop> loop;
  try {
    loop = std::make_unique<ClosLoop>(shape);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const std::uint64_t hops0 = loop->network().counters().packet_hops;
  const std::uint64_t events0 = loop->events().pushed();
  for (auto _ : state) loop->run(1000);
  const double hops =
      static_cast<double>(loop->network().counters().packet_hops - hops0);
  state.counters["packet_hops_per_s"] =
      benchmark::Counter(hops, benchmark::Counter::kIsRate);
  state.counters["events_per_hop"] =
      static_cast<double>(loop->events().pushed() - events0) / hops;
  state.counters["hosts"] = loop->hosts();
  state.counters["sim_time_us"] = loop->events().now().seconds() * 1e6;
}
void BM_ClosPacketHops(benchmark::State& state) {
  run_packet_hops(state,
                  ClosShape::dense(static_cast<std::uint32_t>(state.range(0))));
}
BENCHMARK(BM_ClosPacketHops)
    ->Arg(16)   // 128 hosts (also the non-blocking shape of 128 hosts)
    ->Arg(128)  // 1,024 hosts, 8,192 spine-leaf cables
    ->Arg(512)  // 4,096 hosts, 131,072 spine-leaf cables
    ->Unit(benchmark::kMicrosecond);

void BM_NonBlockingClosPacketHops(benchmark::State& state) {
  run_packet_hops(state, ClosShape::non_blocking(
                             static_cast<std::uint32_t>(state.range(0))));
}
BENCHMARK(BM_NonBlockingClosPacketHops)
    ->Arg(32)   // 1,024 hosts
    ->Arg(64)   // 4,096 hosts
    ->Arg(128)  // 16,384 hosts
    ->Unit(benchmark::kMicrosecond);

}  // namespace
