// Shared by the fuzz targets that drive an engine with a sequence of
// operations read from the input (arn_engine_fuzz, lsn_engine_fuzz).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/bytes.h"

// Reads the input from the front; past its end every read is 0 and every
// span empty.
class OperationReader {
 public:
  OperationReader(const std::uint8_t* data, std::size_t size)
      : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | byte();
    return v;
  }
  // Up to `n` bytes: fewer at the input's end.
  arfabric::ByteSpan bytes(std::size_t n) {
    n = std::min(n, size_ - std::min(at_, size_));
    const arfabric::ByteSpan s(data_ + at_, n);
    at_ += n;
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};
