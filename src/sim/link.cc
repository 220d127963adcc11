#include "sim/link.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace arfabric::sim {

// The first ring is the two entries in place: most links of a large
// fabric never hold more than a few packets, and a heap ring per link
// would cost an allocation and a page of its own to touch (tens of MB at
// 4,096 hosts); busy links double it as they need.
Link::Link(const Config& config)
    : to_(config.to),
      from_host_(config.from_host ? 1 : 0),
      to_host_(config.to_host ? 1 : 0),
      to_port_(config.to_port),
      delay_(config.delay),
      rate_(config.rate),
      buffer_bytes_(config.buffer_bytes),
      ecn_threshold_bytes_(config.ecn_threshold_bytes),
      from_(config.from) {
  // What an arrival touches is the first line; what enqueueing touches
  // ends where the third line begins.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(offsetof(Link, inline_ring_) + sizeof(inline_ring_) <= 64);
  static_assert(offsetof(Link, to_port_) < 64);
  static_assert(offsetof(Link, busy_until_) == 64);
  static_assert(offsetof(Link, busy_) + sizeof(busy_) <= 128);
  static_assert(offsetof(Link, ecn_marked_) >= 128);
#pragma GCC diagnostic pop
  set_byte_time();
}

void Link::grow() {
  const std::uint32_t size = ring_mask_ + 1;
  auto bigger = std::make_unique<Entry[]>(2 * std::size_t{size});
  for (std::uint32_t k = 0; k < count_; ++k) bigger[k] = at(k);
  head_ = 0;
  ring_ = std::move(bigger);
  ring_mask_ = 2 * size - 1;
}

bool Link::set_rate(BitsPerSecond rate, Time now) {
  assert(rate > 0);
  if (rate == rate_) return false;
  const BitsPerSecond old_rate = rate_;
  rate_ = rate;
  set_byte_time();
  const std::uint32_t sending = first_unsent(now);
  if (sending == count_) return false;
  // The packet on the wire: its remaining time scaled by old / new rate,
  // rounded up; the ones queued behind it follow back to back.
  Entry& first = at(sending);
  const std::int64_t left = (finish_time(first) - now).ps();
  const Time scaled = ps(static_cast<std::int64_t>(
      (static_cast<unsigned __int128>(left) * old_rate + rate - 1) / rate));
  busy_ += scaled - ps(left);
  // The previous entry's finish time, before this change.
  Time old_done = finish_time(first);
  first.arrival = now + scaled + delay_;
  for (std::uint32_t k = sending + 1; k < count_; ++k) {
    const Time serialise = serialisation(at(k).bytes);
    busy_ += serialise - (finish_time(at(k)) - old_done);
    old_done = finish_time(at(k));
    at(k).arrival = at(k - 1).arrival + serialise;
  }
  busy_until_ = finish_time(at(count_ - 1));
  if (sending != 0) return false;
  ++epoch_;
  return true;
}

std::uint64_t Link::queued_bytes(Time now) const {
  if (busy_until_ <= now) return 0;
  const auto left = static_cast<std::uint64_t>((busy_until_ - now).ps());
  if (ps_per_byte_ != 0) return (left + ps_per_byte_ - 1) / ps_per_byte_;
  // left * rate_ bits-picoseconds over 8e12 per byte.
  const unsigned __int128 bits_ps =
      static_cast<unsigned __int128>(left) * rate_;
  return static_cast<std::uint64_t>((bits_ps + kBytePicosecondsAt1Bps - 1) /
                                    kBytePicosecondsAt1Bps);
}

bool Link::queued_more_than(Time now, std::uint64_t limit) const {
  if (busy_until_ <= now) return false;
  if (ps_per_byte_ == 0) return queued_bytes(now) > limit;
  // ceil(left / p) > limit  <=>  left > limit * p, for whole numbers; both
  // factors are below 2^32, so the product fits.
  return static_cast<std::uint64_t>((busy_until_ - now).ps()) >
         limit * ps_per_byte_;
}

std::uint32_t Link::first_unsent(Time now) const {
  if (busy_until_ <= now) return count_;  // all sent: no search
  std::uint32_t low = 0, high = count_;
  while (low < high) {
    const std::uint32_t mid = low + (high - low) / 2;
    if (finish_time(at(mid)) <= now) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

EnqueueResult Link::enqueue(PacketIndex index, Packet& packet, Time now,
                            bool& first_arrival, Time& arrival) {
  if (!up_) {
    ++dropped_down_;
    return EnqueueResult::dropped_down;
  }
  const std::uint32_t bytes = packet.wire_bytes;
  // queued_bytes(now) + bytes > buffer_bytes_
  if (buffer_bytes_ != 0 && packet.kind != PacketKind::control &&
      (bytes > buffer_bytes_ || queued_more_than(now, buffer_bytes_ - bytes))) {
    ++dropped_overflow_;
    return EnqueueResult::dropped_overflow;
  }
  if (ecn_threshold_bytes_ != 0 && packet.kind == PacketKind::transport &&
      packet.transport.ecn_capable && !packet.transport.is_ack &&
      queued_more_than(now, ecn_threshold_bytes_)) {
    if (!packet.transport.ecn_ce) ++ecn_marked_;
    packet.transport.ecn_ce = true;
  }
  if (count_ == ring_mask_ + 1) grow();
  const Time serialise = serialisation(bytes);
  if (packet.kind == PacketKind::control) {
    control_bytes_ += bytes;  // accepted: control is never dropped here
    const std::uint32_t sending = first_unsent(now);
    const std::uint32_t slot =
        sending != count_ ? priority_slot(sending) : count_;
    if (slot != count_) {
      insert_at(slot, index, bytes, serialise);
      first_arrival = false;  // the head (sent or being sent) is unchanged
      arrival = at(slot).arrival;
      return EnqueueResult::accepted;
    }
  }
  const Time done = std::max(now, busy_until_) + serialise;
  busy_ += serialise;
  busy_until_ = done;
  arrival = done + delay_;
  at(count_) = Entry{index, bytes, packet.kind == PacketKind::control, arrival};
  first_arrival = count_ == 0;
  ++count_;
  ++packets_;
  bytes_ += bytes;
  return EnqueueResult::accepted;
}

std::uint32_t Link::priority_slot(std::uint32_t sending) const {
  // The link is work-conserving, so the first entry whose transmission has
  // not finished is being transmitted right now.
  std::uint32_t slot = sending + 1;
  while (slot < count_ && at(slot).control) ++slot;
  return slot;
}

void Link::insert_at(std::uint32_t slot, PacketIndex index, std::uint32_t bytes,
                     Time serialise) {
  for (std::uint32_t k = count_; k > slot; --k) {
    at(k) = at(k - 1);
    at(k).arrival += serialise;
  }
  at(slot) = Entry{index, bytes, 1, at(slot - 1).arrival + serialise};
  busy_ += serialise;
  busy_until_ += serialise;
  ++count_;
  ++packets_;
  bytes_ += bytes;
}

Time Link::head_arrival() const {
  return count_ == 0 ? Time::max() : at(0).arrival;
}

Time Link::pop_arrival([[maybe_unused]] PacketIndex head) {
  assert(count_ != 0 && at(0).packet == head);
  head_ = (head_ + 1) & ring_mask_;
  --count_;
  return head_arrival();
}

void Link::set_down(std::vector<PacketIndex>& lost) {
  up_ = 0;
  ++epoch_;
  for (std::uint32_t k = 0; k < count_; ++k) lost.push_back(at(k).packet);
  dropped_down_ += count_;
  head_ = count_ = 0;
  busy_until_ = Time{};
}

void Link::set_up() {
  // Already up: nothing changes (a new epoch would orphan the pending
  // arrival event of a busy link, and nothing would send it again).
  if (up_ != 0) return;
  up_ = 1;
  ++epoch_;
}

}  // namespace arfabric::sim
