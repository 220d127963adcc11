// One direction of a cable with its egress queue, modelled analytically.
//
// When a packet is enqueued its whole future on this link is known: it
// starts transmitting when the link is free (busy_until), finishes after
// its serialisation time at the current rate, and arrives after the
// propagation delay. So the link keeps one FIFO of packets in flight
// (queued, being sent or propagating) with their arrival times, and a single
// pending event in the EventQueue: the arrival of its head. The queue
// occupancy that drop-tail and ECN marking need is the bytes not yet
// transmitted, the packet on the wire counting only its unsent part, as
// a buffer frees a packet's cells while it sends them: the link's
// remaining busy time at its rate, computed without reading the FIFO.
//
// Control packets (BGP, LSN, ARN) have strict priority over data, like a
// switch's high-priority queue: one never waits behind queued data, only
// behind the packet being transmitted and earlier control packets. It is
// inserted into the FIFO there and the finish times of the data behind it
// move by its serialisation time: O(queue) per control packet, which are
// few. Control packets are never dropped by drop-tail.
//
// A rate change (lane loss) applies at once to every byte not yet sent:
// the packet on the wire finishes its remainder at the new rate and the
// packets queued behind it follow. Approximation (docs/ARCHITECTURE.md): a
// link going down loses everything still in flight on it, queued or on
// the wire.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/units.h"
#include "sim/packet.h"

namespace arfabric::sim {

// What a link has carried and dropped.
struct LinkCounters {
  std::uint64_t packets = 0;  // accepted onto the link
  std::uint64_t bytes = 0;
  std::uint64_t control_bytes = 0;  // of `bytes`: control packets
  // Total serialisation time of the packets accepted, at the rates they
  // are sent at: a rate change re-times the bytes not yet sent, so it can
  // lower this (a faster rate), not only raise it.
  Time busy{};
  std::uint64_t ecn_marked = 0;
  std::uint64_t dropped_overflow = 0;  // drop-tail
  std::uint64_t dropped_down = 0;   // sent onto, or in flight on, a dead link
  std::uint64_t dropped_error = 0;  // bit errors (drop_probability)
  bool operator==(const LinkCounters&) const = default;
};

enum class EnqueueResult : std::uint8_t {
  accepted,
  dropped_overflow,
  dropped_down,
};

// 64-byte aligned, three cache lines. The first is everything an
// arrival reads and writes: the epoch its event is checked against, the
// FIFO's bookkeeping and its two entries in place (which hold arrival
// times, so the arrival needs no delay), the node and port it arrives at.
// Enqueueing reads it too, and the second line: the timing, the limits
// and the counters every packet updates. The third holds what hops rarely
// touch (ECN and drop counters). A large fabric's links do not fit in
// cache, and a hop touches two links: one line of the link it arrives
// over and two of the link it leaves by.
class alignas(64) Link {
 public:
  struct Config {
    NodeIndex from = 0, to = 0;
    std::uint16_t to_port = 0;  // the port it arrives on at `to`
    BitsPerSecond rate = 0;
    Time delay{};
    std::uint32_t buffer_bytes = 0;         // 0: unlimited
    std::uint32_t ecn_threshold_bytes = 0;  // 0: no marking
    // Whether `from` / `to` is a host: a hop reads it from the link
    // instead of from a per-node table, one line fewer.
    bool from_host = false, to_host = false;
  };

  explicit Link(const Config& config);

  Config config() const {
    return Config{from_,
                  to_,
                  to_port_,
                  rate_,
                  delay_,
                  buffer_bytes_,
                  ecn_threshold_bytes_,
                  from_host_ != 0,
                  to_host_ != 0};
  }
  NodeIndex from() const { return from_; }
  NodeIndex to() const { return to_; }
  bool from_host() const { return from_host_ != 0; }
  bool to_host() const { return to_host_ != 0; }
  std::uint16_t to_port() const { return to_port_; }
  std::uint32_t buffer_bytes() const { return buffer_bytes_; }
  bool up() const { return up_ != 0; }
  BitsPerSecond rate() const { return rate_; }
  std::uint32_t epoch() const { return epoch_; }

  // Puts `packet` (wire_bytes set) on the link at `now`: drop-tail against
  // the buffer, ECN mark above the threshold (transport packets that are
  // ECN-capable), then schedules its finish and arrival times. Returns
  // whether it was accepted and, through `first_arrival`, whether the FIFO
  // was empty (the caller then schedules the link's event at `arrival`).
  EnqueueResult enqueue(PacketIndex index, Packet& packet, Time now,
                        bool& first_arrival, Time& arrival);

  // The head packet, `head` (the caller knows it: head_packet() when the
  // link's pending event was pushed, and the head does not change while
  // it waits -- a control packet is never put before the packet being
  // sent -- without a new epoch), arrives now: removes it and returns
  // the new head's arrival time, or Time::max() when the FIFO is empty.
  // So the FIFO's storage is read only for a packet queued behind the
  // head: on the heap, that is a line from memory in a large fabric.
  Time pop_arrival(PacketIndex head);
  Time head_arrival() const;
  // Starts loading the two lines enqueue() reads and writes. Inlined: GCC
  // drops calls to a function whose only effect is a prefetch.
  [[gnu::always_inline]] void prefetch() const {
    const char* self = reinterpret_cast<const char*>(this);
    __builtin_prefetch(self);
    __builtin_prefetch(self + 64);
  }
  // Starts loading the line an arrival over the link reads and writes.
  [[gnu::always_inline]] void prefetch_arrival() const {
    __builtin_prefetch(this);
  }
  // Starts loading the FIFO entry pop_arrival() reads: the one after the
  // head, if any.
  void prefetch_behind_head() const {
    if (count_ >= 2) __builtin_prefetch(&at(1));
  }
  // Starts loading, for writing, the FIFO entry enqueue() writes when the
  // FIFO is on the heap (the new tail). Reads the link's first line.
  [[gnu::always_inline]] void prefetch_tail() const {
    if (!ring_) return;
    __builtin_prefetch(&at(count_), 1);
  }
  // The packet that arrives next; kNoPacket when the FIFO is empty.
  PacketIndex head_packet() const {
    return count_ == 0 ? kNoPacket : at(0).packet;
  }

  // Bytes not yet transmitted at `now` (see the top), rounded up to a
  // whole byte. O(1): the FIFO is not read. At a rate whose byte time is
  // not a whole number of picoseconds, each packet's serialisation is
  // rounded up to one, so this may count a fraction of a byte per queued
  // packet more (under 0.04 B at 300G).
  std::uint64_t queued_bytes(Time now) const;

  // Link down: every packet in flight is lost (returned for counting and
  // release) and the epoch changes so the pending event is ignored.
  void set_down(std::vector<PacketIndex>& lost);
  // Up again (nothing changes when it is up).
  void set_up();
  // The rate (> 0) from `now` on (see the top). Returns whether the head's
  // arrival moved (it was still being sent): the epoch has then changed,
  // so the pending event is ignored, and the caller schedules the new one
  // at head_arrival().
  bool set_rate(BitsPerSecond rate, Time now);

  LinkCounters counters() const {
    return LinkCounters{packets_,      bytes_,        control_bytes_,
                        busy_,         ecn_marked_,   dropped_overflow_,
                        dropped_down_, dropped_error_};
  }
  // A packet that arrived over the link was lost to bit errors.
  void count_error_drop() { ++dropped_error_; }
  std::size_t in_flight() const { return count_; }

 private:
  struct Entry {
    PacketIndex packet;
    std::uint32_t bytes : 31;
    std::uint32_t control : 1;  // strict priority (see the top)
    // When its last bit arrives at `to`: its finish time (the last bit
    // sent) plus the delay, so that an arrival needs no delay_.
    Time arrival;
  };
  static constexpr std::uint32_t kInlineEntries = 2;
  // The FIFO's storage: the heap ring once it has grown, else the two
  // entries in place.
  Entry* ring() { return ring_ ? ring_.get() : inline_ring_; }
  const Entry* ring() const { return ring_ ? ring_.get() : inline_ring_; }
  // The FIFO's k-th entry from the head (0: the next to arrive).
  Entry& at(std::uint32_t k) { return ring()[(head_ + k) & ring_mask_]; }
  const Entry& at(std::uint32_t k) const {
    return ring()[(head_ + k) & ring_mask_];
  }
  void grow();
  // queued_bytes(now) > limit, without its division where the byte time
  // is whole picoseconds: drop-tail and ECN ask this on every enqueue.
  bool queued_more_than(Time now, std::uint64_t limit) const;
  // When entry `e`'s last bit is sent.
  Time finish_time(const Entry& e) const { return e.arrival - delay_; }
  // ps_per_byte_ for rate_.
  void set_byte_time() {
    // Below 2^31 (units.h), so it fits.
    ps_per_byte_ =
        static_cast<std::uint32_t>(exact_picoseconds_per_byte(rate_));
  }
  // The first entry (from the head) whose transmission has not finished
  // at `now`: the one being sent, if any; count_ if none. Finish times
  // rise along the FIFO, so a binary search.
  std::uint32_t first_unsent(Time now) const;
  // Where a control packet goes (an index from the head): after entry
  // `sending`, the packet being transmitted, and the control packets
  // already waiting behind it.
  std::uint32_t priority_slot(std::uint32_t sending) const;
  void insert_at(std::uint32_t slot, PacketIndex index, std::uint32_t bytes,
                 Time serialise);
  // transmission_time(bytes, rate), by multiplication where the rate
  // allows (exact_picoseconds_per_byte), else the division.
  Time serialisation(std::uint32_t bytes) const {
    if (ps_per_byte_ != 0) {
      return Time::from_ps(
          static_cast<std::int64_t>(std::uint64_t{bytes} * ps_per_byte_));
    }
    return transmission_time(bytes, rate_);
  }

  // The first line: what an arrival reads.
  // The FIFO: a ring whose size is a power of two (ring_mask_ + 1), in
  // inline_ring_ until it needs more than two entries, then on the heap.
  std::unique_ptr<Entry[]> ring_;
  std::uint32_t ring_mask_ = kInlineEntries - 1;
  std::uint32_t head_ = 0;   // ring slot of the next packet to arrive
  std::uint32_t count_ = 0;  // packets in flight, from head_
  NodeIndex to_ = 0;
  // One word. The epoch wraps after 2^29 changes, far more than can pass
  // while an event waits.
  std::uint32_t epoch_ : 29 = 0;
  std::uint32_t up_ : 1 = 1;
  std::uint32_t from_host_ : 1 = 0;
  std::uint32_t to_host_ : 1 = 0;
  // The port it arrives on at `to`: a control packet's arrival and IBCS
  // at a leaf's host ports read it.
  std::uint16_t to_port_ = 0;
  // Most links of a large fabric never hold more than two packets, so
  // they need no allocation of their own.
  Entry inline_ring_[kInlineEntries]{};
  // The second line: what enqueueing reads and writes besides.
  // When the last packet accepted finishes transmitting: the link is free
  // from then on. Once the FIFO is empty this is at or before any `now` a
  // packet can come at; Time{} after set_down().
  alignas(64) Time busy_until_{};
  Time delay_{};
  BitsPerSecond rate_ = 0;
  // exact_picoseconds_per_byte(rate), or 0: serialisation divides.
  std::uint32_t ps_per_byte_ = 0;
  std::uint32_t buffer_bytes_ = 0;
  std::uint32_t ecn_threshold_bytes_ = 0;
  NodeIndex from_ = 0;  // IBCS at egress: the sending switch
  std::uint64_t packets_ = 0;
  std::uint64_t bytes_ = 0;
  Time busy_{};
  // The third line: what a hop rarely touches.
  alignas(64) std::uint64_t ecn_marked_ = 0;
  std::uint64_t dropped_overflow_ = 0;
  std::uint64_t dropped_down_ = 0;
  std::uint64_t dropped_error_ = 0;
  std::uint64_t control_bytes_ = 0;
};
static_assert(sizeof(Link) == 192,
              "three cache lines (the constructor "
              "checks where the third starts)");

}  // namespace arfabric::sim
