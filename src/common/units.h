// Time, rates and sizes with their units in the type or the name.
//
// Time is a strong 64-bit count of picoseconds (enough for 106 days), so that
// a 400 Gb/s link's 20 ps per bit is exact and engines never read a clock:
// the caller passes `now`. Rates are bits per second, sizes bytes.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace arfabric {

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_ps(std::int64_t ps) { return Time(ps); }
  static constexpr Time max() {
    return Time(std::numeric_limits<std::int64_t>::max());
  }

  constexpr std::int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) {
    ps_ += o.ps_;
    return *this;
  }
  constexpr Time& operator-=(Time o) {
    ps_ -= o.ps_;
    return *this;
  }
  constexpr Time operator*(std::int64_t k) const { return Time(ps_ * k); }
  constexpr std::int64_t operator/(Time o) const { return ps_ / o.ps_; }

 private:
  constexpr explicit Time(std::int64_t ps) : ps_(ps) {}
  std::int64_t ps_ = 0;
};

constexpr Time ps(std::int64_t v) { return Time::from_ps(v); }
constexpr Time ns(std::int64_t v) { return Time::from_ps(v * 1'000); }
constexpr Time us(std::int64_t v) { return Time::from_ps(v * 1'000'000); }
constexpr Time ms(std::int64_t v) { return Time::from_ps(v * 1'000'000'000); }
constexpr Time sec(std::int64_t v) {
  return Time::from_ps(v * 1'000'000'000'000);
}

// Link and path rates, bits per second.
using BitsPerSecond = std::uint64_t;
constexpr BitsPerSecond gbps(std::uint64_t v) { return v * 1'000'000'000; }
constexpr BitsPerSecond mbps(std::uint64_t v) { return v * 1'000'000; }

// Time to serialise `bytes` at `rate` (rounded up to a whole picosecond).
constexpr Time transmission_time(std::uint64_t bytes, BitsPerSecond rate) {
  // Every packet size fits the 64-bit division, several times cheaper than
  // the 128-bit one (a library call); both give the same quotient.
  constexpr std::uint64_t kBitPs = 8 * 1'000'000'000'000ULL;
  if (bytes <= (std::numeric_limits<std::uint64_t>::max() - rate) / kBitPs) {
    return ps(static_cast<std::int64_t>((bytes * kBitPs + rate - 1) / rate));
  }
  const unsigned __int128 bits_ps =
      static_cast<unsigned __int128>(bytes) * 8 * 1'000'000'000'000ULL;
  return ps(static_cast<std::int64_t>((bits_ps + rate - 1) / rate));
}

}  // namespace arfabric
