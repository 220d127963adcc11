// WCMP quantisation: how many of a member table's N entries each weighted
// member gets, as hardware realises weighted ECMP (issue 4, "WCMP realised
// as a hardware-style member table").
//
// Goal: minimise the maximum relative error over members with w > 0,
//   err_i(c) = |c/N - w_i/W| / (w_i/W) = |c - t_i| / t_i,  t_i = N w_i / W,
// subject to sum c_i = N and c_i >= 1 (every member with w > 0 keeps at
// least one entry) when the number of such members M <= N.
//
// Algorithm (exact; all comparisons are exact integer cross-multiplications,
// no floating point). An error bound E is achievable iff each member's
// interval [lo_i(E), hi_i(E)] = {c >= 1 : err_i(c) <= E} is non-empty and
// sum lo_i(E) <= N <= sum hi_i(E): then counts inside the intervals summing
// to N exist. Each of the three conditions is monotone in E, so the optimum
//   E* = max(E_each, E_lo, E_hi), where
//   E_each = max_i min_{c>=1} err_i(c)              (each member alone),
//   E_lo   = D-th smallest "decrement cost" err_i(c-1), starting from
//            c_i = max(1, ceil t_i), D = sum c_i - N (0 if D <= 0),
//   E_hi   = U-th smallest "increment cost" err_i(c+1), starting from
//            c_i = floor t_i, U = N - sum c_i.
// Per member the decrement (increment) costs grow with each step, so a
// min-heap greedy yields the D-th (U-th) smallest. Counts are then
// lo_i(E*) plus, while the sum is short of N, one entry at a time to the
// member whose next entry has the smallest error (all <= E*). Cost
// O((M + N) log M). tests/proto/fib/quantise_test.cc checks E* against a
// brute force over all allocations.
//
// Bound: if every t_i >= 1 (N w_min >= W), E* < 1/t_min = W / (N w_min),
// because largest-remainder rounding has |c_i - t_i| < 1 and c_i >= 1.
//
// M > N (more members than entries): the N heaviest members (ties: earlier
// in the input) get one entry each, the others none (their error is 1).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "proto/fib/forwarding_types.h"

namespace arfabric::proto::fib {

struct WeightedMember {
  PortId port = 0;
  std::uint32_t weight = 0;  // 0: not a member; at most kMaxWeight
  bool operator==(const WeightedMember&) const = default;
};

// An exact non-negative ratio; compares by cross-multiplication.
struct RelativeError {
  std::uint64_t num = 0;
  std::uint64_t den = 1;
  double value() const {
    return static_cast<double>(num) / static_cast<double>(den);
  }
  friend bool operator<(const RelativeError& a, const RelativeError& b) {
    return static_cast<unsigned __int128>(a.num) * b.den <
           static_cast<unsigned __int128>(b.num) * a.den;
  }
  friend bool operator==(const RelativeError& a, const RelativeError& b) {
    return static_cast<unsigned __int128>(a.num) * b.den ==
           static_cast<unsigned __int128>(b.num) * a.den;
  }
};

// Scratch for quantise()'s heaps: a member and the cost of its next step,
// cached so that heap comparisons do not recompute it.
struct QuantiseHeapItem {
  RelativeError cost;
  std::uint32_t member = 0;
};

// err_i(count) for a member of `weight` out of `total_weight` in a table of
// `table_size` entries. Precondition: weight > 0.
RelativeError relative_error(std::uint64_t count, std::uint32_t weight,
                             std::uint64_t total_weight,
                             std::uint32_t table_size);

// Writes counts[i] for members[i] (0 for weight 0) and returns the maximum
// relative error over members with weight > 0 (0 if there are none, and then
// every count is 0). Preconditions (checked by the callers that validate
// input): counts.size() == members.size(), table_size >= 1, weights <=
// kMaxWeight, members.size() <= 65536. Uses the caller's scratch
// (`scratch.size() >= members.size()`) so that it does not allocate.
RelativeError quantise(std::span<const WeightedMember> members,
                       std::uint32_t table_size,
                       std::span<std::uint32_t> counts,
                       std::span<QuantiseHeapItem> scratch);

// quantise() with a memory of its results, for a caller that quantises
// the same weights over and over: a simulated fabric's switches under
// congestion notifications rebuild tens of thousands of tables from a few
// hundred distinct weight lists (one port's level raised, then lowered
// again). The counts depend only on the weights in input order and the
// table size, so a remembered result is exactly what quantise() returns.
// Holds at most kMaxEntries results and forgets all of them when full.
class QuantiseCache {
 public:
  static constexpr std::size_t kMaxEntries = 1024;

  // What quantise(members, table_size, counts, scratch) writes and returns,
  // under the same preconditions.
  RelativeError quantise(std::span<const WeightedMember> members,
                         std::uint32_t table_size,
                         std::span<std::uint32_t> counts,
                         std::span<QuantiseHeapItem> scratch);
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::uint32_t table_size = 0;
    std::vector<std::uint32_t> weights;
    std::vector<std::uint32_t> counts;
    RelativeError error;
  };
  // By a hash of the weights and table size; a collision replaces. Never
  // iterated: an absl map's order differs from run to run.
  absl::flat_hash_map<std::uint64_t, Entry> entries_;
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
};

}  // namespace arfabric::proto::fib
