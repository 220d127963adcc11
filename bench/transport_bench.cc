// One data packet through the transport: Sender::next_packet, then
// Receiver::on_data, then Sender::on_ack (no network in between), with
// DCTCP and with a fixed window, and with every 4th ACK marked CE.
//   scripts/build release && build/release/transport_bench
#include <benchmark/benchmark.h>

#include <memory>

#include "sim/transport/receiver.h"
#include "sim/transport/sender.h"
#include "sim/transport/transport_config.h"

namespace {

using namespace arfabric;
using namespace arfabric::sim::transport;
using arfabric::sim::TransportHeader;

void run(benchmark::State& state, CongestionControl cc, int mark_every) {
  TransportConfig c;
  c.cc = cc;
  c.initial_window_packets = 64;
  const std::uint64_t bytes = std::uint64_t{1} << 32;  // 1 Mi packets
  auto sender = std::make_unique<Sender>(c, 1, bytes, Time());
  auto receiver = std::make_unique<Receiver>(c, 1, bytes);
  Time now;
  std::uint64_t n = 0;
  for (auto _ : state) {
    now += ns(10);
    auto p = sender->next_packet(now);
    if (!p) {
      state.PauseTiming();
      sender = std::make_unique<Sender>(c, 1, bytes, now);
      receiver = std::make_unique<Receiver>(c, 1, bytes);
      state.ResumeTiming();
      continue;
    }
    p->ecn_ce = mark_every > 0 && ++n % mark_every == 0;
    now += ns(10);
    const TransportHeader ack = receiver->on_data(*p, now);
    sender->on_ack(ack, now);
    benchmark::DoNotOptimize(ack);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_PacketRoundTripFixedWindow(benchmark::State& state) {
  run(state, CongestionControl::none, 0);
}
void BM_PacketRoundTripDctcp(benchmark::State& state) {
  run(state, CongestionControl::dctcp, 0);
}
void BM_PacketRoundTripDctcpMarked(benchmark::State& state) {
  run(state, CongestionControl::dctcp, 4);
}
BENCHMARK(BM_PacketRoundTripFixedWindow);
BENCHMARK(BM_PacketRoundTripDctcp);
BENCHMARK(BM_PacketRoundTripDctcpMarked);

}  // namespace
