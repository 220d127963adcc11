#include "sim/scenario/yaml_reader.h"

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "common/quantity.h"
#include "common/strformat.h"
#include "common/suggest.h"

namespace arfabric::sim::yaml_reader {
namespace {

std::string_view type_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Null:
      return "empty";
    default:
      return "a scalar";
  }
}

// Applies a quantity.h parser to a scalar node.
template <typename T, typename Parse>
Result<T> parse_scalar(std::string_view file, const YAML::Node& n,
                       const std::string& key, std::string_view what,
                       Parse parse) {
  if (!n.IsScalar())
    return std::unexpected(error_at(
        file, n, key, strformat("expected {}, found {}", what, type_name(n))));
  auto v = parse(n.Scalar());
  if (!v) return std::unexpected(error_at(file, n, key, std::move(v).error()));
  return *v;
}

}  // namespace

ScenarioError error_at(std::string_view file, const YAML::Node& node,
                       std::string key, std::string message) {
  const YAML::Mark mark = node.Mark();
  const bool known = mark.line >= 0 && !mark.is_null();
  return ScenarioError{std::string(file), known ? mark.line + 1 : 0,
                       known ? mark.column + 1 : 0, std::move(key),
                       std::move(message)};
}

Result<std::string> as_string(std::string_view file, const YAML::Node& n,
                              const std::string& key) {
  if (!n.IsScalar())
    return std::unexpected(error_at(
        file, n, key, strformat("expected a string, found {}", type_name(n))));
  return n.Scalar();
}

Result<std::uint64_t> as_uint(std::string_view file, const YAML::Node& n,
                              const std::string& key, std::uint64_t min,
                              std::uint64_t max) {
  if (!n.IsScalar())
    return std::unexpected(
        error_at(file, n, key,
                 strformat("expected an integer, found {}", type_name(n))));
  const std::string& s = n.Scalar();
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec == std::errc::result_out_of_range)
    return std::unexpected(
        error_at(file, n, key, strformat("'{}' is too large", s)));
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
    return std::unexpected(error_at(
        file, n, key, strformat("'{}' is not a non-negative integer", s)));
  if (v < min) {
    if (min == 1)
      return std::unexpected(error_at(file, n, key, "must be at least 1"));
    return std::unexpected(error_at(
        file, n, key, strformat("{} is below the minimum {}", v, min)));
  }
  if (v > max)
    return std::unexpected(error_at(
        file, n, key, strformat("{} is above the maximum {}", v, max)));
  return v;
}

Result<bool> as_bool(std::string_view file, const YAML::Node& n,
                     const std::string& key) {
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (s == "true") return true;
    if (s == "false") return false;
  }
  return std::unexpected(error_at(file, n, key, "expected true or false"));
}

Result<BitsPerSecond> as_rate(std::string_view file, const YAML::Node& n,
                              const std::string& key) {
  return parse_scalar<BitsPerSecond>(file, n, key, "a rate (e.g. 400G)",
                                     parse_rate);
}

Result<Time> as_time(std::string_view file, const YAML::Node& n,
                     const std::string& key) {
  return parse_scalar<Time>(file, n, key, "a time (e.g. 10us)", parse_time);
}

Result<std::uint64_t> as_size(std::string_view file, const YAML::Node& n,
                              const std::string& key) {
  return parse_scalar<std::uint64_t>(file, n, key, "a size (e.g. 64KB)",
                                     parse_size);
}

Result<double> as_fraction(std::string_view file, const YAML::Node& n,
                           const std::string& key) {
  return parse_scalar<double>(file, n, key, "a fraction (e.g. 0.5)",
                              parse_fraction);
}

Result<Map> Map::open(std::string_view file, const YAML::Node& node,
                      std::string path,
                      const std::vector<std::string_view>& allowed) {
  if (!node.IsMap())
    return std::unexpected(error_at(
        file, node, path.empty() ? "<top>" : path,
        strformat("expected a map of keys, found {}", type_name(node))));
  Map m;
  m.file_ = std::string(file);
  m.node_ = node;
  m.path_ = std::move(path);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    // A null, empty or structured key has no name of its own: the error
    // names the map it is in.
    if (!key.IsScalar() || key.Scalar().empty())
      return std::unexpected(error_at(file, key,
                                      m.path_.empty() ? "<top>" : m.path_,
                                      "a key must be a plain word"));
    const std::string& name = key.Scalar();
    const std::string full = m.key_path(name);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string message = strformat("unknown key '{}'", name);
      if (name == "<<")
        message += " (YAML merge keys are not supported: write the keys out)";
      else if (const auto s = suggest(name, allowed))
        message += strformat(" (did you mean '{}'?)", *s);
      else
        message += strformat(" (allowed here: {})", [&] {
          std::string list;
          for (std::string_view a : allowed)
            list += (list.empty() ? "" : ", ") + std::string(a);
          return list;
        }());
      return std::unexpected(error_at(file, key, full, std::move(message)));
    }
    if (m.has(name))
      return std::unexpected(
          error_at(file, key, full, strformat("duplicate key '{}'", name)));
    m.entries_.emplace_back(name, it->second);
  }
  return m;
}

bool Map::has(std::string_view key) const { return get(key).has_value(); }

std::optional<YAML::Node> Map::get(std::string_view key) const {
  for (const auto& [name, value] : entries_)
    if (name == key) return value;
  return std::nullopt;
}

Result<YAML::Node> Map::require(std::string_view key) const {
  const auto v = get(key);
  if (!v) return std::unexpected(error(key, "missing required key"));
  if (v->IsNull())
    return std::unexpected(error_at(file_, *v, key_path(key), "missing value"));
  return *v;
}

std::string Map::key_path(std::string_view key) const {
  if (path_.empty()) return std::string(key);
  return strformat("{}.{}", path_, key);
}

ScenarioError Map::error(std::string_view key, std::string message) const {
  const auto v = get(key);
  if (v && v->Mark().line >= 0)
    return error_at(file_, *v, key_path(key), std::move(message));
  return error_at(file_, node_, key_path(key), std::move(message));
}

Result<void> Map::read_uint(std::string_view key, std::uint32_t& out,
                            std::uint64_t min, std::uint64_t max) const {
  if (const auto v = get(key))
    out = static_cast<std::uint32_t>(
        ARF_TRY(as_uint(file_, *v, key_path(key), min,
                        std::min<std::uint64_t>(max, 0xffffffff))));
  return {};
}

Result<void> Map::read_uint64(std::string_view key, std::uint64_t& out) const {
  if (const auto v = get(key))
    out = ARF_TRY(as_uint(file_, *v, key_path(key), 0, ~std::uint64_t{0}));
  return {};
}

Result<void> Map::require_uint(std::string_view key, std::uint32_t& out,
                               std::uint64_t min, std::uint64_t max) const {
  const YAML::Node v = ARF_TRY(require(key));
  out = static_cast<std::uint32_t>(ARF_TRY(as_uint(
      file_, v, key_path(key), min, std::min<std::uint64_t>(max, 0xffffffff))));
  return {};
}

Result<void> Map::read_bool(std::string_view key, bool& out) const {
  if (const auto v = get(key)) out = ARF_TRY(as_bool(file_, *v, key_path(key)));
  return {};
}

Result<void> Map::read_string(std::string_view key, std::string& out) const {
  if (const auto v = get(key))
    out = ARF_TRY(as_string(file_, *v, key_path(key)));
  return {};
}

Result<void> Map::read_rate(std::string_view key, BitsPerSecond& out) const {
  if (const auto v = get(key)) out = ARF_TRY(as_rate(file_, *v, key_path(key)));
  return {};
}

Result<void> Map::read_time(std::string_view key, Time& out) const {
  if (const auto v = get(key)) out = ARF_TRY(as_time(file_, *v, key_path(key)));
  return {};
}

Result<void> Map::read_size(std::string_view key, std::uint64_t& out) const {
  if (const auto v = get(key)) out = ARF_TRY(as_size(file_, *v, key_path(key)));
  return {};
}

Result<void> Map::read_fraction(std::string_view key, double& out) const {
  if (const auto v = get(key))
    out = ARF_TRY(as_fraction(file_, *v, key_path(key)));
  return {};
}

}  // namespace arfabric::sim::yaml_reader
