// Issue 3's speaker benchmark: one engine receives 1,000,000 IPv4 prefixes
// in packed UPDATEs from one peer and re-advertises them to 16 peers.
// Reports messages in/out, routes per second and resident memory per route.
// The feed is encoded before timing; the timed part is the engine alone
// (parse, RIB, decision with FARE, Adj-RIB-Out packing, encoding), with the
// received bytes handed over in 64 KB reads as a socket would.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "proto/bgp/speaker.h"
#include "wire/bgp/message.h"

namespace {

using namespace arfabric;
using namespace arfabric::proto::bgp;
namespace wb = arfabric::wire::bgp;

constexpr int kReceivers = 16;

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4096;
}

Bytes encode(const wb::Message& m) {
  wb::SessionCodecOptions o;
  o.four_octet_as = true;
  ByteWriter w;
  (void)wb::serialize(m, o, w);
  return w.take();
}

wb::Open open_from(std::uint32_t asn, std::uint8_t id) {
  wb::Open o;
  o.my_as = static_cast<std::uint16_t>(asn);
  o.hold_time = 90;
  o.identifier = {10, 0, 1, id};
  wb::OptionalParameter caps;
  caps.capabilities = {
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv4, wb::kSafiUnicast}}},
      {wb::capability_code::kFourOctetAs, wb::FourOctetAsCapability{asn}}};
  o.parameters.push_back(caps);
  return o;
}

// The feed: distinct /24s from 11.0.0.0 up, 1,000 per UPDATE (4,047 bytes).
std::vector<Bytes> make_feed(std::size_t routes) {
  std::vector<Bytes> out;
  wb::Update u;
  u.attributes = {
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(
          wb::attr_type::kAsPath,
          wb::AsPath{{{wb::segment_type::kAsSequence, {65100, 65002}}}}),
      wb::make_attribute(wb::attr_type::kNextHop, wb::NextHop{{10, 0, 0, 2}})};
  const std::size_t per_update = 1000;
  for (std::size_t first = 0; first < routes; first += per_update) {
    u.nlri.clear();
    for (std::size_t i = first; i < std::min(routes, first + per_update); ++i) {
      wb::Prefix p;
      p.length = 24;
      const std::uint32_t net =
          0x0b000000u + static_cast<std::uint32_t>(i << 8);
      p.address[0] = static_cast<std::uint8_t>(net >> 24);
      p.address[1] = static_cast<std::uint8_t>(net >> 16);
      p.address[2] = static_cast<std::uint8_t>(net >> 8);
      u.nlri.push_back(p);
    }
    out.push_back(encode(u));
  }
  return out;
}

SpeakerConfig config() {
  SpeakerConfig c;
  c.local_as = 65001;
  c.router_id = {10, 0, 0, 1};
  c.rib.fare.role = arfabric::proto::fare::Role::spine;
  for (int i = 0; i <= kReceivers; ++i) {
    PeerConfig p;
    p.name = "peer" + std::to_string(i);
    p.session.remote_as = 65100 + static_cast<std::uint32_t>(i);
    p.role = arfabric::proto::fare::Role::leaf;
    p.link_bandwidth = gbps(400);
    p.next_hop_ipv4 = {10, 0, 2, static_cast<std::uint8_t>(i)};
    c.peers.push_back(p);
  }
  return c;
}

void BM_Speaker_1M_Routes_To_16_Peers(benchmark::State& state) {
  const std::size_t routes = static_cast<std::size_t>(state.range(0));
  const std::vector<Bytes> feed = make_feed(routes);
  // Concatenate and cut into 64 KB reads.
  Bytes stream;
  for (const Bytes& m : feed) stream.insert(stream.end(), m.begin(), m.end());
  for (auto _ : state) {
    state.PauseTiming();
    const std::size_t rss_before = resident_bytes();
    auto speaker = std::make_unique<Speaker>(config());
    const Time now = sec(1);
    speaker->start(now);
    for (PeerId p = 0; p <= kReceivers; ++p) {
      speaker->on_connected(p, p + 1, Direction::outgoing, now);
      speaker->on_bytes(p, p + 1, encode(open_from(65100 + p, 2 + p)), now);
      speaker->on_bytes(p, p + 1, encode(wb::Keepalive{}), now);
    }
    speaker->outputs().clear();
    std::uint64_t messages_out = 0, bytes_out = 0, fib_updates = 0;
    state.ResumeTiming();
    for (std::size_t at = 0; at < stream.size(); at += 65536) {
      const std::size_t n = std::min<std::size_t>(65536, stream.size() - at);
      speaker->on_bytes(0, 1, ByteSpan(stream.data() + at, n), now);
      for (const SpeakerOutput& o : speaker->outputs()) {
        if (const auto* s = std::get_if<SendRequest>(&o)) {
          ++messages_out;
          bytes_out += s->bytes.size();
        } else if (std::holds_alternative<FibUpdate>(o)) {
          ++fib_updates;
        }
      }
      speaker->outputs().clear();
    }
    state.PauseTiming();
    const std::size_t rss_after = resident_bytes();
    if (speaker->rib().size() != routes ||
        speaker->advertised_count(kReceivers) != routes) {
      state.SkipWithError("not every route was installed and re-advertised");
    }
    state.counters["messages_in"] = static_cast<double>(feed.size());
    state.counters["messages_out"] = static_cast<double>(messages_out);
    state.counters["bytes_out"] = static_cast<double>(bytes_out);
    state.counters["fib_updates"] = static_cast<double>(fib_updates);
    state.counters["routes_per_s"] = benchmark::Counter(
        static_cast<double>(routes), benchmark::Counter::kIsRate);
    state.counters["rss_bytes_per_route"] =
        static_cast<double>(rss_after - rss_before) /
        static_cast<double>(routes);
    speaker.reset();
    state.ResumeTiming();
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024;
}
BENCHMARK(BM_Speaker_1M_Routes_To_16_Peers)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
