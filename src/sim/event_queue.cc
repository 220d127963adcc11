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
// classic sift-down.
void EventQueue::refill_root(const Entry& last) {
  const std::size_t n = heap_.size();
  Entry* h = heap_.data();
  std::size_t hole = 0;
  for (std::size_t first = 1; first < n; first = 4 * hole + 1) {
    const std::size_t best = earliest_child(h, first, n);
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
    for (std::size_t first = 4 * hole + 1; first < n; first = 4 * hole + 1) {
      const std::size_t best = earliest_child(h, first, n);
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
