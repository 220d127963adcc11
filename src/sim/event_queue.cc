#include "sim/event_queue.h"

#include <cassert>
#include <utility>

namespace arfabric::sim {

void EventQueue::push(Time at, EventType type, std::uint32_t a,
                      std::uint32_t b) {
  assert(at >= now_);
  heap_.push_back(Event{at, seq_++, type, a, b});
  sift_up(heap_.size() - 1);
}

Event EventQueue::pop() {
  Event e = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
  now_ = e.at;
  return e;
}

void EventQueue::sift_up(std::size_t i) {
  Event e = heap_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventQueue::sift_down(std::size_t i) {
  const std::size_t n = heap_.size();
  Event e = heap_[i];
  while (true) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t last = first + 4 < n ? first + 4 : n;
    for (std::size_t c = first + 1; c < last; ++c) {
      if (before(heap_[c], heap_[best])) best = c;
    }
    if (!before(heap_[best], e)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = e;
}

}  // namespace arfabric::sim
