#include "sim/ibcs.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/clos_fixture.h"

namespace arfabric::sim {
namespace {

using testing::Clos;
using testing::Sim;

// A Sim whose switches run IBCS and whose hosts send signalled packets.
struct IbcsSim {
  Sim sim;
  std::unique_ptr<IbcsSwitches> ibcs;
  IbcsSim(const NetworkSpec& spec, const IbcsParams& params) : sim(spec) {
    auto created = IbcsSwitches::create(*sim.net, params);
    EXPECT_TRUE(created) << created.error();
    ibcs = std::move(*created);
    sim.net->set_header_processor(ibcs.get());
  }
  void send(NodeIndex from, NodeIndex to, std::uint32_t bytes, FlowId flow,
            Time now, std::optional<std::uint32_t> signal = std::nullopt) {
    const PacketIndex i = sim.pool.allocate();
    Packet& p = sim.pool[i];
    p.source = from;
    p.destination = to;
    p.wire_bytes = bytes;
    p.transport.flow = flow;
    p.transport.signal_valid = true;
    p.transport.signal = signal.value_or(ibcs->uninitialized());
    sim.net->send_from_host(from, i, now);
  }
};

IbcsParams latest_sample(IbcsSignal signal) {
  IbcsParams p;
  p.signal = signal;
  p.ewma_weight = 1;  // L_Metric = the newest sample
  p.sample_interval = ps(1);
  return p;
}

// One spine, two leaves, one host each: host0 -> leaf0 -> spine -> leaf1 ->
// host1, cable 2 (leaf1-spine) at `middle`.
Clos chain(BitsPerSecond middle) {
  Clos c(1, 2, 1, gbps(400), us(1));
  c.spec.cables[2].rate = middle;
  c.spec.buffer_bytes = 1'000'000;
  return c;
}

TEST(Ibcs, AvailableBandwidthIsTheMinimumAlongThePath) {
  const Clos c = chain(gbps(200));
  IbcsSim s(c.spec, latest_sample(IbcsSignal::abw));
  c.install_routes(*s.sim.net);
  EXPECT_EQ(s.ibcs->uninitialized(), 31u);  // CSIG abw is a MIN signal
  s.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{});
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 1u);
  const Packet& got = s.sim.sink.packets[0];
  ASSERT_TRUE(got.transport.signal_valid);
  // Idle links: available = rate; buckets of 400G / 31: 400G -> 31 (the
  // top), the 200G hop -> 15, which the MIN keeps.
  EXPECT_EQ(got.transport.signal, 15u);
  const auto counters = s.ibcs->counters();
  EXPECT_EQ(counters.rewritten, 2u);  // leaf0 (rule 1), spine (rule 2)
  EXPECT_EQ(counters.unchanged, 1u);  // leaf1 (rule 3)
  EXPECT_EQ(counters.fail_open, 0u);
}

TEST(Ibcs, QueueDepthGrowsAlongABurstAndIsTheMaximum) {
  const Clos c = chain(gbps(10));
  IbcsSim s(c.spec, latest_sample(IbcsSignal::nqd));
  c.install_routes(*s.sim.net);
  EXPECT_EQ(s.ibcs->uninitialized(), 0u);  // nqd is a MAX signal
  for (int i = 0; i < 100; ++i)
    s.send(c.host(0, 0), c.host(1, 0), 4000, 1, Time{});
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 100u);
  // The spine's 10G egress queues the 400G burst: each packet sees a
  // deeper queue than the one before (31 * queued / 1 MB).
  std::uint32_t previous = 0;
  for (const Packet& p : s.sim.sink.packets) {
    EXPECT_GE(p.transport.signal, previous);
    previous = p.transport.signal;
  }
  EXPECT_EQ(s.sim.sink.packets.front().transport.signal, 0u);
  // The last one comes 99 x 80 ns after the first, when 2.475 of the 99
  // ahead of it have gone at 3.2 us each: 96.525 x 4000 B not yet sent.
  EXPECT_EQ(previous, 31u * 386'100 / 1'000'000);
}

// A port samples its L_Metric when a packet leaves and the last sample is
// at least sample_interval old, and not in between. Eight 4000-byte packets
// reach the spine's 10G egress 80 ns apart; its queue is what the nqd
// signal reports (MAX: the leaves' idle 400G ports report 0).
TEST(Ibcs, APortSamplesOncePerSampleInterval) {
  for (const Time interval : {ps(1), ns(480)}) {
    Clos c = chain(gbps(10));
    c.spec.buffer_bytes = 40'000;  // eight packets fit
    IbcsParams params = latest_sample(IbcsSignal::nqd);
    params.sample_interval = interval;
    IbcsSim s(c.spec, params);
    c.install_routes(*s.sim.net);
    for (int i = 0; i < 8; ++i)
      s.send(c.host(0, 0), c.host(1, 0), 4000, 1, Time{});
    s.sim.run_until(sec(1));
    ASSERT_EQ(s.sim.sink.packets.size(), 8u);
    std::vector<std::uint32_t> signals;
    for (const Packet& p : s.sim.sink.packets)
      signals.push_back(p.transport.signal);
    if (interval == ps(1)) {
      // Every packet samples: the second sees the first's unsent 3900 B
      // (3.2 us at 10G, 80 ns of it gone), 31 * 3900 / 40000.
      EXPECT_EQ(signals[0], 0u);
      EXPECT_EQ(signals[1], 3u);
    } else {
      // The first samples the empty queue, and the five after it, less
      // than 480 ns later, carry that sample; the seventh, exactly 480 ns
      // after the first, samples 3400 + 5 x 4000 B (31 * 23400 / 40000),
      // and the eighth, 80 ns later, carries it.
      EXPECT_EQ(signals,
                (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 0, 18, 18}));
    }
  }
}

TEST(Ibcs, HostFacingIngressScrubsASpoofedSignal) {
  for (const bool scrub : {true, false}) {
    const Clos c = chain(gbps(400));
    IbcsParams params = latest_sample(IbcsSignal::abw_c);
    params.scrub_host_ingress = scrub;
    IbcsSim s(c.spec, params);
    c.install_routes(*s.sim.net);
    // The host claims "no bandwidth left" to slow other senders down.
    s.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{}, 0);
    s.sim.run_until(sec(1));
    ASSERT_EQ(s.sim.sink.packets.size(), 1u);
    // Scrubbed, the idle path reports all its bandwidth (31); trusted, the
    // spoofed 0 is already the tightest and survives every hop.
    EXPECT_EQ(s.sim.sink.packets[0].transport.signal, scrub ? 31u : 0u)
        << scrub;
    EXPECT_EQ(s.ibcs->counters().scrubbed, scrub ? 1u : 0u);
  }
}

TEST(Ibcs, TheUpdateNeverChangesThePathAPacketTakes) {
  Clos c(4, 4, 2, gbps(400), us(1));
  c.spec.buffer_bytes = 1'000'000;
  auto run = [&](bool with_ibcs) {
    std::vector<std::uint64_t> per_link;
    Sim plain(c.spec);
    std::unique_ptr<IbcsSim> signalled;
    Sim* sim = &plain;
    if (with_ibcs) {
      signalled =
          std::make_unique<IbcsSim>(c.spec, latest_sample(IbcsSignal::nqd));
      sim = &signalled->sim;
    }
    c.install_routes(*sim->net);
    for (FlowId f = 0; f < 400; ++f) {
      const NodeIndex from = c.host(f % 4, 0), to = c.host((f + 1) % 4, 1);
      if (signalled) {
        signalled->send(from, to, 4096, f, ns(f * 10));
      } else {
        sim->send(from, to, 4096, f, ns(f * 10));
      }
    }
    sim->run_until(sec(1));
    for (LinkIndex l = 0; l < sim->net->link_count(); ++l)
      per_link.push_back(sim->net->link(l).counters().packets);
    if (signalled) {
      EXPECT_GT(signalled->ibcs->counters().rewritten, 0u);
    }
    return per_link;
  };
  EXPECT_EQ(run(true), run(false));
}

TEST(Ibcs, WindowEstimatorFailsOpenUntilItsFirstWindowCloses) {
  const Clos c = chain(gbps(200));
  IbcsParams params;
  params.signal = IbcsSignal::abw;
  params.estimator = IbcsEstimator::window_mean;
  params.window = us(10);
  IbcsSim s(c.spec, params);
  c.install_routes(*s.sim.net);
  s.send(c.host(0, 0), c.host(1, 0), 1000, 1, us(1));   // first window
  s.send(c.host(0, 0), c.host(1, 0), 1000, 1, us(25));  // windows closed
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 2u);
  // No complete window yet: every switch forwards unmodified (IBCS 7.2).
  EXPECT_EQ(s.sim.sink.packets[0].transport.signal, 31u);
  EXPECT_EQ(s.sim.sink.packets[1].transport.signal, 15u);
  EXPECT_EQ(s.ibcs->counters().fail_open, 3u);
}

// The busy time a link accepts counts when a packet is queued, not when
// it is sent, so between two samples it can exceed the time elapsed: the
// utilisation is then 1, not more (IbcsSwitches::sample).
TEST(Ibcs, AQueueFillingFasterThanItDrainsCountsAsFullyBusy) {
  const Clos c = chain(gbps(100));
  IbcsSim s(c.spec, latest_sample(IbcsSignal::abw));
  c.install_routes(*s.sim.net);
  s.send(c.host(0, 0), c.host(1, 0), 4000, 1, Time{});
  s.send(c.host(0, 0), c.host(1, 0), 4000, 1, ns(160));
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 2u);
  // The first finds every link idle: 100G is bucket 7 of 400G / 31.
  EXPECT_EQ(s.sim.sink.packets[0].transport.signal, 7u);
  // The second, 160 ns later: leaf0's uplink was busy 80 of them (200G
  // available, 15); the spine's 100G downlink accepted 320 ns of the
  // first packet in those 160 ns, so none is available (0), not a
  // negative amount.
  EXPECT_EQ(s.sim.sink.packets[1].transport.signal, 0u);
}

// A faster rate re-times the bytes not yet sent and lowers the busy
// counter, so the busy time since a sample can be negative: the
// utilisation is then 0, and the link offers its rate, not more.
TEST(Ibcs, BusyTimeLoweredByAFasterRateCountsAsIdle) {
  const Clos c = chain(gbps(100));
  IbcsSim s(c.spec, latest_sample(IbcsSignal::abw));
  c.install_routes(*s.sim.net);
  for (int i = 0; i < 5; ++i)
    s.send(c.host(0, 0), c.host(1, 0), 4000, 1, Time{});
  // The five reach the spine from ~2.16 us on, 80 ns apart, and queue at
  // its 100G downlink (320 ns each). At 2.5 us that cable speeds up to
  // 200G: the three queued behind the one on the wire take 160 ns less
  // each.
  s.sim.run_until(ns(2500));
  s.sim.net->set_cable_rate(2, gbps(200), ns(2500));
  s.send(c.host(0, 0), c.host(1, 0), 4000, 2, ns(2500));
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 6u);
  // The sixth: the spine's downlink has 200G, bucket 15, and the MIN
  // keeps it (leaf0's nearly idle uplink offers more, 29).
  EXPECT_EQ(s.sim.sink.packets[5].transport.signal, 15u);
}

TEST(Ibcs, PacketsWithoutTheSignalAreLeftAlone) {
  const Clos c = chain(gbps(200));
  IbcsSim s(c.spec, latest_sample(IbcsSignal::abw));
  c.install_routes(*s.sim.net);
  s.sim.send(c.host(0, 0), c.host(1, 0), 1000, 1, Time{});  // no signal
  s.sim.run_until(sec(1));
  ASSERT_EQ(s.sim.sink.packets.size(), 1u);
  EXPECT_FALSE(s.sim.sink.packets[0].transport.signal_valid);
  EXPECT_EQ(s.ibcs->counters(), proto::ibcs::Counters{});
}

}  // namespace
}  // namespace arfabric::sim
