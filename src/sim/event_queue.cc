#include "sim/event_queue.h"

#include <cassert>

namespace arfabric::sim {

void EventQueue::push(Time at, EventType type, std::uint32_t a, std::uint32_t b,
                      std::uint32_t c) {
  assert(at >= now_);
  const Entry e{static_cast<unsigned __int128>(at.ps()) << 64 | seq_++, a, b, c,
                type};
  heap_.push_back(e);
  sift_up(heap_.size() - 1, e);
}

Event EventQueue::pop() {
  const Event top = event(heap_.front());
  now_ = top.at;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) refill_root(last);
  return top;
}

// Floyd's variant of sift-down: the hole left at the root moves down along
// the earliest children to a leaf without comparing against `last`, which
// then sifts up from there. `last` came from the bottom and is usually
// late, so it rarely climbs: one comparison per level fewer than the
// classic sift-down. With four children the earliest is a two-round
// tournament computed without branches.
void EventQueue::refill_root(const Entry& last) {
  const std::size_t n = heap_.size();
  Entry* h = heap_.data();
  std::size_t hole = 0;
  while (true) {
    const std::size_t first = 4 * hole + 1;
    std::size_t best;
    if (first + 4 <= n) {
      // Index arithmetic on the comparison results, not ?:, which the
      // compiler may turn into a branch that mispredicts half the time.
      const std::size_t l = first + (h[first + 1].key < h[first].key);
      const std::size_t r = first + 2 + (h[first + 3].key < h[first + 2].key);
      const std::size_t r_wins = h[r].key < h[l].key;
      best = l + ((r - l) & (0 - r_wins));
    } else {
      if (first >= n) break;
      best = first;
      for (std::size_t c = first + 1; c < n; ++c) {
        if (h[c].key < h[best].key) best = c;
      }
    }
    h[hole] = h[best];
    hole = best;
  }
  sift_up(hole, last);
}

// Bottom-up heap construction: each parent, from the last one up to the
// root, moves down below its earlier children.
void EventQueue::heapify() {
  const std::size_t n = heap_.size();
  Entry* h = heap_.data();
  for (std::size_t i = n < 2 ? 0 : (n - 2) / 4 + 1; i-- > 0;) {
    const Entry e = h[i];
    std::size_t hole = i;
    while (true) {
      const std::size_t first = 4 * hole + 1;
      if (first >= n) break;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < n && c < first + 4; ++c) {
        if (h[c].key < h[best].key) best = c;
      }
      if (!(h[best].key < e.key)) break;
      h[hole] = h[best];
      hole = best;
    }
    h[hole] = e;
  }
}

// Places `e` at slot `i` or above, moving later parents down.
void EventQueue::sift_up(std::size_t i, const Entry& e) {
  Entry* h = heap_.data();
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!(e.key < h[parent].key)) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

}  // namespace arfabric::sim
