#include "proto/fib/quantise.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace arfabric::proto::fib {
namespace {

struct Result {
  std::vector<std::uint32_t> counts;
  RelativeError error;
};

Result run(const std::vector<WeightedMember>& m, std::uint32_t n) {
  Result r{std::vector<std::uint32_t>(m.size()), {}};
  std::vector<QuantiseHeapItem> scratch(m.size());
  r.error = quantise(m, n, r.counts, scratch);
  return r;
}

std::vector<WeightedMember> members(const std::vector<std::uint32_t>& w) {
  std::vector<WeightedMember> m;
  for (std::size_t i = 0; i < w.size(); ++i)
    m.push_back({static_cast<PortId>(i + 1), w[i]});
  return m;
}

RelativeError error_of(const std::vector<std::uint32_t>& w,
                       const std::vector<std::uint32_t>& c, std::uint32_t n) {
  const std::uint64_t total = std::accumulate(w.begin(), w.end(), 0ull);
  RelativeError worst{0, 1};
  for (std::size_t i = 0; i < w.size(); ++i)
    worst = std::max(worst, relative_error(c[i], w[i], total, n));
  return worst;
}

// The smallest max error over every allocation with c_i >= 1, sum n.
RelativeError brute_force(const std::vector<std::uint32_t>& w,
                          std::uint32_t n) {
  std::vector<std::uint32_t> c(w.size(), 1);
  RelativeError best{~0ull, 1};
  auto rec = [&](auto& self, std::size_t i, std::uint32_t left) -> void {
    if (i + 1 == w.size()) {
      c[i] = left;
      best = std::min(best, error_of(w, c, n));
      return;
    }
    const std::uint32_t rest = static_cast<std::uint32_t>(w.size() - i - 1);
    for (std::uint32_t k = 1; k + rest <= left; ++k) {
      c[i] = k;
      self(self, i + 1, left - k);
    }
  };
  rec(rec, 0, n);
  return best;
}

TEST(Quantise, ExactSharesHaveZeroError) {
  // {4,2,1,1} of 64: t = 32, 16, 8, 8, all integers.
  const Result r = run(members({4, 2, 1, 1}), 64);
  EXPECT_EQ(r.counts, (std::vector<std::uint32_t>{32, 16, 8, 8}));
  EXPECT_EQ(r.error.num, 0u);
}

TEST(Quantise, ThreeEqualMembersIn64) {
  // t = 21.33 each: one member gets 22, error |22*3 - 64| / 64 = 2/64.
  const Result r = run(members({1, 1, 1}), 64);
  EXPECT_EQ(r.counts, (std::vector<std::uint32_t>{22, 21, 21}));
  EXPECT_EQ(r.error, (RelativeError{2, 64}));
  EXPECT_DOUBLE_EQ(r.error.value(), 0.03125);
}

TEST(Quantise, SmallMemberKeepsOneEntryAndBigOnesPay) {
  // 1000:1 in 64 entries: t = 63.94, 0.064. The small member must keep one
  // entry (error (1 - 0.064)/0.064 = 14.6); the big one gets 63.
  const Result r = run(members({1000, 1}), 64);
  EXPECT_EQ(r.counts, (std::vector<std::uint32_t>{63, 1}));
  // |1 * 1001 - 64| / 64
  EXPECT_EQ(r.error, (RelativeError{937, 64}));
}

TEST(Quantise, ZeroWeightGetsNothing) {
  const Result r = run(members({0, 3, 0, 1}), 64);
  EXPECT_EQ(r.counts, (std::vector<std::uint32_t>{0, 48, 0, 16}));
  const Result none = run(members({0, 0}), 64);
  EXPECT_EQ(none.counts, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(none.error.num, 0u);
}

TEST(Quantise, MoreMembersThanEntriesKeepsTheHeaviest) {
  // Three members, two entries: weights 1, 5, 3 -> the 5 and the 3.
  const Result r = run(members({1, 5, 3}), 2);
  EXPECT_EQ(r.counts, (std::vector<std::uint32_t>{0, 1, 1}));
  EXPECT_EQ(r.error.value(), 1.0);  // the member without an entry
}

RC_GTEST_PROP(Quantise, OptimalAgainstBruteForceSmallTables, ()) {
  const auto n = *rc::gen::inRange<std::uint32_t>(1, 17);
  const auto m = *rc::gen::inRange<std::uint32_t>(1, std::min(n, 5u) + 1);
  const auto w = *rc::gen::container<std::vector<std::uint32_t>>(
      m, rc::gen::inRange<std::uint32_t>(1, 30));
  const Result r = run(members(w), n);
  RC_ASSERT(std::accumulate(r.counts.begin(), r.counts.end(), 0u) == n);
  RC_ASSERT(std::all_of(r.counts.begin(), r.counts.end(),
                        [](std::uint32_t c) { return c >= 1; }));
  RC_ASSERT(r.error == error_of(w, r.counts, n));
  RC_ASSERT(r.error == brute_force(w, n));
}

RC_GTEST_PROP(Quantise, OptimalAgainstBruteForceRealTableSizes, ()) {
  const auto n = *rc::gen::inRange<std::uint32_t>(64, 97);
  const auto m = *rc::gen::inRange<std::uint32_t>(1, 4);
  const auto w = *rc::gen::container<std::vector<std::uint32_t>>(
      m, rc::gen::inRange<std::uint32_t>(1, 5000));
  const Result r = run(members(w), n);
  RC_ASSERT(r.error == brute_force(w, n));
}

// Largest-remainder rounding, written independently: any allocation is an
// upper bound on the optimum.
std::vector<std::uint32_t> largest_remainder(
    const std::vector<std::uint32_t>& w, std::uint32_t n) {
  const std::uint64_t total = std::accumulate(w.begin(), w.end(), 0ull);
  std::vector<std::uint32_t> c(w.size());
  std::vector<std::size_t> order(w.size());
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    c[i] = static_cast<std::uint32_t>(std::uint64_t{n} * w[i] / total);
    sum += c[i];
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::uint64_t{n} * w[a] % total > std::uint64_t{n} * w[b] % total;
  });
  for (std::size_t k = 0; sum < n; ++k, ++sum) ++c[order[k]];
  return c;
}

RC_GTEST_PROP(Quantise, ErrorBoundForRandomWeightsAndTableSizes, ()) {
  const auto n = *rc::gen::inRange<std::uint32_t>(64, 4097);
  const auto m = *rc::gen::inRange<std::uint32_t>(1, 65);
  const auto w = *rc::gen::container<std::vector<std::uint32_t>>(
      m, rc::gen::inRange<std::uint32_t>(1, 1001));
  const std::uint64_t total = std::accumulate(w.begin(), w.end(), 0ull);
  const std::uint32_t w_min = *std::min_element(w.begin(), w.end());
  const Result r = run(members(w), n);
  RC_ASSERT(std::accumulate(r.counts.begin(), r.counts.end(), 0u) == n);
  RC_ASSERT(*std::min_element(r.counts.begin(), r.counts.end()) >= 1u);
  if (std::uint64_t{n} * w_min >= total) {
    // Every t_i >= 1: E* < 1 / t_min = W / (N w_min) (quantise.h).
    RC_ASSERT(r.error < (RelativeError{total, std::uint64_t{n} * w_min}));
    RC_ASSERT(!(error_of(w, largest_remainder(w, n), n) < r.error));
  }
}

// The cache answers exactly what quantise() computes, whether it
// remembers the weights or not: random weight lists drawn from a small
// pool (so that most recur), in two table sizes, enough of them to fill
// the cache and make it forget.
TEST(QuantiseCache, GivesWhatQuantiseGivesAndRemembersRepeats) {
  QuantiseCache cache;
  std::vector<std::vector<std::uint32_t>> pool;
  for (std::uint32_t i = 0; i < 2 * QuantiseCache::kMaxEntries; ++i) {
    std::vector<std::uint32_t> w(1 + i % 9);
    for (std::size_t j = 0; j < w.size(); ++j)
      w[j] = 1 + (i * 2654435761u >> (j % 24)) % 7;
    pool.push_back(w);
  }
  std::uint64_t calls = 0;
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < pool.size(); ++i) {
      // Three rounds over the pool: the second and third find what the
      // first (or an earlier one before a forgetting) remembered.
      const std::uint32_t n = (i + round) % 2 == 0 ? 64 : 100;
      const auto m = members(pool[i]);
      const Result want = run(m, n);
      Result got{std::vector<std::uint32_t>(m.size(), 99), {}};
      std::vector<QuantiseHeapItem> scratch(m.size());
      got.error = cache.quantise(m, n, got.counts, scratch);
      ++calls;
      ASSERT_EQ(got.counts, want.counts) << "list " << i << " size " << n;
      ASSERT_EQ(got.error, want.error) << "list " << i << " size " << n;
      ASSERT_LE(cache.size(), QuantiseCache::kMaxEntries);
    }
  }
  EXPECT_EQ(cache.hits() + cache.misses(), calls);
  EXPECT_GT(cache.hits(), 0u);
  EXPECT_GT(cache.misses(), 0u);
}

// The same weights in another table size are another quantisation.
TEST(QuantiseCache, TableSizeIsPartOfTheKey) {
  QuantiseCache cache;
  const auto m = members({3, 1});
  std::vector<std::uint32_t> counts(2);
  std::vector<QuantiseHeapItem> scratch(2);
  (void)cache.quantise(m, 64, counts, scratch);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{48, 16}));
  (void)cache.quantise(m, 100, counts, scratch);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{75, 25}));
  (void)cache.quantise(m, 64, counts, scratch);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{48, 16}));
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 2u);
}

// Ports do not matter, order does: the counts follow the input order.
TEST(QuantiseCache, SameWeightsInAnotherOrderAreAnotherList) {
  QuantiseCache cache;
  std::vector<std::uint32_t> counts(2);
  std::vector<QuantiseHeapItem> scratch(2);
  (void)cache.quantise(members({3, 1}), 64, counts, scratch);
  (void)cache.quantise(members({1, 3}), 64, counts, scratch);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{16, 48}));
  const std::vector<WeightedMember> other_ports{{7, 1}, {9, 3}};
  (void)cache.quantise(other_ports, 64, counts, scratch);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{16, 48}));
  EXPECT_EQ(cache.hits(), 1u);
}

}  // namespace
}  // namespace arfabric::proto::fib
