// Property: the weights a leaf installs equal the max-flow split of the
// fabric, computed independently here (draft-xu-idr-fare-04 §4.1, §4.2).
// Rates are whole GB/s so that every exported value is exact in binary16
// (every integer up to 2048 is), and sums stay <= 2048 GB/s.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "proto/fare/policy.h"

namespace arfabric::proto::fare {
namespace {

constexpr BitsPerSecond GBps(std::uint64_t v) { return v * 8'000'000'000; }

FareConfig node(Role role, std::uint32_t id, bool lower = false) {
  return {.role = role, .router_id = id, .spine_lower_to_next_next_hop = lower};
}

// The leaf's expectation: weights == flows, or equal weights when every
// flow is 0 (zero_total).
void check(const ImportResult& r, const std::vector<BitsPerSecond>& flow) {
  if (std::all_of(flow.begin(), flow.end(),
                  [](BitsPerSecond f) { return f == 0; })) {
    RC_ASSERT(!r.weighted);
    RC_ASSERT(r.reason == FallbackReason::zero_total);
    RC_ASSERT(r.weights == std::vector<BitsPerSecond>(flow.size(), 1));
  } else {
    RC_ASSERT(r.weighted);
    RC_ASSERT(r.weights == flow);
  }
}

// 3-stage: destination leaf D, source leaf L, n spines. The max flow L -> D
// through spine s is min(L-s, s-D).
RC_GTEST_PROP(FareProperty, ThreeStageWeightsAreMaxFlowPerSpine, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(1, 17);
  const auto up = *rc::gen::container<std::vector<std::uint64_t>>(
      n, rc::gen::inRange<std::uint64_t>(0, 2049));  // L-s, GB/s
  const auto down = *rc::gen::container<std::vector<std::uint64_t>>(
      n, rc::gen::inRange<std::uint64_t>(0, 2049));  // s-D, GB/s

  const auto origin = originate(node(Role::leaf, 100)).transitive;
  std::vector<Candidate> at_leaf;
  std::vector<BitsPerSecond> flow;
  for (std::size_t s = 0; s < n; ++s) {
    const FareConfig spine = node(Role::spine, 200 + s);
    const std::vector<Candidate> c = {
        {GBps(down[s]), Role::leaf, origin, std::nullopt}};
    const auto e = readvertise(spine, c, import_weights(spine, c), true);
    at_leaf.push_back({GBps(up[s]), Role::spine, e.transitive, std::nullopt});
    flow.push_back(GBps(std::min(up[s], down[s])));
  }
  check(import_weights(node(Role::leaf, 101), at_leaf), flow);
}

// 5-stage: D in PoD-1, L in PoD-8, n spines per PoD (= planes), k
// super-spines per plane. The max flow L -> D through plane j is
//   min(L-Sj@8, sum_k min(Sj@8-SSk, SSk-Sj@1), Sj@1-D),
// which the leaf sees when the far spines lower the transitive value.
RC_GTEST_PROP(FareProperty, FiveStageWeightsAreMaxFlowPerPlane, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(1, 17);
  const auto k = *rc::gen::inRange<std::size_t>(1, 17);
  auto gen_links = [](std::size_t count) {
    return *rc::gen::container<std::vector<std::uint64_t>>(
        count, rc::gen::inRange<std::uint64_t>(0, 129));  // <= 16 * 128
  };
  const auto leaf_up = gen_links(n);      // L - Sj@8
  const auto pod8_up = gen_links(n * k);  // Sj@8 - SSk(j)
  const auto pod1_dn = gen_links(n * k);  // SSk(j) - Sj@1
  const auto dest_dn = gen_links(n);      // Sj@1 - D

  const auto origin = originate(node(Role::leaf, 1)).transitive;
  std::vector<Candidate> at_leaf;
  std::vector<BitsPerSecond> flow;
  for (std::size_t j = 0; j < n; ++j) {
    const FareConfig s_pod1 = node(Role::spine, 1000 + j);
    const std::vector<Candidate> at_s1 = {
        {GBps(dest_dn[j]), Role::leaf, origin, std::nullopt}};
    const auto from_s1 =
        readvertise(s_pod1, at_s1, import_weights(s_pod1, at_s1), true);

    std::vector<Candidate> at_s8;
    std::uint64_t plane_total = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const FareConfig ss = node(Role::super_spine, 5000 + j * 100 + i);
      const std::vector<Candidate> at_ss = {{GBps(pod1_dn[j * k + i]),
                                             Role::spine, from_s1.transitive,
                                             std::nullopt}};
      const auto from_ss =
          readvertise(ss, at_ss, import_weights(ss, at_ss), true);
      at_s8.push_back({GBps(pod8_up[j * k + i]), Role::super_spine,
                       from_ss.transitive, from_ss.non_transitive});
      plane_total += std::min(pod8_up[j * k + i], pod1_dn[j * k + i]);
    }
    const FareConfig s_pod8 = node(Role::spine, 2000 + j, /*lower=*/true);
    const auto from_s8 =
        readvertise(s_pod8, at_s8, import_weights(s_pod8, at_s8), true);
    at_leaf.push_back(
        {GBps(leaf_up[j]), Role::spine, from_s8.transitive, std::nullopt});
    flow.push_back(GBps(std::min({leaf_up[j], plane_total, dest_dn[j]})));
  }
  check(import_weights(node(Role::leaf, 2), at_leaf), flow);
}

}  // namespace
}  // namespace arfabric::proto::fare
