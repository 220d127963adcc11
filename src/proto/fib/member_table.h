// A hardware-style WCMP member table: N entries, each naming a port; a
// packet uses entry (flow hash % N). Weights become entry counts through
// quantise() (minimum maximum relative error, see quantise.h).
//
// Resilient update (issue 4, "changing one member moves as few entries as
// possible"): assign() keeps every entry whose port still has room under its
// new count, so only members whose count changes lose or gain entries; an
// entry moves only from a member whose count fell (or that left) to one
// whose count rose. The number of moved entries is therefore exactly
// sum over ports of max(0, old_count - new_count), the minimum possible.
// A member whose count shrinks gives up its highest-index entries.
//
// The first fill (from an empty table) spreads each member's entries over
// the table by writing the k-th entry of the concatenated member runs to
// slot (k * stride) % N, stride ~ 0.618 N and coprime with N, so that
// consecutive slots (per-packet spraying walks them) mostly differ.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "proto/fib/quantise.h"

namespace arfabric::proto::fib {

class MemberTable {
 public:
  // Precondition: kMinTableSize <= size <= kMaxTableSize (FibConfig
  // validation); allocates everything the table will ever need except the
  // per-assign member list, whose capacity grows with the largest group.
  explicit MemberTable(std::uint32_t size);

  // What assign() works in, kept apart from the table so that a table
  // holds only its entries and members: the Fibs sharing a
  // MemberTablePool keep one Scratch there for every table they build
  // (and copies of a table, which a Fib makes for each resilient update,
  // copy no scratch). Reusing one saves assign() its allocations once it
  // has seen the largest member set, and quantise() for weights it has
  // quantised before.
  struct Scratch {
    std::vector<WeightedMember> sorted;
    std::vector<QuantiseHeapItem> heap;
    std::vector<std::uint32_t> counts, freed, growers;
    // By port id, up to the largest member port seen: what a port may
    // still keep during a resilient pass, zero between passes. An array,
    // so that the pass costs one load per entry.
    std::vector<std::uint32_t> remaining;
    QuantiseCache quantised;  // the counts of weight lists seen before
  };

  // Replaces the member set (ports unique, weights <= kMaxWeight; the Fib
  // checks both). Members with weight 0 are ignored. Returns the number of
  // entries whose port changed (all N on the first non-empty fill). An empty
  // or all-zero member set makes the table empty and leaves the entries as
  // they were, so a later refill moves as little as possible.
  std::uint32_t assign(std::span<const WeightedMember> members,
                       Scratch& scratch);
  // The same with a scratch of its own (allocates on every call).
  std::uint32_t assign(std::span<const WeightedMember> members) {
    Scratch scratch;
    return assign(members, scratch);
  }

  bool empty() const { return members_.empty(); }
  std::uint32_t size() const { return size_; }
  // Precondition: !empty() and index < size().
  PortId at(std::uint32_t index) const { return entries_[index]; }
  // The entry a hash picks, hash % size(): a mask when the size is a power
  // of two (the usual hardware sizes), since a 64-bit division costs tens
  // of cycles on the per-packet path.
  std::uint32_t index_for(std::uint64_t hash) const {
    return static_cast<std::uint32_t>(mask_ != 0 ? hash & mask_ : hash % size_);
  }
  std::span<const PortId> entries() const { return entries_; }
  // index_for()'s mask: size() - 1 for a power-of-two size, else 0.
  std::uint32_t mask() const { return mask_; }
  // Entries held by `port` (0 if it is not a member).
  std::uint32_t count_of(PortId port) const;
  // The quantisation error of the current member set.
  RelativeError max_relative_error() const { return error_; }
  std::uint32_t stride() const { return stride_; }

 private:
  struct Slot {
    PortId port;
    std::uint32_t count;
  };
  std::uint32_t size_;
  std::uint32_t mask_;  // size_ - 1 if a power of two, else 0
  std::uint32_t stride_;
  bool filled_ = false;  // entries_ holds some earlier fill
  std::vector<PortId> entries_;
  std::vector<Slot> members_;  // sorted by port, count > 0
  RelativeError error_{0, 1};
};

}  // namespace arfabric::proto::fib
