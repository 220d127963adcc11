#include "proto/fib/quantise.h"

#include <algorithm>
#include <cassert>

#include "common/hash.h"

namespace arfabric::proto::fib {

RelativeError relative_error(std::uint64_t count, std::uint32_t weight,
                             std::uint64_t total_weight,
                             std::uint32_t table_size) {
  // |c/N - w/W| / (w/W) = |c W - N w| / (N w)
  const std::uint64_t target = std::uint64_t{table_size} * weight;
  const std::uint64_t have = count * total_weight;
  return {have > target ? have - target : target - have, target};
}

namespace {

struct Ctx {
  std::span<const WeightedMember> m;
  std::uint64_t total;
  std::uint32_t n;
  RelativeError err(std::uint32_t i, std::uint64_t c) const {
    return relative_error(c, m[i].weight, total, n);
  }
  std::uint64_t floor_t(std::uint32_t i) const {
    return std::uint64_t{n} * m[i].weight / total;
  }
  std::uint64_t ceil_t(std::uint32_t i) const {
    return (std::uint64_t{n} * m[i].weight + total - 1) / total;
  }
};

// Orders a std heap so that the cheapest step (ties: lowest member) is on
// top.
bool costlier(const QuantiseHeapItem& a, const QuantiseHeapItem& b) {
  if (b.cost < a.cost) return true;
  if (a.cost < b.cost) return false;
  return a.member > b.member;
}

// The k-th smallest step cost when each member i starts at start(i) and
// steps by `dir` (+1 / -1), a step from c costing ctx.err(i, c + dir).
// Steps that would leave [1, inf) are not available. Member step costs grow,
// so popping the cheapest k times from a heap of next steps finds it.
// counts is used as the running state and scratch as the heap.
template <typename Start>
RelativeError kth_step_cost(const Ctx& ctx, std::span<std::uint32_t> counts,
                            std::span<QuantiseHeapItem> heap_store,
                            std::uint64_t k, int dir, Start start) {
  auto cost = [&](std::uint32_t i) {
    return ctx.err(i, static_cast<std::uint64_t>(counts[i] + dir));
  };
  std::size_t heap_n = 0;
  for (std::uint32_t i = 0; i < ctx.m.size(); ++i) {
    if (ctx.m[i].weight == 0) continue;
    counts[i] = static_cast<std::uint32_t>(start(i));
    if (dir < 0 && counts[i] <= 1) continue;
    heap_store[heap_n++] = {cost(i), i};
  }
  std::span<QuantiseHeapItem> heap = heap_store.first(heap_n);
  std::make_heap(heap.begin(), heap.end(), costlier);
  RelativeError last{0, 1};
  for (std::uint64_t step = 0; step < k; ++step) {
    assert(!heap.empty());
    std::pop_heap(heap.begin(), heap.end(), costlier);
    QuantiseHeapItem& top = heap.back();
    last = top.cost;
    const std::uint32_t i = top.member;
    counts[i] = static_cast<std::uint32_t>(counts[i] + dir);
    if (dir < 0 && counts[i] <= 1) {
      heap = heap.first(heap.size() - 1);
    } else {
      top.cost = cost(i);
      std::push_heap(heap.begin(), heap.end(), costlier);
    }
  }
  return last;
}

RelativeError max_error(const Ctx& ctx, std::span<const std::uint32_t> c) {
  RelativeError worst{0, 1};
  for (std::uint32_t i = 0; i < ctx.m.size(); ++i)
    if (ctx.m[i].weight > 0) worst = std::max(worst, ctx.err(i, c[i]));
  return worst;
}

}  // namespace

RelativeError quantise(std::span<const WeightedMember> members,
                       std::uint32_t table_size,
                       std::span<std::uint32_t> counts,
                       std::span<QuantiseHeapItem> scratch) {
  assert(counts.size() == members.size());
  assert(scratch.size() >= members.size());
  std::uint64_t total = 0;
  std::uint32_t positive = 0;
  for (const WeightedMember& m : members) {
    total += m.weight;
    positive += m.weight > 0;
  }
  std::fill(counts.begin(), counts.end(), 0u);
  if (positive == 0) return {0, 1};
  const Ctx ctx{members, total, table_size};

  if (positive > table_size) {
    // One entry each for the table_size heaviest (stable by input order).
    std::uint32_t k = 0;
    for (std::uint32_t i = 0; i < members.size(); ++i)
      if (members[i].weight > 0) scratch[k++].member = i;
    std::stable_sort(scratch.begin(), scratch.begin() + k,
                     [&](const QuantiseHeapItem& a, const QuantiseHeapItem& b) {
                       return members[a.member].weight >
                              members[b.member].weight;
                     });
    for (std::uint32_t j = 0; j < table_size; ++j)
      counts[scratch[j].member] = 1;
    return max_error(ctx, counts);
  }

  // E_each: the best each member can do on its own.
  RelativeError target{0, 1};
  for (std::uint32_t i = 0; i < members.size(); ++i) {
    if (members[i].weight == 0) continue;
    const std::uint64_t fl = ctx.floor_t(i);
    RelativeError best = ctx.err(i, std::max<std::uint64_t>(1, ctx.ceil_t(i)));
    if (fl >= 1) best = std::min(best, ctx.err(i, fl));
    target = std::max(target, best);
  }
  // E_lo: entries that must be given back when every member sits at
  // max(1, ceil t_i).
  std::uint64_t sum_ceil = 0, sum_floor = 0;
  for (std::uint32_t i = 0; i < members.size(); ++i) {
    if (members[i].weight == 0) continue;
    sum_ceil += std::max<std::uint64_t>(1, ctx.ceil_t(i));
    sum_floor += ctx.floor_t(i);
  }
  if (sum_ceil > table_size)
    target = std::max(
        target, kth_step_cost(ctx, counts, scratch, sum_ceil - table_size, -1,
                              [&](std::uint32_t i) {
                                return std::max<std::uint64_t>(1,
                                                               ctx.ceil_t(i));
                              }));
  // E_hi: entries that must be added when every member sits at floor t_i.
  if (sum_floor < table_size)
    target = std::max(
        target, kth_step_cost(ctx, counts, scratch, table_size - sum_floor, +1,
                              [&](std::uint32_t i) { return ctx.floor_t(i); }));

  // Counts: lo_i(E*), then the cheapest next entries until the sum is N.
  std::uint64_t sum = 0;
  std::size_t heap_n = 0;
  for (std::uint32_t i = 0; i < members.size(); ++i) {
    if (members[i].weight == 0) {
      counts[i] = 0;
      continue;
    }
    std::uint64_t c = std::max<std::uint64_t>(1, ctx.ceil_t(i));
    while (c > 1 && !(target < ctx.err(i, c - 1))) --c;
    counts[i] = static_cast<std::uint32_t>(c);
    sum += c;
    scratch[heap_n++].member = i;
  }
  assert(sum <= table_size);
  auto next_cost = [&](std::uint32_t i) { return ctx.err(i, counts[i] + 1); };
  for (std::size_t j = 0; j < heap_n; ++j)
    scratch[j].cost = next_cost(scratch[j].member);
  std::span<QuantiseHeapItem> heap = scratch.first(heap_n);
  std::make_heap(heap.begin(), heap.end(), costlier);
  for (; sum < table_size; ++sum) {
    std::pop_heap(heap.begin(), heap.end(), costlier);
    QuantiseHeapItem& top = heap.back();
    assert(!(target < top.cost));
    ++counts[top.member];
    top.cost = next_cost(top.member);
    std::push_heap(heap.begin(), heap.end(), costlier);
  }
  return max_error(ctx, counts);
}

RelativeError QuantiseCache::quantise(std::span<const WeightedMember> members,
                                      std::uint32_t table_size,
                                      std::span<std::uint32_t> counts,
                                      std::span<QuantiseHeapItem> scratch) {
  std::uint64_t key = mix64(table_size + 0x9E3779B97F4A7C15ull);
  for (const WeightedMember& m : members) key = mix64(key ^ m.weight);
  auto same_weights = [&](const Entry& e) {
    return e.table_size == table_size &&
           std::ranges::equal(e.weights, members, {}, {},
                              &WeightedMember::weight);
  };
  if (auto it = entries_.find(key);
      it != entries_.end() && same_weights(it->second)) {
    ++hits_;
    std::ranges::copy(it->second.counts, counts.begin());
    return it->second.error;
  }
  ++misses_;
  const RelativeError error =
      fib::quantise(members, table_size, counts, scratch);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  Entry& e = entries_[key];
  e.table_size = table_size;
  e.weights.resize(members.size());
  std::ranges::transform(members, e.weights.begin(), &WeightedMember::weight);
  e.counts.assign(counts.begin(), counts.end());
  e.error = error;
  return error;
}

}  // namespace arfabric::proto::fib
