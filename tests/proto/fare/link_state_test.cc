#include "proto/fare/link_state.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "support/isis_routers.h"
#include "wire/isis/lsp.h"

namespace arfabric::proto::fare {
namespace {

// A database built by naming links: link(a, b, capacity) adds both
// directions, each with its own Maximum Bandwidth when given.
class Fabric {
 public:
  LinkStateRouter& router(RouterKey key) {
    for (LinkStateRouter& r : db_.routers)
      if (r.router == key) return r;
    db_.routers.push_back(LinkStateRouter{.router = key});
    return db_.routers.back();
  }
  void link(RouterKey a, RouterKey b, std::optional<BitsPerSecond> ab,
            std::optional<BitsPerSecond> ba, std::uint32_t metric = 10) {
    router(a).links.push_back({b, metric, ab});
    router(b).links.push_back({a, metric, ba});
  }
  void link(RouterKey a, RouterKey b, BitsPerSecond both) {
    link(a, b, both, both);
  }
  void advertise(RouterKey r, const fib::Prefix& p,
                 std::optional<BitsPerSecond> path_bandwidth,
                 std::uint32_t metric = 0) {
    router(r).prefixes.push_back({p, metric, path_bandwidth});
  }
  const LinkStateDatabase& db() const { return db_; }

 private:
  LinkStateDatabase db_;
};

fib::Prefix v4(std::uint8_t a, std::uint8_t b, std::uint8_t c,
               std::uint8_t length) {
  fib::Prefix p;
  p.address[0] = a;
  p.address[1] = b;
  p.address[2] = c;
  p.length = length;
  return p;
}

const fib::Prefix kLeaf2Net = v4(10, 0, 2, 24);

std::vector<WeightedFirstHop> hops(
    std::initializer_list<std::pair<RouterKey, BitsPerSecond>> list) {
  std::vector<WeightedFirstHop> v;
  for (const auto& [n, w] : list) v.push_back({n, w});
  return v;
}

const LinkStateRoute& route_to(const std::vector<LinkStateRoute>& routes,
                               const fib::Prefix& p) {
  for (const LinkStateRoute& r : routes)
    if (r.prefix == p) return r;
  ADD_FAILURE() << "no route";
  static const LinkStateRoute none;
  return none;
}

// Figure 1: leaves 1..3 (keys 1..3) each connected to spines 11..14.
Fabric figure1() {
  Fabric f;
  for (RouterKey leaf = 1; leaf <= 3; ++leaf)
    for (RouterKey spine = 11; spine <= 14; ++spine)
      f.link(leaf, spine, gbps(400));
  return f;
}

// §4.1: weight = min(upstream link, downstream link, Path Bandwidth). L1's
// uplink to S2 has lost half its lanes, S3's downlink to L2 three
// quarters of them.
TEST(FareLinkState, ThreeStageWeightIsTheMinimumOfBothLinksAndThePrefix) {
  Fabric f = figure1();
  f.router(1).links[1].max_bandwidth = gbps(200);  // L1 -> S2
  for (LinkStateLink& l : f.router(13).links)
    if (l.neighbor == 2) l.max_bandwidth = gbps(100);  // S3 -> L2
  f.advertise(2, kLeaf2Net, kUnlimited);  // "a maximum bandwidth value"
  auto routes = compute_routes(f.db(), 1);
  ASSERT_TRUE(routes) << routes.error().to_string();
  ASSERT_EQ(routes->size(), 1u);
  const LinkStateRoute& r = (*routes)[0];
  EXPECT_EQ(r.prefix, kLeaf2Net);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.metric, 20u);
  EXPECT_EQ(r.originators, std::vector<RouterKey>{2});
  EXPECT_EQ(r.first_hops, hops({{11, gbps(400)},
                                {12, gbps(200)},
                                {13, gbps(100)},
                                {14, gbps(400)}}));
  EXPECT_EQ(r.path_bandwidth, gbps(1100));
  // The prefix's Path Bandwidth bounds every path.
  f.router(2).prefixes[0].path_bandwidth = gbps(150);
  routes = compute_routes(f.db(), 1);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, gbps(150)},
                                           {12, gbps(150)},
                                           {13, gbps(100)},
                                           {14, gbps(150)}}));
  EXPECT_EQ((*routes)[0].path_bandwidth, gbps(150));
}

// §4.2 across the levels of Figure 2, one plane: L1 of PoD 1 (key 1)
// under spines 11..14 of PoD 1, leaf 2 of PoD 8 under spines 21..24 of PoD
// 8, spine 11 and spine 21 under super-spines 31..34 of plane 1.
TEST(FareLinkState, FiveStageLeakingUpAndDown) {
  // PoD 1 (level 1): S1@PoD-1 leaks L1's prefix up with the minimum of the
  // link toward L1 and the prefix's Path Bandwidth.
  Fabric pod1;
  for (RouterKey spine = 11; spine <= 14; ++spine)
    pod1.link(1, spine, gbps(400));
  pod1.router(11).links[0].max_bandwidth = gbps(300);  // S1 -> L1
  pod1.advertise(1, kLeaf2Net, kUnlimited);
  auto up = compute_routes(pod1.db(), 11);
  ASSERT_TRUE(up) << up.error().to_string();
  EXPECT_EQ(route_to(*up, kLeaf2Net).path_bandwidth, gbps(300));

  // Plane 1 (level 2): S1@PoD-8 leaks it down with the minimum of the
  // advertised value and the total of all paths toward S1@PoD-1.
  Fabric plane;
  for (RouterKey super = 31; super <= 34; ++super) {
    plane.link(11, super, gbps(400));
    plane.link(21, super, gbps(400));
  }
  plane.router(21).links[0].max_bandwidth = gbps(100);  // S1@8 -> SS1
  plane.router(33).links[0].max_bandwidth = gbps(200);  // SS3 -> S1@1
  plane.advertise(11, kLeaf2Net, route_to(*up, kLeaf2Net).path_bandwidth);
  auto down = compute_routes(plane.db(), 21);
  ASSERT_TRUE(down) << down.error().to_string();
  const LinkStateRoute& across = route_to(*down, kLeaf2Net);
  // Each path is bounded by the 300G leaked value too.
  EXPECT_EQ(across.first_hops, hops({{31, gbps(100)},
                                     {32, gbps(300)},
                                     {33, gbps(200)},
                                     {34, gbps(300)}}));
  EXPECT_EQ(across.path_bandwidth, gbps(300));  // min(300, 900)

  // PoD 8 (level 1): each spine leaks its own value; the leaf weighs each
  // by min(uplink, that value).
  Fabric pod8;
  for (RouterKey spine = 21; spine <= 24; ++spine)
    pod8.link(2, spine, gbps(400));
  pod8.router(2).links[3].max_bandwidth = gbps(250);  // L2 -> S4
  pod8.advertise(21, kLeaf2Net, across.path_bandwidth);
  pod8.advertise(22, kLeaf2Net, gbps(400));
  pod8.advertise(23, kLeaf2Net, gbps(50));
  pod8.advertise(24, kLeaf2Net, gbps(400));
  auto leaf = compute_routes(pod8.db(), 2);
  ASSERT_TRUE(leaf) << leaf.error().to_string();
  const LinkStateRoute& r = route_to(*leaf, kLeaf2Net);
  EXPECT_EQ(r.originators, (std::vector<RouterKey>{21, 22, 23, 24}));
  EXPECT_EQ(
      r.first_hops,
      hops(
          {{21, gbps(300)}, {22, gbps(400)}, {23, gbps(50)}, {24, gbps(250)}}));
}

// Weighted ECMP needs every path's capacity; otherwise equal weights, as
// FARE over BGP without the community.
TEST(FareLinkState, UnknownOrZeroCapacityFallsBackToEqualWeights) {
  Fabric f;
  f.link(1, 11, std::nullopt, std::nullopt);
  f.link(1, 12, gbps(400));
  f.link(11, 2, std::nullopt, std::nullopt);
  f.link(12, 2, gbps(400));
  f.advertise(2, kLeaf2Net, std::nullopt);
  auto routes = compute_routes(f.db(), 1);
  ASSERT_TRUE(routes);
  EXPECT_FALSE((*routes)[0].weighted);
  EXPECT_EQ((*routes)[0].fallback, WeightFallback::unknown_capacity);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, 1}, {12, 1}}));
  // A Path Bandwidth bounds the path with no Maximum Bandwidth.
  f.router(2).prefixes[0].path_bandwidth = gbps(100);
  routes = compute_routes(f.db(), 1);
  EXPECT_TRUE((*routes)[0].weighted);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, gbps(100)}, {12, gbps(100)}}));
  // Every capacity 0.
  f.router(2).prefixes[0].path_bandwidth = 0;
  routes = compute_routes(f.db(), 1);
  EXPECT_EQ((*routes)[0].fallback, WeightFallback::zero_total);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, 1}, {12, 1}}));
}

// Only the shortest paths count; a link listed by one end only is not a
// link; parallel links at the least metric add up; an overloaded router
// carries no transit; self's own prefixes are not routed.
TEST(FareLinkState, SpfRules) {
  Fabric f;
  f.link(1, 11, gbps(400));
  f.link(11, 2, gbps(400));
  f.link(1, 12, gbps(400));
  f.link(12, 2, gbps(400), gbps(400), 20);  // longer: not a shortest path
  f.link(1, 13, gbps(100));
  f.link(1, 13, gbps(100));                 // parallel
  f.link(1, 13, gbps(400), gbps(400), 30);  // parallel, longer: ignored
  f.link(13, 2, gbps(400));
  f.router(14).links.push_back({2, 10, gbps(400)});  // one-way
  f.router(2).links.push_back({14, 10, gbps(400)});
  f.router(1).links.push_back({14, 10, gbps(400)});
  f.advertise(2, kLeaf2Net, std::nullopt);
  f.advertise(1, v4(10, 0, 1, 24), std::nullopt);
  auto routes = compute_routes(f.db(), 1);
  ASSERT_TRUE(routes);
  ASSERT_EQ(routes->size(), 1u);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, gbps(400)}, {13, gbps(200)}}));
  f.router(11).overloaded = true;
  routes = compute_routes(f.db(), 1);
  EXPECT_EQ((*routes)[0].first_hops, hops({{13, gbps(200)}}));
  // An overloaded router's own prefix is still reached.
  f.advertise(11, v4(10, 0, 11, 24), gbps(10));
  routes = compute_routes(f.db(), 1);
  EXPECT_EQ(route_to(*routes, v4(10, 0, 11, 24)).first_hops,
            hops({{11, gbps(10)}}));
}

// RFC 5302 §3.3: a prefix this level advertises (up/down bit clear) is
// preferred to one leaked down from level 2, whatever their costs.
TEST(FareLinkState, AnAdvertisementWithoutTheUpDownBitIsPreferred) {
  Fabric f = figure1();
  f.advertise(11, kLeaf2Net, gbps(100));  // one hop away, leaked down
  f.router(11).prefixes[0].inter_area = true;
  f.advertise(2, kLeaf2Net, std::nullopt, 0);  // two hops away, its own
  auto routes = compute_routes(f.db(), 1);
  ASSERT_TRUE(routes);
  const LinkStateRoute& r = (*routes)[0];
  EXPECT_FALSE(r.inter_area);
  EXPECT_EQ(r.originators, std::vector<RouterKey>{2});
  EXPECT_EQ(r.metric, 20u);
  EXPECT_EQ(r.first_hops.size(), 4u);
  // Without leaf 2's own, the leaked one: marked inter_area.
  f.router(2).prefixes.clear();
  routes = compute_routes(f.db(), 1);
  EXPECT_TRUE((*routes)[0].inter_area);
  EXPECT_EQ((*routes)[0].originators, std::vector<RouterKey>{11});
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, gbps(100)}}));
}

// Beyond the first hop, several equal-cost paths: the widest counts (not
// their sum), and the route's total is over first hops.
TEST(FareLinkState, AFirstHopIsAsWideAsItsWidestPath) {
  Fabric f;
  f.link(1, 11, gbps(800));
  f.link(11, 21, gbps(100));
  f.link(11, 22, gbps(300));
  f.link(21, 2, gbps(400));
  f.link(22, 2, gbps(400));
  f.advertise(2, kLeaf2Net, std::nullopt);
  auto routes = compute_routes(f.db(), 1);
  ASSERT_TRUE(routes);
  EXPECT_EQ((*routes)[0].first_hops, hops({{11, gbps(300)}}));
  EXPECT_EQ((*routes)[0].path_bandwidth, gbps(300));
}

TEST(FareLinkState, ErrorsNameTheField) {
  Fabric f = figure1();
  EXPECT_EQ(compute_routes(f.db(), 99).error().field, "self");
  Fabric twice = figure1();
  LinkStateDatabase db = twice.db();
  db.routers.push_back(db.routers[0]);
  EXPECT_EQ(compute_routes(db, 1).error().field, "routers[7].router");
  f.advertise(2, v4(10, 0, 2, 16), std::nullopt);  // 10.0.2.0/16
  const auto e = compute_routes(f.db(), 1);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "routers[5].prefixes[0].prefix");  // leaf 2
  EXPECT_EQ(e.error().reason, "host bits set");
}

TEST(FareLinkState, BandwidthConversions) {
  using wire::lsr::Bandwidth32;
  // 400G is sent as 0x513A43B7 = 49,999,998,976 B/s (docs/PROTOCOLS.md).
  EXPECT_EQ(to_bits_per_second(Bandwidth32{0x513A43B7}), 399'999'991'808u);
  EXPECT_EQ(to_bandwidth32(gbps(400)).bits, 0x513A43B7u);
  EXPECT_EQ(to_bits_per_second(Bandwidth32::from_bytes_per_second(-0.0f)), 0u);
  EXPECT_FALSE(to_bits_per_second(Bandwidth32::from_bytes_per_second(-1.0f)));
  EXPECT_FALSE(to_bits_per_second(Bandwidth32{0x7FC00000}));           // NaN
  EXPECT_EQ(to_bits_per_second(Bandwidth32{0x7F800000}), kUnlimited);  // +Inf
  EXPECT_EQ(to_bits_per_second(Bandwidth32::from_bytes_per_second(FLT_MAX)),
            kUnlimited);
  EXPECT_EQ(to_bandwidth32(kUnlimited).bytes_per_second(), FLT_MAX);
}

// Re-advertised values never overstate a bottleneck.
RC_GTEST_PROP(FareLinkState, ToBandwidth32RoundsTowardZero,
              (std::uint64_t rate)) {
  RC_PRE(rate != kUnlimited);
  const auto back = to_bits_per_second(to_bandwidth32(rate));
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back <= rate);
  // And it is the largest such binary32: the next one up is above.
  const float f = to_bandwidth32(rate).bytes_per_second();
  const float up = std::nextafter(f, std::numeric_limits<float>::infinity());
  RC_ASSERT(static_cast<long double>(up) * 8 > static_cast<long double>(rate));
}

// From IS-IS LSPs as they are encoded and parsed: TLV 22 with Maximum
// Link Bandwidth, TLV 135 with the Path Bandwidth and the up/down bit,
// the overload bit, fragments, RFC 5305's metrics kept out of SPF.
TEST(FareLinkState, DatabaseFromIsisLsps) {
  namespace isis = wire::isis;
  using testing::isis_system;
  auto system = isis_system;
  // Router n's LSP: every link with the same Maximum Link Bandwidth.
  auto lsp = [](std::uint8_t n, std::vector<std::uint8_t> neighbours,
                float bytes_per_second) {
    std::vector<std::pair<std::uint8_t, float>> links;
    for (std::uint8_t m : neighbours) links.push_back({m, bytes_per_second});
    return testing::isis_router_lsp(n, links);
  };
  std::vector<isis::Lsp> lsps = {lsp(1, {11, 12}, 5e9f),  // 40G
                                 lsp(2, {11, 12}, 5e9f), lsp(11, {1, 2}, 5e9f),
                                 lsp(12, {1, 2}, 2.5e9f)};  // 20G down
  isis::Ipv4Prefix p{.metric = 0, .prefix_length = 24, .prefix = {10, 0, 2, 0}};
  p.sub_tlvs.emplace();
  p.sub_tlvs->push_back(isis::PathBandwidthSubTlv{
      wire::lsr::Bandwidth32::from_bytes_per_second(FLT_MAX)});
  // Host bits as a peer may send them (the prefix's last octet goes
  // whole), a prefix above MAX_PATH_METRIC (RFC 5305 §4: not for SPF), and
  // one that came down from level 2 (the up/down bit).
  isis::Ipv4Prefix host_bits{
      .metric = 0, .prefix_length = 20, .prefix = {10, 0, 0x2f, 0}};
  isis::Ipv4Prefix too_far{
      .metric = 0xFE000001, .prefix_length = 24, .prefix = {10, 0, 3, 0}};
  isis::Ipv4Prefix down{.metric = 0,
                        .up_down = true,
                        .prefix_length = 24,
                        .prefix = {10, 0, 4, 0}};
  lsps[1].tlvs.push_back(
      isis::ExtendedIpReachTlv{{p, host_bits, too_far, down}});
  // A link at the maximum metric (RFC 5305 §3: not for SPF) to a router 13
  // with a prefix of its own.
  isis::Lsp r13 = lsp(13, {1}, 5e9f);
  std::get<isis::ExtendedIsReachTlv>(r13.tlvs[0]).neighbors[0].metric =
      0xFFFFFF;
  r13.tlvs.push_back(isis::ExtendedIpReachTlv{{isis::Ipv4Prefix{
      .metric = 0, .prefix_length = 24, .prefix = {10, 0, 13, 0}}}});
  lsps.push_back(r13);
  std::get<isis::ExtendedIsReachTlv>(lsps[0].tlvs[0])
      .neighbors.push_back({system(13), 0, 0xFFFFFF, {}});
  // Through the codec, as received.
  for (isis::Lsp& l : lsps) {
    ByteWriter w;
    ASSERT_TRUE(isis::serialize(l, w));
    auto parsed = isis::parse_lsp(w.data());
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    l = parsed->lsp;
  }
  auto db = database_from_isis(lsps);
  ASSERT_TRUE(db) << db.error().to_string();
  auto routes = compute_routes(*db, router_key(system(1)));
  ASSERT_TRUE(routes) << routes.error().to_string();
  ASSERT_EQ(routes->size(), 3u);  // neither 10.0.3.0 nor 10.0.13.0
  EXPECT_EQ((*routes)[0].prefix, kLeaf2Net);
  EXPECT_FALSE((*routes)[0].inter_area);
  EXPECT_EQ((*routes)[0].first_hops,
            hops({{router_key(system(11)), gbps(40)},
                  {router_key(system(12)), gbps(20)}}));
  EXPECT_EQ((*routes)[1].prefix, v4(10, 0, 4, 24));
  EXPECT_TRUE((*routes)[1].inter_area);
  EXPECT_EQ((*routes)[2].prefix, v4(10, 0, 32, 20));
  // The overload bit of a fragment other than 0 does not count (RFC 3787
  // §4); fragment 0's does: no transit through spine 12.
  isis::Lsp fragment = lsps[3];
  fragment.lsp_id.fragment = 1;
  fragment.tlvs.clear();
  fragment.flags |= isis::kLspFlagOverload;
  lsps.push_back(fragment);
  routes = compute_routes(*database_from_isis(lsps), router_key(system(1)));
  EXPECT_EQ((*routes)[0].first_hops.size(), 2u);
  lsps[3].flags |= isis::kLspFlagOverload;
  routes = compute_routes(*database_from_isis(lsps), router_key(system(1)));
  EXPECT_EQ((*routes)[0].first_hops,
            hops({{router_key(system(11)), gbps(40)}}));
  // Without its fragment 0, spine 11 is left out with its other fragments
  // (ISO 10589 §7.2.5): no path to leaf 2 is left.
  lsps[2].lsp_id.fragment = 1;
  routes = compute_routes(*database_from_isis(lsps), router_key(system(1)));
  EXPECT_EQ(std::ranges::count(*routes, kLeaf2Net, &LinkStateRoute::prefix), 0);
  // A pseudonode LSP is refused by name.
  lsps[2].lsp_id.pseudonode = 1;
  EXPECT_EQ(database_from_isis(lsps).error().field,
            "lsps[2].lsp_id.pseudonode");
}

}  // namespace
}  // namespace arfabric::proto::fare
