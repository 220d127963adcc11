#include "proto/bgp/rib.h"

#include <gtest/gtest.h>

#include "wire/bgp/nlri.h"

namespace arfabric::proto::bgp {
namespace {

namespace wb = wire::bgp;
using wire::fare::PathBandwidth;

constexpr std::uint8_t kSub = wire::fare::kDefaultPathBandwidthSubType;

Destination dest(const std::string& text) {
  auto p = wb::prefix_from_string(text);
  EXPECT_TRUE(p) << text;
  return destination_of(
      text.find(':') == std::string::npos ? wb::kAfiIpv4 : wb::kAfiIpv6, *p);
}

// A route with this AS_PATH, optionally a transitive Path Bandwidth EC (in
// GB/s), a MED and more attributes.
struct Attrs {
  std::vector<std::uint32_t> as_path;
  std::optional<double> ec_gbytes;
  std::optional<std::uint32_t> med;
  std::vector<wb::PathAttribute> extra;
};

AttributesRef make_attrs(const Attrs& a) {
  std::vector<wb::PathAttribute> attrs;
  attrs.push_back(wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}));
  wb::AsPath path;
  if (!a.as_path.empty()) {
    path.segments.push_back({wb::segment_type::kAsSequence, a.as_path});
  }
  attrs.push_back(wb::make_attribute(wb::attr_type::kAsPath, path));
  if (a.med) {
    attrs.push_back(wb::make_attribute(wb::attr_type::kMed, wb::Med{*a.med}));
  }
  if (a.ec_gbytes) {
    const PathBandwidth pb =
        wire::fare::make_path_bandwidth(0x0a000001, *a.ec_gbytes);
    attrs.push_back(wb::make_attribute(
        wb::attr_type::kExtendedCommunities,
        wb::ExtendedCommunities{{wire::fare::encode(pb, kSub)}}));
  }
  for (const auto& e : a.extra) attrs.push_back(e);
  return make_route_attributes(std::move(attrs), Bytes{10, 0, 0, 1}, kSub);
}

AttributesRef make(std::vector<std::uint32_t> as_path,
                   std::optional<double> ec_gbytes = {},
                   std::optional<std::uint32_t> med = {}) {
  return make_attrs(Attrs{std::move(as_path), ec_gbytes, med, {}});
}

RibConfig config(fare::Role role = fare::Role::leaf) {
  RibConfig c;
  c.local_as = 65000;
  c.fare.role = role;
  c.fare.router_id = 0x01010101;
  return c;
}

// Four spines (AS 65100) with 400G links; peer i has router ID i+1.
Rib four_spines(RibConfig c = config()) {
  Rib rib(c);
  for (PeerId p = 0; p < 4; ++p) {
    rib.set_peer(p, RibPeer{65100, p + 1, p, fare::Role::spine, gbps(400)});
  }
  return rib;
}

TEST(NextHopAddress, HoldsFourSixteenOrThirtyTwoBytesAndOrdersAsBytes) {
  const NextHopAddress v4{10, 0, 0, 2};
  EXPECT_EQ(v4.size(), 4u);
  EXPECT_EQ(v4, (Bytes{10, 0, 0, 2}));
  EXPECT_FALSE(v4 == (Bytes{10, 0, 0, 2, 0}));  // the length counts
  EXPECT_EQ(v4.to_bytes(), (Bytes{10, 0, 0, 2}));
  Bytes global_and_link_local(32, 0);
  global_and_link_local[0] = 0x20;
  global_and_link_local[16] = 0xfe;
  const NextHopAddress v6(global_and_link_local);
  EXPECT_EQ(v6.size(), 32u);
  EXPECT_EQ(ByteSpan(v6).size(), 32u);
  EXPECT_EQ(v6[16], 0xfe);
  // Byte-string order: 10.0.0.2 < 10.0.0.3 < 32.0..., and an address
  // before a longer one it begins.
  EXPECT_LT(v4, (NextHopAddress{10, 0, 0, 3}));
  EXPECT_LT((NextHopAddress{10, 0, 0, 3}), v6);
  EXPECT_LT(NextHopAddress(Bytes(16, 0)), NextHopAddress(Bytes(32, 0)));
  EXPECT_FALSE(NextHopAddress(Bytes(16, 0)) == NextHopAddress(Bytes(32, 0)));
  // Reassigning a shorter address leaves nothing of the longer one.
  NextHopAddress reused = v6;
  reused.assign(v4);
  EXPECT_EQ(reused, v4);
}

TEST(Rib, ShorterAsPathWinsAndIsTheOnlyMember) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.add_path(d, Path{1, 0, make({65100, 65002, 65001}, 50.0)});
  const auto changes = rib.decide();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_TRUE(changes[0].installed_changed);
  const RibEntry* e = rib.find(d);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->installed.size(), 1u);
  EXPECT_EQ(e->installed[0].peer, 0u);
}

TEST(Rib, MultipathRelaxAcrossNeighbourAses) {
  Rib rib(config());
  rib.set_peer(0, RibPeer{65101, 1, 0, fare::Role::spine, gbps(400)});
  rib.set_peer(1, RibPeer{65102, 2, 1, fare::Role::spine, gbps(400)});
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65101, 65001}, 50.0)});
  rib.add_path(d, Path{1, 0, make({65102, 65001}, 50.0)});
  rib.decide();
  EXPECT_EQ(rib.find(d)->installed.size(), 2u);

  RibConfig strict = config();
  strict.multipath_relax = false;
  Rib rib2(strict);
  rib2.set_peer(0, RibPeer{65101, 1, 0, fare::Role::spine, gbps(400)});
  rib2.set_peer(1, RibPeer{65102, 2, 1, fare::Role::spine, gbps(400)});
  rib2.add_path(d, Path{0, 0, make({65101, 65001}, 50.0)});
  rib2.add_path(d, Path{1, 0, make({65102, 65001}, 50.0)});
  rib2.decide();
  // Without relax only the best (lowest router ID) stays.
  ASSERT_EQ(rib2.find(d)->installed.size(), 1u);
  EXPECT_EQ(rib2.find(d)->installed[0].peer, 0u);
}

TEST(Rib, MaximumPathsCapsTheSetInPreferenceOrder) {
  RibConfig c = config();
  c.maximum_paths = 2;
  Rib rib = four_spines(c);
  const Destination d = dest("10.1.0.0/24");
  for (PeerId p = 0; p < 4; ++p) {
    rib.add_path(d, Path{3 - p, 0, make({65100, 65001}, 50.0)});
  }
  rib.decide();
  const auto& inst = rib.find(d)->installed;
  ASSERT_EQ(inst.size(), 2u);
  // Router IDs 1 and 2 are the lowest: peers 0 and 1.
  EXPECT_EQ(inst[0].peer, 0u);
  EXPECT_EQ(inst[1].peer, 1u);
}

TEST(Rib, MedComparedOnlyWithinOneNeighbourAs) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0, 20)});
  rib.add_path(d, Path{1, 0, make({65100, 65001}, 50.0, 10)});
  rib.decide();
  const auto& inst = rib.find(d)->installed;
  // Same neighbour AS: lower MED wins and the other is not equal-cost.
  ASSERT_EQ(inst.size(), 1u);
  EXPECT_EQ(inst[0].peer, 1u);
}

TEST(Rib, FareWeightsAreMinOfLinkAndCommunity) {
  Rib rib = four_spines();
  // Spine 2's link degraded to 200G = 25 GB/s.
  rib.set_peer(2, RibPeer{65100, 3, 2, fare::Role::spine, gbps(200)});
  const Destination d = dest("10.1.0.0/24");
  // Spine 3 advertises 12.5 GB/s = 100G (its link to the far leaf).
  const double ecs[4] = {50.0, 50.0, 50.0, 12.5};
  for (PeerId p = 0; p < 4; ++p) {
    rib.add_path(d, Path{p, 0, make({65100, 65001}, ecs[p])});
  }
  rib.decide();
  const RibEntry* e = rib.find(d);
  ASSERT_EQ(e->installed.size(), 4u);
  EXPECT_EQ(e->fare_reason, fare::FallbackReason::none);
  // min(400G, 50 GB/s=400G)=400G; spine 2: min(200G, 400G)=200G;
  // spine 3: min(400G, 12.5 GB/s = 100G) = 100G.
  EXPECT_EQ(e->installed[0].weight, gbps(400));
  EXPECT_EQ(e->installed[1].weight, gbps(400));
  EXPECT_EQ(e->installed[2].weight, gbps(200));
  EXPECT_EQ(e->installed[3].weight, gbps(100));
}

// A NaN or negative Path Bandwidth is treated as absent, and reported as
// invalid rather than missing (docs/PROTOCOLS.md, units); a valid one after
// it on the same route counts.
TEST(Rib, AnInvalidCommunityFallsBackToEqualWeightsSayingInvalid) {
  const auto with_ecs = [](std::vector<std::uint16_t> bits) {
    wb::ExtendedCommunities ecs;
    for (std::uint16_t b : bits) {
      ecs.values.push_back(
          wire::fare::encode(PathBandwidth{true, 0x0a000001, b}, kSub));
    }
    return make_attrs(
        Attrs{{65100, 65001},
              std::nullopt,
              std::nullopt,
              {wb::make_attribute(wb::attr_type::kExtendedCommunities, ecs)}});
  };
  for (std::uint16_t bad : {std::uint16_t{0x7e00}, std::uint16_t{0xc000}}) {
    Rib rib = four_spines();
    const Destination d = dest("10.1.0.0/24");
    rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
    rib.add_path(d, Path{1, 0, with_ecs({bad})});
    rib.decide();
    const RibEntry* e = rib.find(d);
    EXPECT_EQ(e->fare_reason, fare::FallbackReason::invalid_path_bandwidth)
        << std::hex << bad;
    ASSERT_EQ(e->installed.size(), 2u);
    EXPECT_EQ(e->installed[0].weight, 1u);
    EXPECT_EQ(e->installed[1].weight, 1u);

    // 0x5240 = 50 GB/s after the invalid one: that one counts.
    Rib later = four_spines();
    later.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
    later.add_path(d, Path{1, 0, with_ecs({bad, 0x5240})});
    later.decide();
    EXPECT_EQ(later.find(d)->fare_reason, fare::FallbackReason::none);
  }
}

// What each peer has in the RIB now: announcements replacing a path do not
// count twice; withdrawals and a flushed peer take theirs away.
TEST(Rib, CountsThePathsHeldFromEachPeer) {
  Rib rib = four_spines();
  const Destination a = dest("10.1.0.0/24"), b = dest("10.2.0.0/24");
  rib.add_path(a, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.add_path(a, Path{0, 0, make({65100, 65001}, 25.0)});  // replaces
  rib.add_path(b, Path{0, 0, make({65100, 65002}, 50.0)});
  rib.add_path(a, Path{1, 0, make({65100, 65001}, 50.0)});
  EXPECT_EQ(rib.path_count(0), 2u);
  EXPECT_EQ(rib.path_count(1), 1u);
  EXPECT_EQ(rib.path_count(3), 0u);
  rib.remove_path(b, 0, 0);
  rib.remove_path(b, 0, 0);  // not there any more
  EXPECT_EQ(rib.path_count(0), 1u);
  rib.flush_peer(1, std::nullopt);
  EXPECT_EQ(rib.path_count(1), 0u);
  EXPECT_EQ(rib.path_count(), 1u);
}

TEST(Rib, MissingCommunityFallsBackToEqualWeightsWithReason) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.add_path(d, Path{1, 0, make({65100, 65001}, std::nullopt)});
  rib.decide();
  const RibEntry* e = rib.find(d);
  EXPECT_EQ(e->fare_reason, fare::FallbackReason::missing_path_bandwidth);
  ASSERT_EQ(e->installed.size(), 2u);
  EXPECT_EQ(e->installed[0].weight, 1u);
  EXPECT_EQ(e->installed[1].weight, 1u);
}

TEST(Rib, FareDisabledGivesEqualWeightsAndKeepsReceivedCommunity) {
  RibConfig c = config();
  c.fare_enabled = false;
  Rib rib = four_spines(c);
  rib.set_peer(2, RibPeer{65100, 3, 2, fare::Role::spine, gbps(100)});
  const Destination d = dest("10.1.0.0/24");
  for (PeerId p = 0; p < 4; ++p) {
    rib.add_path(d, Path{p, 0, make({65100, 65001}, 50.0)});
  }
  rib.decide();
  const RibEntry* e = rib.find(d);
  for (const auto& m : e->installed) EXPECT_EQ(m.weight, 1u);
  ASSERT_TRUE(e->exported->path_bandwidth);
  EXPECT_DOUBLE_EQ(e->exported->path_bandwidth->gigabytes_per_second(), 50.0);
}

TEST(Rib, ExportPrependsStripsAndUpdatesTheCommunity) {
  Rib rib = four_spines(config(fare::Role::spine));
  const Destination d = dest("10.1.0.0/24");
  const wb::PathAttribute unknown_transitive{
      wb::attr_flag::kOptional | wb::attr_flag::kTransitive, 200,
      wb::RawAttribute{{1, 2}}};
  const wb::PathAttribute unknown_non_transitive{wb::attr_flag::kOptional, 201,
                                                 wb::RawAttribute{{3}}};
  wb::ExtendedCommunity non_transitive_rt{{0x40, 0x02, 0, 0, 0, 0, 0, 1}};
  wb::ExtendedCommunity transitive_rt{{0x00, 0x02, 0, 0, 0, 0, 0, 2}};
  Attrs a{{65001}, std::nullopt, 7, {}};
  a.extra = {wb::make_attribute(wb::attr_type::kLocalPref, wb::LocalPref{300}),
             wb::make_attribute(
                 wb::attr_type::kExtendedCommunities,
                 wb::ExtendedCommunities{
                     {non_transitive_rt, transitive_rt,
                      wire::fare::encode(
                          wire::fare::make_path_bandwidth(9, 50.0), kSub)}}),
             unknown_transitive, unknown_non_transitive};
  rib.add_path(d, Path{0, 0, make_attrs(a)});
  rib.decide();
  const AttributesRef& out = rib.find(d)->exported;
  ASSERT_TRUE(out);
  const auto* path = std::get_if<wb::AsPath>(&out->find(2)->value);
  ASSERT_TRUE(path);
  EXPECT_EQ(path->segments[0].asns, (std::vector<std::uint32_t>{65000, 65001}));
  EXPECT_EQ(out->find(wb::attr_type::kMed), nullptr);        // RFC 4271 5.1.4
  EXPECT_EQ(out->find(wb::attr_type::kLocalPref), nullptr);  // 5.1.5
  ASSERT_NE(out->find(200), nullptr);
  EXPECT_TRUE(out->find(200)->flags & wb::attr_flag::kPartial);
  EXPECT_EQ(out->find(201), nullptr);
  const auto* ecs = std::get_if<wb::ExtendedCommunities>(
      &out->find(wb::attr_type::kExtendedCommunities)->value);
  ASSERT_TRUE(ecs);
  ASSERT_EQ(ecs->values.size(), 2u);
  EXPECT_EQ(ecs->values[0], transitive_rt);
  // The spine's own EC: min(400G link = 50 GB/s, 50 GB/s), its router ID.
  auto pb = wire::fare::decode_path_bandwidth(ecs->values[1], kSub);
  ASSERT_TRUE(pb);
  EXPECT_EQ(pb->router_id, 0x01010101u);
  EXPECT_DOUBLE_EQ(pb->gigabytes_per_second(), 50.0);
}

TEST(Rib, LocallyOriginatedRouteExportsMaximumBandwidth) {
  Rib rib(config());
  const Destination d = dest("10.9.0.0/24");
  rib.add_path(
      d, Path{kLocalPeer, 0,
              make_route_attributes(
                  {wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{})},
                  {}, kSub)});
  rib.decide();
  const RibEntry* e = rib.find(d);
  EXPECT_TRUE(e->local_best);
  EXPECT_TRUE(e->installed.empty());
  ASSERT_TRUE(e->exported && e->exported->path_bandwidth);
  EXPECT_EQ(e->exported->path_bandwidth->gigabytes_per_second(), 65504.0);
  EXPECT_EQ(e->exported->as_path_length, 1u);
}

TEST(Rib, LinkBandwidthChangeReweightsOnlyAffectedEntries) {
  Rib rib = four_spines();
  const Destination d1 = dest("10.1.0.0/24"), d2 = dest("10.2.0.0/24");
  for (PeerId p = 0; p < 2; ++p) {
    rib.add_path(d1, Path{p, 0, make({65100, 65001}, 50.0)});
  }
  rib.add_path(d2, Path{2, 0, make({65100, 65002}, 50.0)});
  rib.add_path(d2, Path{3, 0, make({65100, 65002}, 50.0)});
  rib.decide();
  rib.set_peer(1, RibPeer{65100, 2, 1, fare::Role::spine, gbps(100)});
  rib.mark_peer_dirty(1);
  const auto changes = rib.decide();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(rib.entry(changes[0].index).destination, d1);
  EXPECT_EQ(rib.find(d1)->installed[1].weight, gbps(100));
  // The re-advertised sum changes too: 400G + 100G = 62.5 GB/s.
  EXPECT_TRUE(changes[0].exported_changed);
  EXPECT_DOUBLE_EQ(
      rib.find(d1)->exported->path_bandwidth->gigabytes_per_second(), 62.5);
}

TEST(Rib, FlushPeerRemovesItsPathsOnly) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.add_path(d, Path{1, 0, make({65100, 65001}, 50.0)});
  rib.add_path(dest("2001:db8::/32"), Path{0, 0, make({65100, 65001})});
  rib.decide();
  EXPECT_EQ(rib.path_count(), 3u);
  rib.flush_peer(0, wb::kAfiIpv6);
  EXPECT_EQ(rib.path_count(), 2u);
  rib.flush_peer(0);
  rib.decide();
  EXPECT_EQ(rib.path_count(), 1u);
  ASSERT_EQ(rib.find(d)->installed.size(), 1u);
  EXPECT_EQ(rib.find(d)->installed[0].peer, 1u);
}

TEST(Rib, ReplacingAPathWithIdenticalAttributesChangesNothing) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.decide();
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  EXPECT_TRUE(rib.decide().empty());
}

TEST(Rib, HostBitsDoNotMakeDestinationsDiffer) {
  wb::Prefix p;
  p.length = 20;
  p.address = {10, 1, 0x1f, 0xff};
  const Destination d = destination_of(wb::kAfiIpv4, p);
  EXPECT_EQ(d.address[2], 0x10);
  EXPECT_EQ(d.address[3], 0);
  EXPECT_EQ(format_destination(d), "10.1.16.0/20");
}

TEST(Rib, EntriesAreReleasedWhenUnused) {
  Rib rib = four_spines();
  const Destination d = dest("10.1.0.0/24");
  rib.add_path(d, Path{0, 0, make({65100, 65001}, 50.0)});
  rib.decide();
  rib.remove_path(d, 0, 0);
  const auto changes = rib.decide();
  ASSERT_EQ(changes.size(), 1u);
  rib.collect(changes[0].index, [](std::uint32_t) { return false; });
  EXPECT_EQ(rib.size(), 0u);
  EXPECT_EQ(rib.find(d), nullptr);
}

// The destination index (open addressing, backward-shift deletion): after
// many inserts and releases in an interleaved order, every remaining
// destination is found at its own entry and no released one is.
TEST(Rib, IndexFindsEveryDestinationAfterInterleavedReleases) {
  Rib rib = four_spines();
  auto nth = [](std::uint32_t i) {
    Destination d;
    d.length = 24;
    d.address[0] = static_cast<std::uint8_t>(11 + (i >> 16));
    d.address[1] = static_cast<std::uint8_t>(i >> 8);
    d.address[2] = static_cast<std::uint8_t>(i);
    return d;
  };
  constexpr std::uint32_t kCount = 20000;
  const AttributesRef a = make({65100, 65001}, 50.0);
  for (std::uint32_t i = 0; i < kCount; ++i) {
    rib.add_path(nth(i), Path{0, 0, a});
  }
  rib.add_path(dest("2001:db8::/32"), Path{0, 0, a});
  rib.decide();
  // Release two of every three, so that deletions land inside probe runs.
  for (std::uint32_t i = 0; i < kCount; ++i) {
    if (i % 3 != 0) rib.remove_path(nth(i), 0, 0);
  }
  for (const DecisionChange& c : rib.decide()) {
    rib.collect(c.index, [](std::uint32_t) { return false; });
  }
  EXPECT_EQ(rib.size(), kCount / 3 + 1 + 1);
  for (std::uint32_t i = 0; i < kCount; ++i) {
    const RibEntry* e = rib.find(nth(i));
    if (i % 3 != 0) {
      EXPECT_EQ(e, nullptr) << i;
    } else {
      ASSERT_NE(e, nullptr) << i;
      EXPECT_EQ(e->destination, nth(i));
    }
  }
  ASSERT_NE(rib.find(dest("2001:db8::/32")), nullptr);
  // Released slots are reused and found again.
  for (std::uint32_t i = 1; i < kCount; i += 3) {
    rib.add_path(nth(i), Path{1, 0, a});
  }
  rib.decide();
  for (std::uint32_t i = 1; i < kCount; i += 3) {
    ASSERT_NE(rib.find(nth(i)), nullptr) << i;
    EXPECT_EQ(rib.find(nth(i))->paths.begin()->peer, 1u);
  }
}

TEST(PathList, KeepsOnePathInlineAndMovesBetweenInlineAndHeap) {
  const AttributesRef a = make({65100, 65001});
  PathList l;
  EXPECT_TRUE(l.empty());
  l.push_back(Path{0, 0, a});
  ASSERT_EQ(l.size(), 1u);
  l.push_back(Path{1, 0, a});
  l.push_back(Path{2, 7, a});
  ASSERT_EQ(l.size(), 3u);
  PathList copy = l;
  l.erase(l.begin() + 1);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l.begin()[0].peer, 0u);
  EXPECT_EQ(l.begin()[1].path_id, 7u);
  EXPECT_EQ(l.erase_if([](const Path& p) { return p.peer == 0; }), 1u);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l.begin()->peer, 2u);
  EXPECT_EQ(l.erase_if([](const Path& p) { return p.peer == 0; }), 0u);
  l.erase(l.begin());
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.begin(), l.end());
  EXPECT_EQ(copy.size(), 3u);  // the copy is deep
}

TEST(Rib, EqualInstalledSetsAreSharedAndStillCompareByValue) {
  Rib rib = four_spines();
  const AttributesRef a = make({65100, 65001}, 50.0);
  const Destination d1 = dest("10.1.0.0/24"), d2 = dest("10.2.0.0/24");
  rib.add_path(d1, Path{0, 0, a});
  rib.add_path(d1, Path{1, 0, a});
  rib.add_path(d2, Path{0, 0, a});
  rib.add_path(d2, Path{1, 0, a});
  rib.decide();
  const NextHopSet& s1 = rib.find(d1)->installed;
  const NextHopSet& s2 = rib.find(d2)->installed;
  ASSERT_EQ(s1.size(), 2u);
  EXPECT_EQ(&s1.members(), &s2.members());
  // A different set for d2 only: d1 keeps its own.
  rib.remove_path(d2, 1, 0);
  ASSERT_EQ(rib.decide().size(), 1u);
  EXPECT_EQ(rib.find(d1)->installed.size(), 2u);
  ASSERT_EQ(rib.find(d2)->installed.size(), 1u);
  EXPECT_EQ(rib.find(d2)->installed[0].peer, 0u);
  EXPECT_FALSE(rib.find(d1)->installed == rib.find(d2)->installed);
}

}  // namespace
}  // namespace arfabric::proto::bgp
