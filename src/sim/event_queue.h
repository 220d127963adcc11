// The simulator's event queue: small POD events ordered by (time, insertion
// sequence), so runs are deterministic. The keys are unique, so the pop
// order is fixed by them alone, whatever the queue's internal layout.
//
// Links keep their own FIFO of packets in flight and hold at most one event
// here (the arrival of their head packet), so the queue stays as small as
// the number of busy links plus pending timers, and a packet hop costs one
// push and one pop. Events carry no closures: `type` and three integers say
// what to do, and the owner dispatches.
//
// Three parts:
// - The ready window: the next kReady (4) events in pop order, already
//   taken out of the other two parts, in a ring. pop() takes its first
//   and refills its last from the other parts; top(), second() and
//   second_and_third() read it. Every key in it is below every key in the
//   other parts, so a push compares with the window's last only. (A push
//   before that takes its place in the window, and the last moves out:
//   rare, as pushes come a link's delay or more ahead of now.) The look-ahead
//   (sim/network.cc) asks for the next three events every hop; walking the
//   calendar from its front for them cost a hop 12-29 instructions more than
//   the window does (callgrind at 1,024 and 4,096 hosts, docs/PERFORMANCE.md).
// The other two, whose earlier front refills the window:
// - The near calendar: events due within kNearHorizon of now() (every link
//   arrival in a fabric whose links are shorter than ~2 us) go into one of
//   2^14 buckets of 128 ps, each a circular list sorted by key, with a
//   two-level bitmap of the non-empty buckets. A push is an index
//   computation and, as events mostly come in time order, an append at
//   the list's tail; taking the front unlinks the front list's head and,
//   when that list is empty, finds the next non-empty bucket in the
//   bitmap (usually in the same 64-bit word). The buckets form a ring:
//   bucket b holds the events of one 128 ps slot in [now(), now() +
//   kNearHorizon), so scanning from now()'s bucket, wrapping, meets them
//   in time order.
//   (2^16 buckets of 32 ps ran no fewer instructions, and their 256 KB
//   of list tails missed L1 on most pushes in the default scenario.)
// - Long lists sorted when read: a push before a list's tail walks from
//   its head to its place. When that is more than kMaxWalk nodes into a
//   list other than the front's, the push appends instead and marks the
//   list unsorted; the list is sorted when its first node becomes the
//   front. A burst of equal times (every switch sampling its ports on the
//   same 10 us clock and sending ARN messages at once) otherwise made
//   each later push into that slot walk the whole burst, which at 4,096
//   hosts took a tenth of the run (docs/PERFORMANCE.md).
// - The far heap: a 4-ary min-heap for events beyond that horizon (flow
//   retransmission timers, BGP's CPU and MRAI work). They stay there when
//   time catches up with them; comparing the two fronts orders them.
// A 4-ary heap alone cost a hop ~330 instructions of ~830, a descent of
// ~5 levels and a sift-up; the calendar costs ~140 of ~620 (callgrind,
// bench/callgrind_hops.sh).
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/units.h"
#include "sim/huge_pages.h"

namespace arfabric::sim {

enum class EventType : std::uint8_t {
  // a: link index, b: link epoch (stale if the link changed), c: the
  // packet at the link's head when the event was pushed; while the epoch
  // is the link's, still its head, the packet that arrives
  // (Link::pop_arrival).
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
  static constexpr int kBucketShift = 7;  // a bucket spans 2^7 = 128 ps
  static constexpr std::uint32_t kBuckets = 1u << 14;
  static constexpr Time kNearHorizon =
      Time::from_ps(std::int64_t{kBuckets} << kBucketShift);  // 2.1 us

  EventQueue();

  // Schedules an event; `at` may not be before now() (checked in debug
  // builds only: the hot path has no error channel).
  void push(Time at, EventType type, std::uint32_t a, std::uint32_t b,
            std::uint32_t c = 0);
  bool empty() const { return ready_count_ == 0; }
  std::size_t size() const { return ready_count_ + near_count_ + far_.size(); }
  // The earliest event. Precondition: !empty().
  Event top() const { return event(ready(0)); }
  // The event after top(), as the queue stands (a later push may come
  // before it); false when there is none. For prefetching.
  bool second(Event& out) const {
    if (ready_count_ < 2) return false;
    out = event(ready(1));
    return true;
  }
  // The two events after top(), as the queue stands. Returns how many of
  // them there are: 0 (size() < 2), 1 (`second` only) or 2.
  int second_and_third(Event& second, Event& third) const {
    if (ready_count_ < 2) return 0;
    second = event(ready(1));
    if (ready_count_ < 3) return 1;
    third = event(ready(2));
    return 2;
  }
  // Removes the earliest event and advances now() to its time.
  // Precondition: !empty().
  Event pop();
  Time now() const { return Time::from_ps(static_cast<std::int64_t>(now_)); }
  std::uint64_t pushed() const { return seq_; }

  // Removes every event for which `stale(event)` is true, in O(size +
  // kBuckets / 64), and returns how many: for owners that leave superseded
  // events behind (PendingTimer) and purge them when they pile up, so that
  // the queue stays as small as the live events. The remaining events pop
  // in the same order as before (their keys are unique).
  template <typename Stale>
  std::size_t remove_if(Stale stale) {
    return remove_stale(std::function<bool(const Event&)>(stale));
  }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  // One event: a window entry, a far-heap entry or a near-calendar node
  // (`next` links a bucket's circular list). `order` is seq << 8 | type:
  // comparing (at, order) compares (at, seq), as seqs are unique.
  struct Entry {
    std::uint64_t at;
    std::uint64_t order;
    std::uint32_t a;
    std::uint32_t b;
    std::uint32_t c;
    std::uint32_t next;
  };
  static_assert(sizeof(Entry) == 32);
  // (at, order) as one 128-bit key, so that an order test is a branch-free
  // two-word compare: ties in time are common (equal links, equal
  // packets), and a branch on them mispredicts.
  static unsigned __int128 key(const Entry& e) {
    return static_cast<unsigned __int128>(e.at) << 64 | e.order;
  }
  static Event event(const Entry& e) {
    return Event{Time::from_ps(static_cast<std::int64_t>(e.at)),
                 e.order >> 8,
                 static_cast<EventType>(e.order & 0xff),
                 e.a,
                 e.b,
                 e.c};
  }
  std::uint32_t head(std::uint32_t bucket) const {
    return nodes_[bucket_tail_[bucket]].next;
  }
  // The head of a non-empty bucket's list, sorted first if it is not.
  std::uint32_t sorted_head(std::uint32_t bucket) {
    if (unsorted(bucket)) sort_bucket(bucket);
    return head(bucket);
  }
  void sort_bucket(std::uint32_t bucket);
  bool unsorted(std::uint32_t bucket) const {
    return (unsorted_[bucket / 64] >> (bucket % 64)) & 1;
  }
  void set_unsorted(std::uint32_t bucket, bool value) {
    const std::uint64_t bit = std::uint64_t{1} << (bucket % 64);
    std::uint64_t& word = unsorted_[bucket / 64];
    word = value ? word | bit : word & ~bit;
  }
  // How far a push walks a list that is not the front's before it leaves
  // the list unsorted.
  static constexpr std::uint32_t kMaxWalk = 8;
  void append_after_tail(std::uint32_t node, std::uint32_t& tail) {
    nodes_[node].next = nodes_[tail].next;
    nodes_[tail].next = node;
    tail = node;
  }
  // The ready window.
  static constexpr std::uint32_t kReady = 4;  // a power of two, >= 3
  static constexpr std::uint32_t kReadyMask = kReady - 1;
  // The i-th event in pop order (i < ready_count_).
  const Entry& ready(std::uint32_t i) const {
    return ready_[(ready_head_ + i) & kReadyMask];
  }
  Entry& ready(std::uint32_t i) {
    return ready_[(ready_head_ + i) & kReadyMask];
  }
  // Puts `e`, earlier than everything in the calendar and the heap, in its
  // place in the window (ready_count_ < kReady).
  void insert_ready(const Entry& e);
  // Fills the window from the calendar and the heap, as far as they go.
  void refill_ready() {
    while (ready_count_ < kReady && has_more()) {
      ready(ready_count_++) = take_earliest();
    }
  }
  // Whether the calendar or the heap holds an event.
  bool has_more() const { return front_ != kNone || !far_.empty(); }
  // Removes and returns the earlier of the calendar's and the heap's
  // fronts (has_more()).
  Entry take_earliest();
  // Into the calendar or the heap, by how far ahead of now() it is.
  void push_more(const Entry& e);

  static std::uint32_t bucket_of(std::uint64_t at) {
    return static_cast<std::uint32_t>(at >> kBucketShift) & (kBuckets - 1);
  }

  // Sets near_first_ after the fronts changed.
  void update_near_first() {
    near_first_ =
        front_ != kNone && (far_.empty() || key(nodes_[front_]) < key(far_[0]));
  }

  std::size_t remove_stale(const std::function<bool(const Event&)>& stale);

  // The near calendar.
  void push_near(const Entry& e);
  std::uint32_t allocate(const Entry& e);
  void release(std::uint32_t node) {
    nodes_[node].next = free_;
    free_ = node;
    --near_count_;
  }
  void mark_occupied(std::uint32_t bucket) {
    occupied_[bucket / 64] |= std::uint64_t{1} << (bucket % 64);
    occupied_words_[bucket / 64 / 64] |= std::uint64_t{1} << (bucket / 64 % 64);
  }
  void mark_empty(std::uint32_t bucket) {
    set_unsorted(bucket, false);
    std::uint64_t& word = occupied_[bucket / 64];
    word &= ~(std::uint64_t{1} << (bucket % 64));
    if (word == 0) {
      occupied_words_[bucket / 64 / 64] &=
          ~(std::uint64_t{1} << (bucket / 64 % 64));
    }
  }
  // The first non-empty bucket at or after `from`, wrapping around; at
  // least one bucket must be non-empty. Inline when it is in `from`'s
  // word of the bitmap (the usual case), else a call.
  std::uint32_t next_occupied(std::uint32_t from) const {
    const std::uint64_t here =
        occupied_[from / 64] & (~std::uint64_t{0} << (from % 64));
    if (here != 0) return from / 64 * 64 + std::countr_zero(here);
    return next_occupied_beyond_word(from);
  }
  std::uint32_t next_occupied_beyond_word(std::uint32_t from) const;

  // The far heap.
  // The earliest of the children first..first+3 that exist (first < n).
  // With all four, a two-round tournament computed without branches:
  // index arithmetic on the comparison results, not ?:, which the
  // compiler may turn into a branch that mispredicts half the time.
  static std::size_t earliest_child(const Entry* h, std::size_t first,
                                    std::size_t n) {
    if (first + 4 <= n) {
      const std::size_t l = first + (key(h[first + 1]) < key(h[first]));
      const std::size_t r = first + 2 + (key(h[first + 3]) < key(h[first + 2]));
      const std::size_t r_wins = key(h[r]) < key(h[l]);
      return l + ((r - l) & (0 - r_wins));
    }
    std::size_t best = first;
    for (std::size_t c = first + 1; c < n; ++c) {
      if (key(h[c]) < key(h[best])) best = c;
    }
    return best;
  }
  void sift_up(std::size_t i, const Entry& e);
  void heapify();
  Entry pop_far();

  Entry ready_[kReady]{};
  std::uint32_t ready_head_ = 0;   // ready_'s index of top()
  std::uint32_t ready_count_ = 0;  // kReady unless the rest are empty

  // Each bucket's list is circular and the bucket names its tail (kNone:
  // empty), whose `next` is the head: events mostly come in time order
  // (equal times in seq order), so a push appends in O(1) however many
  // equal times a bucket holds.
  std::vector<std::uint32_t> bucket_tail_;
  std::vector<std::uint64_t> occupied_;        // a bit per non-empty bucket
  std::vector<std::uint64_t> occupied_words_;  // a bit per non-zero word
  // A bit per bucket whose list may be out of key order; never the
  // front's.
  std::vector<std::uint64_t> unsorted_;
  std::vector<std::uint32_t> sort_scratch_;  // sort_bucket()'s node list
  std::vector<Entry, HugePageAllocator<Entry>> nodes_;  // the lists' nodes
  std::uint32_t free_ = kNone;   // released nodes, linked through `next`
  std::uint32_t front_ = kNone;  // the earliest near node: its list's head
  std::size_t near_count_ = 0;
  // Whether the calendar's front comes before the heap's.
  bool near_first_ = false;
  std::vector<Entry, HugePageAllocator<Entry>> far_;
  std::uint64_t seq_ = 0;
  std::uint64_t now_ = 0;  // picoseconds
};

// The per-hop paths, always inline: a hop pushes, pops and asks for the
// second event once each, and a call's register saves and restores cost a
// third of what these do.

[[gnu::always_inline]] inline void EventQueue::push(Time at, EventType type,
                                                    std::uint32_t a,
                                                    std::uint32_t b,
                                                    std::uint32_t c) {
  assert(at >= now());
  assert(seq_ < std::uint64_t{1} << 56);
  const Entry e{static_cast<std::uint64_t>(at.ps()),
                seq_++ << 8 | static_cast<std::uint8_t>(type),
                a,
                b,
                c,
                kNone};
  // Usually after the window: at least a link's delay ahead, while the
  // window holds the next few events, in a large fabric picoseconds away.
  if (ready_count_ == kReady) [[likely]] {
    const Entry& last = ready(kReady - 1);
    if (!(key(e) < key(last))) [[likely]] {
      push_more(e);
      return;
    }
    push_more(last);  // the window's last makes room
    --ready_count_;
  }
  insert_ready(e);
}

[[gnu::always_inline]] inline void EventQueue::push_more(const Entry& e) {
  if ((e.at >> kBucketShift) - (now_ >> kBucketShift) < kBuckets) {
    push_near(e);
    return;
  }
  far_.push_back(e);
  sift_up(far_.size() - 1, e);
  near_first_ = front_ != kNone && key(nodes_[front_]) < key(far_[0]);
}

// Released nodes are reused last-in first-out: a hop's push usually takes
// the node its pop just released, still in cache.
[[gnu::always_inline]] inline std::uint32_t EventQueue::allocate(
    const Entry& e) {
  ++near_count_;
  if (free_ != kNone) {
    const std::uint32_t node = free_;
    free_ = nodes_[node].next;
    nodes_[node] = e;
    return node;
  }
  nodes_.push_back(e);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

// Into its bucket's list, after every earlier key: usually at the tail,
// else after a short walk from the head (a bucket spans 128 ps), or, in a
// long list that is not the front's, at the tail, sorted when it becomes
// the front.
[[gnu::always_inline]] inline void EventQueue::push_near(const Entry& e) {
  const std::uint32_t node = allocate(e);
  const std::uint32_t bucket = bucket_of(e.at);
  std::uint32_t& tail = bucket_tail_[bucket];
  const unsigned __int128 k = key(e);
  if (tail == kNone) {
    mark_occupied(bucket);
    nodes_[node].next = node;
    tail = node;
  } else if (key(nodes_[tail]) < k) {
    append_after_tail(node, tail);
  } else if (unsorted(bucket)) {
    append_after_tail(node, tail);  // sorted when it becomes the front
  } else {
    // Before the tail: after the last node with an earlier key, found by
    // a walk from the head. A long list that is not the front's is left
    // unsorted instead, and sorted when it becomes the front.
    const std::uint32_t max_walk =  // the front's: no limit
        bucket == bucket_of(nodes_[front_].at) ? kNone : kMaxWalk;
    std::uint32_t before = tail;
    std::uint32_t steps = 0;
    while (steps < max_walk && key(nodes_[nodes_[before].next]) < k) {
      before = nodes_[before].next;
      ++steps;
    }
    if (steps == max_walk) {
      set_unsorted(bucket, true);
      append_after_tail(node, tail);
    } else {
      nodes_[node].next = nodes_[before].next;
      nodes_[before].next = node;
    }
  }
  if (front_ == kNone || k < key(nodes_[front_])) {
    front_ = node;
    near_first_ = far_.empty() || k < key(far_[0]);
  }
}

// The window's first; its last refilled from the calendar or the heap.
[[gnu::always_inline]] inline Event EventQueue::pop() {
  assert(ready_count_ > 0);
  const Entry e = ready(0);
  ready_head_ = (ready_head_ + 1) & kReadyMask;
  --ready_count_;
  now_ = e.at;
  if (has_more()) {
    ready(ready_count_++) = take_earliest();
  }
  return event(e);
}

[[gnu::always_inline]] inline EventQueue::Entry EventQueue::take_earliest() {
  Entry e;
  if (near_first_) {
    const std::uint32_t node = front_;
    e = nodes_[node];
    const std::uint32_t bucket = bucket_of(e.at);
    std::uint32_t& tail = bucket_tail_[bucket];
    release(node);
    if (tail != node) {  // the front heads its list: unlink it
      nodes_[tail].next = e.next;
      front_ = e.next;
    } else {
      tail = kNone;
      mark_empty(bucket);
      front_ = near_count_ == 0 ? kNone : sorted_head(next_occupied(bucket));
    }
    // The new front is taken a hop later: its node was written when its
    // event was pushed, thousands of hops ago.
    if (front_ != kNone) __builtin_prefetch(&nodes_[front_]);
  } else {
    e = pop_far();
  }
  update_near_first();
  return e;
}

}  // namespace arfabric::sim
