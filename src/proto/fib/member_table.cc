#include "proto/fib/member_table.h"

#include <algorithm>
#include <bit>
#include <cassert>
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

}  // namespace

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

  // What each port may keep of the entries it holds, by port id: its new
  // count (0 for a port that left). Every entry is handed out below, so
  // the array is all zero again when assign() returns.
  std::vector<std::uint32_t>& remaining = scratch.remaining;
  if (remaining.size() <= members_.back().port)
    remaining.resize(std::size_t{members_.back().port} + 1, 0);
  for (const Slot& s : members_) remaining[s.port] = s.count;
  // Keep each member's first `count` entries (by index); free the rest.
  // Through local pointers into storage sized first: with push_back the
  // compiler reloaded both vectors at every entry of the pass. Only the
  // first freed_count entries of scratch.freed are this call's.
  if (scratch.freed.size() < size_) scratch.freed.resize(size_);
  std::uint32_t* const freed = scratch.freed.data();
  std::uint32_t* const keep = remaining.data();
  const std::size_t ports = remaining.size();
  std::uint32_t freed_count = 0;
  for (std::uint32_t slot = 0; slot < size_; ++slot) {
    const PortId port = entries_[slot];
    if (port < ports && keep[port] > 0) {
      --keep[port];
    } else {
      freed[freed_count++] = slot;
    }
  }
  // Hand the freed slots round-robin to the members still short of entries,
  // so a growing member's new entries interleave with other growers'.
  scratch.growers.clear();
  for (std::uint32_t i = 0; i < members_.size(); ++i)
    if (remaining[members_[i].port] > 0) scratch.growers.push_back(i);
  std::size_t g = 0;
  for (const std::uint32_t slot : std::span(freed, freed_count)) {
    if (g >= scratch.growers.size()) g = 0;
    const std::uint32_t i = scratch.growers[g];
    entries_[slot] = members_[i].port;
    if (--remaining[members_[i].port] == 0) {
      scratch.growers.erase(scratch.growers.begin() +
                            static_cast<std::ptrdiff_t>(g));
    } else {
      ++g;
    }
  }
  assert(std::ranges::all_of(
      members_, [&](const Slot& m) { return remaining[m.port] == 0; }));
  return freed_count;
}

}  // namespace arfabric::proto::fib
