// One direction of a cable with its egress queue, modelled analytically.
//
// When a packet is enqueued its whole future on this link is known: it
// starts transmitting when the link is free (busy_until), finishes after
// its serialisation time at the current rate, and arrives after the
// propagation delay. So the link keeps one FIFO of packets in flight
// (queued, being sent or propagating) with their finish times, and a single
// pending event in the EventQueue: the arrival of its head. The queue
// occupancy that drop-tail and ECN marking need is the bytes whose
// transmission has not finished yet, found by advancing a second cursor
// over the same FIFO.
//
// Control packets (BGP, LSN, ARN) have strict priority over data, like a
// switch's high-priority queue: one never waits behind queued data, only
// behind the packet being transmitted and earlier control packets. It is
// inserted into the FIFO there and the finish times of the data behind it
// move by its serialisation time: O(queue) per control packet, which are
// few. Control packets are never dropped by drop-tail.
//
// Approximations (docs/ARCHITECTURE.md): a rate change applies to packets
// enqueued after it; a link going down loses everything still in flight
// on it, queued or on the wire.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/units.h"
#include "sim/packet.h"

namespace arfabric::sim {

// The first three are updated by every packet, ecn_marked by marked ones,
// the drops rarely (Link keeps them in that order, the first ones on its
// hot cache lines).
struct LinkCounters {
  std::uint64_t packets = 0;  // accepted onto the link
  std::uint64_t bytes = 0;
  Time busy{};  // total serialisation time
  std::uint64_t ecn_marked = 0;
  std::uint64_t dropped_overflow = 0;  // drop-tail
  std::uint64_t dropped_down = 0;   // sent onto, or in flight on, a dead link
  std::uint64_t dropped_error = 0;  // bit errors (drop_probability)
};

enum class EnqueueResult : std::uint8_t {
  accepted,
  dropped_overflow,
  dropped_down,
};

// 64-byte aligned, with every field a packet's hop reads or writes in the
// first two cache lines, and the first two FIFO entries in the third: a
// large fabric's links do not fit in cache, and a hop touches two links.
class alignas(64) Link {
 public:
  struct Config {
    NodeIndex from = 0, to = 0;
    std::uint16_t to_port = 0;  // the port it arrives on at `to`
    BitsPerSecond rate = 0;
    Time delay{};
    std::uint32_t buffer_bytes = 0;         // 0: unlimited
    std::uint32_t ecn_threshold_bytes = 0;  // 0: no marking
  };

  explicit Link(const Config& config);

  const Config& config() const { return config_; }
  bool up() const { return up_; }
  BitsPerSecond rate() const { return config_.rate; }
  std::uint32_t epoch() const { return epoch_; }

  // Puts `packet` (wire_bytes set) on the link at `now`: drop-tail against
  // the buffer, ECN mark above the threshold (transport packets that are
  // ECN-capable), then schedules its finish and arrival times. Returns
  // whether it was accepted and, through `first_arrival`, whether the FIFO
  // was empty (the caller then schedules the link's event at `arrival`).
  EnqueueResult enqueue(PacketIndex index, Packet& packet, Time now,
                        bool& first_arrival, Time& arrival);

  // The head packet arrives now: removes and returns it; `next_arrival` is
  // the new head's arrival time, or Time::max() when the FIFO is empty.
  PacketIndex pop_arrival(Time& next_arrival);
  Time head_arrival() const;
  // Start loading the link: its first two lines, which every hop over it
  // reads (pop_arrival, enqueue), or all three (enqueue also writes a FIFO
  // entry, for most links in the third). Inlined: GCC drops calls to a
  // function whose only effect is a prefetch.
  [[gnu::always_inline]] void prefetch_hop_fields() const {
    const char* self = reinterpret_cast<const char*>(this);
    __builtin_prefetch(self);
    __builtin_prefetch(self + 64);
  }
  [[gnu::always_inline]] void prefetch() const {
    prefetch_hop_fields();
    __builtin_prefetch(reinterpret_cast<const char*>(this) + 128);
  }
  // Starts loading the FIFO's head entry, which pop_arrival() reads.
  void prefetch_head() const { __builtin_prefetch(&at(head_)); }
  // The packet that arrives next; kNoPacket when the FIFO is empty.
  PacketIndex head_packet() const {
    return count_ == 0 ? kNoPacket : at(head_).packet;
  }

  // Bytes queued or being transmitted at `now`.
  std::uint64_t queued_bytes(Time now);

  // Link down: every packet in flight is lost (returned for counting and
  // release) and the epoch changes so the pending event is ignored.
  void set_down(Time now, std::vector<PacketIndex>& lost);
  void set_up();
  void set_rate(BitsPerSecond rate);

  const LinkCounters& counters() const { return counters_; }
  LinkCounters& counters() { return counters_; }
  std::size_t in_flight() const { return count_; }

 private:
  struct Entry {
    PacketIndex packet;
    std::uint32_t bytes : 31;
    std::uint32_t control : 1;  // strict priority (see the top)
    Time done;                  // last bit sent
  };
  static constexpr std::size_t kInlineEntries = 2;
  // The FIFO's storage: the heap ring once it has grown, else the two
  // entries in place.
  Entry* ring() { return ring_ ? ring_.get() : inline_ring_; }
  const Entry* ring() const { return ring_ ? ring_.get() : inline_ring_; }
  Entry& at(std::size_t i) { return ring()[i & ring_mask_]; }
  const Entry& at(std::size_t i) const { return ring()[i & ring_mask_]; }
  void grow();
  void advance_queue(Time now);
  // Where a control packet goes: after the packet being transmitted and
  // the control packets already waiting behind it.
  std::size_t priority_slot() const;
  void insert_at(std::size_t slot, PacketIndex index, std::uint32_t bytes,
                 Time serialise);
  // transmission_time(bytes, rate), by multiplication where the rate
  // allows (exact_picoseconds_per_byte), else the division.
  Time serialisation(std::uint32_t bytes) const {
    if (ps_per_byte_ != 0) {
      return Time::from_ps(static_cast<std::int64_t>(bytes * ps_per_byte_));
    }
    return transmission_time(bytes, config_.rate);
  }

  Config config_;
  bool up_ = true;
  std::uint32_t epoch_ = 0;
  Time busy_until_{};
  // The FIFO: a ring whose size is a power of two (ring_mask_ + 1), in
  // inline_ring_ until it needs more than two entries, then on the heap.
  std::unique_ptr<Entry[]> ring_;
  std::uint32_t ring_mask_ = kInlineEntries - 1;
  std::uint32_t count_ = 0;  // entries from head_
  std::size_t head_ = 0;     // next to arrive
  std::size_t queue_ = 0;    // next to finish transmitting (>= head_)
  std::uint64_t queued_bytes_ = 0;
  // exact_picoseconds_per_byte(rate): 0 when serialisation divides.
  std::uint64_t ps_per_byte_ = 0;
  LinkCounters counters_;
  // Last: in the third cache line, beside the drop counters, where the
  // alignment leaves room. Most links of a large fabric never hold more
  // than two packets, so they need no allocation of their own, and their
  // FIFO shares their page.
  Entry inline_ring_[kInlineEntries]{};
};
static_assert(sizeof(Link) == 192, "three cache lines, the FIFO in the last");

}  // namespace arfabric::sim
