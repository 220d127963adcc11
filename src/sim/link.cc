#include "sim/link.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace arfabric::sim {

// The first ring is the two entries in place: most links of a large
// fabric never hold more than a few packets, and a heap ring per link
// would cost an allocation and a page of its own to touch (tens of MB at
// 4,096 hosts); busy links double it as they need.
Link::Link(const Config& config)
    : delay_(config.delay),
      buffer_bytes_(config.buffer_bytes),
      ecn_threshold_bytes_(config.ecn_threshold_bytes),
      to_(config.to),
      from_(config.from),
      to_port_(config.to_port) {
  // What a hop touches ends where the third line begins.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(offsetof(Link, inline_ring_) + sizeof(inline_ring_) <= 128);
  static_assert(offsetof(Link, to_port_) >= 128);
#pragma GCC diagnostic pop
  set_rate(config.rate);
}

void Link::grow() {
  const std::uint32_t size = ring_mask_ + 1;
  auto bigger = std::make_unique<Entry[]>(2 * std::size_t{size});
  for (std::uint32_t k = 0; k < count_; ++k) bigger[k] = at(k);
  head_ = 0;
  ring_ = std::move(bigger);
  ring_mask_ = 2 * size - 1;
}

void Link::set_rate(BitsPerSecond rate) {
  rate_ = rate;
  // Below 2^31 (units.h), so it fits.
  ps_per_byte_ = static_cast<std::uint32_t>(exact_picoseconds_per_byte(rate));
}

void Link::advance_queue(Time now) {
  while (sent_ < count_ && at(sent_).done <= now) {
    queued_bytes_ -= at(sent_).bytes;
    ++sent_;
  }
}

std::uint64_t Link::queued_bytes(Time now) {
  advance_queue(now);
  return queued_bytes_;
}

EnqueueResult Link::enqueue(PacketIndex index, Packet& packet, Time now,
                            bool& first_arrival, Time& arrival) {
  if (!up_) {
    ++dropped_down_;
    return EnqueueResult::dropped_down;
  }
  advance_queue(now);
  const std::uint32_t bytes = packet.wire_bytes;
  if (buffer_bytes_ != 0 && packet.kind != PacketKind::control &&
      queued_bytes_ + bytes > buffer_bytes_) {
    ++dropped_overflow_;
    return EnqueueResult::dropped_overflow;
  }
  if (ecn_threshold_bytes_ != 0 && queued_bytes_ > ecn_threshold_bytes_ &&
      packet.kind == PacketKind::transport && packet.transport.ecn_capable &&
      !packet.transport.is_ack) {
    if (!packet.transport.ecn_ce) ++ecn_marked_;
    packet.transport.ecn_ce = true;
  }
  if (count_ == ring_mask_ + 1) grow();
  const Time serialise = serialisation(bytes);
  if (packet.kind == PacketKind::control) {
    control_bytes_ += bytes;  // accepted: control is never dropped here
    const std::uint32_t slot = sent_ != count_ ? priority_slot() : count_;
    if (slot != count_) {
      insert_at(slot, index, bytes, serialise);
      first_arrival = false;  // the head (sent or being sent) is unchanged
      arrival = at(slot).done + delay_;
      return EnqueueResult::accepted;
    }
  }
  const Time done = std::max(now, busy_until()) + serialise;
  busy_ += serialise;
  at(count_) = Entry{index, bytes, packet.kind == PacketKind::control, done};
  first_arrival = count_ == 0;
  ++count_;
  queued_bytes_ += bytes;
  arrival = done + delay_;
  ++packets_;
  bytes_ += bytes;
  return EnqueueResult::accepted;
}

std::uint32_t Link::priority_slot() const {
  // Entry sent_ is the first whose transmission has not finished; the link
  // is work-conserving, so it is being transmitted right now.
  std::uint32_t slot = sent_ + 1;
  while (slot < count_ && at(slot).control) ++slot;
  return slot;
}

void Link::insert_at(std::uint32_t slot, PacketIndex index, std::uint32_t bytes,
                     Time serialise) {
  for (std::uint32_t k = count_; k > slot; --k) {
    at(k) = at(k - 1);
    at(k).done += serialise;
  }
  at(slot) = Entry{index, bytes, 1, at(slot - 1).done + serialise};
  busy_ += serialise;
  ++count_;
  queued_bytes_ += bytes;
  ++packets_;
  bytes_ += bytes;
}

Time Link::head_arrival() const {
  return count_ == 0 ? Time::max() : at(0).done + delay_;
}

PacketIndex Link::pop_arrival(Time& next_arrival) {
  const Entry e = at(0);
  if (sent_ == 0) {
    // Still counted as queued only if its finish is in the future, which
    // cannot be: it arrives after it finished.
    queued_bytes_ -= e.bytes;
  } else {
    --sent_;
  }
  head_ = (head_ + 1) & ring_mask_;
  --count_;
  next_arrival = head_arrival();
  return e.packet;
}

void Link::set_down(std::vector<PacketIndex>& lost) {
  up_ = 0;
  ++epoch_;
  for (std::uint32_t k = 0; k < count_; ++k) lost.push_back(at(k).packet);
  dropped_down_ += count_;
  head_ = sent_ = count_ = 0;
  queued_bytes_ = 0;
}

void Link::set_up() {
  up_ = 1;
  ++epoch_;
}

}  // namespace arfabric::sim
