// FARE over a link-state IGP: compute_routes from one leaf of a 3-stage
// level (every leaf under every spine, one /24 a leaf with its Path
// Bandwidth, one spine link in eight degraded), and database_from_isis
// and database_from_ospfv2 over the same level's LSPs or area's LSAs.
//   scripts/build release && build/release/fare_link_state_bench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "proto/fare/link_state.h"
#include "proto/fare/link_state_ospf.h"
#include "wire/isis/lsp.h"

namespace {

using namespace arfabric;
using namespace arfabric::proto::fare;

// Routers 0..spines-1 are spines, the rest leaves.
LinkStateDatabase clos(std::uint32_t spines, std::uint32_t leaves) {
  LinkStateDatabase db;
  for (std::uint32_t s = 0; s < spines; ++s)
    db.routers.push_back(
        LinkStateRouter{.router = s, .links = {}, .prefixes = {}});
  for (std::uint32_t l = 0; l < leaves; ++l) {
    LinkStateRouter leaf{.router = spines + l, .links = {}, .prefixes = {}};
    proto::fib::Prefix p;
    p.address = {10, static_cast<std::uint8_t>(l >> 8),
                 static_cast<std::uint8_t>(l & 0xff), 0};
    p.length = 24;
    leaf.prefixes.push_back({p, 0, gbps(400), false});
    for (std::uint32_t s = 0; s < spines; ++s) {
      const BitsPerSecond rate = (l + s) % 8 == 0 ? gbps(200) : gbps(400);
      leaf.links.push_back({s, 10, rate});
      db.routers[s].links.push_back({spines + l, 10, rate});
    }
    db.routers.push_back(std::move(leaf));
  }
  return db;
}

void BM_ComputeRoutes(benchmark::State& state) {
  const auto spines = static_cast<std::uint32_t>(state.range(0));
  const auto leaves = static_cast<std::uint32_t>(state.range(1));
  const LinkStateDatabase db = clos(spines, leaves);
  std::size_t routes = 0;
  for (auto _ : state) {
    auto r = compute_routes(db, spines);  // the first leaf
    routes = r->size();
    benchmark::DoNotOptimize(r->data());
  }
  state.counters["routes"] = static_cast<double>(routes);
  state.counters["routes/s"] =
      benchmark::Counter(static_cast<double>(routes),
                         benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ComputeRoutes)
    ->Args({4, 32})
    ->Args({16, 256})
    ->Args({64, 1024})
    ->Unit(benchmark::kMillisecond);

// The same level as IS-IS LSPs (TLV 22 with Maximum Link Bandwidth, TLV
// 135 with the Path Bandwidth) into a database.
void BM_DatabaseFromIsis(benchmark::State& state) {
  namespace isis = wire::isis;
  const auto spines = static_cast<std::uint32_t>(state.range(0));
  const auto leaves = static_cast<std::uint32_t>(state.range(1));
  const LinkStateDatabase db = clos(spines, leaves);
  std::vector<isis::Lsp> lsps;
  for (const LinkStateRouter& r : db.routers) {
    isis::Lsp l;
    l.lsp_id.system_id = system_id(r.router);
    isis::ExtendedIsReachTlv reach;
    for (const LinkStateLink& link : r.links)
      reach.neighbors.push_back({system_id(link.neighbor),
                                 0,
                                 link.metric,
                                 {isis::MaxLinkBandwidthSubTlv{
                                     to_bandwidth32(*link.max_bandwidth)}}});
    l.tlvs.push_back(reach);
    for (const LinkStatePrefix& p : r.prefixes) {
      isis::Ipv4Prefix prefix{
          .metric = 0,
          .up_down = false,
          .prefix_length = p.prefix.length,
          .prefix = {p.prefix.address[0], p.prefix.address[1],
                     p.prefix.address[2], 0},
          .sub_tlvs = std::vector<isis::PrefixSubTlv>{
              isis::PathBandwidthSubTlv{to_bandwidth32(*p.path_bandwidth)}}};
      l.tlvs.push_back(isis::ExtendedIpReachTlv{{prefix}});
    }
    lsps.push_back(std::move(l));
  }
  for (auto _ : state) {
    auto d = database_from_isis(lsps);
    benchmark::DoNotOptimize(d->routers.data());
  }
}
BENCHMARK(BM_DatabaseFromIsis)
    ->Args({16, 256})
    ->Args({64, 1024})
    ->Unit(benchmark::kMillisecond);

// The same area as OSPFv2 LSAs: a Router-LSA per router (point-to-point
// links, a leaf's stub network), a TE LSA per link (RFC 3630: one Link TLV
// each) and an Extended Prefix LSA per leaf.
void BM_DatabaseFromOspfv2(benchmark::State& state) {
  namespace ospf = wire::ospf;
  const auto spines = static_cast<std::uint32_t>(state.range(0));
  const auto leaves = static_cast<std::uint32_t>(state.range(1));
  const LinkStateDatabase db = clos(spines, leaves);
  auto address = [](RouterKey k) { return ospf_router_id(k + 1); };
  // Router a's interface toward b: unique among a's interfaces.
  auto local = [](RouterKey b) {
    return wire::Ipv4Address{172, 16, static_cast<std::uint8_t>(b >> 8),
                             static_cast<std::uint8_t>(b)};
  };
  std::vector<ospf::Ospfv2Lsa> lsas;
  for (const LinkStateRouter& r : db.routers) {
    auto header = [&](std::uint8_t type, wire::Ipv4Address id) {
      return ospf::Ospfv2LsaHeader{.ls_type = type,
                                   .link_state_id = id,
                                   .advertising_router = address(r.router)};
    };
    ospf::RouterLsa body;
    std::uint32_t instance = 0;
    for (const LinkStateLink& link : r.links) {
      body.links.push_back({.link_id = address(link.neighbor),
                            .link_data = local(link.neighbor),
                            .type = ospf::kRouterLinkPointToPoint,
                            .metric = static_cast<std::uint16_t>(link.metric),
                            .tos = {}});
      ++instance;
      lsas.push_back(
          {.header = header(ospf::kLsTypeOpaqueArea,
                            {ospf::kOpaqueTypeTe, 0,
                             static_cast<std::uint8_t>(instance >> 8),
                             static_cast<std::uint8_t>(instance)}),
           .body = ospf::TeLsa{{ospf::TeLinkTlv{
               {ospf::LinkTypeSubTlv{1},
                ospf::LinkIdSubTlv{address(link.neighbor)},
                ospf::LocalAddressSubTlv{{local(link.neighbor)}},
                ospf::MaxBandwidthSubTlv{
                    to_bandwidth32(*link.max_bandwidth)}}}}}});
    }
    for (const LinkStatePrefix& p : r.prefixes) {
      const wire::Ipv4Address network = {
          p.prefix.address[0], p.prefix.address[1], p.prefix.address[2], 0};
      body.links.push_back({.link_id = network,
                            .link_data = {255, 255, 255, 0},
                            .type = ospf::kRouterLinkStub,
                            .metric = 0,
                            .tos = {}});
      lsas.push_back(
          {.header = header(ospf::kLsTypeOpaqueArea,
                            {ospf::kOpaqueTypeExtendedPrefix, 0, 0, 1}),
           .body = ospf::ExtendedPrefixLsa{{ospf::ExtendedPrefixTlv{
               .route_type = 1,
               .prefix_length = 24,
               .prefix = network,
               .sub_tlvs = {ospf::PathBandwidthSubTlv{
                   to_bandwidth32(*p.path_bandwidth)}}}}}});
    }
    lsas.push_back({.header = header(ospf::kLsTypeRouter, address(r.router)),
                    .body = body});
  }
  for (auto _ : state) {
    auto d = database_from_ospfv2(lsas);
    benchmark::DoNotOptimize(d->database.routers.data());
  }
  state.counters["lsas"] = static_cast<double>(lsas.size());
}
BENCHMARK(BM_DatabaseFromOspfv2)
    ->Args({16, 256})
    ->Args({64, 1024})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
