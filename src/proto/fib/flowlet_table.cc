#include "proto/fib/flowlet_table.h"

#include "proto/fib/flow_hash.h"

namespace arfabric::proto::fib {

FlowletTable::FlowletTable(std::uint32_t slots, Time gap)
    : slots_(slots), mask_(slots - 1), gap_(gap) {}

PortId FlowletTable::select(NodeId dest, std::uint64_t hash, Time now,
                            const MemberTable& table) {
  Slot& s = slots_[hash & mask_];
  if (s.valid && s.hash == hash && s.dest == dest) {
    const bool idle = now - s.last_seen > gap_;
    if (!idle && s.index < table.size() && table.at(s.index) == s.port) {
      s.last_seen = now;
      return s.port;
    }
    ++(idle ? counters_.gap_expired : counters_.repicked_on_change);
    ++s.sequence;
  } else {
    counters_.evictions += s.valid;
    s.hash = hash;
    s.dest = dest;
    s.sequence = 0;
    s.valid = true;
  }
  ++counters_.flowlets_started;
  s.index = static_cast<std::uint16_t>(table.index_for(
      mix64(hash + std::uint64_t{s.sequence} * 0x9E3779B97F4A7C15ull)));
  s.port = table.at(s.index);
  s.last_seen = now;
  return s.port;
}

}  // namespace arfabric::proto::fib
