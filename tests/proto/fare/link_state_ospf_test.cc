#include "proto/fare/link_state_ospf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "support/ospf_routers.h"

namespace arfabric::proto::fare {
namespace {

namespace ospf = wire::ospf;
using testing::ospf_router;
using testing::OspfLink;

RouterKey key(std::uint8_t n) { return router_key(ospf_router(n)); }

fib::Prefix v4(std::uint8_t a, std::uint8_t b, std::uint8_t c,
               std::uint8_t length) {
  return {.ipv6 = false, .address = {a, b, c}, .length = length};
}

void add(std::vector<ospf::Ospfv2Lsa>& lsas,
         std::vector<ospf::Ospfv2Lsa> more) {
  lsas.insert(lsas.end(), more.begin(), more.end());
}

// Router n's Router-LSA and TE LSAs.
void add_router(std::vector<ospf::Ospfv2Lsa>& lsas, std::uint8_t n,
                const std::vector<OspfLink>& links,
                const std::vector<testing::OspfStub>& stubs = {},
                std::uint8_t flags = 0) {
  lsas.push_back(testing::ospf_router_lsa(n, links, stubs, flags));
  add(lsas, testing::ospf_te_lsas(n, links));
}

const LinkStateRouter& router_of(const LinkStateDatabase& db, std::uint8_t n) {
  const auto it =
      std::ranges::find(db.routers, key(n), &LinkStateRouter::router);
  EXPECT_NE(it, db.routers.end()) << int{n};
  return *it;
}

const LinkStateRoute* route_to(const std::vector<LinkStateRoute>& routes,
                               const fib::Prefix& p) {
  for (const LinkStateRoute& r : routes)
    if (r.prefix == p) return &r;
  return nullptr;
}

// Router n's route to `p` from `lsas`; nullopt when it has none.
std::optional<LinkStateRoute> route_from(
    const std::vector<ospf::Ospfv2Lsa>& lsas, std::uint8_t n,
    const fib::Prefix& p) {
  auto db = database_from_ospfv2(lsas);
  EXPECT_TRUE(db) << db.error().to_string();
  auto routes = compute_routes(db->database, key(n));
  EXPECT_TRUE(routes) << routes.error().to_string();
  const LinkStateRoute* r = route_to(*routes, p);
  return r ? std::optional(*r) : std::nullopt;
}

TEST(FareOspf, RouterIdsAreKeys) {
  EXPECT_EQ(router_key(wire::Ipv4Address{10, 0, 2, 1}), 0x0a000201u);
  EXPECT_EQ(ospf_router_id(0x0a000201u), (wire::Ipv4Address{10, 0, 2, 1}));
}

// Draft §4.1 (Figure 1) in area 0: leaf 1 reaches leaf 2's prefix through
// spines 11 and 12, each path weighted by min(upstream link, downstream
// link, Path Bandwidth). l1->s12 is 20G and s12->l2 10G, the rest 40G;
// leaf 2's prefix has a Path Bandwidth of 28G (3.5e9 B/s, exact in
// binary32).
TEST(FareOspf, ThreeStageWeightsFromTeAndExtendedPrefixLsas) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1,
             {{.neighbor = 11, .bytes_per_second = 5e9},
              {.neighbor = 12, .bytes_per_second = 2.5e9}},
             {{.network = {10, 0, 1, 0}}});
  add_router(lsas, 2,
             {{.neighbor = 11, .bytes_per_second = 5e9},
              {.neighbor = 12, .bytes_per_second = 5e9}},
             {{.network = {10, 0, 2, 0}, .length = 24, .metric = 1}});
  add_router(lsas, 11,
             {{.neighbor = 1, .bytes_per_second = 5e9},
              {.neighbor = 2, .bytes_per_second = 5e9}});
  add_router(lsas, 12,
             {{.neighbor = 1, .bytes_per_second = 5e9},
              {.neighbor = 2, .bytes_per_second = 1.25e9}});
  lsas.push_back(
      testing::ospf_path_bandwidth_lsa(2, 1, 1, {10, 0, 2, 0}, 24, 3.5e9));
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db) << db.error().to_string();
  ASSERT_EQ(db->database.routers.size(), 4u);
  EXPECT_EQ(router_of(db->database, 2).prefixes,
            (std::vector<LinkStatePrefix>{
                {v4(10, 0, 2, 24), 1, 28'000'000'000ull, false}}));
  auto routes = compute_routes(db->database, key(1));
  ASSERT_TRUE(routes) << routes.error().to_string();
  const LinkStateRoute* r = route_to(*routes, v4(10, 0, 2, 24));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->weighted);
  EXPECT_EQ(r->metric, 21u);
  EXPECT_EQ(r->originators, std::vector<RouterKey>{key(2)});
  EXPECT_EQ(r->first_hops,
            (std::vector<WeightedFirstHop>{{key(11), 28'000'000'000ull},
                                           {key(12), 10'000'000'000ull}}));
  EXPECT_EQ(r->path_bandwidth, 28'000'000'000ull);
  EXPECT_FALSE(r->inter_area);
  // Leaf 1's own prefix gets no route; leaf 2's without a Path Bandwidth
  // would be bounded by the links alone.
  EXPECT_EQ(route_to(*routes, v4(10, 0, 1, 24)), nullptr);
  lsas.pop_back();
  routes = compute_routes(database_from_ospfv2(lsas)->database, key(1));
  EXPECT_EQ(route_to(*routes, v4(10, 0, 2, 24))->first_hops,
            (std::vector<WeightedFirstHop>{{key(11), 40'000'000'000ull},
                                           {key(12), 10'000'000'000ull}}));
}

// Draft §4.2 (Figure 2) at a leaf of PoD-8, a non-backbone area: the
// spines (ABRs) advertise L1@PoD-1's prefix in Summary-LSAs with the
// Path Bandwidth they computed (Extended Prefix route type 3): 40G from
// spine 11, 20G from spine 12. The leaf weighs each path by min(uplink,
// Path Bandwidth).
TEST(FareOspf, FiveStageInterAreaPrefixesFromSummaryLsas) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1,
             {{.neighbor = 11, .bytes_per_second = 5e9},
              {.neighbor = 12, .bytes_per_second = 5e9}});
  add_router(lsas, 11, {{.neighbor = 1, .bytes_per_second = 5e9}}, {},
             ospf::kRouterFlagBorder);
  add_router(lsas, 12, {{.neighbor = 1, .bytes_per_second = 5e9}}, {},
             ospf::kRouterFlagBorder);
  const wire::Ipv4Address net = {10, 1, 0, 0}, mask = {255, 255, 255, 0};
  lsas.push_back(testing::ospf_summary_lsa(11, net, mask, 20));
  lsas.push_back(testing::ospf_summary_lsa(12, net, mask, 20));
  lsas.push_back(testing::ospf_path_bandwidth_lsa(11, 1, 3, net, 24, 5e9));
  lsas.push_back(testing::ospf_path_bandwidth_lsa(12, 1, 3, net, 24, 2.5e9));
  // An intra-area (route type 1) Path Bandwidth for the same prefix does
  // not touch the Summary-LSA's.
  lsas.push_back(testing::ospf_path_bandwidth_lsa(11, 2, 1, net, 24, 1));
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db) << db.error().to_string();
  auto routes = compute_routes(db->database, key(1));
  ASSERT_TRUE(routes);
  const LinkStateRoute* r = route_to(*routes, v4(10, 1, 0, 24));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->inter_area);
  EXPECT_EQ(r->metric, 30u);
  EXPECT_EQ(r->originators, (std::vector<RouterKey>{key(11), key(12)}));
  EXPECT_EQ(r->first_hops,
            (std::vector<WeightedFirstHop>{{key(11), 40'000'000'000ull},
                                           {key(12), 20'000'000'000ull}}));
  EXPECT_EQ(r->path_bandwidth, 40'000'000'000ull);

  // A withdrawn summary (LSInfinity) is no route.
  auto withdrawn = lsas;
  std::get<ospf::SummaryLsa>(withdrawn[7].body).metric = ospf::kLsInfinity;
  const auto without_11 = route_from(withdrawn, 1, v4(10, 1, 0, 24));
  ASSERT_TRUE(without_11);
  EXPECT_EQ(without_11->originators, std::vector<RouterKey>{key(12)});

  // Route type 0 (unspecified) applies to the summary as well: spine
  // 12's Path Bandwidth becomes 10G.
  auto unspecified = lsas;
  std::get<ospf::ExtendedPrefixLsa>(unspecified[10].body).tlvs = {
      ospf::ExtendedPrefixTlv{
          .route_type = 0,
          .prefix_length = 24,
          .prefix = net,
          .sub_tlvs = {ospf::PathBandwidthSubTlv{
              wire::lsr::Bandwidth32::from_bytes_per_second(1.25e9)}}}};
  const auto any_type = route_from(unspecified, 1, v4(10, 1, 0, 24));
  ASSERT_TRUE(any_type);
  EXPECT_EQ(any_type->first_hops,
            (std::vector<WeightedFirstHop>{{key(11), 40'000'000'000ull},
                                           {key(12), 10'000'000'000ull}}));

  // A router of the area advertising the prefix itself wins at any cost
  // (RFC 2328 §11), here at 100 + 50 against the summaries' 30.
  add_router(lsas, 2, {{.neighbor = 1, .bytes_per_second = 5e9, .metric = 100}},
             {{.network = {10, 1, 0, 0}, .length = 24, .metric = 50}});
  lsas[0] = testing::ospf_router_lsa(
      1, {{.neighbor = 11}, {.neighbor = 12}, {.neighbor = 2, .metric = 100}});
  const auto intra = route_from(lsas, 1, v4(10, 1, 0, 24));
  ASSERT_TRUE(intra);
  EXPECT_FALSE(intra->inter_area);
  EXPECT_EQ(intra->metric, 150u);
  EXPECT_EQ(intra->originators, std::vector<RouterKey>{key(2)});
}

// TE Link TLVs name their link by neighbour and local address; without an
// address, the one link to that neighbour.
TEST(FareOspf, TeLinksMatchByNeighbourAndLocalAddress) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  const std::vector<OspfLink> links = {
      {.neighbor = 11, .bytes_per_second = 5e9, .parallel = 0},
      {.neighbor = 11, .bytes_per_second = 2.5e9, .parallel = 1},
      {.neighbor = 12, .bytes_per_second = 1.25e9}};
  add_router(lsas, 1, links);
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db);
  const auto& l1 = router_of(db->database, 1).links;
  ASSERT_EQ(l1.size(), 3u);
  EXPECT_EQ(l1[0].max_bandwidth, 40'000'000'000ull);
  EXPECT_EQ(l1[1].max_bandwidth, 20'000'000'000ull);
  EXPECT_EQ(l1[2].max_bandwidth, 10'000'000'000ull);

  // Without local addresses: the link to 12 (the only one) is named, the
  // two to 11 are not.
  for (ospf::Ospfv2Lsa& lsa : lsas)
    if (auto* te = std::get_if<ospf::TeLsa>(&lsa.body))
      std::erase_if(
          std::get<ospf::TeLinkTlv>(te->tlvs[0]).sub_tlvs,
          [](const ospf::LinkSubTlv& s) {
            return std::holds_alternative<ospf::LocalAddressSubTlv>(s);
          });
  db = database_from_ospfv2(lsas);
  const auto& bare = router_of(db->database, 1).links;
  EXPECT_EQ(bare[0].max_bandwidth, std::nullopt);
  EXPECT_EQ(bare[1].max_bandwidth, std::nullopt);
  EXPECT_EQ(bare[2].max_bandwidth, 10'000'000'000ull);

  // A multi-access Link TLV, or one naming an address the router does
  // not have, names nothing; the first TLV naming a link wins.
  lsas.clear();
  add_router(lsas, 1, {{.neighbor = 12, .bytes_per_second = 1.25e9}});
  auto second =
      testing::ospf_te_lsas(1, {{.neighbor = 12, .bytes_per_second = 5e9}});
  second[0].header.link_state_id[3] = 9;
  lsas.push_back(second[0]);
  std::get<ospf::LinkTypeSubTlv>(
      std::get<ospf::TeLinkTlv>(std::get<ospf::TeLsa>(lsas[1].body).tlvs[0])
          .sub_tlvs[0])
      .link_type = 2;
  EXPECT_EQ(
      router_of(database_from_ospfv2(lsas)->database, 1).links[0].max_bandwidth,
      40'000'000'000ull);
  // An address the router does not have: the neighbour's one link still.
  std::get<ospf::LocalAddressSubTlv>(
      std::get<ospf::TeLinkTlv>(std::get<ospf::TeLsa>(lsas[2].body).tlvs[0])
          .sub_tlvs[2])
      .addresses = {{192, 0, 2, 99}};
  db = database_from_ospfv2(lsas);
  EXPECT_EQ(router_of(db->database, 1).links[0].max_bandwidth,
            40'000'000'000ull);
  EXPECT_TRUE(db->notes.empty());
  // A Link ID that is no neighbour: noted.
  std::get<ospf::LinkIdSubTlv>(
      std::get<ospf::TeLinkTlv>(std::get<ospf::TeLsa>(lsas[2].body).tlvs[0])
          .sub_tlvs[1])
      .link_id = ospf_router(99);
  db = database_from_ospfv2(lsas);
  EXPECT_EQ(router_of(db->database, 1).links[0].max_bandwidth, std::nullopt);
  ASSERT_EQ(db->notes.size(), 1u);
  EXPECT_EQ(db->notes[0].lsa, 2u);
  EXPECT_EQ(db->notes[0].kind, OspfNoteKind::te_link_unmatched);
  EXPECT_EQ(db->notes[0].detail, "Link ID 10.0.99.1");
}

// An exact name wins over the neighbour's-one-link fallback whatever the
// order: a TLV for an address the router does not list (a link that is
// down, say) comes first, the link's own second.
TEST(FareOspf, AnExactTeNameWinsOverTheFallback) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1, {{.neighbor = 12, .bytes_per_second = 5e9}});
  auto other = testing::ospf_te_lsas(
      1, {{.neighbor = 12, .bytes_per_second = 1.25e8, .parallel = 3}});
  lsas.insert(lsas.begin() + 1, other[0]);
  lsas[1].header.link_state_id[3] = 9;
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db);
  EXPECT_EQ(router_of(db->database, 1).links[0].max_bandwidth,
            40'000'000'000ull);
  ASSERT_EQ(db->notes.size(), 1u);
  EXPECT_EQ(db->notes[0].lsa, 1u);
  EXPECT_EQ(db->notes[0].kind, OspfNoteKind::te_link_unmatched);
}

// Unnumbered links: the Router-LSA's Link Data is the interface's ifIndex,
// and the TE Link TLV's local address the borrowed loopback address (as
// FRR sends them). Parallel links are told apart by the TLV's Link Local
// Identifier (RFC 4203 sub-TLV 11); a single link is the neighbour's one.
TEST(FareOspf, UnnumberedLinksByIdentifierOrAsTheOnlyOne) {
  ospf::Ospfv2Lsa router = testing::ospf_router_lsa(
      1, {{.neighbor = 11}, {.neighbor = 11}, {.neighbor = 12}});
  auto& links = std::get<ospf::RouterLsa>(router.body).links;
  for (std::uint8_t k = 0; k < 3; ++k)
    links[k].link_data = {0, 0, 0, static_cast<std::uint8_t>(7 + k)};
  std::vector<ospf::Ospfv2Lsa> lsas = {router};
  auto te = [&](std::uint8_t neighbor, std::optional<std::uint8_t> ifindex,
                float bytes_per_second, std::uint8_t instance) {
    ospf::TeLinkTlv tlv{
        {ospf::LinkTypeSubTlv{1}, ospf::LinkIdSubTlv{ospf_router(neighbor)},
         ospf::LocalAddressSubTlv{{ospf_router(1)}},
         ospf::MaxBandwidthSubTlv{
             wire::lsr::Bandwidth32::from_bytes_per_second(bytes_per_second)}}};
    if (ifindex)
      tlv.sub_tlvs.push_back(
          ospf::RawTlv{11, {0, 0, 0, *ifindex, 0, 0, 0, 99}});
    lsas.push_back(
        {.header = testing::ospf_header(ospf::kLsTypeOpaqueArea, 1,
                                        {ospf::kOpaqueTypeTe, 0, 0, instance}),
         .body = ospf::TeLsa{{tlv}}});
  };
  te(11, 8, 2.5e9, 1);  // the second link to 11
  te(11, 7, 5e9, 2);    // the first
  te(12, std::nullopt, 1.25e9, 3);
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db);
  EXPECT_TRUE(db->notes.empty());
  const auto& l = router_of(db->database, 1).links;
  EXPECT_EQ(l[0].max_bandwidth, 40'000'000'000ull);
  EXPECT_EQ(l[1].max_bandwidth, 20'000'000'000ull);
  EXPECT_EQ(l[2].max_bandwidth, 10'000'000'000ull);
  // Without identifiers, two links to 11 cannot be told apart: noted.
  lsas.resize(1);
  te(11, std::nullopt, 5e9, 1);
  db = database_from_ospfv2(lsas);
  EXPECT_EQ(router_of(db->database, 1).links[0].max_bandwidth, std::nullopt);
  ASSERT_EQ(db->notes.size(), 1u);
  EXPECT_EQ(db->notes[0].kind, OspfNoteKind::te_link_unmatched);
}

TEST(FareOspf, WhatIsSkipped) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1, {{.neighbor = 11, .bytes_per_second = 5e9}});
  // Transit and virtual links, a stub network, and the H-bit.
  ospf::Ospfv2Lsa spine = testing::ospf_router_lsa(
      11, {{.neighbor = 1}}, {{.network = {10, 0, 11, 0}}},
      ospf::kRouterFlagHost);
  auto& body = std::get<ospf::RouterLsa>(spine.body);
  body.links.push_back({.link_id = {192, 0, 2, 1},
                        .link_data = {192, 0, 2, 11},
                        .type = ospf::kRouterLinkTransit,
                        .metric = 1});
  body.links.push_back({.link_id = ospf_router(12),
                        .link_data = {192, 0, 2, 11},
                        .type = ospf::kRouterLinkVirtual,
                        .metric = 1});
  lsas.push_back(spine);
  // A Network-LSA, an ASBR summary, and the LSAs of a router without a
  // Router-LSA: ignored.
  lsas.push_back({.header = testing::ospf_header(2, 11, {192, 0, 2, 1}),
                  .body = ospf::UndecodedLsaBody{}});
  lsas.push_back(testing::ospf_summary_lsa(11, ospf_router(40), {}, 5));
  lsas.back().header.ls_type = ospf::kLsTypeSummaryAsbr;
  lsas.push_back(
      testing::ospf_summary_lsa(13, {10, 13, 0, 0}, {255, 255, 0, 0}, 5));
  add(lsas,
      testing::ospf_te_lsas(13, {{.neighbor = 1, .bytes_per_second = 1}}));
  // An AS-external LSA: external routes are not modelled.
  lsas.push_back({.header = testing::ospf_header(5, 11, {10, 50, 0, 0}),
                  .body = ospf::UndecodedLsaBody{}});
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db) << db.error().to_string();
  ASSERT_EQ(db->database.routers.size(), 2u);
  std::vector<std::tuple<std::size_t, OspfNoteKind, std::string>> notes;
  for (const OspfNote& n : db->notes)
    notes.push_back({n.lsa, n.kind, n.detail});
  EXPECT_EQ(notes,
            (std::vector<std::tuple<std::size_t, OspfNoteKind, std::string>>{
                {2, OspfNoteKind::lan, "1 transit links"},
                {2, OspfNoteKind::virtual_link, "1 virtual links"},
                {3, OspfNoteKind::lan, "Network-LSA"},
                {7, OspfNoteKind::external, ""}}));
  const LinkStateRouter& s = router_of(db->database, 11);
  EXPECT_TRUE(s.overloaded);
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].neighbor, key(1));
  EXPECT_EQ(s.prefixes, (std::vector<LinkStatePrefix>{
                            {v4(10, 0, 11, 24), 0, std::nullopt, false}}));
  EXPECT_FALSE(router_of(db->database, 1).overloaded);
}

// Only an LSA given twice is an error; an LSA that cannot be used is left
// out and noted, the rest of the area kept.
TEST(FareOspf, ADuplicateIsAnErrorBadLsasAreNoted) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1, {{.neighbor = 11, .bytes_per_second = 5e9}});
  lsas.push_back(lsas[0]);
  auto db = database_from_ospfv2(lsas);
  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().field, "lsas[2]");
  EXPECT_NE(db.error().reason.find("as lsas[0]"), std::string::npos)
      << db.error().reason;

  lsas.pop_back();
  lsas.push_back(testing::ospf_router_lsa(2, {}, {}, ospf::kRouterFlagBorder));
  lsas.back().header.link_state_id = ospf_router(3);
  lsas.push_back(testing::ospf_router_lsa(
      4, {}, {{.network = {10, 0, 4, 0}}, {.network = {10, 0, 5, 0}}},
      ospf::kRouterFlagBorder));
  std::get<ospf::RouterLsa>(lsas.back().body).links[0].link_data = {255, 0, 255,
                                                                    0};
  lsas.push_back(
      testing::ospf_summary_lsa(4, {10, 7, 0, 0}, {255, 0, 255, 0}, 1));
  db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db) << db.error().to_string();
  EXPECT_EQ(db->database.routers.size(), 2u);  // 1 and 4
  EXPECT_EQ(router_of(db->database, 4).prefixes,
            (std::vector<LinkStatePrefix>{
                {v4(10, 0, 5, 24), 0, std::nullopt, false}}));
  std::vector<std::tuple<std::size_t, OspfNoteKind, std::string>> notes;
  for (const OspfNote& n : db->notes)
    notes.push_back({n.lsa, n.kind, n.detail});
  EXPECT_EQ(notes,
            (std::vector<std::tuple<std::size_t, OspfNoteKind, std::string>>{
                {2, OspfNoteKind::router_lsa_id, ""},
                {3, OspfNoteKind::mask,
                 "links[0]: stub network 10.0.4.0 mask 255.0.255.0"},
                {4, OspfNoteKind::mask, "network 10.7.0.0 mask 255.0.255.0"}}));
}

// RFC 2328 §16.2 from where `self` stands: its own summaries are no
// routes; a summary from a router without the B bit is noted and left
// out; an ABR computing a non-backbone area uses no summary at all.
TEST(FareOspf, SummariesAsTheComputingRouterSeesThem) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  add_router(lsas, 1,
             {{.neighbor = 11, .bytes_per_second = 5e9},
              {.neighbor = 2, .bytes_per_second = 5e9}});
  add_router(lsas, 2, {{.neighbor = 1, .bytes_per_second = 5e9}});
  add_router(lsas, 11, {{.neighbor = 1, .bytes_per_second = 5e9}}, {},
             ospf::kRouterFlagBorder);
  const wire::Ipv4Address net = {10, 8, 0, 0}, mask = {255, 255, 0, 0};
  lsas.push_back(testing::ospf_summary_lsa(11, net, mask, 5));
  lsas.push_back(testing::ospf_summary_lsa(2, net, mask, 1));  // no B bit
  auto db = database_from_ospfv2(lsas, {.self = key(1), .backbone = false});
  ASSERT_TRUE(db);
  ASSERT_EQ(db->notes.size(), 1u);
  EXPECT_EQ(db->notes[0].kind, OspfNoteKind::summary_not_from_abr);
  auto routes = compute_routes(db->database, key(1));
  ASSERT_EQ(routes->size(), 1u);
  EXPECT_EQ((*routes)[0].originators, std::vector<RouterKey>{key(11)});

  // The ABR itself, outside the backbone: no inter-area route; its own
  // summary is not one either (silently).
  lsas.push_back(testing::ospf_summary_lsa(11, {10, 9, 0, 0}, mask, 5));
  db = database_from_ospfv2(lsas, {.self = key(11), .backbone = false});
  ASSERT_TRUE(db);
  std::vector<OspfNoteKind> kinds;
  for (const OspfNote& n : db->notes) kinds.push_back(n.kind);
  EXPECT_EQ(kinds,
            std::vector<OspfNoteKind>{OspfNoteKind::summary_outside_backbone});
  EXPECT_TRUE(compute_routes(db->database, key(11))->empty());
  // In the backbone the ABR uses the others' summaries, not its own.
  db = database_from_ospfv2(lsas, {.self = key(11), .backbone = true});
  for (const LinkStatePrefix& p : router_of(db->database, 11).prefixes)
    EXPECT_FALSE(p.inter_area);
}

TEST(FareOspf, StubAndSummaryNetworksAreMasked) {
  std::vector<ospf::Ospfv2Lsa> lsas;
  lsas.push_back(
      testing::ospf_router_lsa(1, {},
                               {{.network = {10, 0, 1, 77}, .length = 24},
                                {.network = {10, 0, 9, 9}, .length = 32},
                                {.network = {10, 0, 8, 8}, .length = 0}},
                               ospf::kRouterFlagBorder));
  lsas.push_back(
      testing::ospf_summary_lsa(1, {10, 7, 3, 255}, {255, 255, 0, 0}, 1));
  auto db = database_from_ospfv2(lsas);
  ASSERT_TRUE(db);
  std::vector<fib::Prefix> prefixes;
  for (const LinkStatePrefix& p : db->database.routers[0].prefixes)
    prefixes.push_back(p.prefix);
  EXPECT_EQ(prefixes, (std::vector<fib::Prefix>{
                          v4(10, 0, 1, 24),
                          fib::Prefix{.address = {10, 0, 9, 9}, .length = 32},
                          v4(0, 0, 0, 0), v4(10, 7, 0, 16)}));
}

}  // namespace
}  // namespace arfabric::proto::fare
