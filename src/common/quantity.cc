#include "common/quantity.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "common/strformat.h"

namespace arfabric {
namespace {

using u128 = unsigned __int128;

// A decimal number: `digits` / 10^`decimals`, and what follows it.
struct Decimal {
  u128 digits = 0;
  int decimals = 0;
  std::string_view suffix;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// Reads "123", "1.5", ".5"; at most 30 significant digits so the 128-bit
// arithmetic below cannot overflow.
std::optional<Decimal> read_decimal(std::string_view s) {
  Decimal d;
  std::size_t i = 0;
  int count = 0;
  bool seen_point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (++count > 30) return std::nullopt;
    d.digits = d.digits * 10 + static_cast<unsigned>(c - '0');
    if (seen_point) ++d.decimals;
  }
  if (count == 0) return std::nullopt;
  d.suffix = trim(s.substr(i));
  return d;
}

u128 pow10(int n) {
  u128 v = 1;
  while (n-- > 0) v *= 10;
  return v;
}

// digits / 10^decimals * scale, if that is a whole number.
std::optional<u128> scaled(const Decimal& d, u128 scale) {
  const u128 num = d.digits * scale;
  const u128 den = pow10(d.decimals);
  if (num % den != 0) return std::nullopt;
  return num / den;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

std::expected<BitsPerSecond, std::string> parse_rate(std::string_view text) {
  const std::string_view s = trim(text);
  const auto bad = [&] {
    return std::unexpected(strformat(
        "rate '{}': expected a number with K/M/G/T suffix (e.g. 400G)", s));
  };
  const auto d = read_decimal(s);
  if (!d) return bad();
  std::string_view suffix = d->suffix;
  // Accept "400Gbps" and "400G b/s" as well as "400G". A capital B is
  // bytes ("50GBps", "50GB/s"): refused, not read as bits, 8x off.
  for (std::string_view unit : {"bps", "b/s"}) {
    if (suffix.size() >= unit.size() &&
        iequals(suffix.substr(suffix.size() - unit.size()), unit)) {
      if (suffix[suffix.size() - unit.size()] == 'B')
        return std::unexpected(
            strformat("rate '{}': B is bytes, and rates are in bits per second "
                      "(e.g. 400G or 400Gbps)",
                      s));
      suffix = trim(suffix.substr(0, suffix.size() - unit.size()));
      break;
    }
  }
  // "400GB": bytes again, without the "ps".
  if (suffix.size() >= 2 && suffix.back() == 'B')
    return std::unexpected(
        strformat("rate '{}': B is bytes, and rates are in bits per second "
                  "(e.g. 400G or 400Gbps)",
                  s));
  u128 scale = 0;
  if (suffix.empty()) {
    scale = 1;
  } else if (suffix.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K':
        scale = 1'000;
        break;
      case 'M':
        scale = 1'000'000;
        break;
      case 'G':
        scale = 1'000'000'000;
        break;
      case 'T':
        scale = 1'000'000'000'000;
        break;
      default:
        return bad();
    }
  } else {
    return bad();
  }
  const auto v = scaled(*d, scale);
  if (!v)
    return std::unexpected(
        strformat("rate '{}': not a whole number "
                  "of bits per second",
                  s));
  if (*v == 0) return std::unexpected(strformat("rate '{}': must be > 0", s));
  if (*v > 1'000'000'000'000'000ULL)
    return std::unexpected(strformat("rate '{}': above the 1000T maximum", s));
  return static_cast<BitsPerSecond>(*v);
}

std::expected<Time, std::string> parse_time(std::string_view text) {
  const std::string_view s = trim(text);
  const auto bad = [&] {
    return std::unexpected(strformat(
        "time '{}': expected a number with a unit ps, ns, us, ms or s "
        "(e.g. 10us)",
        s));
  };
  if (!s.empty() && s.front() == '-')
    return std::unexpected(strformat("time '{}': must not be negative", s));
  const auto d = read_decimal(s);
  if (!d) return bad();
  u128 scale = 0;
  const std::string_view u = d->suffix;
  if (u == "ps") {
    scale = 1;
  } else if (u == "ns") {
    scale = 1'000;
  } else if (u == "us" || u == "\u00b5s" || u == "\u03bcs") {
    // Micro sign and Greek mu: keyboards and editors give either.
    scale = 1'000'000;
  } else if (u == "ms") {
    scale = 1'000'000'000;
  } else if (u == "s") {
    scale = 1'000'000'000'000;
  } else if (u.empty() && d->digits == 0) {
    scale = 1;  // "0" needs no unit
  } else {
    return bad();
  }
  const auto v = scaled(*d, scale);
  if (!v)
    return std::unexpected(
        strformat("time '{}': not a whole number of picoseconds", s));
  if (*v > static_cast<u128>(1'000'000) * 1'000'000'000'000ULL)
    return std::unexpected(strformat("time '{}': above 10^6 s", s));
  return ps(static_cast<std::int64_t>(*v));
}

std::expected<std::uint64_t, std::string> parse_size(std::string_view text) {
  const std::string_view s = trim(text);
  const auto bad = [&] {
    return std::unexpected(strformat(
        "size '{}': expected bytes with an optional suffix B, KB, MB, GB, "
        "TB, KiB, MiB, GiB or TiB (e.g. 64KB)",
        s));
  };
  const auto d = read_decimal(s);
  if (!d) return bad();
  struct Unit {
    std::string_view name;
    u128 scale;
  };
  static constexpr std::array<Unit, 10> kUnits{{
      {"", 1},
      {"B", 1},
      {"KB", 1'000},
      {"kB", 1'000},  // SI's own spelling
      {"MB", 1'000'000},
      {"GB", 1'000'000'000},
      {"TB", 1'000'000'000'000},
      {"KiB", u128{1} << 10},
      {"MiB", u128{1} << 20},
      {"GiB", u128{1} << 30},
  }};
  u128 scale = 0;
  for (const Unit& unit : kUnits)
    if (d->suffix == unit.name) scale = unit.scale;
  if (d->suffix == "TiB") scale = u128{1} << 40;
  if (scale == 0) return bad();
  const auto v = scaled(*d, scale);
  if (!v)
    return std::unexpected(
        strformat("size '{}': not a whole number of bytes", s));
  if (*v > (u128{1} << 50))
    return std::unexpected(strformat("size '{}': above 1 PiB", s));
  return static_cast<std::uint64_t>(*v);
}

std::expected<double, std::string> parse_fraction(std::string_view text) {
  const std::string_view s = trim(text);
  const auto bad = [&] {
    return std::unexpected(strformat(
        "fraction '{}': expected a number in 0..1 or a percentage (e.g. "
        "0.5 or 50%)",
        s));
  };
  if (!s.empty() && s.front() == '-')
    return std::unexpected(strformat("fraction '{}': must not be negative", s));
  const auto d = read_decimal(s);
  if (!d) return bad();
  double v =
      static_cast<double>(d->digits) / static_cast<double>(pow10(d->decimals));
  if (d->suffix == "%") {
    v /= 100.0;
  } else if (!d->suffix.empty()) {
    return bad();
  }
  if (v > 1.0)
    return std::unexpected(strformat("fraction '{}': above 1 (100%)", s));
  return v;
}

namespace {

// `value` in the largest of `units` (scale and suffix, largest first) that
// divides it exactly, else with `base` after it: 400G, 64KiB, 20us.
template <typename T, std::size_t N>
std::string in_exact_unit(
    T value, const std::array<std::pair<T, std::string_view>, N>& units,
    std::string_view base) {
  for (const auto& [scale, unit] : units)
    if (value >= scale && value % scale == 0)
      return strformat("{}{}", value / scale, unit);
  return strformat("{}{}", value, base);
}

}  // namespace

std::string format_rate(BitsPerSecond rate) {
  static constexpr std::array<std::pair<BitsPerSecond, std::string_view>, 4>
      kUnits{{
          {1'000'000'000'000, "T"},
          {1'000'000'000, "G"},
          {1'000'000, "M"},
          {1'000, "K"},
      }};
  return in_exact_unit(rate, kUnits, "");
}

std::string format_size(std::uint64_t bytes) {
  // Decimal units first, as scenarios mostly use them; then binary.
  static constexpr std::array<std::pair<std::uint64_t, std::string_view>, 8>
      kUnits{{
          {1'000'000'000'000, "TB"},
          {1'000'000'000, "GB"},
          {1'000'000, "MB"},
          {1'000, "KB"},
          {std::uint64_t{1} << 40, "TiB"},
          {std::uint64_t{1} << 30, "GiB"},
          {std::uint64_t{1} << 20, "MiB"},
          {std::uint64_t{1} << 10, "KiB"},
      }};
  return in_exact_unit(bytes, kUnits, "B");
}

std::string format_time(Time t) {
  static constexpr std::array<std::pair<std::int64_t, std::string_view>, 4>
      kUnits{{
          {1'000'000'000'000, "s"},
          {1'000'000'000, "ms"},
          {1'000'000, "us"},
          {1'000, "ns"},
      }};
  return in_exact_unit(t.ps(), kUnits, "ps");
}

std::string format_time_rounded(Time t) {
  if (t == Time::max()) return "-";
  const double s = t.seconds();
  char text[48];
  // The unit by the value as rounded: 999.96 us is "1.000 ms", not
  // "1000.0 us".
  if (s >= 0.9999995) {
    std::snprintf(text, sizeof text, "%.3f s", s);
  } else if (s >= 0.99995e-3) {
    std::snprintf(text, sizeof text, "%.3f ms", s * 1e3);
  } else if (s >= 0.99995e-6 || t == Time{}) {
    std::snprintf(text, sizeof text, "%.1f us", s * 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.1f ns", s * 1e9);
  }
  return text;
}

}  // namespace arfabric
