// Memory in transparent huge pages for the simulator's large hot data: an
// allocator for the big arrays (links, packets, the event queue) and an
// arena for many small arrays that hops read at random (the switches' FIB
// destination tables).
//
// A large fabric's links, packets and FIB entries span tens of MB or more
// (4,096 hosts: 52 MB of links, 50 MB of FIB destinations), and a packet
// hop touches a few of them at random: with 4 KB pages nearly every such
// touch also misses the TLB and walks the page table. With 2 MB pages the
// TLB covers the whole working set. Linux backs anonymous memory with huge
// pages only where the program asks (madvise(MADV_HUGEPAGE)) unless the
// system is set to "always", and only as pages are first touched: memory
// that malloc recycles has usually been touched already, in 4 KB pages, so
// advising it changes nothing (measured: 12 MB of a 4,096-host fabric's
// ~500 MB). So on Linux huge-page memory is a fresh mapping,
// 2 MB-aligned, a whole number of huge pages, advised before any page is
// touched. The advice is a hint: where it is refused (THP disabled, no
// free huge page) the memory is ordinary and nothing else changes.
// Elsewhere it is a plain aligned allocation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace arfabric::sim {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// `bytes` rounded up to whole huge pages.
inline std::size_t huge_page_size(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

// `size` bytes (a multiple of kHugePage) at a huge-page boundary, advised
// into huge pages (see the top). Throws std::bad_alloc.
inline void* map_huge_pages(std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // A mapping one huge page larger, trimmed at both ends.
  void* raw = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned != start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + size + kHugePage;
  if (end != aligned + size) {
    ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  }
  void* p = reinterpret_cast<void*>(aligned);
  (void)::madvise(p, size, MADV_HUGEPAGE);  // a hint; failure is harmless
  return p;
#else
  return ::operator new (size, std::align_val_t{kHugePage});
#endif
}

// Returns what map_huge_pages(size) gave.
inline void unmap_huge_pages(void* p, std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  ::munmap(p, size);
#else
  (void)size;
  ::operator delete (p, std::align_val_t{kHugePage});
#endif
}

// For std::vector: arrays of a huge page or more are mapped as above;
// smaller ones are plain aligned allocations.
template <typename T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    if (n > (std::size_t(-1) - kHugePage) / sizeof(T)) {
      throw std::bad_array_new_length();
    }
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugePage) {
      return static_cast<T*>(map_huge_pages(huge_page_size(bytes)));
    }
    return static_cast<T*>(
        ::operator new (bytes, std::align_val_t{alignof(T)}));
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugePage) {
      unmap_huge_pages(p, huge_page_size(bytes));
    } else {
      ::operator delete (p, std::align_val_t{alignof(T)});
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

// A memory resource that packs allocations one after another into
// huge-page mappings of at least kChunk bytes, and releases them all
// together when it is destroyed (deallocate does nothing): for arrays
// that live as long as the arena, such as each switch's FIB destination
// table. An allocation that does not fit in what is left of the current
// mapping starts a new one; the rest of the old one stays unused.
class HugePageArena final : public std::pmr::memory_resource {
 public:
  static constexpr std::size_t kChunk = 4 * kHugePage;

  HugePageArena() = default;
  HugePageArena(const HugePageArena&) = delete;
  HugePageArena& operator=(const HugePageArena&) = delete;
  ~HugePageArena() override {
    for (const Mapping& m : mappings_) unmap_huge_pages(m.base, m.size);
  }

  // Bytes mapped so far.
  std::size_t mapped() const {
    std::size_t total = 0;
    for (const Mapping& m : mappings_) total += m.size;
    return total;
  }
  // Bytes handed out so far (without alignment padding).
  std::size_t allocated() const { return allocated_; }

 private:
  struct Mapping {
    void* base;
    std::size_t size;
  };

  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    std::uintptr_t p = (next_ + alignment - 1) & ~(alignment - 1);
    if (mappings_.empty() || p + bytes > end_) {
      if (bytes > std::size_t(-1) / 2) throw std::bad_alloc();
      const std::size_t size =
          huge_page_size(std::max(bytes + alignment, kChunk));
      mappings_.reserve(mappings_.size() + 1);  // before the mapping: no leak
      void* base = map_huge_pages(size);
      mappings_.push_back({base, size});
      next_ = reinterpret_cast<std::uintptr_t>(base);
      end_ = next_ + size;
      p = (next_ + alignment - 1) & ~(alignment - 1);
    }
    next_ = p + bytes;
    allocated_ += bytes;
    return reinterpret_cast<void*>(p);
  }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(
      const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

  std::vector<Mapping> mappings_;
  std::uintptr_t next_ = 0;  // the current mapping's first free byte
  std::uintptr_t end_ = 0;   // and its end
  std::size_t allocated_ = 0;
};

}  // namespace arfabric::sim
