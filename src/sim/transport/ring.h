// A fixed-capacity FIFO over a power-of-two buffer, allocated once when a
// flow is created, so the transport's per-packet paths never allocate.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace arfabric::sim::transport {

// `size` elements of T that nothing initialises: every element must be
// written before it is read. For a flow's arrays, sized for its packets up
// to twice the largest window (32 KB in all at the default window):
// filling them when the flow started wrote, and evicted from the cache,
// kilobytes of which a flow uses the part its window reaches, and the
// elements it uses are written again when it gets to them. T is trivially
// copyable and destructible, so the storage from std::malloc holds T's
// without construction (C++20 implicit object creation).
template <typename T>
class UninitializedArray {
  static_assert(std::is_trivially_copyable_v<T> &&
                std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= alignof(std::max_align_t));  // malloc's

 public:
  UninitializedArray() = default;
  // Throws std::bad_alloc.
  explicit UninitializedArray(std::size_t size) : size_(size) {
    if (size > std::numeric_limits<std::size_t>::max() / sizeof(T))
      throw std::bad_alloc();
    data_.reset(static_cast<T*>(std::malloc(size * sizeof(T))));
    if (size != 0 && data_ == nullptr) throw std::bad_alloc();
#ifndef NDEBUG
    // Debug builds (the tests) fill it with a pattern no element is set
    // to, so an element read before it is written reads garbage, not the
    // zeros a fresh page happens to hold.
    std::memset(static_cast<void*>(data_.get()), 0xa5, size * sizeof(T));
#endif
  }
  UninitializedArray(UninitializedArray&& other) noexcept
      : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)) {}
  UninitializedArray& operator=(UninitializedArray&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  T& operator[](std::size_t i) {
    assert(i < size_);
    return data_.get()[i];
  }
  const T& operator[](std::size_t i) const {
    assert(i < size_);
    return data_.get()[i];
  }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

// Its bookkeeping is three 32-bit words, so that a flow's Sender, which
// holds two, stays small (a sender's capacities are at most 2^22).
template <typename T>
class Ring {
 public:
  // capacity must be a power of two, at most 2^31.
  void reset(std::size_t capacity) {
    assert(capacity > 0 && (capacity & (capacity - 1)) == 0);
    assert(capacity <= std::size_t{1} << 31);
    buffer_ = UninitializedArray<T>(capacity);
    mask_ = static_cast<std::uint32_t>(capacity - 1);
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
    std::uint32_t kept = 0;
    for (std::uint32_t i = 0; i < size_; ++i) {
      const T value = buffer_[(head_ + i) & mask_];
      if (keep(value)) buffer_[(head_ + kept++) & mask_] = value;
    }
    size_ = kept;
  }

 private:
  UninitializedArray<T> buffer_;  // entries outside the FIFO: unset
  std::uint32_t mask_ = 0;
  std::uint32_t head_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace arfabric::sim::transport
