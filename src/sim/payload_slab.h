// The encoded bytes of control packets in flight (Packet::control is a slot
// index): slots and their buffers are reused, so once the number of packets
// in flight stops growing, storing a frame allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"

namespace arfabric::sim {

class PayloadSlab {
 public:
  // Copies `bytes` into a free slot and returns its index.
  std::uint32_t store(ByteSpan bytes) {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    slots_[slot].assign(bytes.begin(), bytes.end());
    return slot;
  }
  // Precondition: `slot` was returned by store() and not released since.
  ByteSpan at(std::uint32_t slot) const { return slots_[slot]; }
  void release(std::uint32_t slot) { free_.push_back(slot); }
  std::size_t in_use() const { return slots_.size() - free_.size(); }

 private:
  std::vector<Bytes> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace arfabric::sim
