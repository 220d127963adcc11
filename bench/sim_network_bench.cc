// Packet-hop throughput of the simulator's data plane (issue 5 aim: 10 M
// packet-hops per second per core, held from 128 to 4,096 hosts, at most
// 1.5 events per packet-hop).
//
// A 3-stage CLOS at 400G with equal-cost routes; every host keeps 8
// packets in flight in a closed loop: each packet delivered makes its
// receiver send a new one to a pseudo-random host. The timed part is the
// event loop alone: link arrivals, FIB selection (per-flow hash), egress
// queueing with drop-tail and ECN, delivery.
#include <benchmark/benchmark.h>

#include "sim/network.h"

namespace {

using namespace arfabric;
using namespace arfabric::sim;
namespace fib = arfabric::proto::fib;

struct Loop : HostHandler {
  Network* net = nullptr;
  PacketPool* pool = nullptr;
  std::uint32_t hosts = 0, first_host = 0;
  std::uint64_t state = 88172645463325252ull;
  FlowId next_flow = 0;
  std::uint32_t random_host() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return first_host + static_cast<std::uint32_t>(state % hosts);
  }
  void send(NodeIndex from, Time now) {
    NodeIndex to = random_host();
    if (to == from) to = first_host + (to - first_host + 1) % hosts;
    const PacketIndex i = pool->allocate();
    Packet& p = (*pool)[i];
    p.source = from;
    p.destination = to;
    p.wire_bytes = 4160;
    p.transport.flow = next_flow++;
    net->send_from_host(from, i, now);
  }
  void on_packet(NodeIndex host, PacketIndex packet, Time now) override {
    pool->release(packet);
    send(host, now);
  }
};

void BM_ClosPacketHops(benchmark::State& state) {
  const std::uint32_t leaves = static_cast<std::uint32_t>(state.range(0));
  const std::uint32_t spines = leaves / 2;
  const std::uint32_t per_leaf = 8;
  NetworkSpec spec;
  for (std::uint32_t i = 0; i < spines; ++i) spec.nodes.push_back({false, 0});
  for (std::uint32_t i = 0; i < leaves; ++i) spec.nodes.push_back({false, i});
  const std::uint32_t first_host = spines + leaves;
  for (std::uint32_t i = 0; i < leaves * per_leaf; ++i) {
    spec.nodes.push_back({true, 0});
  }
  for (std::uint32_t l = 0; l < leaves; ++l) {
    for (std::uint32_t s = 0; s < spines; ++s) {
      spec.cables.push_back({spines + l, s, gbps(400), ns(500)});
    }
    for (std::uint32_t h = 0; h < per_leaf; ++h) {
      spec.cables.push_back(
          {first_host + l * per_leaf + h, spines + l, gbps(400), ns(500)});
    }
  }
  spec.buffer_bytes = 1 << 20;
  spec.ecn_threshold_bytes = 100 * 1024;
  spec.fib.table_size = 256;
  spec.fib.flowlet_table_size = 1024;
  EventQueue events;
  PacketPool pool;
  auto created = Network::create(spec, events, pool);
  if (!created) {
    state.SkipWithError(created.error().to_string().c_str());
    return;
  }
  Network net = std::move(*created);
  for (std::uint32_t l = 0; l < leaves; ++l) {
    std::vector<fib::WeightedMember> up;
    for (std::uint32_t s = 0; s < spines; ++s) {
      up.push_back({*net.port_toward(spines + l, s), 1});
    }
    for (std::uint32_t d = 0; d < leaves; ++d) {
      if (d != l) (void)net.fib(spines + l).set_route(d, up, Time{});
    }
  }
  for (std::uint32_t s = 0; s < spines; ++s) {
    for (std::uint32_t d = 0; d < leaves; ++d) {
      const fib::WeightedMember down{*net.port_toward(s, spines + d), 1};
      (void)net.fib(s).set_route(d, {&down, 1}, Time{});
    }
  }
  Loop loop;
  loop.net = &net;
  loop.pool = &pool;
  loop.hosts = leaves * per_leaf;
  loop.first_host = first_host;
  net.set_host_handler(&loop);
  for (std::uint32_t h = 0; h < loop.hosts; ++h) {
    for (int k = 0; k < 8; ++k) loop.send(first_host + h, Time{});
  }
  // Warm up: let the pool and the link rings reach their working size.
  for (int i = 0; i < 200000 && !events.empty(); ++i)
    net.on_event(events.pop());
  const std::uint64_t hops0 = net.counters().packet_hops;
  const std::uint64_t events0 = events.pushed();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) net.on_event(events.pop());
  }
  const double hops = static_cast<double>(net.counters().packet_hops - hops0);
  state.counters["packet_hops_per_s"] =
      benchmark::Counter(hops, benchmark::Counter::kIsRate);
  state.counters["events_per_hop"] =
      static_cast<double>(events.pushed() - events0) / hops;
  state.counters["hosts"] = loop.hosts;
  state.counters["sim_time_us"] = events.now().seconds() * 1e6;
}
BENCHMARK(BM_ClosPacketHops)
    ->Arg(16)
    ->Arg(128)
    ->Arg(512)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
