#include "proto/fib/member_table.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace arfabric::proto::fib {

namespace {

std::uint32_t golden_stride(std::uint32_t n) {
  // 0.6180339887 * n, then the next value coprime with n.
  std::uint32_t s =
      static_cast<std::uint32_t>((std::uint64_t{n} * 40503u) >> 16);
  if (s == 0) s = 1;
  while (std::gcd(s, n) != 1) ++s;
  return s;
}

constexpr std::uint32_t kNoIndex = ~0u;

}  // namespace

std::uint32_t MemberTable::member_index(const Scratch& scratch,
                                        PortId port) const {
  const std::uint32_t mask =
      static_cast<std::uint32_t>(scratch.index.size() - 1);
  for (std::uint32_t h = (port * 0x9E3779B1u) & mask;; h = (h + 1) & mask) {
    const std::uint32_t i = scratch.index[h];
    if (i == kNoIndex || members_[i].port == port) return i;
  }
}

MemberTable::MemberTable(std::uint32_t size)
    : size_(size),
      mask_(std::has_single_bit(size) ? size - 1 : 0),
      stride_(golden_stride(size)),
      entries_(size, 0) {}

std::uint32_t MemberTable::count_of(PortId port) const {
  auto it =
      std::lower_bound(members_.begin(), members_.end(), port,
                       [](const Slot& s, PortId p) { return s.port < p; });
  return it != members_.end() && it->port == port ? it->count : 0;
}

std::uint32_t MemberTable::assign(std::span<const WeightedMember> members,
                                  Scratch& scratch) {
  scratch.sorted.clear();
  for (const WeightedMember& m : members)
    if (m.weight > 0) scratch.sorted.push_back(m);
  std::sort(scratch.sorted.begin(), scratch.sorted.end(),
            [](const WeightedMember& a, const WeightedMember& b) {
              return a.port < b.port;
            });
  const std::size_t m = scratch.sorted.size();
  scratch.counts.resize(m);
  scratch.heap.resize(m);
  error_ = scratch.quantised.quantise(scratch.sorted, size_, scratch.counts,
                                      scratch.heap);
  members_.clear();
  for (std::size_t i = 0; i < m; ++i)
    if (scratch.counts[i] > 0)
      members_.push_back({scratch.sorted[i].port, scratch.counts[i]});
  if (members_.empty()) return 0;

  if (!filled_) {
    filled_ = true;
    std::uint32_t k = 0;
    for (const Slot& s : members_)
      for (std::uint32_t j = 0; j < s.count; ++j, ++k)
        entries_[static_cast<std::uint64_t>(k) * stride_ % size_] = s.port;
    return size_;
  }

  // Index the members by port (linear probing, at most half full).
  std::uint32_t cap = 1;
  while (cap < 2 * members_.size()) cap <<= 1;
  scratch.index.assign(cap, kNoIndex);
  for (std::uint32_t i = 0; i < members_.size(); ++i) {
    std::uint32_t h = (members_[i].port * 0x9E3779B1u) & (cap - 1);
    while (scratch.index[h] != kNoIndex) h = (h + 1) & (cap - 1);
    scratch.index[h] = i;
  }
  // Keep each member's first `count` entries (by index); free the rest.
  scratch.remaining.resize(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i)
    scratch.remaining[i] = members_[i].count;
  scratch.freed.clear();
  for (std::uint32_t slot = 0; slot < size_; ++slot) {
    const std::uint32_t i = member_index(scratch, entries_[slot]);
    if (i != kNoIndex && scratch.remaining[i] > 0) {
      --scratch.remaining[i];
    } else {
      scratch.freed.push_back(slot);
    }
  }
  // Hand the freed slots round-robin to the members still short of entries,
  // so a growing member's new entries interleave with other growers'.
  scratch.growers.clear();
  for (std::uint32_t i = 0; i < members_.size(); ++i)
    if (scratch.remaining[i] > 0) scratch.growers.push_back(i);
  std::size_t g = 0;
  for (const std::uint32_t slot : scratch.freed) {
    if (g >= scratch.growers.size()) g = 0;
    const std::uint32_t i = scratch.growers[g];
    entries_[slot] = members_[i].port;
    if (--scratch.remaining[i] == 0) {
      scratch.growers.erase(scratch.growers.begin() +
                            static_cast<std::ptrdiff_t>(g));
    } else {
      ++g;
    }
  }
  return static_cast<std::uint32_t>(scratch.freed.size());
}

}  // namespace arfabric::proto::fib
