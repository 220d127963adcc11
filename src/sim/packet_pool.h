// Packets live in one pool and move by index: allocating and freeing a
// packet is a free-list pop/push, so a run allocates only when the number
// of packets in flight reaches a new high (amortised vector growth, in
// allocate(); release() never allocates).
#pragma once

#include <vector>

#include "sim/huge_pages.h"
#include "sim/packet.h"

namespace arfabric::sim {

class PacketPool {
 public:
  void reserve(std::size_t n) {
    packets_.reserve(n);
    free_.reserve(n);
  }
  PacketIndex allocate() {
    ++in_use_;
    if (!free_.empty()) {
      const PacketIndex i = free_.back();
      free_.pop_back();
      packets_[i] = Packet{};
      return i;
    }
    packets_.emplace_back();
    // Room for every packet on the free list, so release() never grows it.
    if (free_.capacity() < packets_.capacity()) {
      free_.reserve(packets_.capacity());
    }
    return static_cast<PacketIndex>(packets_.size() - 1);
  }
  void release(PacketIndex i) {
    --in_use_;
    free_.push_back(i);
  }
  Packet& operator[](PacketIndex i) { return packets_[i]; }
  const Packet& operator[](PacketIndex i) const { return packets_[i]; }
  std::size_t in_use() const { return in_use_; }
  std::size_t capacity() const { return packets_.size(); }

 private:
  std::vector<Packet, HugePageAllocator<Packet>> packets_;
  std::vector<PacketIndex> free_;
  std::size_t in_use_ = 0;
};

}  // namespace arfabric::sim
