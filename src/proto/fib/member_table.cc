#include "proto/fib/member_table.h"

#include <algorithm>
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
    : size_(size), stride_(golden_stride(size)), entries_(size, 0) {
  free_.reserve(size);
}

std::uint32_t MemberTable::count_of(PortId port) const {
  auto it =
      std::lower_bound(members_.begin(), members_.end(), port,
                       [](const Slot& s, PortId p) { return s.port < p; });
  return it != members_.end() && it->port == port ? it->count : 0;
}

std::uint32_t MemberTable::assign(std::span<const WeightedMember> members) {
  sorted_.clear();
  for (const WeightedMember& m : members)
    if (m.weight > 0) sorted_.push_back(m);
  std::sort(sorted_.begin(), sorted_.end(),
            [](const WeightedMember& a, const WeightedMember& b) {
              return a.port < b.port;
            });
  const std::size_t m = sorted_.size();
  counts_.resize(m);
  heap_.resize(m);
  error_ = quantise(sorted_, size_, counts_, heap_);
  members_.clear();
  for (std::size_t i = 0; i < m; ++i)
    if (counts_[i] > 0) members_.push_back({sorted_[i].port, counts_[i]});
  if (members_.empty()) return 0;

  if (!filled_) {
    filled_ = true;
    std::uint32_t k = 0;
    for (const Slot& s : members_)
      for (std::uint32_t j = 0; j < s.count; ++j, ++k)
        entries_[static_cast<std::uint64_t>(k) * stride_ % size_] = s.port;
    return size_;
  }

  // Keep each member's first `count` entries (by index); free the rest.
  remaining_.resize(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i)
    remaining_[i] = members_[i].count;
  free_.clear();
  for (std::uint32_t slot = 0; slot < size_; ++slot) {
    const PortId p = entries_[slot];
    auto it =
        std::lower_bound(members_.begin(), members_.end(), p,
                         [](const Slot& s, PortId q) { return s.port < q; });
    const std::size_t i = static_cast<std::size_t>(it - members_.begin());
    if (it != members_.end() && it->port == p && remaining_[i] > 0) {
      --remaining_[i];
    } else {
      free_.push_back(slot);
    }
  }
  // Hand the freed slots round-robin to the members still short of entries,
  // so a growing member's new entries interleave with other growers'.
  std::size_t i = 0;
  for (const std::uint32_t slot : free_) {
    while (remaining_[i] == 0) i = (i + 1) % members_.size();
    entries_[slot] = members_[i].port;
    --remaining_[i];
    i = (i + 1) % members_.size();
  }
  return static_cast<std::uint32_t>(free_.size());
}

}  // namespace arfabric::proto::fib
