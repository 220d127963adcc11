// A minimal "{}" formatter for error messages: g++ 12's libstdc++ has no
// <format>, and the layers do not link fmt. Each "{}" in `pattern` is
// replaced by the next argument (strings as is, integers in decimal,
// floating point as printf "%g"); "{{" and "}}" are not special.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

namespace arfabric {
namespace strformat_detail {

inline void append(std::string& out, std::string_view s) { out += s; }
inline void append(std::string& out, const char* s) { out += s; }
inline void append(std::string& out, const std::string& s) { out += s; }
inline void append(std::string& out, char c) { out += c; }
template <typename T>
requires std::is_integral_v<T>
void append(std::string& out, T v) { out += std::to_string(v); }
template <typename T>
requires std::is_floating_point_v<T>
void append(std::string& out, T v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  out += buf;
}

}  // namespace strformat_detail

template <typename... Args>
std::string strformat(std::string_view pattern, const Args&... args) {
  std::string out;
  out.reserve(pattern.size() + 16 * sizeof...(Args));
  std::size_t pos = 0;
  const auto next = [&](const auto& arg) {
    const std::size_t at = pattern.find("{}", pos);
    if (at == std::string_view::npos) return;
    out += pattern.substr(pos, at - pos);
    strformat_detail::append(out, arg);
    pos = at + 2;
  };
  (next(args), ...);
  out += pattern.substr(pos);
  return out;
}

}  // namespace arfabric
