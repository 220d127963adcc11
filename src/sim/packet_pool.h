// Packets live in one pool and move by index: allocating and freeing a
// packet is a free-list pop/push, so a run allocates only when the number
// of packets in flight reaches a new high (amortised vector growth, in
// grow(); release() never allocates). The free list is a stack: a new
// packet usually takes the slot freed last, whose lines are in cache.
#pragma once

#include <cstddef>
#include <cstring>
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
  // A default Packet.
  PacketIndex allocate() {
    if (free_.empty()) return grow();
    const PacketIndex i = take_free();
    packets_[i] = Packet{};
    return i;
  }
  // For a transport packet: its first line (every field a data packet or
  // ACK uses) is a default Packet's, and its control fields (`control`,
  // `connection`) keep what the slot's last packet left there. Writing
  // them would cost each new packet a miss on a line no transport packet
  // reads: the slot's first line is usually in cache (see the top), its
  // second is not.
  PacketIndex allocate_transport() {
    if (free_.empty()) return grow();
    const PacketIndex i = take_free();
    // The whole first line, byte for byte: a field added to it later is
    // reset too.
    std::memcpy(static_cast<void*>(&packets_[i]), &kDefault,
                offsetof(Packet, control));
    return i;
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
  static constexpr Packet kDefault{};  // a transport packet

  // The slot on top of the free list (freed last).
  PacketIndex take_free() {
    ++in_use_;
    const PacketIndex i = free_.back();
    free_.pop_back();
    return i;
  }
  // A new, default slot.
  PacketIndex grow() {
    ++in_use_;
    packets_.emplace_back();
    // Room for every packet on the free list, so release() never grows it.
    if (free_.capacity() < packets_.capacity()) {
      free_.reserve(packets_.capacity());
    }
    return static_cast<PacketIndex>(packets_.size() - 1);
  }

  std::vector<Packet, HugePageAllocator<Packet>> packets_;
  std::vector<PacketIndex> free_;
  std::size_t in_use_ = 0;
};

}  // namespace arfabric::sim
