// The worked examples of draft-xu-idr-fare-04 §4.1 (3-stage) and §4.2
// (5-stage) as pure policy computations, hop by hop, with the numbers worked
// out by hand in the comments. 400 Gb/s = 50 GB/s = 0x5240 (binary16
// 1.5625 * 2^5); "max" = 0x7BFF (65504 GB/s), read back as unlimited.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "proto/fare/policy.h"

namespace arfabric::proto::fare {
namespace {

using wire::fare::PathBandwidth;
using V = std::vector<BitsPerSecond>;

FareConfig node(Role role, std::uint32_t id,
                MultihomingRule mh = MultihomingRule::divide_path_bandwidth) {
  return {.role = role, .router_id = id, .multihoming = mh};
}

// ---------------------------------------------------------------- §4.1
// 8 leaves, 4 spines, every leaf-spine link 400G except L1-S1 at 200G.
// Prefix P is multi-homed to L1 and L2.
constexpr std::uint32_t kL1 = 0x0a000001, kL2 = 0x0a000002, kL8 = 0x0a000008;
constexpr std::uint32_t kS[4] = {0x0a000101, 0x0a000102, 0x0a000103,
                                 0x0a000104};

BitsPerSecond link3(int leaf, int spine) {  // 1-based, as in Figure 1
  return leaf == 1 && spine == 1 ? gbps(200) : gbps(400);
}

struct ThreeStage {
  ImportResult spine_import[4];
  ExportResult spine_export[4];
};

ThreeStage run_spines() {
  ThreeStage r;
  // L1 and L2 originate P with the maximum value.
  const auto from_l1 = originate(node(Role::leaf, kL1)).transitive;
  const auto from_l2 = originate(node(Role::leaf, kL2)).transitive;
  for (int s = 1; s <= 4; ++s) {
    const FareConfig cfg = node(Role::spine, kS[s - 1]);
    const std::vector<Candidate> c = {
        {link3(1, s), Role::leaf, from_l1, std::nullopt},
        {link3(2, s), Role::leaf, from_l2, std::nullopt}};
    r.spine_import[s - 1] = import_weights(cfg, c);
    r.spine_export[s - 1] =
        readvertise(cfg, c, r.spine_import[s - 1], /*multipath=*/true);
  }
  return r;
}

TEST(FareWorkedExample3Stage, LeavesOriginateMaximum) {
  EXPECT_EQ(originate(node(Role::leaf, kL1)).transitive,
            (PathBandwidth{true, kL1, 0x7bff}));
}

TEST(FareWorkedExample3Stage, SpineWeightsAndExports) {
  const ThreeStage r = run_spines();
  // S1: min(200G, max) = 200G via L1, min(400G, max) = 400G via L2:
  // weights 200G : 400G (1 : 2). Export: 200G + 400G = 600G = 75 GB/s
  // (binary16 1.171875 * 2^6 = 0x54B0), router ID S1.
  EXPECT_TRUE(r.spine_import[0].weighted);
  EXPECT_EQ(r.spine_import[0].weights, (V{gbps(200), gbps(400)}));
  EXPECT_EQ(r.spine_export[0].transitive, (PathBandwidth{true, kS[0], 0x54b0}));
  EXPECT_EQ(r.spine_export[0].transitive->gigabytes_per_second(), 75.0);
  EXPECT_FALSE(r.spine_export[0].non_transitive);
  // S2..S4: 400G : 400G; export 800G = 100 GB/s (1.5625 * 2^6 = 0x5640).
  for (int s = 1; s < 4; ++s) {
    EXPECT_EQ(r.spine_import[s].weights, (V{gbps(400), gbps(400)}));
    EXPECT_EQ(r.spine_export[s].transitive,
              (PathBandwidth{true, kS[s], 0x5640}));
  }
}

std::vector<Candidate> l8_candidates(const ThreeStage& r) {
  std::vector<Candidate> c;
  for (int s = 1; s <= 4; ++s) {
    c.push_back({link3(8, s), Role::spine, r.spine_export[s - 1].transitive,
                 std::nullopt});
  }
  return c;
}

TEST(FareWorkedExample3Stage, FarLeafDividesPathBandwidth) {
  // L8, P on 2 leaves, divide: EC/2 = 600G/2 = 300G via S1, 800G/2 = 400G
  // via S2..S4; min with the 400G links: 300G, 400G, 400G, 400G (3:4:4:4).
  const auto c = l8_candidates(run_spines());
  const auto w = import_weights(node(Role::leaf, kL8), c, 2);
  EXPECT_TRUE(w.weighted);
  EXPECT_EQ(w.weights, (V{gbps(300), gbps(400), gbps(400), gbps(400)}));
}

TEST(FareWorkedExample3Stage, FarLeafMultipliesLinkBandwidth) {
  // Multiply: links 400G * 2 = 800G; min(800G, 600G) = 600G via S1,
  // min(800G, 800G) = 800G via S2..S4: 600:800:800:800, again 3:4:4:4.
  const auto c = l8_candidates(run_spines());
  const auto w = import_weights(
      node(Role::leaf, kL8, MultihomingRule::multiply_link_bandwidth), c, 2);
  EXPECT_TRUE(w.weighted);
  EXPECT_EQ(w.weights, (V{gbps(600), gbps(800), gbps(800), gbps(800)}));
}

TEST(FareWorkedExample3Stage, WithoutTheMultihomingRuleTheLinkHidesIt) {
  // N = 1: min(400G, 600G) = 400G everywhere: the degraded L1-S1 link is
  // invisible, which is why §4.1 asks for the rule.
  const auto c = l8_candidates(run_spines());
  EXPECT_EQ(import_weights(node(Role::leaf, kL8), c, 1).weights,
            (V{gbps(400), gbps(400), gbps(400), gbps(400)}));
}

TEST(FareWorkedExample3Stage, CommunitiesOnTheWire) {
  // What S1 and SS1 put in the UPDATE, as the speaker will encode them with
  // the configured sub-type (0xAA), and what the next hop decodes.
  const ThreeStage r = run_spines();
  const auto s1 = wire::fare::encode(*r.spine_export[0].transitive,
                                     node(Role::spine, kS[0]).sub_type);
  // 0x01 transitive IPv4-Address-Specific, sub-type 0xAA, router ID
  // 10.0.1.1, 75 GB/s = 0x54B0.
  EXPECT_EQ(s1.bytes, (std::array<std::uint8_t, 8>{0x01, 0xaa, 0x0a, 0x00, 0x01,
                                                   0x01, 0x54, 0xb0}));
  const auto back = wire::fare::decode_path_bandwidth(s1, 0xaa);
  EXPECT_EQ(back, r.spine_export[0].transitive);
  EXPECT_EQ(to_bits_per_second(*back), gbps(600));

  // A super-spine's attached link community: 0x41 non-transitive, 100G =
  // 12.5 GB/s = 0x4A40, its own router ID 10.100.1.1.
  const FareConfig ss = node(Role::super_spine, 0x0a640101);
  const std::vector<Candidate> c = {
      {gbps(100), Role::spine, back, std::nullopt}};
  const auto e = readvertise(ss, c, import_weights(ss, c), false);
  EXPECT_EQ(wire::fare::encode(*e.non_transitive, ss.sub_type).bytes,
            (std::array<std::uint8_t, 8>{0x41, 0xaa, 0x0a, 0x64, 0x01, 0x01,
                                         0x4a, 0x40}));
  EXPECT_EQ(wire::fare::encode(*e.transitive, ss.sub_type).bytes, s1.bytes);
}

// ---------------------------------------------------------------- §4.2
// PoD-1 and PoD-8 with spines S1..S4; plane j has SS1..SS4, each connected
// to Sj of every PoD. All links 400G except SS1@Plane-1 <-> S1@PoD-1 at
// 100G. P is originated by L1@PoD-1 (single-homed).
constexpr std::uint32_t kL1Pod1 = 0x0a010001, kL1Pod8 = 0x0a080001;
constexpr std::uint32_t kS1Pod1 = 0x0a010101, kS1Pod8 = 0x0a080101;

std::uint32_t ss_id(int plane, int k) {
  return 0x0a640000u | static_cast<std::uint32_t>(plane << 8 | k);
}

struct FiveStage {
  BitsPerSecond ss_to_s1pod1[4] = {gbps(100), gbps(400), gbps(400), gbps(400)};
  ImportResult s1pod1_import;
  ExportResult s1pod1_export;
  ImportResult ss_import[4];
  ExportResult ss_export[4];
  ImportResult s1pod8_import;
  ExportResult s1pod8_export;
};

// Plane 1 from L1@PoD-1 to S1@PoD-8; `lower` sets S1@PoD-8's option.
FiveStage run_plane1(bool lower, FiveStage f = {}) {
  const auto origin = originate(node(Role::leaf, kL1Pod1)).transitive;
  const FareConfig s1pod1 = node(Role::spine, kS1Pod1);
  const std::vector<Candidate> at_s1pod1 = {
      {gbps(400), Role::leaf, origin, std::nullopt}};
  f.s1pod1_import = import_weights(s1pod1, at_s1pod1);
  f.s1pod1_export = readvertise(s1pod1, at_s1pod1, f.s1pod1_import, true);

  std::vector<Candidate> at_s1pod8;
  for (int k = 1; k <= 4; ++k) {
    const FareConfig ss = node(Role::super_spine, ss_id(1, k));
    const std::vector<Candidate> c = {{f.ss_to_s1pod1[k - 1], Role::spine,
                                       f.s1pod1_export.transitive,
                                       std::nullopt}};
    f.ss_import[k - 1] = import_weights(ss, c);
    f.ss_export[k - 1] = readvertise(ss, c, f.ss_import[k - 1], true);
    at_s1pod8.push_back({gbps(400), Role::super_spine,
                         f.ss_export[k - 1].transitive,
                         f.ss_export[k - 1].non_transitive});
  }
  FareConfig s1pod8 = node(Role::spine, kS1Pod8);
  s1pod8.spine_lower_to_next_next_hop = lower;
  f.s1pod8_import = import_weights(s1pod8, at_s1pod8);
  f.s1pod8_export = readvertise(s1pod8, at_s1pod8, f.s1pod8_import, true);
  return f;
}

const PathBandwidth kFromS1Pod1{true, kS1Pod1, 0x5240};  // 400G = 50 GB/s

TEST(FareWorkedExample5Stage, SpineInTheSourcePod) {
  const FiveStage f = run_plane1(false);
  // S1@PoD-1: min(400G, max) = 400G; export 400G = 50 GB/s, its router ID.
  EXPECT_EQ(f.s1pod1_import.weights, (V{gbps(400)}));
  EXPECT_EQ(f.s1pod1_export.transitive, kFromS1Pod1);
}

TEST(FareWorkedExample5Stage, SuperSpinesPassThroughAndAttachTheirLink) {
  const FiveStage f = run_plane1(false);
  // SS1: weight min(100G, 400G) = 100G; SS2..4: 400G.
  EXPECT_EQ(f.ss_import[0].weights, (V{gbps(100)}));
  // Transitive unchanged (S1@PoD-1's ID, 50 GB/s); non-transitive = link
  // toward S1@PoD-1: SS1 100G = 12.5 GB/s (1.5625 * 2^3 = 0x4A40), SS2..4
  // 400G = 0x5240; each with its own router ID.
  EXPECT_EQ(f.ss_export[0].transitive, kFromS1Pod1);
  EXPECT_EQ(f.ss_export[0].non_transitive,
            (PathBandwidth{false, ss_id(1, 1), 0x4a40}));
  for (int k = 2; k <= 4; ++k) {
    EXPECT_EQ(f.ss_import[k - 1].weights, (V{gbps(400)}));
    EXPECT_EQ(f.ss_export[k - 1].transitive, kFromS1Pod1);
    EXPECT_EQ(f.ss_export[k - 1].non_transitive,
              (PathBandwidth{false, ss_id(1, k), 0x5240}));
  }
}

TEST(FareWorkedExample5Stage, SpineInTheFarPodWeighsByNonTransitive) {
  const FiveStage f = run_plane1(false);
  // S1@PoD-8: min(400G, nt 100G) = 100G via SS1, min(400G, 400G) = 400G via
  // SS2..4: 1 : 4 : 4 : 4.
  EXPECT_TRUE(f.s1pod8_import.weighted);
  EXPECT_EQ(f.s1pod8_import.weights,
            (V{gbps(100), gbps(400), gbps(400), gbps(400)}));
  // Default: transitive unchanged, still S1@PoD-1's 50 GB/s.
  EXPECT_EQ(f.s1pod8_export.transitive, kFromS1Pod1);
  EXPECT_FALSE(f.s1pod8_export.non_transitive);
}

TEST(FareWorkedExample5Stage, LoweringDoesNotApplyWhenTheTotalIsLarger) {
  // Total toward S1@PoD-1 = 100 + 400 + 400 + 400 = 1300G, not smaller than
  // 400G: unchanged even with the option on.
  const FiveStage f = run_plane1(true);
  EXPECT_EQ(f.s1pod8_export.transitive, kFromS1Pod1);
}

TEST(FareWorkedExample5Stage, LoweringAppliesWhenThePlaneIsTheBottleneck) {
  // Variant: SS1..SS4 <-> S1@PoD-1 at 50G, 100G, 100G, 100G. Total 350G <
  // 400G: lowered to 350G = 43.75 GB/s (1.3671875 * 2^5 = 0x5178), with
  // S1@PoD-8's router ID. Without the option: unchanged 400G.
  FiveStage v;
  v.ss_to_s1pod1[0] = gbps(50);
  v.ss_to_s1pod1[1] = v.ss_to_s1pod1[2] = v.ss_to_s1pod1[3] = gbps(100);
  const FiveStage on = run_plane1(true, v);
  EXPECT_EQ(on.s1pod8_import.weights,
            (V{gbps(50), gbps(100), gbps(100), gbps(100)}));
  EXPECT_EQ(on.s1pod8_export.transitive,
            (PathBandwidth{true, kS1Pod8, 0x5178}));
  EXPECT_EQ(on.s1pod8_export.transitive->gigabytes_per_second(), 43.75);
  EXPECT_EQ(run_plane1(false, v).s1pod8_export.transitive, kFromS1Pod1);
}

// L1@PoD-8 receives P from S1..S4@PoD-8. Planes 2..4 have every link at
// 400G, so S2..S4@PoD-8 relay 400G (their totals, 1600G, are larger).
std::vector<Candidate> l1pod8_candidates(const FiveStage& plane1) {
  std::vector<Candidate> c = {
      {gbps(400), Role::spine, plane1.s1pod8_export.transitive, std::nullopt}};
  for (int j = 2; j <= 4; ++j) {
    c.push_back({gbps(400), Role::spine,
                 PathBandwidth{true, kS1Pod1 + j - 1, 0x5240}, std::nullopt});
  }
  return c;
}

TEST(FareWorkedExample5Stage, FarLeafWeights) {
  const FareConfig l1 = node(Role::leaf, kL1Pod8);
  // Draft example: every spine relays 400G; min(400G, 400G) = 400G each —
  // the 100G link is not a bottleneck (plane 1 still carries 1300G toward
  // S1@PoD-1, which has only 400G down to L1@PoD-1).
  for (bool lower : {false, true}) {
    const auto w = import_weights(l1, l1pod8_candidates(run_plane1(lower)));
    EXPECT_TRUE(w.weighted);
    EXPECT_EQ(w.weights, (V{gbps(400), gbps(400), gbps(400), gbps(400)}));
  }
  // Variant with plane 1 at 350G: with lowering, min(400G, 350G) = 350G via
  // S1: 350 : 400 : 400 : 400 (7 : 8 : 8 : 8); without, equal.
  FiveStage v;
  v.ss_to_s1pod1[0] = gbps(50);
  v.ss_to_s1pod1[1] = v.ss_to_s1pod1[2] = v.ss_to_s1pod1[3] = gbps(100);
  EXPECT_EQ(import_weights(l1, l1pod8_candidates(run_plane1(true, v))).weights,
            (V{gbps(350), gbps(400), gbps(400), gbps(400)}));
  EXPECT_EQ(import_weights(l1, l1pod8_candidates(run_plane1(false, v))).weights,
            (V{gbps(400), gbps(400), gbps(400), gbps(400)}));
}

TEST(FareWorkedExample5Stage, FarLeafMultihomed) {
  // P multi-homed to L1 and L2@PoD-1 (both 400G to S1@PoD-1): S1@PoD-1
  // exports 800G = 100 GB/s, relayed unchanged by the draft-default plane.
  // A second spine, whose PoD-1 counterpart lost its link to L2@PoD-1,
  // relays 400G. L1@PoD-8, divide: 800G / 2 = 400G, min(400G, 400G) =
  // 400G via S1; 400G / 2 = 200G via the other: 2 : 1.
  const FareConfig s1pod1 = node(Role::spine, kS1Pod1);
  const auto origin1 = originate(node(Role::leaf, kL1Pod1)).transitive;
  const auto origin2 = originate(node(Role::leaf, 0x0a010002)).transitive;
  const std::vector<Candidate> c = {
      {gbps(400), Role::leaf, origin1, std::nullopt},
      {gbps(400), Role::leaf, origin2, std::nullopt}};
  const auto e = readvertise(s1pod1, c, import_weights(s1pod1, c), true);
  EXPECT_EQ(e.transitive, (PathBandwidth{true, kS1Pod1, 0x5640}));
  std::vector<Candidate> at_leaf = {
      {gbps(400), Role::spine, e.transitive, std::nullopt},
      {gbps(400), Role::spine, kFromS1Pod1, std::nullopt}};
  EXPECT_EQ(import_weights(node(Role::leaf, kL1Pod8), at_leaf, 2).weights,
            (V{gbps(400), gbps(200)}));
  // Multiply: links 800G; min(800G, 800G) = 800G, min(800G, 400G) = 400G.
  EXPECT_EQ(import_weights(node(Role::leaf, kL1Pod8,
                                MultihomingRule::multiply_link_bandwidth),
                           at_leaf, 2)
                .weights,
            (V{gbps(800), gbps(400)}));
}

}  // namespace
}  // namespace arfabric::proto::fare
