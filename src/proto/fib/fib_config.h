// Configuration of the forwarding information base (src/proto/fib).
//
// Every choice the drafts leave open is a field here with its default; the
// reasons are in docs/PROTOCOLS.md (FIB). validate() names the first bad field.
//   - draft-camarillo-rtgwg-lsn §3.2.3: effective member = routing AND
//     notification; empty result -> "pre-programmed backup path" (Fallback).
//   - draft-camarillo-rtgwg-lsn §4.2 last paragraph: a reachable report alone
//     does not restore a path (ReinstallRule, lsn_safety_bound).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>

#include "common/units.h"
#include "proto/config_error.h"
#include "proto/fib/forwarding_types.h"

namespace arfabric::proto::fib {

// Member table sizes a hardware WCMP group supports.
inline constexpr std::uint32_t kMinTableSize = 64;
inline constexpr std::uint32_t kMaxTableSize = 4096;
// Largest next-hop weight accepted from the control plane. Keeps weight *
// congestion multiplier below 2^32 and the quantiser's exact arithmetic in
// 128 bits.
inline constexpr std::uint32_t kMaxWeight = 1u << 24;
inline constexpr std::uint32_t kMaxCongestionMultiplier = 255;

// What to do when routing has members but every one is vetoed.
enum class Fallback : std::uint8_t {
  keep_routing,  // forward over the routing members, ignoring the vetoes
  backup,        // the group given by set_backup() (vetoes apply); else drop
  drop,          // no route
};

// How congestion (levels 1..3) lowers a member's preference.
enum class CongestionPolicy : std::uint8_t {
  scale,  // weight * congestion_multiplier[level]
  tier,   // only members at the lowest congestion level present
};

// What counts as the routing protocol "re-installing" an LSN-vetoed path.
enum class ReinstallRule : std::uint8_t {
  // set_route(dest, ...) including the port (weight > 0), called at a time
  // strictly later than the veto.
  any_install_after_veto,
  // As above, and some set_route/remove_route for dest between the veto and
  // that call left the port out (routing withdrew it, then added it back).
  withdraw_then_install,
};

struct FibConfig {
  // Destinations are dense NodeIds 0..max_destinations-1.
  NodeId max_destinations = 256;
  // Entries per member table (per destination), kMinTableSize..kMaxTableSize.
  std::uint32_t table_size = 4096;
  Fallback fallback = Fallback::backup;
  CongestionPolicy congestion_policy = CongestionPolicy::scale;
  // Indexed by congestion level 0..3; must be non-increasing and > 0 so that
  // congestion never removes a member.
  std::array<std::uint32_t, 4> congestion_multiplier{4, 3, 2, 1};
  ReinstallRule reinstall_rule = ReinstallRule::any_install_after_veto;
  // After LSN reports a vetoed path reachable again, the path returns at the
  // latest this long afterwards even without a re-install (a lost BGP update
  // must not strand capacity forever). Time::max() disables the bound; zero
  // restores on the reachable report (no latch).
  Time lsn_safety_bound = sec(5);
  // Flowlet mode: a flow keeps its port until idle for more than this.
  Time flowlet_gap = us(50);
  // Flowlet table slots (power of two), allocated once.
  std::uint32_t flowlet_table_size = 65536;
  // Per-flow overrides (ARN flow-granular objects) held at once over all
  // destinations; beyond it apply() refuses and counts (0: none accepted).
  std::uint32_t max_flow_overrides = 1024;
};

// Checks each field; the error names the first bad one.
std::expected<void, ConfigError> validate(const FibConfig& config);

}  // namespace arfabric::proto::fib
