// Bounds-checked big-endian reading and writing of byte buffers.
//
// ByteReader walks a span and never reads past its end, in release builds
// too: every read returns std::expected and a short buffer yields a
// DecodeError naming the field and its absolute offset. sub() hands a
// sub-parser only its own slice, so a length field that lies cannot make a
// nested parser read its neighbour's bytes.
//
// ByteWriter appends to a growable buffer; patch_u16() back-fills length
// fields once the body is written.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <expected>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"

namespace arfabric {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

class ByteReader {
 public:
  // base_offset is the position of data[0] in the outermost buffer; errors
  // report offsets relative to that outermost buffer.
  explicit ByteReader(ByteSpan data, std::size_t base_offset = 0)
      : data_(data), base_(base_offset) {}

  std::expected<std::uint8_t, DecodeError> u8(std::string_view field) {
    if (!has(1)) return std::unexpected(truncated(field, 1));
    return data_[pos_++];
  }
  std::expected<std::uint16_t, DecodeError> u16(std::string_view field) {
    if (!has(2)) return std::unexpected(truncated(field, 2));
    std::uint16_t v =
        static_cast<std::uint16_t>(data_[pos_] << 8 | data_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  std::expected<std::uint32_t, DecodeError> u24(std::string_view field) {
    if (!has(3)) return std::unexpected(truncated(field, 3));
    std::uint32_t v = std::uint32_t{data_[pos_]} << 16 |
                      std::uint32_t{data_[pos_ + 1]} << 8 | data_[pos_ + 2];
    pos_ += 3;
    return v;
  }
  std::expected<std::uint32_t, DecodeError> u32(std::string_view field) {
    if (!has(4)) return std::unexpected(truncated(field, 4));
    std::uint32_t v = std::uint32_t{data_[pos_]} << 24 |
                      std::uint32_t{data_[pos_ + 1]} << 16 |
                      std::uint32_t{data_[pos_ + 2]} << 8 | data_[pos_ + 3];
    pos_ += 4;
    return v;
  }
  std::expected<std::uint64_t, DecodeError> u64(std::string_view field) {
    auto hi = u32(field);
    if (!hi) return std::unexpected(hi.error());
    auto lo = u32(field);
    if (!lo) {
      pos_ -= 4;
      return std::unexpected(truncated(field, 8));
    }
    return std::uint64_t{*hi} << 32 | *lo;
  }
  // The next n bytes, as a view into the original buffer.
  std::expected<ByteSpan, DecodeError> bytes(std::size_t n,
                                             std::string_view field) {
    if (!has(n)) return std::unexpected(truncated(field, n));
    ByteSpan s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  // The next N bytes, copied into a fixed-size array (an address, an ID).
  template <std::size_t N>
  std::expected<std::array<std::uint8_t, N>, DecodeError> array(
      std::string_view field) {
    if (!has(N)) return std::unexpected(truncated(field, N));
    std::array<std::uint8_t, N> out;
    std::memcpy(out.data(), data_.data() + pos_, N);
    pos_ += N;
    return out;
  }
  // A reader over only the next n bytes; this reader moves past them.
  std::expected<ByteReader, DecodeError> sub(std::size_t n,
                                             std::string_view field) {
    std::size_t at = offset();
    auto s = bytes(n, field);
    if (!s) return std::unexpected(s.error());
    return ByteReader(*s, at);
  }
  // Everything not yet read; this reader ends up empty.
  ByteSpan rest() {
    ByteSpan s = data_.subspan(pos_);
    pos_ = data_.size();
    return s;
  }

  bool empty() const { return pos_ == data_.size(); }
  std::size_t remaining() const { return data_.size() - pos_; }
  // Absolute offset of the next byte to be read.
  std::size_t offset() const { return base_ + pos_; }
  // Position within this reader's own slice.
  std::size_t position() const { return pos_; }

  // An error about `field` at the current offset (or at `at`, absolute).
  DecodeError error(std::string_view field, std::string reason) const {
    return DecodeError{std::string(field), offset(), std::move(reason)};
  }
  DecodeError error_at(std::size_t at, std::string_view field,
                       std::string reason) const {
    return DecodeError{std::string(field), at, std::move(reason)};
  }

 private:
  bool has(std::size_t n) const { return data_.size() - pos_ >= n; }
  DecodeError truncated(std::string_view field, std::size_t need) const;

  ByteSpan data_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

// The big-endian 16 bits at `at`, for walkers that have checked the
// bounds themselves (at + 2 <= b.size()); ByteReader::u16 checks them.
inline std::uint16_t load_be16(ByteSpan b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}

class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(Bytes buffer) : buf_(std::move(buffer)) { buf_.clear(); }

  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v) {
    buf_.push_back(static_cast<std::uint8_t>(v >> 8));
    buf_.push_back(static_cast<std::uint8_t>(v));
  }
  void u24(std::uint32_t v) {
    buf_.push_back(static_cast<std::uint8_t>(v >> 16));
    u16(static_cast<std::uint16_t>(v));
  }
  void u32(std::uint32_t v) {
    u16(static_cast<std::uint16_t>(v >> 16));
    u16(static_cast<std::uint16_t>(v));
  }
  void u64(std::uint64_t v) {
    u32(static_cast<std::uint32_t>(v >> 32));
    u32(static_cast<std::uint32_t>(v));
  }
  void bytes(ByteSpan s) {
    // resize + memcpy: vector::insert of a range is several times slower
    // for the few-byte copies codecs make (a BGP prefix is 1-4 bytes).
    const std::size_t at = buf_.size();
    buf_.resize(at + s.size());
    if (!s.empty()) std::memcpy(buf_.data() + at, s.data(), s.size());
  }
  void zeros(std::size_t n) { buf_.insert(buf_.end(), n, 0); }
  // Overwrites two bytes already written at `pos` (for length back-fill).
  void patch_u16(std::size_t pos, std::uint16_t v) {
    buf_[pos] = static_cast<std::uint8_t>(v >> 8);
    buf_[pos + 1] = static_cast<std::uint8_t>(v);
  }
  void patch_u8(std::size_t pos, std::uint8_t v) { buf_[pos] = v; }

  std::size_t size() const { return buf_.size(); }
  const Bytes& data() const { return buf_; }
  Bytes take() { return std::move(buf_); }
  void clear() { buf_.clear(); }
  // Trims back to `size` bytes, dropping a partly written message.
  void truncate(std::size_t size) { buf_.resize(size); }

 private:
  Bytes buf_;
};

}  // namespace arfabric
