// One SUF update per packet: locate the field, compare with L_Metric,
// rewrite with the incremental checksum update.
//   scripts/build release && build/release/ibcs_bench
// Needs arfabric_proto linked into the benchmarks (CMakeLists.txt).
#include <benchmark/benchmark.h>

#include "proto/ibcs/suf.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/ibcs/hpcc_option.h"
#include "wire/ibcs/udp_shim.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace {

using namespace arfabric;
using proto::ibcs::SignalUpdateFunction;
using wire::ibcs::Binding;

Bytes frame_with(const Bytes& options, std::uint16_t port, ByteSpan payload) {
  wire::Ipv4Header ip;
  ip.protocol = wire::kIpProtoUdp;
  ip.source = {10, 0, 0, 1};
  ip.destination = {10, 0, 0, 2};
  ip.options = options;
  ByteWriter udp;
  (void)wire::serialize_udp_ipv4(
      {.source_port = 40000, .destination_port = port}, ip, payload, udp);
  const Bytes seg = udp.take();
  ByteWriter out;
  out.bytes(Bytes{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1});
  out.u16(0x0800);
  (void)wire::serialize(ip, seg.size(), out);
  out.bytes(seg);
  return out.take();
}

SignalUpdateFunction engine(Binding b) {
  proto::ibcs::SufConfig c;
  c.rules = {{.binding = b}};
  c.ports.resize(1);
  return *SignalUpdateFunction::create(c);
}

// Alternates P between two values around L so every other packet takes
// Rule 2's rewrite and the others Rule 3: the branch cannot be learned.
void run(benchmark::State& state, Binding b, Bytes frame) {
  auto suf = engine(b);
  const std::uint32_t low = b == Binding::ipv4_udp ? 100 : 0x4000;
  const std::uint32_t high = b == Binding::ipv4_udp ? 900 : 0xc000;
  suf.record_sample(0, (low + high) / 2, Time());
  auto field = *wire::ibcs::locate(b, frame);
  std::uint64_t i = 0;
  for (auto _ : state) {
    (void)wire::ibcs::rewrite_metric(frame, field, (++i & 1) ? low : high);
    auto r = suf.process_egress(frame, 0, us(1));
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_SufUdpShim(benchmark::State& state) {
  ByteWriter shim;
  (void)wire::ibcs::serialize(wire::ibcs::UdpShim{.metric = 500}, shim);
  shim.zeros(64);
  run(state, Binding::ipv4_udp,
      frame_with({}, wire::ibcs::kDefaultIbcsUdpPort, shim.data()));
}
BENCHMARK(BM_SufUdpShim);

void BM_SufHpccOption(benchmark::State& state) {
  ByteWriter opt;
  (void)wire::ibcs::serialize(wire::ibcs::HpccOption{}, opt);
  run(state, Binding::hpcc_int, frame_with(opt.data(), 4791, Bytes(64, 0)));
}
BENCHMARK(BM_SufHpccOption);

// The rewrite the loop does to set P is itself measured here, to subtract.
void BM_SetupRewriteOnly(benchmark::State& state) {
  ByteWriter shim;
  (void)wire::ibcs::serialize(wire::ibcs::UdpShim{.metric = 500}, shim);
  Bytes frame = frame_with({}, wire::ibcs::kDefaultIbcsUdpPort, shim.data());
  auto field = *wire::ibcs::locate(Binding::ipv4_udp, frame);
  std::uint64_t i = 0;
  for (auto _ : state) {
    auto r = wire::ibcs::rewrite_metric(frame, field, (++i & 1) ? 100 : 900);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_SetupRewriteOnly);

}  // namespace

namespace {
void BM_LocateOnly(benchmark::State& state) {
  ByteWriter shim;
  (void)wire::ibcs::serialize(wire::ibcs::UdpShim{.metric = 500}, shim);
  Bytes frame = frame_with({}, wire::ibcs::kDefaultIbcsUdpPort, shim.data());
  for (auto _ : state) {
    auto f = wire::ibcs::locate(Binding::ipv4_udp, frame);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_LocateOnly);

Bytes shim_frame(std::uint16_t port) {
  ByteWriter shim;
  (void)wire::ibcs::serialize(wire::ibcs::UdpShim{.metric = 500}, shim);
  return frame_with({}, port, shim.data());
}

// The per-packet walk the SUF uses, and the detailed walk (what locate()
// was before try_locate existed), on the same frame in the same run.
void BM_TryLocateOnly(benchmark::State& state) {
  const Bytes frame = shim_frame(wire::ibcs::kDefaultIbcsUdpPort);
  for (auto _ : state) {
    auto f = wire::ibcs::try_locate(Binding::ipv4_udp, frame);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_TryLocateOnly);

void BM_LocateDetailedOnly(benchmark::State& state) {
  const Bytes frame = shim_frame(wire::ibcs::kDefaultIbcsUdpPort);
  for (auto _ : state) {
    auto f = wire::ibcs::detail::locate_detailed(Binding::ipv4_udp, frame);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_LocateDetailedOnly);

// A frame that is not ours (UDP port 53): the refusal path, where the
// detailed walk builds its error string.
void BM_TryLocateRefused(benchmark::State& state) {
  const Bytes frame = shim_frame(53);
  for (auto _ : state) {
    auto f = wire::ibcs::try_locate(Binding::ipv4_udp, frame);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_TryLocateRefused);

void BM_LocateDetailedRefused(benchmark::State& state) {
  const Bytes frame = shim_frame(53);
  for (auto _ : state) {
    auto f = wire::ibcs::detail::locate_detailed(Binding::ipv4_udp, frame);
    benchmark::DoNotOptimize(f);
  }
}
BENCHMARK(BM_LocateDetailedRefused);
}  // namespace
