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

// The time a byte takes at 1 bit/s, in picoseconds: serialisation time is
// this times the bytes over the rate.
inline constexpr std::uint64_t kBytePicosecondsAt1Bps =
    8 * 1'000'000'000'000ULL;

// Time to serialise `bytes` at `rate` (rounded up to a whole picosecond).
constexpr Time transmission_time(std::uint64_t bytes, BitsPerSecond rate) {
  // Every packet size fits the 64-bit division, several times cheaper than
  // the 128-bit one (a library call); both give the same quotient.
  if (bytes <= (std::numeric_limits<std::uint64_t>::max() - rate) /
                   kBytePicosecondsAt1Bps) {
    return ps(static_cast<std::int64_t>(
        (bytes * kBytePicosecondsAt1Bps + rate - 1) / rate));
  }
  const unsigned __int128 bits_ps =
      static_cast<unsigned __int128>(bytes) * kBytePicosecondsAt1Bps;
  return ps(static_cast<std::int64_t>((bits_ps + rate - 1) / rate));
}

// Picoseconds per byte at `rate` when that is a whole number small enough
// that any 32-bit byte count times it fits (rate >= ~3.7 kbit/s), else 0:
// then transmission_time(bytes, rate) == bytes * it, a multiplication
// instead of a division (400G: 20 ps a byte).
constexpr std::uint64_t exact_picoseconds_per_byte(BitsPerSecond rate) {
  const bool exact = rate != 0 && kBytePicosecondsAt1Bps % rate == 0 &&
                     kBytePicosecondsAt1Bps / rate < (1ULL << 31);
  return exact ? kBytePicosecondsAt1Bps / rate : 0;
}

}  // namespace arfabric
