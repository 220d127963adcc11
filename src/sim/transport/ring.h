// A fixed-capacity FIFO over a power-of-two buffer, allocated once when a
// flow is created, so the transport's per-packet paths never allocate.
#pragma once

#include <cassert>
#include <cstddef>
#include <vector>

namespace arfabric::sim::transport {

template <typename T>
class Ring {
 public:
  // capacity must be a power of two.
  void reset(std::size_t capacity) {
    assert(capacity > 0 && (capacity & (capacity - 1)) == 0);
    buffer_.assign(capacity, T{});
    mask_ = capacity - 1;
    head_ = size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == buffer_.size(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buffer_.size(); }
  const T& front() const { return buffer_[head_]; }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    --size_;
  }
  // Precondition: !full().
  void push_back(const T& value) {
    buffer_[(head_ + size_) & mask_] = value;
    ++size_;
  }
  void clear() { head_ = size_ = 0; }
  // Keeps, in order, the entries for which keep(entry) holds.
  template <typename Keep>
  void compact(Keep keep) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      const T value = buffer_[(head_ + i) & mask_];
      if (keep(value)) buffer_[(head_ + kept++) & mask_] = value;
    }
    size_ = kept;
  }

 private:
  std::vector<T> buffer_;
  std::size_t mask_ = 0;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace arfabric::sim::transport
