// Error values shared by every codec.
//
// Codecs never throw: a parser returns std::expected<T, DecodeError> and a
// serializer std::expected<void, EncodeError>. A DecodeError names the field
// that could not be read and the byte offset of that field from the start of
// the outermost buffer handed to the top-level parser, so that a user can find
// the bad byte in a hex dump or pcap.
#pragma once

#include <cstddef>
#include <string>

namespace arfabric {

struct DecodeError {
  std::string field;       // dotted path, e.g. "bgp.open.hold_time"
  std::size_t offset = 0;  // byte offset of the field in the outermost buffer
  std::string reason;      // what is wrong, e.g. "truncated: need 2, have 1"

  std::string to_string() const;
  bool operator==(const DecodeError&) const = default;
};

struct EncodeError {
  std::string field;   // the struct member that cannot be encoded
  std::string reason;  // e.g. "value 70 exceeds the 6-bit field (max 63)"

  std::string to_string() const;
  bool operator==(const EncodeError&) const = default;
};

}  // namespace arfabric

// Unwraps a std::expected, or returns its error from the enclosing function.
// The error type must convert to the enclosing function's error type.
#define ARF_TRY(expr)                                             \
  ({                                                              \
    auto&& arf_try_result_ = (expr);                              \
    if (!arf_try_result_)                                         \
      return std::unexpected(std::move(arf_try_result_).error()); \
    *std::move(arf_try_result_);                                  \
  })
