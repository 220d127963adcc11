#include "sim/link.h"

#include <algorithm>

namespace arfabric::sim {

// The first ring is the two entries in place: most links of a large
// fabric never hold more than a few packets, and a heap ring per link
// would cost an allocation and a page of its own to touch (tens of MB at
// 4,096 hosts); busy links double it as they need.
Link::Link(const Config& config) : config_(config) { set_rate(config.rate); }

void Link::grow() {
  const std::size_t size = std::size_t{ring_mask_} + 1;
  auto bigger = std::make_unique<Entry[]>(2 * size);
  for (std::size_t i = 0; i < count_; ++i) bigger[i] = at(head_ + i);
  queue_ -= head_;
  head_ = 0;
  ring_ = std::move(bigger);
  ring_mask_ = static_cast<std::uint32_t>(2 * size - 1);
}

void Link::set_rate(BitsPerSecond rate) {
  config_.rate = rate;
  ps_per_byte_ = exact_picoseconds_per_byte(rate);
}

void Link::advance_queue(Time now) {
  const std::size_t end = head_ + count_;
  while (queue_ < end && at(queue_).done <= now) {
    queued_bytes_ -= at(queue_).bytes;
    ++queue_;
  }
}

std::uint64_t Link::queued_bytes(Time now) {
  advance_queue(now);
  return queued_bytes_;
}

EnqueueResult Link::enqueue(PacketIndex index, Packet& packet, Time now,
                            bool& first_arrival, Time& arrival) {
  if (!up_) {
    ++counters_.dropped_down;
    return EnqueueResult::dropped_down;
  }
  advance_queue(now);
  const std::uint32_t bytes = packet.wire_bytes;
  if (config_.buffer_bytes != 0 && packet.kind != PacketKind::control &&
      queued_bytes_ + bytes > config_.buffer_bytes) {
    ++counters_.dropped_overflow;
    return EnqueueResult::dropped_overflow;
  }
  if (config_.ecn_threshold_bytes != 0 &&
      queued_bytes_ > config_.ecn_threshold_bytes &&
      packet.kind == PacketKind::transport && packet.transport.ecn_capable &&
      !packet.transport.is_ack) {
    if (!packet.transport.ecn_ce) ++counters_.ecn_marked;
    packet.transport.ecn_ce = true;
  }
  if (count_ == ring_mask_ + std::size_t{1}) grow();
  const Time serialise = serialisation(bytes);
  if (packet.kind == PacketKind::control && queue_ != head_ + count_) {
    const std::size_t slot = priority_slot();
    if (slot != head_ + count_) {
      insert_at(slot, index, bytes, serialise);
      first_arrival = false;  // the head (sent or being sent) is unchanged
      arrival = at(slot).done + config_.delay;
      return EnqueueResult::accepted;
    }
  }
  const Time start = std::max(now, busy_until_);
  busy_until_ = start + serialise;
  counters_.busy += serialise;
  at(head_ + count_) =
      Entry{index, bytes, packet.kind == PacketKind::control, busy_until_};
  first_arrival = count_ == 0;
  ++count_;
  queued_bytes_ += bytes;
  arrival = busy_until_ + config_.delay;
  ++counters_.packets;
  counters_.bytes += bytes;
  return EnqueueResult::accepted;
}

std::size_t Link::priority_slot() const {
  // queue_ is the first entry whose transmission has not finished; the
  // link is work-conserving, so it is being transmitted right now.
  std::size_t slot = queue_ + 1;
  const std::size_t end = head_ + count_;
  while (slot < end && at(slot).control) ++slot;
  return slot;
}

void Link::insert_at(std::size_t slot, PacketIndex index, std::uint32_t bytes,
                     Time serialise) {
  const std::size_t end = head_ + count_;
  for (std::size_t i = end; i > slot; --i) {
    at(i) = at(i - 1);
    at(i).done += serialise;
  }
  at(slot) = Entry{index, bytes, 1, at(slot - 1).done + serialise};
  busy_until_ += serialise;
  counters_.busy += serialise;
  ++count_;
  queued_bytes_ += bytes;
  ++counters_.packets;
  counters_.bytes += bytes;
}

Time Link::head_arrival() const {
  return count_ == 0 ? Time::max() : at(head_).done + config_.delay;
}

PacketIndex Link::pop_arrival(Time& next_arrival) {
  const Entry e = at(head_);
  if (queue_ == head_) {
    // Still counted as queued only if its finish is in the future, which
    // cannot be: it arrives after it finished.
    queued_bytes_ -= e.bytes;
    ++queue_;
  }
  ++head_;
  --count_;
  next_arrival = head_arrival();
  return e.packet;
}

void Link::set_down(Time now, std::vector<PacketIndex>& lost) {
  up_ = false;
  ++epoch_;
  for (std::size_t i = 0; i < count_; ++i) lost.push_back(at(head_ + i).packet);
  counters_.dropped_down += count_;
  head_ = queue_ = count_ = 0;
  queued_bytes_ = 0;
  busy_until_ = now;
}

void Link::set_up() {
  up_ = true;
  ++epoch_;
}

}  // namespace arfabric::sim
