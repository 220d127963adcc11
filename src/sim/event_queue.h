// The simulator's event queue: a 4-ary min-heap of small POD events ordered
// by (time, insertion sequence), so runs are deterministic. The keys are
// unique, so the pop order is fixed by them alone, whatever the heap's
// internal layout.
//
// Links keep their own FIFO of packets in flight and hold at most one event
// here (the arrival of their head packet), so the heap stays as small as
// the number of busy links plus pending timers, and a packet hop costs one
// push and one pop. Events carry no closures: `type` and two integers say
// what to do, and the owner dispatches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/units.h"
#include "sim/huge_page_allocator.h"

namespace arfabric::sim {

enum class EventType : std::uint8_t {
  // a: link index, b: link epoch (stale if the link changed), c: the
  // packet at the link's head when the event was pushed (a hint for
  // prefetching; the link's FIFO says which packet arrives).
  link_arrival,
  flow_timer,  // a: flow id (sim/flows.h)
  control,     // a, b: owner-defined (BGP control-plane work)
  port_state,  // a: cable, b: 1 up / 0 down (sim/loss_of_signal.h)
  lsn,         // a, b: sim/lsn_control.h
  arn,         // a, b: sim/arn_control.h
};

struct Event {
  Time at{};
  std::uint64_t seq = 0;
  EventType type = EventType::flow_timer;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::uint32_t c = 0;
};

// The one pending timer event of something with a single deadline (an
// engine, a flow): only an earlier deadline needs a new event; a later one
// is picked up when the pending event fires, and events for superseded
// deadlines are ignored.
class PendingTimer {
 public:
  // Whether the caller must push an event for `deadline` (it then is the
  // pending one).
  bool arm(Time deadline) {
    if (deadline >= at_) return false;
    at_ = deadline;
    return true;
  }
  // An event for `at` fired: whether it is the pending one (and now no
  // event is pending) or a superseded one to ignore.
  bool fire(Time at) {
    if (at != at_) return false;
    at_ = Time::max();
    return true;
  }
  // No event is pending any more: the one in the queue, when it fires, is
  // ignored like a superseded one.
  void cancel() { at_ = Time::max(); }
  Time at() const { return at_; }

 private:
  Time at_ = Time::max();
};

class EventQueue {
 public:
  void reserve(std::size_t n) { heap_.reserve(n); }
  // Schedules an event; `at` may not be before now() (checked in debug
  // builds only: the hot path has no error channel).
  void push(Time at, EventType type, std::uint32_t a, std::uint32_t b,
            std::uint32_t c = 0);
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  Event top() const { return event(heap_.front()); }
  // The event after top(), as the queue stands (a later push may come
  // before it); false when there is none. For prefetching.
  bool second(Event& out) const {
    const std::size_t n = heap_.size();
    if (n < 2) return false;
    out = event(heap_[earliest_child(heap_.data(), 1, n)]);
    return true;
  }
  // Removes the earliest event and advances now() to its time.
  Event pop();
  Time now() const { return now_; }
  std::uint64_t pushed() const { return seq_; }

  // Removes every event for which `stale(event)` is true, in O(size), and
  // returns how many: for owners that leave superseded events behind
  // (PendingTimer) and purge them when they pile up, so that the heap
  // stays as small as the live events. The remaining events pop in the
  // same order as before (their keys are unique).
  template <typename Stale>
  std::size_t remove_if(Stale stale) {
    const auto kept =
        std::remove_if(heap_.begin(), heap_.end(),
                       [&](const Entry& e) { return stale(event(e)); });
    const std::size_t removed = static_cast<std::size_t>(heap_.end() - kept);
    heap_.erase(kept, heap_.end());
    heapify();
    return removed;
  }

 private:
  // (time, seq) as one unsigned 128-bit key (times in the queue are never
  // negative), so that an order test is a branch-free two-word compare:
  // ties in time are common (equal links, equal packets), and a branch on
  // them mispredicts.
  struct Entry {
    unsigned __int128 key;
    std::uint32_t a;
    std::uint32_t b;
    std::uint32_t c;
    EventType type;
  };
  static_assert(sizeof(Entry) == 32);
  static Event event(const Entry& e) {
    return Event{Time::from_ps(static_cast<std::int64_t>(e.key >> 64)),
                 static_cast<std::uint64_t>(e.key),
                 e.type,
                 e.a,
                 e.b,
                 e.c};
  }
  // The earliest of the children first..first+3 that exist (first < n).
  // With all four, a two-round tournament computed without branches:
  // index arithmetic on the comparison results, not ?:, which the
  // compiler may turn into a branch that mispredicts half the time.
  static std::size_t earliest_child(const Entry* h, std::size_t first,
                                    std::size_t n) {
    if (first + 4 <= n) {
      const std::size_t l = first + (h[first + 1].key < h[first].key);
      const std::size_t r = first + 2 + (h[first + 3].key < h[first + 2].key);
      const std::size_t r_wins = h[r].key < h[l].key;
      return l + ((r - l) & (0 - r_wins));
    }
    std::size_t best = first;
    for (std::size_t c = first + 1; c < n; ++c) {
      if (h[c].key < h[best].key) best = c;
    }
    return best;
  }
  void sift_up(std::size_t i, const Entry& e);
  void heapify();
  void refill_root(const Entry& last);

  std::vector<Entry, HugePageAllocator<Entry>> heap_;
  std::uint64_t seq_ = 0;
  Time now_{};
};

}  // namespace arfabric::sim
