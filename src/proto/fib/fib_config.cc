#include "proto/fib/fib_config.h"

#include <bit>

namespace arfabric::proto::fib {

std::expected<void, ConfigError> validate(const FibConfig& c) {
  auto bad = [](std::string field, std::string reason) {
    return std::unexpected(ConfigError{"config." + field, std::move(reason)});
  };
  if (c.max_destinations == 0 || c.max_destinations > (1u << 24))
    return bad("max_destinations",
               std::to_string(c.max_destinations) + " is outside 1..16777216");
  if (c.table_size < kMinTableSize || c.table_size > kMaxTableSize)
    return bad("table_size",
               std::to_string(c.table_size) + " is outside 64..4096");
  for (std::size_t i = 0; i < c.congestion_multiplier.size(); ++i) {
    const std::uint32_t m = c.congestion_multiplier[i];
    const std::string field =
        "congestion_multiplier[" + std::to_string(i) + "]";
    if (m == 0 || m > kMaxCongestionMultiplier)
      return bad(field, std::to_string(m) +
                            " is outside 1..255 (congestion never removes a "
                            "member)");
    if (i > 0 && m > c.congestion_multiplier[i - 1])
      return bad(field, "larger than the level below it");
  }
  if (c.lsn_safety_bound < Time()) return bad("lsn_safety_bound", "negative");
  if (c.flowlet_gap < Time()) return bad("flowlet_gap", "negative");
  if (c.flowlet_table_size == 0 || c.flowlet_table_size > (1u << 24) ||
      !std::has_single_bit(c.flowlet_table_size))
    return bad("flowlet_table_size",
               std::to_string(c.flowlet_table_size) +
                   " is not a power of two in 1..16777216");
  if (c.max_flow_overrides > (1u << 20))
    return bad("max_flow_overrides",
               std::to_string(c.max_flow_overrides) + " is above 1048576");
  return {};
}

}  // namespace arfabric::proto::fib
