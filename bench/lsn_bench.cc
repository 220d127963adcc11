// LSN engine cost per frame (draft-camarillo-rtgwg-lsn-00 §3.2.2, §3.2.3).
//   scripts/build release && build/release/lsn_bench
// Receiving: a leaf with 256 spine-facing ports and a 16,384-device fabric
// (64 Dev-Ranges, 2 MiB of state); each iteration applies one frame (parse,
// overlay, change detection, records). Origination: a spine's triggered and
// periodic frames, with the allocation-free pending() views.
#include <benchmark/benchmark.h>

#include <vector>

#include "proto/lsn/lsn_engine.h"

namespace {

using namespace arfabric;
using namespace arfabric::proto;
using namespace arfabric::proto::lsn;

constexpr std::uint32_t kSpines = 256;
constexpr std::uint32_t kDevices = 16384;
constexpr std::uint32_t kRanges = kDevices / 256;

Config leaf_config() {
  Config c;
  c.node_mac = {0x02, 0, 0, 0, 0x0b, 0};
  c.num_devices = kDevices;
  for (std::uint32_t i = 1; i <= kSpines; ++i)
    c.ports.push_back(PortConfig{static_cast<PortId>(i), PortRole::trusted});
  return c;
}

Config spine_config(std::uint32_t leaves, bool fcs) {
  Config c;
  c.node_mac = {0x02, 0, 0, 0, 0x0a, 1};
  c.num_devices = leaves;
  c.codec.fcs = fcs;
  for (std::uint32_t i = 0; i < leaves; ++i) {
    c.ports.push_back(
        PortConfig{static_cast<PortId>(i + 1), PortRole::trusted});
    c.attached.push_back(Attachment{i, static_cast<PortId>(i + 1)});
  }
  return c;
}

Bytes encode(std::uint8_t range, int cleared_bit) {
  wire::lsn::LsnFrame f;
  f.dev_range = range;
  f.bitmap.fill(true);
  if (cleared_bit >= 0)
    f.bitmap.set(static_cast<std::size_t>(cleared_bit), false);
  ByteWriter w;
  (void)wire::lsn::serialize(f, w);
  return w.take();
}

// (a) The steady periodic refresh: nothing changes. Ports and ranges rotate
// so that the 2 MiB state is touched as a real fabric touches it.
void BM_ApplyFrameNoChange(benchmark::State& state) {
  Receiver leaf = *Receiver::create(leaf_config());
  std::vector<Bytes> frames;
  for (std::uint32_t r = 0; r < kRanges; ++r)
    frames.push_back(encode(static_cast<std::uint8_t>(r), -1));
  std::uint32_t i = 0;
  for (auto _ : state) {
    const PortId port = static_cast<PortId>(1 + (i % kSpines));
    const Bytes& f = frames[(i / kSpines + i) % kRanges];
    benchmark::DoNotOptimize(leaf.on_frame(port, f, Time()));
    ++i;
  }
  if (!leaf.veto_changes().empty()) state.SkipWithError("unexpected change");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ApplyFrameNoChange);

// (b) One bit changes per frame (alternately cleared and set again): one
// VetoChange record each, drained by the caller after every frame.
void BM_ApplyFrameOneBitChanged(benchmark::State& state) {
  Receiver leaf = *Receiver::create(leaf_config());
  const Bytes down = encode(20, 5);
  const Bytes up = encode(20, -1);
  bool flip = false;
  for (auto _ : state) {
    benchmark::DoNotOptimize(leaf.on_frame(17, flip ? up : down, Time()));
    flip = !flip;
    leaf.clear_outputs();
  }
  if (leaf.counters().bits_changed !=
      static_cast<std::uint64_t>(state.iterations()))
    state.SkipWithError("expected one changed bit per frame");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ApplyFrameOneBitChanged);

// Untrusted-port drop (§6): the cost of saying no.
void BM_DropUntrusted(benchmark::State& state) {
  Config c = leaf_config();
  c.ports.push_back(PortConfig{1001, PortRole::untrusted});
  Receiver leaf = *Receiver::create(c);
  const Bytes f = encode(0, 5);
  for (auto _ : state) benchmark::DoNotOptimize(leaf.on_frame(1001, f, Time()));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DropUntrusted);

// Triggered origination at a 256-leaf spine: a port flaps; each event
// patches one bit in four frames (Msg-types 0..3) and queues them.
// Reported per queued frame.
void BM_OriginateTriggered(benchmark::State& state) {
  Originator spine = *Originator::create(spine_config(256, state.range(0)));
  bool up = false;
  std::size_t frames = 0;
  for (auto _ : state) {
    (void)spine.set_port_state(6, up, Time());
    up = !up;
    frames += spine.pending().size();
    benchmark::DoNotOptimize(spine.pending().data());
    spine.clear_pending();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(frames));
}
BENCHMARK(BM_OriginateTriggered)->Arg(0)->Arg(1)->ArgName("fcs");

// Periodic origination at a spine of a 16,384-leaf fabric: 64 Msg-type 0
// frames per period (congestion inactive). Reported per queued frame.
void BM_OriginatePeriodic(benchmark::State& state) {
  Originator spine = *Originator::create(spine_config(kDevices, false));
  Time now;
  std::size_t frames = 0;
  for (auto _ : state) {
    spine.on_timer(now);
    now = spine.next_deadline();
    frames += spine.pending().size();
    benchmark::DoNotOptimize(spine.pending().data());
    spine.clear_pending();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(frames));
}
BENCHMARK(BM_OriginatePeriodic);

// The owning path for comparison: drain() copies each frame per port
// (256 ports here), one allocation per record. Reported per record.
void BM_OriginateDrainOwning(benchmark::State& state) {
  Originator spine = *Originator::create(spine_config(256, false));
  std::vector<SendFrame> out;
  Time now;
  std::size_t records = 0;
  for (auto _ : state) {
    spine.on_timer(now);
    now = spine.next_deadline();
    out.clear();
    spine.drain(out);
    records += out.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
}
BENCHMARK(BM_OriginateDrainOwning);

}  // namespace

namespace {
// The codec alone, for reference: what (a) spends in wire::lsn::parse.
void BM_CodecParseOnly(benchmark::State& state) {
  const arfabric::Bytes f = encode(3, 5);
  for (auto _ : state) {
    auto p = arfabric::wire::lsn::parse(f);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_CodecParseOnly);

// The header check the receiver runs per frame (parse() takes its success
// from it).
void BM_CodecViewOnly(benchmark::State& state) {
  const arfabric::Bytes f = encode(3, 5);
  for (auto _ : state) {
    auto v = arfabric::wire::lsn::view(f);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_CodecViewOnly);

// (a) with the FCS on (CRC-32 of 60 bytes per frame): before view() this
// took the allocating parse path.
void BM_ApplyFrameNoChangeFcs(benchmark::State& state) {
  Config c = leaf_config();
  c.codec.fcs = true;
  Receiver leaf = *Receiver::create(c);
  std::vector<Bytes> frames;
  for (std::uint32_t r = 0; r < kRanges; ++r) {
    wire::lsn::LsnFrame f;
    f.dev_range = static_cast<std::uint8_t>(r);
    f.bitmap.fill(true);
    ByteWriter w;
    (void)wire::lsn::serialize(f, w, c.codec);
    frames.push_back(w.take());
  }
  std::uint32_t i = 0;
  for (auto _ : state) {
    const PortId port = static_cast<PortId>(1 + (i % kSpines));
    const Bytes& f = frames[(i / kSpines + i) % kRanges];
    benchmark::DoNotOptimize(leaf.on_frame(port, f, Time()));
    ++i;
  }
  if (leaf.counters().applied != leaf.counters().received)
    state.SkipWithError("frame not applied");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ApplyFrameNoChangeFcs);
}  // namespace
