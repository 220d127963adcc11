// An allocator for the simulator's large hot arrays (links, packets, the
// event queue) that asks Linux for transparent huge pages.
//
// A large fabric's links and packets span tens of MB or more (the links
// of 4,096 hosts: 52 MB), and a packet hop touches a few of them at
// random: with 4 KB pages nearly every such touch also misses the TLB and
// walks the page table. With 2 MB pages the TLB covers the whole working
// set. Linux backs anonymous memory with huge pages only where the
// program asks (madvise(MADV_HUGEPAGE)) unless the system is set to
// "always", so arrays of 2 MB or more are allocated 2 MB-aligned, rounded
// up to whole huge pages, and advised. The advice is a hint: where it is
// refused or unknown (another OS, THP disabled) the memory is ordinary
// and nothing else changes. Smaller arrays are plain aligned allocations.
#pragma once

#include <cstddef>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace arfabric::sim {

template <typename T>
class HugePageAllocator {
 public:
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) {
      return static_cast<T*>(
          ::operator new (bytes, std::align_val_t{alignof(T)}));
    }
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = ::operator new (rounded, std::align_val_t{kHugePage});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    (void)madvise(p, rounded, MADV_HUGEPAGE);  // a hint; failure is harmless
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) {
      ::operator delete (p, std::align_val_t{alignof(T)});
    } else {
      ::operator delete (p, std::align_val_t{kHugePage});
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace arfabric::sim
