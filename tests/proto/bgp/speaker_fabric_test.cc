// Speakers wired back to back (fabric_harness.h): sessions come up, routes
// propagate and converge, and FARE's worked examples of draft-xu-idr-fare
// section 4 come out of the real engines with the exact weights.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "proto/bgp/fabric_harness.h"
#include "proto/bgp/speaker.h"

namespace arfabric::proto::bgp {
namespace {

using testing::destination;
using testing::Harness;
using Weights = std::map<std::size_t, BitsPerSecond>;

// GB/s (the Path Bandwidth unit) to bit/s.
constexpr BitsPerSecond gBps(double v) {
  return static_cast<BitsPerSecond>(v * 8e9);
}

// A 3-stage CLOS (draft-xu-idr-fare Figure 1): leaves in AS 65001.., all
// spines in AS 65100 (RFC 7938 section 5.2.1), leaf i originating
// 10.i.0.0/24. bandwidth(l, s) gives each leaf-spine link.
struct ThreeStage {
  Harness h;
  std::vector<std::size_t> leaves, spines;
  std::vector<std::vector<std::size_t>> link;  // [leaf][spine]

  ThreeStage(std::size_t n_leaves, std::size_t n_spines,
             const std::function<BitsPerSecond(std::size_t, std::size_t)>& bw,
             const std::function<void(Harness&)>& setup = {}) {
    if (setup) setup(h);
    for (std::size_t s = 0; s < n_spines; ++s) {
      spines.push_back(h.add_node(
          {"S" + std::to_string(s + 1), 65100, fare::Role::spine, {}}));
    }
    for (std::size_t l = 0; l < n_leaves; ++l) {
      leaves.push_back(h.add_node({"L" + std::to_string(l + 1),
                                   static_cast<std::uint32_t>(65001 + l),
                                   fare::Role::leaf,
                                   {prefix(l)}}));
    }
    link.resize(n_leaves);
    for (std::size_t l = 0; l < n_leaves; ++l) {
      for (std::size_t s = 0; s < n_spines; ++s) {
        link[l].push_back(h.add_link(leaves[l], spines[s], bw(l, s)));
      }
    }
  }
  static Destination prefix(std::size_t leaf) {
    return destination("10." + std::to_string(leaf + 1) + ".0.0/24");
  }
  void converge() {
    h.start();
    h.run_for(sec(2));
    ASSERT_TRUE(h.all_established());
  }
};

TEST(SpeakerFabric, TwoSpeakersExchangeRoutesAndWithdrawals) {
  Harness h;
  const auto a = h.add_node(
      {"A",
       65001,
       fare::Role::leaf,
       {destination("10.1.0.0/24"), destination("2001:db8:1::/48")}});
  const auto b = h.add_node({"B", 65100, fare::Role::spine, {}});
  h.add_link(a, b, gbps(400));
  h.start();
  h.run_for(ms(100));
  ASSERT_TRUE(h.all_established());
  EXPECT_EQ(h.fib(b, destination("10.1.0.0/24")), (Weights{{a, gbps(400)}}));
  EXPECT_EQ(h.fib(b, destination("2001:db8:1::/48")),
            (Weights{{a, gbps(400)}}));
  EXPECT_EQ(h.speaker(b).counters(0).end_of_rib_in, 2u);  // IPv4 + IPv6

  h.act(a, [](Speaker& s, Time now) {
    s.withdraw_origin(destination("10.1.0.0/24"), now);
  });
  h.run_for(ms(1));
  EXPECT_TRUE(h.fib(b, destination("10.1.0.0/24")).empty());
  EXPECT_EQ(h.fib_size(b), 1u);
}

// draft-xu-idr-fare section 4.1 with Figure 1's 8 leaves and 4 spines, all
// links 400G (50 GB/s) except L1-S1 at 200G (25 GB/s); prefix P is
// multi-homed to L1 and L2.
//   S1 weighs L1: min(25, max) = 25 GB/s = 200G, L2: min(50, max) = 400G
//      and re-advertises the sum 25 + 50 = 75 GB/s.
//   S2..S4 re-advertise 50 + 50 = 100 GB/s.
//   L8 (divide rule, N = 2): via S1 min(50, 75/2) = 37.5 GB/s = 300G,
//      via S2..S4 min(50, 100/2) = 50 GB/s = 400G.
//   L8 (multiply rule): via S1 min(2 x 50, 75) = 75 GB/s = 600G,
//      via S2..S4 min(100, 100) = 800G: the same 3:4 ratio.
//   With the path community carried as non-transitive (type 0x41, draft §3
//   "can be transitive or non-transitive"), every hop reads its
//   neighbour's and writes its own: the same values and weights, and no
//   route carries a transitive one.
struct Section4_1Case {
  fare::MultihomingRule rule;
  bool transitive;
};
class FareThreeStage : public ::testing::TestWithParam<Section4_1Case> {};

TEST_P(FareThreeStage, WorkedExampleOfSection4_1) {
  const Destination p = destination("10.200.0.0/24");
  ThreeStage f(
      8, 4,
      [](std::size_t l, std::size_t s) {
        return l == 0 && s == 0 ? gbps(200) : gbps(400);
      },
      [&](Harness& h) {
        h.tweak = [&](SpeakerConfig& c) {
          c.multihomed = {{p, 2}};
          c.rib.fare.multihoming = GetParam().rule;
          c.rib.fare.path_bandwidth_transitive = GetParam().transitive;
          if (c.local_as == 65001 || c.local_as == 65002) {
            c.networks.push_back(p);
          }
        };
      });
  f.converge();
  const auto& L = f.leaves;
  const auto& S = f.spines;
  EXPECT_EQ(f.h.fib(S[0], p), (Weights{{L[0], gbps(200)}, {L[1], gbps(400)}}));
  for (int s = 1; s < 4; ++s) {
    EXPECT_EQ(f.h.fib(S[s], p),
              (Weights{{L[0], gbps(400)}, {L[1], gbps(400)}}));
  }
  // The ECs L8 received, hop by hop.
  const RibEntry* e = f.h.speaker(L[7]).rib().find(p);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->paths.size(), 4u);
  for (const Path& path : e->paths) {
    const RouteAttributes& a = *path.attributes;
    const auto& carried = GetParam().transitive
                              ? a.path_bandwidth
                              : a.path_bandwidth_non_transitive;
    const auto& other = GetParam().transitive ? a.path_bandwidth_non_transitive
                                              : a.path_bandwidth;
    ASSERT_TRUE(carried);
    EXPECT_FALSE(other);
    const double expected =
        path.peer == f.h.peer_of(f.link[7][0], L[7]) ? 75.0 : 100.0;
    EXPECT_EQ(carried->gigabytes_per_second(), expected);
  }
  const bool divide =
      GetParam().rule == fare::MultihomingRule::divide_path_bandwidth;
  const BitsPerSecond via_s1 = divide ? gbps(300) : gbps(600);
  const BitsPerSecond via_other = divide ? gbps(400) : gbps(800);
  const Weights expected{
      {S[0], via_s1}, {S[1], via_other}, {S[2], via_other}, {S[3], via_other}};
  EXPECT_EQ(f.h.fib(L[7], p), expected);
  EXPECT_EQ(f.h.fib(L[4], p), expected);
  EXPECT_TRUE(f.h.fib(L[0], p).empty());  // originated locally
}

INSTANTIATE_TEST_SUITE_P(
    BothMultihomingRulesAndTransitivities, FareThreeStage,
    ::testing::Values(
        Section4_1Case{fare::MultihomingRule::divide_path_bandwidth, true},
        Section4_1Case{fare::MultihomingRule::multiply_link_bandwidth, true},
        Section4_1Case{fare::MultihomingRule::divide_path_bandwidth, false}));

// draft-xu-idr-fare section 4.2, Figure 2 with two PoDs (1 and 8), four
// leaves and four spines per PoD, four planes of four super-spines.
// Leaf-spine links 800G (100 GB/s), spine-super-spine links 200G
// (25 GB/s), except SS1@Plane-1 - S1@PoD-1 degraded to 100G (12.5 GB/s).
// P is on L1@PoD-1.
//   S1@PoD-1: min(100, max) = 100 GB/s, its router ID.
//   SSk@Plane-1: transitive 100 passed unchanged (S1@PoD-1's router ID);
//     non-transitive = link toward S1@PoD-1: SS1 12.5, SS2..4 25 GB/s.
//   S1@PoD-8 weighs SSk by min(link 25, non-transitive): 100G, 200G x 3.
//     It re-advertises the transitive 100 unchanged, or - with
//     spine_lower_to_next_next_hop - the total 12.5 + 3 x 25 = 87.5 GB/s
//     since that is smaller.
//   Sj@PoD-8, j > 1: totals 4 x 25 = 100, not smaller: 100.
//   L1@PoD-8: via S1 min(100, 87.5) = 700G (or 800G without the option),
//     via S2..S4 min(100, 100) = 800G.
class FareFiveStage : public ::testing::TestWithParam<bool> {};

TEST_P(FareFiveStage, WorkedExampleOfSection4_2) {
  const bool lower = GetParam();
  Harness h;
  h.spine_lower_to_next_next_hop = lower;
  const std::vector<int> pods = {1, 8};
  std::map<int, std::vector<std::size_t>> leaves, spines;
  std::vector<std::vector<std::size_t>> supers(4);
  for (int plane = 0; plane < 4; ++plane) {
    for (int k = 0; k < 4; ++k) {
      supers[plane].push_back(h.add_node(
          {"SS" + std::to_string(k + 1) + "@Plane-" + std::to_string(plane + 1),
           65200,
           fare::Role::super_spine,
           {}}));
    }
  }
  for (int pod : pods) {
    for (int j = 0; j < 4; ++j) {
      spines[pod].push_back(h.add_node(
          {"S" + std::to_string(j + 1) + "@PoD-" + std::to_string(pod),
           static_cast<std::uint32_t>(65100 + pod),
           fare::Role::spine,
           {}}));
    }
    for (int l = 0; l < 4; ++l) {
      std::vector<Destination> nets;
      if (pod == 1 && l == 0) nets.push_back(destination("10.200.0.0/24"));
      leaves[pod].push_back(h.add_node(
          {"L" + std::to_string(l + 1) + "@PoD-" + std::to_string(pod),
           static_cast<std::uint32_t>(65000 + pod * 10 + l), fare::Role::leaf,
           nets}));
    }
    for (std::size_t l : leaves[pod]) {
      for (std::size_t s : spines[pod]) h.add_link(l, s, gbps(800));
    }
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 4; ++k) {
        const bool degraded = pod == 1 && j == 0 && k == 0;
        h.add_link(spines[pod][j], supers[j][k],
                   degraded ? gbps(100) : gbps(200));
      }
    }
  }
  h.start();
  h.run_for(sec(2));
  ASSERT_TRUE(h.all_established());
  const Destination p = destination("10.200.0.0/24");

  // Hop by hop: the transitive EC S1@PoD-8 received from each SSk@Plane-1
  // is S1@PoD-1's 100 GB/s; the non-transitive one the SS's link.
  const RibEntry* s1_8 = h.speaker(spines[8][0]).rib().find(p);
  ASSERT_NE(s1_8, nullptr);
  ASSERT_EQ(s1_8->paths.size(), 4u);
  for (const Path& path : s1_8->paths) {
    ASSERT_TRUE(path.attributes->path_bandwidth);
    EXPECT_EQ(path.attributes->path_bandwidth->gigabytes_per_second(), 100.0);
    ASSERT_TRUE(path.attributes->path_bandwidth_non_transitive);
  }
  EXPECT_EQ(h.fib(spines[8][0], p), (Weights{{supers[0][0], gbps(100)},
                                             {supers[0][1], gbps(200)},
                                             {supers[0][2], gbps(200)},
                                             {supers[0][3], gbps(200)}}));
  // Non-transitive ECs by super-spine: SS1 12.5 GB/s, the others 25.
  for (const Path& path : s1_8->paths) {
    const std::string& from =
        h.speaker(spines[8][0]).config().peers[path.peer].name;
    EXPECT_EQ(
        path.attributes->path_bandwidth_non_transitive->gigabytes_per_second(),
        from == "SS1@Plane-1" ? 12.5 : 25.0)
        << from;
  }
  // What L1@PoD-8 received from S1@PoD-8, and its weights.
  const RibEntry* l1_8 = h.speaker(leaves[8][0]).rib().find(p);
  ASSERT_NE(l1_8, nullptr);
  for (const Path& path : l1_8->paths) {
    const std::string& from =
        h.speaker(leaves[8][0]).config().peers[path.peer].name;
    ASSERT_TRUE(path.attributes->path_bandwidth);
    EXPECT_FALSE(path.attributes->path_bandwidth_non_transitive)
        << "a non-transitive EC crossed two hops";
    const double expected = from == "S1@PoD-8" && lower ? 87.5 : 100.0;
    EXPECT_EQ(path.attributes->path_bandwidth->gigabytes_per_second(), expected)
        << from;
  }
  const BitsPerSecond via_s1 = lower ? gbps(700) : gbps(800);
  EXPECT_EQ(h.fib(leaves[8][0], p), (Weights{{spines[8][0], via_s1},
                                             {spines[8][1], gbps(800)},
                                             {spines[8][2], gbps(800)},
                                             {spines[8][3], gbps(800)}}));
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutLowering, FareFiveStage,
                         ::testing::Bool());

TEST(SpeakerFabric, DegradedLinkAtRunTimeReweightsTheFarLeaf) {
  ThreeStage f(3, 4, [](std::size_t, std::size_t) { return gbps(400); });
  f.converge();
  const Destination p = ThreeStage::prefix(0);
  EXPECT_EQ(f.h.fib(f.leaves[2], p).at(f.spines[1]), gbps(400));
  // Lane loss on L1-S2: 400G -> 300G.
  f.h.set_link_bandwidth(f.link[0][1], gbps(300));
  f.h.run_for(ms(1));
  const Weights w = f.h.fib(f.leaves[2], p);
  EXPECT_EQ(w.at(f.spines[0]), gbps(400));
  EXPECT_EQ(w.at(f.spines[1]), gbps(300));
  EXPECT_EQ(w.at(f.spines[2]), gbps(400));
  // L3's own uplink to S3 at 100G: its weight via S3 follows the link.
  f.h.set_link_bandwidth(f.link[2][2], gbps(100));
  f.h.run_for(ms(1));
  EXPECT_EQ(f.h.fib(f.leaves[2], p).at(f.spines[2]), gbps(100));
}

TEST(SpeakerFabric, LinkDownWithdrawsAndLinkUpRestores) {
  ThreeStage f(3, 4, [](std::size_t, std::size_t) { return gbps(400); });
  f.converge();
  const Destination p = ThreeStage::prefix(0);
  ASSERT_EQ(f.h.fib(f.leaves[2], p).size(), 4u);
  f.h.link_down(f.link[0][0]);  // L1 - S1
  f.h.run_for(ms(1));
  const Weights w = f.h.fib(f.leaves[2], p);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_FALSE(w.contains(f.spines[0]));
  // S1 itself has no route to L1's prefix any more (other leaves' paths
  // to it contain AS 65100, S1's own).
  EXPECT_TRUE(f.h.fib(f.spines[0], p).empty());
  f.h.link_up(f.link[0][0]);
  f.h.run_for(sec(3));
  EXPECT_EQ(f.h.fib(f.leaves[2], p).size(), 4u);
}

TEST(SpeakerFabric, EcmpModeInstallsEqualWeights) {
  ThreeStage f(
      3, 2,
      [](std::size_t l, std::size_t s) {
        return l == 0 && s == 0 ? gbps(100) : gbps(400);
      },
      [](Harness& h) { h.fare_enabled = false; });
  f.converge();
  EXPECT_EQ(f.h.fib(f.leaves[2], ThreeStage::prefix(0)),
            (Weights{{f.spines[0], 1}, {f.spines[1], 1}}));
}

TEST(SpeakerFabric, MraiDelaysReadvertisement) {
  ThreeStage f(
      2, 1, [](std::size_t, std::size_t) { return gbps(400); },
      [](Harness& h) { h.mrai = ms(50); });
  f.converge();
  const Destination extra = destination("10.99.0.0/24");
  f.h.act(f.leaves[0], [&](Speaker& s, Time now) { s.originate(extra, now); });
  // L1 sent its last UPDATE long ago: it goes out at once; the spine sent
  // recently (it re-advertised L2's routes during start-up)...
  f.h.run_for(ms(1));
  EXPECT_TRUE(f.h.fib(f.spines[0], extra).size() == 1);
  // ...and its MRAI since then has long expired too, so L2 learns it fast.
  EXPECT_EQ(f.h.fib(f.leaves[1], extra).size(), 1u);
  // Two changes within one MRAI: the second waits for the timer.
  f.h.act(f.leaves[0],
          [&](Speaker& s, Time now) { s.withdraw_origin(extra, now); });
  f.h.run_for(ms(1));
  EXPECT_EQ(f.h.fib(f.leaves[1], extra).size(), 1u) << "sent before MRAI";
  f.h.run_for(ms(60));
  EXPECT_TRUE(f.h.fib(f.leaves[1], extra).empty());
}

TEST(SpeakerFabric, FlapsLeaveTablesAsTheyWere) {
  ThreeStage f(4, 2, [](std::size_t, std::size_t) { return gbps(400); });
  f.converge();
  auto snapshot = [&] {
    std::vector<std::size_t> v;
    for (std::size_t n : f.spines) {
      v.push_back(f.h.speaker(n).rib().size());
      v.push_back(f.h.speaker(n).rib().path_count());
      v.push_back(f.h.speaker(n).rib().capacity());
      for (PeerId p = 0; p < f.h.speaker(n).peer_count(); ++p) {
        v.push_back(f.h.speaker(n).advertised_count(p));
      }
    }
    for (std::size_t n : f.leaves) v.push_back(f.h.fib_size(n));
    return v;
  };
  const auto before = snapshot();
  for (int i = 0; i < 50; ++i) {
    f.h.link_down(f.link[i % 4][i % 2]);
    f.h.run_for(ms(5));
    f.h.link_up(f.link[i % 4][i % 2]);
    f.h.run_for(sec(2));
  }
  ASSERT_TRUE(f.h.all_established());
  EXPECT_EQ(snapshot(), before);
  // No connection is left behind by collisions and closes.
  EXPECT_EQ(f.h.open_connections(), 2 * f.h.link_count());
}

// Property: in a random 3-stage CLOS with random link bandwidths, the
// weights every leaf installs toward every other leaf's prefix are the
// max-flow split: through spine s the flow is limited by the two links it
// uses, min(bw(L, s), bw(s, D)), since paths through different spines
// share no link. Bandwidths are whole GB/s so binary16 carries them
// exactly.
RC_GTEST_PROP(SpeakerFabricProperty, ThreeStageWeightsAreMaxFlowSplit, ()) {
  const auto n_leaves = *rc::gen::inRange<std::size_t>(2, 6);
  const auto n_spines = *rc::gen::inRange<std::size_t>(1, 6);
  std::vector<std::vector<BitsPerSecond>> bw(
      n_leaves, std::vector<BitsPerSecond>(n_spines));
  for (auto& row : bw) {
    for (auto& b : row) b = gBps(*rc::gen::inRange(1, 200));
  }
  ThreeStage f(n_leaves, n_spines,
               [&](std::size_t l, std::size_t s) { return bw[l][s]; });
  f.h.start();
  f.h.run_for(sec(2));
  RC_ASSERT(f.h.all_established());
  for (std::size_t l = 0; l < n_leaves; ++l) {
    for (std::size_t d = 0; d < n_leaves; ++d) {
      if (d == l) continue;
      Weights expected;
      for (std::size_t s = 0; s < n_spines; ++s) {
        expected[f.spines[s]] = std::min(bw[l][s], bw[d][s]);
      }
      RC_ASSERT(f.h.fib(f.leaves[l], ThreeStage::prefix(d)) == expected);
    }
  }
}

// The same for 5-stage with spine_lower_to_next_next_hop: the flow from a
// leaf in PoD A to a leaf in PoD B through plane j is
// min(bw(L, Sj@A), sum_k min(bw(Sj@A, SSk), bw(SSk, Sj@B)), bw(Sj@B, D)).
RC_GTEST_PROP(SpeakerFabricProperty, FiveStageWeightsAreMaxFlowSplit, ()) {
  const int planes = *rc::gen::inRange(1, 4);
  const int per_plane = *rc::gen::inRange(1, 4);
  const int leaves_per_pod = 2;
  auto random_bw = [] { return gBps(*rc::gen::inRange(1, 100)); };
  Harness h;
  h.spine_lower_to_next_next_hop = true;
  std::vector<std::vector<std::size_t>> supers(planes);
  for (int j = 0; j < planes; ++j) {
    for (int k = 0; k < per_plane; ++k) {
      supers[j].push_back(
          h.add_node({"SS", 65200, fare::Role::super_spine, {}}));
    }
  }
  std::size_t spine[2][4], leaf[2][2];
  BitsPerSecond up[2][4][4], down[2][2][4];  // spine-SS, leaf-spine
  for (int pod = 0; pod < 2; ++pod) {
    for (int j = 0; j < planes; ++j) {
      spine[pod][j] = h.add_node({"S",
                                  static_cast<std::uint32_t>(65100 + pod),
                                  fare::Role::spine,
                                  {}});
    }
    for (int l = 0; l < leaves_per_pod; ++l) {
      leaf[pod][l] =
          h.add_node({"L",
                      static_cast<std::uint32_t>(65000 + pod * 10 + l),
                      fare::Role::leaf,
                      {destination("10." + std::to_string(pod) + "." +
                                   std::to_string(l) + ".0/24")}});
      for (int j = 0; j < planes; ++j) {
        down[pod][l][j] = random_bw();
        h.add_link(leaf[pod][l], spine[pod][j], down[pod][l][j]);
      }
    }
    for (int j = 0; j < planes; ++j) {
      for (int k = 0; k < per_plane; ++k) {
        up[pod][j][k] = random_bw();
        h.add_link(spine[pod][j], supers[j][k], up[pod][j][k]);
      }
    }
  }
  h.start();
  h.run_for(sec(2));
  RC_ASSERT(h.all_established());
  // From leaf 0 of PoD 0 toward each leaf of PoD 1.
  for (int l = 0; l < leaves_per_pod; ++l) {
    Weights expected;
    for (int j = 0; j < planes; ++j) {
      BitsPerSecond plane = 0;
      for (int k = 0; k < per_plane; ++k) {
        plane += std::min(up[0][j][k], up[1][j][k]);
      }
      expected[spine[0][j]] = std::min({down[0][0][j], plane, down[1][l][j]});
    }
    const Destination d = destination("10.1." + std::to_string(l) + ".0/24");
    RC_ASSERT(h.fib(leaf[0][0], d) == expected);
  }
}

}  // namespace
}  // namespace arfabric::proto::bgp
