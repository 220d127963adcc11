// Flowlet switching (issue 4, "flowlets (idle gap)"): a flow keeps its
// member-table entry until it has been idle for more than the gap, then
// starts a new flowlet on a freshly picked entry.
//
// A fixed, pre-allocated, direct-mapped table indexed by the low bits of the
// flow hash; a slot remembers (hash, destination, entry index, port, last
// packet time, flowlet sequence). A different flow landing in an occupied
// slot evicts it (counted); the evicted flow starts a new flowlet when it
// next arrives. A flowlet also restarts early when its entry no longer
// names its port (the member lost entries in a rebuild): the resilient
// member table keeps unchanged members' entries, so flowlets on unchanged
// members survive rebuilds. The k-th flowlet of a flow uses entry
// mix64(hash + k * golden) % N: deterministic, and different from the last.
#pragma once

#include <cstdint>
#include <vector>

#include "common/units.h"
#include "proto/fib/member_table.h"

namespace arfabric::proto::fib {

struct FlowletCounters {
  std::uint64_t flowlets_started = 0;    // includes first packets of flows
  std::uint64_t gap_expired = 0;         // idle > gap: a new flowlet
  std::uint64_t repicked_on_change = 0;  // entry moved in a rebuild
  std::uint64_t evictions = 0;           // slot taken by another flow
};

class FlowletTable {
 public:
  // Precondition: slots is a power of two (FibConfig validation).
  FlowletTable(std::uint32_t slots, Time gap);

  // The port for this packet. Precondition: !table.empty().
  // Allocation-free, O(1).
  PortId select(NodeId dest, std::uint64_t hash, Time now,
                const MemberTable& table);

  const FlowletCounters& counters() const { return counters_; }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    Time last_seen;
    NodeId dest = 0;
    std::uint32_t sequence = 0;
    std::uint16_t index = 0;
    PortId port = 0;
    bool valid = false;
  };
  std::vector<Slot> slots_;
  std::uint64_t mask_;
  Time gap_;
  FlowletCounters counters_;
};

}  // namespace arfabric::proto::fib
