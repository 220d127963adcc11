// Unit tests of each FARE policy rule (draft-xu-idr-fare-04 §4.1, §4.2).
// Rates: gbps(400) = 400 Gb/s = 50 GB/s.
#include "proto/fare/policy.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "wire/fare/binary16.h"

namespace arfabric::proto::fare {
namespace {

using wire::fare::PathBandwidth;

constexpr std::uint32_t kUs = 0x0a0000ff;
constexpr std::uint32_t kPeer = 0x0a000001;

FareConfig config(Role role) { return {.role = role, .router_id = kUs}; }

PathBandwidth t(BitsPerSecond rate, std::uint32_t id = kPeer) {
  return to_path_bandwidth(id, rate, true);
}
PathBandwidth nt(BitsPerSecond rate, std::uint32_t id = kPeer) {
  return to_path_bandwidth(id, rate, false);
}
PathBandwidth max_t() { return wire::fare::max_path_bandwidth(kPeer); }

Candidate from(Role peer, BitsPerSecond link, std::optional<PathBandwidth> tr,
               std::optional<PathBandwidth> ntr = std::nullopt) {
  return {link, peer, tr, ntr};
}

using V = std::vector<BitsPerSecond>;

// --- import -------------------------------------------------------------

TEST(FareImport, MinOfLinkAndTransitive) {
  // Spine from two leaves: min(200G, max) = 200G, min(400G, 300G) = 300G.
  const std::vector<Candidate> c = {from(Role::leaf, gbps(200), max_t()),
                                    from(Role::leaf, gbps(400), t(gbps(300)))};
  const auto r = import_weights(config(Role::spine), c);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::none);
  EXPECT_EQ(r.weights, (V{gbps(200), gbps(300)}));
  EXPECT_EQ(r.path_bandwidth, r.weights);
  EXPECT_FALSE(r.multihoming_applied);
}

TEST(FareImport, MissingTransitiveFallsBackToEqualWeights) {
  const std::vector<Candidate> c = {from(Role::spine, gbps(400), t(gbps(400))),
                                    from(Role::spine, gbps(400), t(gbps(200))),
                                    from(Role::spine, gbps(400), std::nullopt),
                                    from(Role::spine, gbps(100), std::nullopt)};
  const auto r = import_weights(config(Role::leaf), c);
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::missing_path_bandwidth);
  EXPECT_EQ(r.offending_candidate, 2u);  // the first one lacking it
  EXPECT_EQ(r.weights, (V{1, 1, 1, 1}));
  // The minima are still reported; 0 where unknown.
  EXPECT_EQ(r.path_bandwidth, (V{gbps(400), gbps(200), 0, 0}));
  EXPECT_EQ(fallback_reason_name(r.reason), "missing_path_bandwidth");
}

TEST(FareImport, InvalidTransitiveCountsAsMissing) {
  const PathBandwidth nan{true, kPeer, 0x7e00};
  const std::vector<Candidate> c = {from(Role::spine, gbps(400), nan),
                                    from(Role::spine, gbps(400), max_t())};
  const auto r = import_weights(config(Role::leaf), c);
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::invalid_path_bandwidth);
  EXPECT_EQ(r.offending_candidate, 0u);
  EXPECT_EQ(r.weights, (V{1, 1}));
}

TEST(FareImport, SpineFromSuperSpinesUsesNonTransitive) {
  // Transitive values are ignored: min(400G, nt 100G), min(200G, nt 400G).
  const std::vector<Candidate> c = {
      from(Role::super_spine, gbps(400), t(gbps(50)), nt(gbps(100))),
      from(Role::super_spine, gbps(200), t(gbps(50)), nt(gbps(400)))};
  const auto r = import_weights(config(Role::spine), c);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.weights, (V{gbps(100), gbps(200)}));
}

TEST(FareImport, SpineFromSuperSpinesWithoutNonTransitiveDoesEcmp) {
  const std::vector<Candidate> c = {
      from(Role::super_spine, gbps(400), t(gbps(400)), nt(gbps(100))),
      from(Role::super_spine, gbps(400), t(gbps(400)))};
  const auto r = import_weights(config(Role::spine), c);
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::missing_non_transitive);
  EXPECT_EQ(r.offending_candidate, 1u);
  EXPECT_EQ(r.weights, (V{1, 1}));
  EXPECT_EQ(r.path_bandwidth, (V{gbps(100), 0}));

  const std::vector<Candidate> bad = {from(Role::super_spine, gbps(400),
                                           t(gbps(400)),
                                           PathBandwidth{false, 1, 0xfe00})};
  EXPECT_EQ(import_weights(config(Role::spine), bad).reason,
            FallbackReason::invalid_non_transitive);
}

TEST(FareImport, LeafAndSuperSpineFromSuperSpinesUseTransitive) {
  // Only a spine reads the non-transitive community (§4.2).
  const std::vector<Candidate> c = {
      from(Role::super_spine, gbps(400), t(gbps(300)), nt(gbps(100)))};
  EXPECT_EQ(import_weights(config(Role::leaf), c).weights, (V{gbps(300)}));
  EXPECT_EQ(import_weights(config(Role::super_spine), c).weights,
            (V{gbps(300)}));
}

TEST(FareImport, SuperSpineFromSpine) {
  // min(100G link, 400G transitive) = 100G.
  const std::vector<Candidate> c = {from(Role::spine, gbps(100), t(gbps(400)))};
  const auto r = import_weights(config(Role::super_spine), c);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.weights, (V{gbps(100)}));
}

TEST(FareImport, LinkDownGivesWeightZero) {
  const std::vector<Candidate> c = {from(Role::spine, 0, t(gbps(400))),
                                    from(Role::spine, gbps(400), t(gbps(400)))};
  const auto r = import_weights(config(Role::leaf), c);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.weights, (V{0, gbps(400)}));
}

TEST(FareImport, AllZeroFallsBackToEqualWeights) {
  const std::vector<Candidate> c = {from(Role::spine, 0, t(gbps(400))),
                                    from(Role::spine, gbps(400), t(0))};
  const auto r = import_weights(config(Role::leaf), c);
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::zero_total);
  EXPECT_EQ(r.weights, (V{1, 1}));
  EXPECT_EQ(r.path_bandwidth, (V{0, 0}));
  EXPECT_EQ(fallback_reason_name(r.reason), "zero_total");
}

TEST(FareImport, NoCandidates) {
  const auto r = import_weights(config(Role::leaf), {});
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::no_candidates);
  EXPECT_TRUE(r.weights.empty());
}

TEST(FareImport, MultihomingDivide) {
  // Leaf, prefix on 2 leaves. EC 600G / 2 = 300G < link 400G -> 300G;
  // EC 800G / 2 = 400G -> 400G; max / 2 stays unlimited -> link 400G.
  const std::vector<Candidate> c = {from(Role::spine, gbps(400), t(gbps(600))),
                                    from(Role::spine, gbps(400), t(gbps(800))),
                                    from(Role::spine, gbps(400), max_t())};
  const auto r = import_weights(config(Role::leaf), c, 2);
  EXPECT_TRUE(r.weighted);
  EXPECT_TRUE(r.multihoming_applied);
  EXPECT_EQ(r.weights, (V{gbps(300), gbps(400), gbps(400)}));
  // 3 leaves: 600G / 3 = 200G; 800G / 3 = 266.666...G, toward zero.
  EXPECT_EQ(import_weights(config(Role::leaf), c, 3).weights,
            (V{gbps(200), 266'666'666'666, gbps(400)}));
}

TEST(FareImport, MultihomingMultiply) {
  // Link 400G * 2 = 800G: min(800G, 600G) = 600G, min(800G, 800G) = 800G,
  // min(800G, max) = 800G.
  FareConfig cfg = config(Role::leaf);
  cfg.multihoming = MultihomingRule::multiply_link_bandwidth;
  const std::vector<Candidate> c = {from(Role::spine, gbps(400), t(gbps(600))),
                                    from(Role::spine, gbps(400), t(gbps(800))),
                                    from(Role::spine, gbps(400), max_t())};
  EXPECT_EQ(import_weights(cfg, c, 2).weights,
            (V{gbps(600), gbps(800), gbps(800)}));
}

TEST(FareImport, MultihomingOnlyAtALeaf) {
  // A spine weighing routes from the multi-homing leaves themselves must not
  // double its links: 200G and 400G, not 400G and 800G.
  FareConfig cfg = config(Role::spine);
  cfg.multihoming = MultihomingRule::multiply_link_bandwidth;
  const std::vector<Candidate> c = {from(Role::leaf, gbps(200), max_t()),
                                    from(Role::leaf, gbps(400), max_t())};
  const auto r = import_weights(cfg, c, 2);
  EXPECT_FALSE(r.multihoming_applied);
  EXPECT_EQ(r.weights, (V{gbps(200), gbps(400)}));
  // 0 leaves is read as 1.
  EXPECT_FALSE(import_weights(config(Role::leaf), c, 0).multihoming_applied);
}

// Both multi-homing rules against their definitions, for any link (up to
// kUnlimited), any valid community and any N: the divide rule skips the
// division when the link is the bottleneck.
RC_GTEST_PROP(FareImport, MultihomingRulesMatchTheirDefinitions, ()) {
  const auto link = *rc::gen::oneOf(rc::gen::arbitrary<BitsPerSecond>(),
                                    rc::gen::just(kUnlimited),
                                    rc::gen::inRange<BitsPerSecond>(0, 1e13));
  const auto bits = *rc::gen::inRange<std::uint16_t>(0, 0x7c01);
  const auto n = *rc::gen::inRange<std::uint32_t>(0, 100);
  const PathBandwidth ec{true, kPeer, bits};
  const BitsPerSecond path = *to_bits_per_second(ec);
  const std::vector<Candidate> c = {from(Role::spine, link, ec)};
  FareConfig cfg = config(Role::leaf);
  RC_ASSERT(import_weights(cfg, c, n).path_bandwidth[0] ==
            std::min(link, divide(path, n)));
  cfg.multihoming = MultihomingRule::multiply_link_bandwidth;
  const BitsPerSecond scaled = n > 1 ? saturating_multiply(link, n) : link;
  RC_ASSERT(import_weights(cfg, c, n).path_bandwidth[0] ==
            std::min(scaled, path));
}

TEST(FareImport, UnlimitedLinkAndSaturation) {
  // Unknown link (kUnlimited) and +Inf: unlimited; multiply saturates.
  FareConfig cfg = config(Role::leaf);
  cfg.multihoming = MultihomingRule::multiply_link_bandwidth;
  const PathBandwidth inf{true, kPeer, wire::fare::kBinary16PositiveInfinity};
  const std::vector<Candidate> c = {from(Role::spine, kUnlimited, inf),
                                    from(Role::spine, kUnlimited - 1, inf)};
  EXPECT_EQ(import_weights(cfg, c, 4).weights, (V{kUnlimited, kUnlimited}));
}

TEST(FareImport, IntoReusesTheResult) {
  ImportResult r;
  const std::vector<Candidate> three = {
      from(Role::spine, gbps(100), max_t()), from(Role::spine, 0, max_t()),
      from(Role::spine, gbps(300), std::nullopt)};
  import_weights(config(Role::leaf), three, 1, r);
  EXPECT_EQ(r.reason, FallbackReason::missing_path_bandwidth);
  const std::vector<Candidate> two = {from(Role::spine, gbps(100), max_t()),
                                      from(Role::spine, 0, max_t())};
  import_weights(config(Role::leaf), two, 1, r);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::none);
  EXPECT_EQ(r.offending_candidate, 0u);
  EXPECT_EQ(r.weights, (V{gbps(100), 0}));
}

TEST(FareImport, ReasonNames) {
  EXPECT_EQ(fallback_reason_name(FallbackReason::none), "none");
  EXPECT_EQ(fallback_reason_name(FallbackReason::no_candidates),
            "no_candidates");
  EXPECT_EQ(fallback_reason_name(FallbackReason::invalid_path_bandwidth),
            "invalid_path_bandwidth");
  EXPECT_EQ(fallback_reason_name(FallbackReason::missing_non_transitive),
            "missing_non_transitive");
  EXPECT_EQ(fallback_reason_name(FallbackReason::invalid_non_transitive),
            "invalid_non_transitive");
  EXPECT_EQ(fallback_reason_name(static_cast<FallbackReason>(99)), "unknown");
}

// --- export -------------------------------------------------------------

ExportResult readvertise(const FareConfig& cfg, const std::vector<Candidate>& s,
                         bool multipath, std::uint32_t multihomed = 1) {
  return fare::readvertise(cfg, s, import_weights(cfg, s, multihomed),
                           multipath);
}

TEST(FareExport, OriginateMaximum) {
  const auto e = originate(config(Role::leaf));
  EXPECT_EQ(e.transitive, (PathBandwidth{true, kUs, 0x7bff}));
  EXPECT_FALSE(e.non_transitive);
}

TEST(FareExport, SpineSinglePathIsTheMinimum) {
  // min(200G, max) = 200G = 25 GB/s; our router ID.
  const std::vector<Candidate> s = {from(Role::leaf, gbps(200), max_t()),
                                    from(Role::leaf, gbps(400), max_t())};
  const auto e = readvertise(config(Role::spine), s, false);
  EXPECT_EQ(e.transitive, t(gbps(200), kUs));
  EXPECT_EQ(e.transitive->gigabytes_per_second(), 25.0);
  EXPECT_FALSE(e.non_transitive);
}

TEST(FareExport, SpineMultipathIsTheSumOfMinima) {
  // 200G + min(400G, 300G) = 500G = 62.5 GB/s.
  const std::vector<Candidate> s = {from(Role::leaf, gbps(200), max_t()),
                                    from(Role::leaf, gbps(400), t(gbps(300)))};
  const auto e = readvertise(config(Role::spine), s, true);
  EXPECT_EQ(e.transitive->gigabytes_per_second(), 62.5);
  EXPECT_EQ(e.transitive->router_id, kUs);
  EXPECT_TRUE(e.transitive->transitive);
}

TEST(FareExport, SumRoundsTowardZero) {
  // 333.3G + 333.3G + 333.3G = 999.9 Gb/s = 124.9875 GB/s; in [64, 128) the
  // step is 1/16: 124.9375 (0x57CF), not 125.
  const std::vector<Candidate> s(3, from(Role::leaf, 333'300'000'000, max_t()));
  const auto e = readvertise(config(Role::spine), s, true);
  EXPECT_EQ(e.transitive->bandwidth_bits, 0x57cf);
  EXPECT_EQ(e.transitive->gigabytes_per_second(), 124.9375);
}

TEST(FareExport, SumSaturatesAtTheMaximum) {
  const std::vector<Candidate> s = {from(Role::leaf, kUnlimited, max_t()),
                                    from(Role::leaf, gbps(400), max_t())};
  const auto e = readvertise(config(Role::spine), s, true);
  EXPECT_EQ(e.transitive, (PathBandwidth{true, kUs, 0x7bff}));
}

TEST(FareExport, MissingCommunitySendsNone) {
  const std::vector<Candidate> s = {from(Role::leaf, gbps(400), max_t()),
                                    from(Role::leaf, gbps(400), std::nullopt)};
  EXPECT_FALSE(readvertise(config(Role::spine), s, true).transitive);
  // Without multipath only the best path counts.
  EXPECT_EQ(readvertise(config(Role::spine), s, false).transitive,
            t(gbps(400), kUs));
}

TEST(FareExport, AllLinksDownAdvertisesZero) {
  const std::vector<Candidate> s = {from(Role::leaf, 0, max_t()),
                                    from(Role::leaf, 0, max_t())};
  EXPECT_EQ(readvertise(config(Role::spine), s, true).transitive, t(0, kUs));
}

TEST(FareExport, LeafReadvertisesUnadjustedMinima) {
  // The multi-homing rule is a weighting device: the leaf's export is the
  // sum of min(link, EC) = 400G + 400G = 800G = 100 GB/s, not of the
  // divided 300G + 400G.
  const std::vector<Candidate> s = {from(Role::spine, gbps(400), t(gbps(600))),
                                    from(Role::spine, gbps(400), t(gbps(800)))};
  const auto e = readvertise(config(Role::leaf), s, true, 2);
  EXPECT_EQ(e.transitive->gigabytes_per_second(), 100.0);
  EXPECT_EQ(e.transitive->router_id, kUs);
}

TEST(FareExport, NeverReexportsAReceivedNonTransitive) {
  const std::vector<Candidate> s = {
      from(Role::spine, gbps(400), t(gbps(400)), nt(gbps(100)))};
  EXPECT_FALSE(readvertise(config(Role::leaf), s, false).non_transitive);
  EXPECT_FALSE(readvertise(config(Role::spine), s, false).non_transitive);
}

TEST(FareExport, SuperSpinePassesTransitiveAndAttachesLink) {
  const PathBandwidth received{true, 0x0a010101, 0x5240};  // 50 GB/s
  const std::vector<Candidate> s = {
      from(Role::spine, gbps(100), received, nt(gbps(1)))};
  const auto e = readvertise(config(Role::super_spine), s, false);
  EXPECT_EQ(e.transitive, received);  // same router ID and value
  // Link 100G = 12.5 GB/s, non-transitive, our router ID.
  EXPECT_EQ(e.non_transitive, (PathBandwidth{false, kUs, 0x4a40}));

  FareConfig quiet = config(Role::super_spine);
  quiet.super_spine_attach_link_ec = false;
  const auto q = readvertise(quiet, s, false);
  EXPECT_EQ(q.transitive, received);
  EXPECT_FALSE(q.non_transitive);
}

TEST(FareExport, SuperSpineWithoutTransitiveStillAttachesLink) {
  const std::vector<Candidate> s = {from(Role::spine, gbps(400), std::nullopt)};
  const auto e = readvertise(config(Role::super_spine), s, false);
  EXPECT_FALSE(e.transitive);
  EXPECT_EQ(e.non_transitive, nt(gbps(400), kUs));
}

TEST(FareExport, SuperSpineMultipathSumsLinksAndPassesTheBestPath) {
  const PathBandwidth a{true, 1, 0x5240}, b{true, 2, 0x4a40};
  const std::vector<Candidate> s = {from(Role::spine, gbps(100), a),
                                    from(Role::spine, gbps(300), b)};
  const auto e = readvertise(config(Role::super_spine), s, true);
  EXPECT_EQ(e.transitive, a);
  EXPECT_EQ(e.non_transitive, nt(gbps(400), kUs));  // 100G + 300G
}

TEST(FareExport, SpineFromSuperSpinesPassesTransitiveByDefault) {
  const PathBandwidth received{true, 0x0a010101, 0x5240};  // 400G
  const std::vector<Candidate> s = {
      from(Role::super_spine, gbps(400), received, nt(gbps(100))),
      from(Role::super_spine, gbps(400), received, nt(gbps(100)))};
  const auto e = readvertise(config(Role::spine), s, true);
  EXPECT_EQ(e.transitive, received);
  EXPECT_FALSE(e.non_transitive);
}

TEST(FareExport, SpineLowersToTheNextNextHopTotal) {
  FareConfig cfg = config(Role::spine);
  cfg.spine_lower_to_next_next_hop = true;
  const PathBandwidth received{true, 0x0a010101, 0x5240};  // 400G
  // min(400G, 100G) + min(150G, 400G) = 250G < 400G: lowered, our ID.
  std::vector<Candidate> s = {
      from(Role::super_spine, gbps(400), received, nt(gbps(100))),
      from(Role::super_spine, gbps(150), received, nt(gbps(400)))};
  EXPECT_EQ(readvertise(cfg, s, true).transitive, t(gbps(250), kUs));
  // Single path: only the best, 100G.
  EXPECT_EQ(readvertise(cfg, s, false).transitive, t(gbps(100), kUs));
  // 100G + 300G = 400G is not smaller than 400G: unchanged.
  s[1].link_bandwidth = gbps(300);
  EXPECT_EQ(readvertise(cfg, s, true).transitive, received);
  // One route without the non-transitive community: unchanged.
  s[1].link_bandwidth = gbps(150);
  s[1].non_transitive.reset();
  EXPECT_EQ(readvertise(cfg, s, true).transitive, received);
}

TEST(FareExport, LoweringNeedsATransitiveToLower) {
  FareConfig cfg = config(Role::spine);
  cfg.spine_lower_to_next_next_hop = true;
  const std::vector<Candidate> s = {
      from(Role::super_spine, gbps(400), std::nullopt, nt(gbps(100)))};
  EXPECT_FALSE(readvertise(cfg, s, true).transitive);
}

TEST(FareExport, ImportOfOtherCandidatesIsNotTrusted) {
  // An ImportResult with too few minima: recomputed from `selected`.
  const std::vector<Candidate> s = {from(Role::leaf, gbps(200), max_t()),
                                    from(Role::leaf, gbps(400), max_t())};
  const auto e =
      fare::readvertise(config(Role::spine), s, ImportResult{}, true);
  EXPECT_EQ(e.transitive, t(gbps(600), kUs));
  // One with more minima than `selected` (another set): also recomputed.
  ImportResult other;
  other.path_bandwidth = {1, 1, 1};
  EXPECT_EQ(fare::readvertise(config(Role::spine), s, other, true).transitive,
            t(gbps(600), kUs));
}

// --- a non-transitive path community (§3) -------------------------------

FareConfig non_transitive_config(Role role) {
  FareConfig c = config(role);
  c.path_bandwidth_transitive = false;
  return c;
}

TEST(FareNonTransitive, LeafOriginatesTheMaximumNonTransitive) {
  const auto e = originate(non_transitive_config(Role::leaf));
  EXPECT_FALSE(e.transitive);
  EXPECT_EQ(e.non_transitive, (PathBandwidth{false, kUs, 0x7bff}));
}

TEST(FareNonTransitive, SpineReadsAndWritesTheNonTransitiveCommunity) {
  // Leaves sent 0x41 communities: min(200G, max) + min(400G, 300G) = 500G.
  const std::vector<Candidate> s = {
      from(Role::leaf, gbps(200), std::nullopt, nt(gbps(800))),
      from(Role::leaf, gbps(400), std::nullopt, nt(gbps(300)))};
  const FareConfig c = non_transitive_config(Role::spine);
  const auto r = import_weights(c, s);
  EXPECT_TRUE(r.weighted);
  EXPECT_EQ(r.weights, (V{gbps(200), gbps(300)}));
  const auto e = readvertise(c, s, r, true);
  EXPECT_FALSE(e.transitive);
  EXPECT_EQ(e.non_transitive, nt(gbps(500), kUs));
}

TEST(FareNonTransitive, ATransitiveCommunityAloneIsNotRead) {
  // A peer still sending 0x01: the configured community is missing, so
  // equal weights (§4.1 "unless all ... carry") and nothing to pass on.
  const std::vector<Candidate> s = {
      from(Role::spine, gbps(400), t(gbps(400)), nt(gbps(400))),
      from(Role::spine, gbps(400), t(gbps(200)))};
  const FareConfig c = non_transitive_config(Role::leaf);
  const auto r = import_weights(c, s);
  EXPECT_FALSE(r.weighted);
  EXPECT_EQ(r.reason, FallbackReason::missing_non_transitive);
  EXPECT_EQ(r.offending_candidate, 1u);
  const auto e = readvertise(c, s, r, true);
  EXPECT_FALSE(e.transitive);
  EXPECT_FALSE(e.non_transitive);
}

TEST(FareNonTransitive, SpineAppliesTheSameRuleToRoutesFromSuperSpines) {
  // Without the §4.2 pass-through: min(link, non-transitive), summed.
  const std::vector<Candidate> s = {
      from(Role::super_spine, gbps(100), t(gbps(800)), nt(gbps(400))),
      from(Role::super_spine, gbps(400), t(gbps(800)), nt(gbps(200)))};
  const FareConfig c = non_transitive_config(Role::spine);
  const auto r = import_weights(c, s);
  EXPECT_EQ(r.weights, (V{gbps(100), gbps(200)}));
  EXPECT_EQ(readvertise(c, s, r, true).non_transitive, nt(gbps(300), kUs));
}

TEST(FareExport, EmptySelectionSendsNothing) {
  const auto e = fare::readvertise(config(Role::spine), {}, {}, true);
  EXPECT_FALSE(e.transitive);
  EXPECT_FALSE(e.non_transitive);
}

}  // namespace
}  // namespace arfabric::proto::fare
