// Parse + serialize throughput of LSN frames and ARN messages.
//   scripts/build release && build/release/lsn_arn_bench
// Figures and the command line are recorded in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "wire/arn/arn_message.h"
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

}  // namespace
