#include "sim/event_queue.h"

#include <bit>
#include <cassert>

namespace arfabric::sim {

EventQueue::EventQueue()
    : bucket_tail_(kBuckets, kNone),
      occupied_(kBuckets / 64),
      occupied_words_(kBuckets / 64 / 64),
      unsorted_(kBuckets / 64) {}

void EventQueue::insert_ready(const Entry& e) {
  assert(ready_count_ < kReady);
  std::uint32_t i = ready_count_;
  for (; i > 0 && key(e) < key(ready(i - 1)); --i) ready(i) = ready(i - 1);
  ready(i) = e;
  ++ready_count_;
}

void EventQueue::sort_bucket(std::uint32_t bucket) {
  sort_scratch_.clear();
  const std::uint32_t tail = bucket_tail_[bucket];
  for (std::uint32_t node = nodes_[tail].next;; node = nodes_[node].next) {
    sort_scratch_.push_back(node);
    if (node == tail) break;
  }
  std::sort(sort_scratch_.begin(), sort_scratch_.end(),
            [&](std::uint32_t x, std::uint32_t y) {
              return key(nodes_[x]) < key(nodes_[y]);
            });
  const std::size_t n = sort_scratch_.size();
  for (std::size_t i = 0; i < n; ++i) {
    nodes_[sort_scratch_[i]].next = sort_scratch_[(i + 1) % n];
  }
  bucket_tail_[bucket] = sort_scratch_[n - 1];
  set_unsorted(bucket, false);
}

std::uint32_t EventQueue::next_occupied_beyond_word(std::uint32_t from) const {
  std::uint32_t word = from / 64;
  // The next non-zero word after `word`, wrapping round to `word` itself
  // (whose set bits, all before `from`, are then the ring's last buckets).
  constexpr std::uint32_t kWords = kBuckets / 64;
  std::uint32_t next = (word + 1) % kWords;
  for (std::uint32_t scanned = 0; scanned <= kWords / 64; ++scanned) {
    const std::uint64_t bits =
        occupied_words_[next / 64] & (~std::uint64_t{0} << (next % 64));
    if (bits != 0) {
      word = next / 64 * 64 + std::countr_zero(bits);
      return word * 64 + std::countr_zero(occupied_[word]);
    }
    next = (next / 64 + 1) * 64 % kWords;
  }
  assert(false && "next_occupied on an empty calendar");
  return 0;
}

std::size_t EventQueue::remove_stale(
    const std::function<bool(const Event&)>& stale) {
  const std::size_t before = size();
  std::uint32_t kept_ready = 0;
  for (std::uint32_t i = 0; i < ready_count_; ++i) {
    if (!stale(event(ready(i)))) ready(kept_ready++) = ready(i);
  }
  ready_count_ = kept_ready;
  const auto kept =
      std::remove_if(far_.begin(), far_.end(),
                     [&](const Entry& e) { return stale(event(e)); });
  far_.erase(kept, far_.end());
  heapify();
  for (std::uint32_t w = 0; w < kBuckets / 64; ++w) {
    for (std::uint64_t bits = occupied_[w]; bits != 0; bits &= bits - 1) {
      const std::uint32_t bucket = w * 64 + std::countr_zero(bits);
      // Relink the kept nodes, in order, as the bucket's new circle.
      const std::uint32_t tail = bucket_tail_[bucket];
      std::uint32_t kept_head = kNone;
      std::uint32_t kept_tail = kNone;
      for (std::uint32_t node = nodes_[tail].next;;) {
        const std::uint32_t next = nodes_[node].next;
        const bool last = node == tail;
        if (stale(event(nodes_[node]))) {
          release(node);
        } else {
          (kept_tail == kNone ? kept_head : nodes_[kept_tail].next) = node;
          kept_tail = node;
        }
        if (last) break;
        node = next;
      }
      bucket_tail_[bucket] = kept_tail;
      if (kept_tail == kNone) {
        mark_empty(bucket);
      } else {
        nodes_[kept_tail].next = kept_head;
      }
    }
  }
  front_ =
      near_count_ == 0 ? kNone : sorted_head(next_occupied(bucket_of(now_)));
  update_near_first();
  refill_ready();  // what it kept is still earlier than the rest
  return before - size();
}

// Floyd's variant of sift-down: the hole left at the root moves down along
// the earliest children to a leaf without comparing against the last
// entry, which then sifts up from there. The last entry came from the
// bottom and is usually late, so it rarely climbs: one comparison per
// level fewer than the classic sift-down.
EventQueue::Entry EventQueue::pop_far() {
  const Entry top = far_.front();
  const Entry last = far_.back();
  far_.pop_back();
  const std::size_t n = far_.size();
  if (n == 0) return top;
  Entry* h = far_.data();
  std::size_t hole = 0;
  for (std::size_t first = 1; first < n; first = 4 * hole + 1) {
    const std::size_t best = earliest_child(h, first, n);
    h[hole] = h[best];
    hole = best;
  }
  sift_up(hole, last);
  return top;
}

// Bottom-up heap construction: each parent, from the last one up to the
// root, moves down below its earlier children.
void EventQueue::heapify() {
  const std::size_t n = far_.size();
  Entry* h = far_.data();
  for (std::size_t i = n < 2 ? 0 : (n - 2) / 4 + 1; i-- > 0;) {
    const Entry e = h[i];
    std::size_t hole = i;
    for (std::size_t first = 4 * hole + 1; first < n; first = 4 * hole + 1) {
      const std::size_t best = earliest_child(h, first, n);
      if (!(key(h[best]) < key(e))) break;
      h[hole] = h[best];
      hole = best;
    }
    h[hole] = e;
  }
}

// Places `e` at slot `i` or above, moving later parents down.
void EventQueue::sift_up(std::size_t i, const Entry& e) {
  Entry* h = far_.data();
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!(key(e) < key(h[parent]))) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

}  // namespace arfabric::sim
