// Parse + serialize throughput of LSN frames and ARN messages, and one
// received ARN applied through the engine to a Fib.
//   scripts/build release && build/release/lsn_arn_bench
// Figures and the command line are recorded in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "proto/arn/arn_engine.h"
#include "proto/fib/fib.h"
#include "wire/arn/arn_message.h"
#include "wire/arn/arn_transport.h"
#include "wire/lsn/lsn_frame.h"

namespace {

using namespace arfabric;

Bytes lsn_bytes(bool fcs) {
  wire::lsn::LsnFrame f;
  f.bitmap.fill(true);
  f.bitmap.set(5, false);
  ByteWriter w;
  (void)wire::lsn::serialize(f, w, {.fcs = fcs});
  return w.take();
}

void BM_LsnParseSerialize(benchmark::State& state) {
  const bool fcs = state.range(0) != 0;
  const Bytes frame = lsn_bytes(fcs);
  ByteWriter out;
  for (auto _ : state) {
    auto f = wire::lsn::parse(frame, {.fcs = fcs});
    out.clear();
    (void)wire::lsn::serialize(*f, out, {.fcs = fcs});
    benchmark::DoNotOptimize(out.data().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(frame.size()));
}
BENCHMARK(BM_LsnParseSerialize)->Arg(0)->Arg(1)->ArgName("fcs");

void BM_ArnParseSerialize(benchmark::State& state) {
  wire::arn::ArnMessage m;
  m.type = wire::arn::ArnType::failure_detected;
  m.flow = wire::arn::FiveTuple{};
  m.path_id = 7;
  ByteWriter w;
  (void)wire::arn::serialize(m, w);
  const Bytes bytes = w.take();
  ByteWriter out;
  for (auto _ : state) {
    auto parsed = wire::arn::parse(bytes);
    out.clear();
    (void)wire::arn::serialize(*parsed, out);
    benchmark::DoNotOptimize(out.data().data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ArnParseSerialize);

// Applying one ARN message end to end at a receiver: UDP/IPv4 parse, the
// engine's table, and the resulting record applied to a 256-member Fib.
// range(0) = 1: a flow object (5-tuple, FlowOverrideChange); 0: a
// destination object (VetoChange, which rebuilds a 4096-entry table).
// Detection and elimination alternate; reported per message.
void BM_ArnMessageToFib(benchmark::State& state) {
  const bool flow = state.range(0) != 0;
  proto::arn::ArnConfig ac;
  ac.node_id = 1;
  ac.port_count = 256;
  ac.destinations = {{wire::Ipv4Address{10, 0, 2, 0}, 24, 5}};
  auto engine = proto::arn::ArnEngine::create(ac);
  auto fib = proto::fib::Fib::create({.max_destinations = 8});
  std::vector<proto::fib::WeightedMember> m;
  for (proto::PortId p = 0; p < 256; ++p) m.push_back({p, 1});
  (void)fib->set_route(5, m, Time());
  Bytes msgs[2];
  for (int i = 0; i < 2; ++i) {
    wire::arn::ArnMessage a;
    a.type = i == 0 ? wire::arn::ArnType::failure_detected
                    : wire::arn::ArnType::failure_eliminated;
    a.path_id = proto::arn::path_id(101, 1);
    wire::arn::FiveTuple t;
    t.mask = flow ? wire::arn::kMaskAll : wire::arn::kMaskDestination;
    t.protocol = 17;
    t.source = {10, 0, 1, 5};
    t.destination = {10, 0, 2, 9};
    t.source_port = 1234;
    t.destination_port = 4791;
    a.flow = t;
    ByteWriter w;
    (void)wire::arn::serialize_ipv4_udp(a, {10, 255, 0, 1}, {10, 0, 1, 1}, {},
                                        w);
    msgs[i] = w.take();
  }
  std::int64_t t = 0;
  for (auto _ : state) {
    for (const Bytes& b : msgs) {
      engine->on_message(3, b, ns(++t));
      proto::arn::Outputs& out = engine->outputs();
      for (const auto& v : out.vetoes) (void)fib->apply(v, ns(t));
      for (const auto& c : out.flows) (void)fib->apply(c);
      out.clear();
    }
  }
  state.SetItemsProcessed(2 * state.iterations());
}
BENCHMARK(BM_ArnMessageToFib)->Arg(0)->Arg(1)->ArgName("flow");

}  // namespace
