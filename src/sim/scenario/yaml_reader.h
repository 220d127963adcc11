// Checked reading of a YAML document for the scenario parser: every map is
// opened with the keys it allows (an unknown key is an error at once, with
// a "did you mean" hint), every scalar is parsed by our own unit parsers
// (quantity.h), and every error carries the file, line, column and dotted
// key of the offending node (yaml-cpp Node::Mark()).
//
// Internal to src/sim/scenario; not for the simulator core.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <expected>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/units.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim::yaml_reader {

template <typename T>
using Result = std::expected<T, ScenarioError>;

// An error located at `node` (1-based line and column).
ScenarioError error_at(std::string_view file, const YAML::Node& node,
                       std::string key, std::string message);

// Scalars. `key` is the dotted path for errors. Errors: not a scalar (a map
// or list, or null), and the parse errors of quantity.h.
Result<std::string> as_string(std::string_view file, const YAML::Node& n,
                              const std::string& key);
// Unsigned integer in [min, max].
Result<std::uint64_t> as_uint(std::string_view file, const YAML::Node& n,
                              const std::string& key, std::uint64_t min,
                              std::uint64_t max);
Result<bool> as_bool(std::string_view file, const YAML::Node& n,
                     const std::string& key);
Result<BitsPerSecond> as_rate(std::string_view file, const YAML::Node& n,
                              const std::string& key);
Result<Time> as_time(std::string_view file, const YAML::Node& n,
                     const std::string& key);
Result<std::uint64_t> as_size(std::string_view file, const YAML::Node& n,
                              const std::string& key);
Result<double> as_fraction(std::string_view file, const YAML::Node& n,
                           const std::string& key);

// A YAML map whose keys were checked against an allowed list.
class Map {
 public:
  // Errors: `node` is not a map; a key that is not a scalar, is repeated
  // or is not in `allowed`.
  static Result<Map> open(std::string_view file, const YAML::Node& node,
                          std::string path,
                          const std::vector<std::string_view>& allowed);

  bool has(std::string_view key) const;
  // The value of `key`, or nullopt.
  std::optional<YAML::Node> get(std::string_view key) const;
  // The value of `key`. Errors: absent or null ("missing required key").
  Result<YAML::Node> require(std::string_view key) const;
  // "path.key" (or "key" at the top level).
  std::string key_path(std::string_view key) const;
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  std::string_view file() const { return file_; }

  // Read an optional value into `out` (left unchanged when absent), or a
  // required one.
  Result<void> read_uint(std::string_view key, std::uint32_t& out,
                         std::uint64_t min, std::uint64_t max) const;
  Result<void> read_uint64(std::string_view key, std::uint64_t& out) const;
  Result<void> read_bool(std::string_view key, bool& out) const;
  Result<void> read_string(std::string_view key, std::string& out) const;
  Result<void> read_rate(std::string_view key, BitsPerSecond& out) const;
  Result<void> read_time(std::string_view key, Time& out) const;
  Result<void> read_size(std::string_view key, std::uint64_t& out) const;
  Result<void> read_fraction(std::string_view key, double& out) const;
  Result<void> require_uint(std::string_view key, std::uint32_t& out,
                            std::uint64_t min, std::uint64_t max) const;

  ScenarioError error(std::string_view key, std::string message) const;

 private:
  std::string file_;
  YAML::Node node_;
  std::string path_;
  std::vector<std::pair<std::string, YAML::Node>> entries_;
};

}  // namespace arfabric::sim::yaml_reader
