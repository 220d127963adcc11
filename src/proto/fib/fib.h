// The forwarding information base of one node: weighted ECMP next-hop groups
// per destination, masked by vetoes and shaped by congestion, realised as
// hardware-style member tables (issue 4, "FIB with weighted ECMP").
//
// draft-camarillo-rtgwg-lsn §3.2.3: a member is effective iff the routing
// protocol installed it (weight > 0 in the last set_route) AND no source
// (LSN, ARN) vetoes it. If routing has members but none is effective, the
// configured Fallback applies ("removes that path ... or activates a
// pre-programmed backup path").
//
// §4.2, last paragraph -- the LSN recovery latch. An LSN veto is set by
// VetoChange{lsn, vetoed=true}. VetoChange{lsn, vetoed=false} records that
// LSN reports the path reachable, but does not by itself clear the veto. The
// veto clears when LSN's latest report is "reachable" and either
//   (a) the path was re-installed: set_route(dest, members) with the port at
//       weight > 0 was called at a time strictly later than the veto (and,
//       under ReinstallRule::withdraw_then_install, after some set_route /
//       remove_route for dest that left the port out), in either order with
//       the reachable report; or
//   (b) FibConfig::lsn_safety_bound has elapsed since the reachable report
//       (on_timer() at or after next_deadline()).
// "The veto time" is the time of the transition to unreachable; repeated
// unreachable reports do not move it, nor do repeated reachable reports
// restart the safety bound. ARN vetoes clear on the ARN un-veto record (the
// ARN engine runs its own revoke timeout).
//
// Rebuilds touch only the affected destination's member table, and only
// when its effective member set or weights changed. select() is O(1) and
// allocation-free.
//
// Sharing (what hardware does with ECMP groups): destinations with the same
// per-port state share one immutable copy of it, and destinations whose
// tables were built from the same table with the same members share the
// result, so a switch with thousands of destinations over the same uplinks
// holds a handful of tables (and Fibs given one MemberTablePool share them
// between switches too). Each destination still sees exactly the table
// its own history gives (a shared table is keyed by the table it was built
// from), so the resilient-update guarantee and the counters are per
// destination as before. A change to one destination copies its port
// states (O(ports)), changes the copy and shares the result. What one
// destination holds alone is changed where it is instead, with no copy:
// a congestion change to port states no other destination shares, and
// the step of a table no other destination holds (notifications give
// every destination of a fabric's leaves a history of its own).
//
// Per-flow overrides (ARN flow-granular affected objects, draft-wh-rtgwg-
// adaptive-routing-arn §3.1): apply(FlowOverrideChange) keeps, per
// destination, a small list of (match, port, veto, congestion level). They
// never touch the member table. select(dest, key, hash, ...) consults them
// only when the destination has any; a packet whose key matches none, or a
// destination without overrides, costs what select(dest, hash, ...) costs.
// For a matching packet the normal pick stands if the flow may use it;
// otherwise the packet redraws from the same table with hashes derived from
// its flow hash (so a flow stays on one port) and accepts a port with
// probability 0 (vetoed for this flow), multiplier[flow level] /
// multiplier[port level] (CongestionPolicy::scale: exactly the
// per-destination scaling with the flow's level), or 0 for a raised port
// (tier). Rejection sampling keeps the split of the remaining members equal
// to their weights, and a flow whose normal port is acceptable never moves.
// When every member is vetoed for the flow, the configured Fallback applies
// as for the destination (keep_routing: the normal pick; backup: the backup
// group minus all vetoes; drop). Congestion alone never empties the set.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <memory_resource>
#include <optional>
#include <queue>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/units.h"
#include "proto/fib/fib_config.h"
#include "proto/fib/flowlet_table.h"
#include "proto/fib/forwarding_types.h"
#include "proto/fib/member_table.h"
#include "proto/fib/prefix_table.h"

namespace arfabric::proto::fib {

enum class SelectMode : std::uint8_t {
  per_flow,    // entry hash % N
  per_packet,  // per-destination counter walking the member table
  flowlet,     // FlowletTable, idle gap FibConfig::flowlet_gap
};
inline constexpr std::size_t kSelectModes = 3;

// What a destination's table currently forwards over.
enum class GroupState : std::uint8_t {
  no_route,      // routing has no member with weight > 0
  effective,     // routing AND no veto, congestion-shaped
  keep_routing,  // fallback: routing members, vetoes ignored
  backup,        // fallback: the backup group
  drop,          // fallback: drop (or backup wanted but empty)
};

// One per-flow override as held by the Fib (FlowOverrideChange's state).
struct FlowOverride {
  FlowMatch match{};
  PortId port = 0;
  VetoSource source = VetoSource::arn;
  bool vetoed = false;
  std::uint8_t level = 0;
  bool operator==(const FlowOverride&) const = default;
};

struct FibCounters {
  std::array<std::uint64_t, kSelectModes> selections{};  // returned a port
  std::uint64_t no_route = 0;  // select() for a destination without route
  std::uint64_t fallback_keep_routing = 0;  // selections using each fallback
  std::uint64_t fallback_backup = 0;
  std::uint64_t fallback_drop = 0;       // selections dropped by the fallback
  std::uint64_t fallback_entered = 0;    // rebuilds that found no effective set
  std::uint64_t veto_changes = 0;        // VetoChange records applied
  std::uint64_t lsn_reachable_held = 0;  // reachable reports that restored
                                         // nothing yet (the latch held)
  std::uint64_t latch_released_reinstall = 0;
  std::uint64_t latch_released_safety_bound = 0;
  std::uint64_t congestion_changes = 0;
  std::uint64_t table_rebuilds = 0;
  std::uint64_t entries_moved = 0;
  // Per-flow overrides.
  std::uint64_t flow_override_changes = 0;  // FlowOverrideChange applied
  std::uint64_t flow_overrides_full = 0;    // refused: max_flow_overrides
  std::uint64_t flow_matched = 0;           // selections matching an override
  std::uint64_t flow_moved = 0;             // ... moved off their normal pick
  std::uint64_t flow_fallback = 0;          // ... with every member vetoed
  std::uint64_t flow_key_missing = 0;       // select() without a FlowKey for a
                                            // destination that has overrides
};

namespace detail {

// A member table as built from `active`, starting from table `parent` (0:
// an empty one) with `moved` entries changing; never changed while shared
// (Fib::step_table changes one that a single destination holds).
struct SharedTable {
  MemberTable table;
  std::vector<WeightedMember> active;
  std::uint64_t id = 0;  // unique for its pool's life, never 0
  std::uint64_t parent = 0;
  std::uint32_t moved = 0;
};
// Live shared objects by content hash (weak: the last destination to drop
// one frees it; dead entries are swept as the map grows), one per hash:
// an object added under a hash that another holds replaces it there. That
// other is then no longer found, which only loses sharing: a 64-bit
// collision between live objects, or one changed in place, which keeps
// its old key and matches it only if its contents return to those (lookups
// compare contents). Iterated only to count and sweep, whose results do
// not depend on the order (an absl map's differs from run to run).
template <typename T>
struct SharePool {
  absl::flat_hash_map<std::uint64_t, std::weak_ptr<const T>> live;
  std::size_t sweep_at = 64;
};

}  // namespace detail

// The member tables of one or more Fibs. Each Fib has its own unless
// several are given the same (Fib::create): then destinations of
// different switches that reach the same members from the same table (a
// simulated fabric's leaves, whose uplinks have the same port numbers)
// share one copy, as destinations of one switch always do. Sharing never
// changes what a destination selects: a table is keyed by the table it
// was built from, its members and its size. Not thread-safe: Fibs that
// share one are used from one thread.
class MemberTablePool {
 public:
  MemberTablePool() = default;
  MemberTablePool(const MemberTablePool&) = delete;
  MemberTablePool& operator=(const MemberTablePool&) = delete;
  // Distinct tables alive that the pool still finds (not those changed in
  // place and then replaced under their old key).
  std::size_t live() const {
    return static_cast<std::size_t>(std::ranges::count_if(
        tables_.live, [](const auto& e) { return !e.second.expired(); }));
  }

 private:
  friend class Fib;
  detail::SharePool<detail::SharedTable> tables_;
  // What every table the Fibs build is assigned in, with the weight lists
  // quantised so far (the same few recur across switches).
  MemberTable::Scratch scratch_;
  std::uint64_t next_id_ = 1;
};

class Fib {
 public:
  // Errors: whatever validate(config) reports. What select() reads of
  // each destination (16 bytes times max_destinations) is allocated from
  // `memory`, which must outlive the Fib: a simulator with hundreds of
  // switches passes one that packs them into huge pages. Member tables
  // come from `tables`, shared with the Fibs given the same pool, or from
  // a pool of the Fib's own (null).
  static std::expected<Fib, ConfigError> create(
      const FibConfig& config,
      std::pmr::memory_resource* memory = std::pmr::get_default_resource(),
      std::shared_ptr<MemberTablePool> tables = nullptr);

  // Control plane. Errors: dest >= max_destinations; a weight above
  // kMaxWeight; a port listed twice. An empty list (or all weights 0) means
  // routing has no member (same as remove_route).
  std::expected<void, ConfigError> set_route(
      NodeId dest, std::span<const WeightedMember> members, Time now);
  std::expected<void, ConfigError> remove_route(NodeId dest, Time now);
  // The pre-programmed backup group used by Fallback::backup. Same errors.
  std::expected<void, ConfigError> set_backup(
      NodeId dest, std::span<const WeightedMember> members);

  // Notifications. Errors: destination >= max_destinations; source or
  // level out of range.
  std::expected<void, ConfigError> apply(const VetoChange& change, Time now);
  std::expected<void, ConfigError> apply(const CongestionChange& change);
  // Sets (or, with vetoed = false and level = 0, removes) the override
  // (destination, match, port, source); wildcard fields of the match are
  // zeroed first. Errors: destination >= max_destinations; source or level
  // out of range; match.fields beyond kMatchAll; "flow_override": adding
  // one more than max_flow_overrides (counted flow_overrides_full; nothing
  // changes). Removing an override that is not there is not an error.
  std::expected<void, ConfigError> apply(const FlowOverrideChange& change);

  // Local loss of signal (the switch's own port): while a port is down it
  // leaves every group at once, the hardware fast failover that needs no
  // notification; up again, it counts as soon as routing has it (routing
  // usually withdrew it meanwhile). Never fails; a port no route uses is
  // remembered for routes installed later.
  void set_port_up(PortId port, bool up);

  // LSN safety-bound timer. next_deadline() may be earlier than needed (a
  // stale entry); on_timer() then does nothing for it.
  Time next_deadline() const;
  void on_timer(Time now);

  // Data plane: the port for a packet to `dest`, or nullopt (no route or
  // fallback drop; both counted). `flow_hash` comes from flow_hash() over
  // the headers as received (before any mutation). O(1), allocation-free.
  // Per-flow overrides are not consulted (there is no key to match); such
  // calls for a destination that has overrides are counted
  // (flow_key_missing).
  std::optional<PortId> select(NodeId dest, std::uint64_t flow_hash, Time now,
                               SelectMode mode);
  // The same, consulting the destination's per-flow overrides with `key`
  // (the fields `flow_hash` was computed from). Without overrides for
  // `dest` it costs what the form above costs. Allocation-free; otherwise
  // a packet costs one hash and one binary search per distinct field set
  // among dest's overrides, and a matching one a bounded number of
  // redraws (a table scan only when nearly every entry is vetoed for it).
  std::optional<PortId> select(NodeId dest, const FlowKey& key,
                               std::uint64_t flow_hash, Time now,
                               SelectMode mode);
  // A hint for simulators that know which destination a select() will
  // come for: starts loading what select() reads first. No effect on
  // state; out-of-range destinations are ignored. Always inlined: GCC
  // drops calls to a function whose only effect is a prefetch.
  [[gnu::always_inline]] void prefetch(NodeId dest) const {
    if (dest < selectors_.size()) __builtin_prefetch(&selectors_[dest]);
  }
  // A hint for simulators that prefetch a packet's egress before its hop:
  // the port select(dest, flow_hash, now, mode) would return now in
  // per-flow or per-packet mode, read without changing anything (no
  // counters, no spray position); 0 when there is no cheap answer (no
  // route, a fallback drop, flowlet mode, an unknown dest). Per-flow
  // overrides are not consulted.
  [[gnu::always_inline]] PortId likely_port(NodeId dest,
                                            std::uint64_t flow_hash,
                                            SelectMode mode) const {
    if (dest >= selectors_.size()) return 0;
    const Selector& s = selectors_[dest];
    if (s.state == GroupState::no_route || s.state == GroupState::drop) {
      return 0;
    }
    switch (mode) {
      case SelectMode::per_flow:
        return s.entries[per_flow_index(s, flow_hash)];
      case SelectMode::per_packet:
        return s.entries[s.spray_next & s.table_mask];
      case SelectMode::flowlet:
        return 0;
    }
    return 0;
  }

  // Prefixes -> destination nodes (prefix_table.h for costs and errors).
  std::expected<void, ConfigError> add_prefix(const Prefix& prefix,
                                              NodeId node);
  bool remove_prefix(const Prefix& prefix) { return prefixes_.remove(prefix); }
  std::optional<NodeId> lookup(
      bool ipv6, const std::array<std::uint8_t, 16>& address) const {
    return prefixes_.lookup(ipv6, address);
  }

  // Inspection.
  GroupState state(NodeId dest) const;
  // The destination's member table, or nullptr if never filled.
  const MemberTable* table(NodeId dest) const;
  // The ports routing installed for `dest` (weight > 0 in the last
  // set_route), vetoed or not, in port order; empty for an unknown dest.
  std::vector<PortId> routing_ports(NodeId dest) const;
  // Whether `port` is one of them.
  bool routes_through(NodeId dest, PortId port) const;
  // Whether the path via `port` toward `dest` is currently vetoed (any
  // source, LSN latch included).
  bool vetoed(NodeId dest, PortId port) const;
  // The destination's per-flow overrides (any order); empty if none.
  std::span<const FlowOverride> flow_overrides(NodeId dest) const;
  std::size_t flow_override_count() const { return flow_override_count_; }
  const FibCounters& counters() const { return counters_; }
  const FlowletCounters& flowlet_counters() const {
    return flowlets_.counters();
  }
  const FibConfig& config() const { return config_; }

 private:
  struct PortState {
    PortId port = 0;
    std::uint32_t routing_weight = 0;
    std::uint32_t backup_weight = 0;
    bool arn_veto = false;
    bool port_down = false;     // local loss of signal (set_port_up)
    bool lsn_latched = false;   // the LSN veto is in force
    bool lsn_reachable = true;  // LSN's latest report
    bool reinstalled = false;   // condition (a) met since the veto
    bool withdrawn = false;     // routing left the port out since the veto
    std::array<std::uint8_t, kVetoSources> congestion{};
    Time veto_at;
    Time deadline = Time::max();  // safety bound, if armed
    bool operator==(const PortState&) const = default;
  };
  // One destination's port states, sorted by port; never changed while
  // shared (exclusive_port).
  using PortList = std::vector<PortState>;
  using SharedTable = detail::SharedTable;
  template <typename T>
  using SharePool = detail::SharePool<T>;
  // Selector::table_mask when the table size is not a power of two.
  static constexpr std::uint16_t kModulo = 0xffff;
  static_assert(kMaxTableSize <= kModulo, "a table index fits in 16 bits");
  // What select() reads of a destination, 16 bytes, four to a cache line,
  // in an array of their own (selectors_) apart from the rest of the
  // destination (Dest): a simulated hop reads one at random, and a switch
  // with thousands of destinations keeps them in a quarter of the lines.
  // `entries`, `table_size` and `table_mask` are copies of the member
  // table's: select() indexes `entries` by hash & table_mask, or by
  // hash % table_size when table_mask is kModulo (MemberTable::index_for).
  // When one port holds every entry, `entries` points at that port in
  // kEveryPort and the mask is 0: all such destinations (a spine's
  // downlinks) read the same few lines instead of a random line of a table
  // each.
  struct Selector {
    const PortId* entries = nullptr;
    std::uint16_t table_size = 0;
    std::uint16_t table_mask = 0;
    std::uint16_t spray_next = 0;  // per-packet mode's next entry
    GroupState state = GroupState::no_route;
    bool has_overrides = false;  // Dest::overrides has some
  };
  static_assert(sizeof(Selector) == 16);
  // A destination's per-flow overrides, sorted by (match.fields, hash of
  // the match key); hashes[i] is list[i]'s hash; groups holds (fields, end
  // index) per distinct field set. A lookup costs one hash and one binary
  // search per distinct field set, not a scan.
  struct Overrides {
    std::vector<FlowOverride> list;
    std::vector<std::uint64_t> hashes;
    std::vector<std::pair<std::uint8_t, std::uint32_t>> groups;
  };
  // The rest of a destination: what routing, notifications and per-flow
  // overrides change. 40 bytes: a fabric's switches hold one per leaf
  // (2,064 switches x 2,000 leaves held 430 MB with the overrides' three
  // vectors inline).
  struct Dest {
    std::shared_ptr<const PortList> ports;     // null: none yet
    std::shared_ptr<const SharedTable> table;  // null: never filled
    std::unique_ptr<Overrides> overrides;      // null: never had any
  };
  static_assert(sizeof(Dest) == 40);
  struct Deadline {
    Time at;
    NodeId dest;
    PortId port;
    bool operator>(const Deadline& o) const { return at > o.at; }
  };

  Fib(const FibConfig& config, std::pmr::memory_resource* memory,
      std::shared_ptr<MemberTablePool> tables);
  std::expected<void, ConfigError> check_members(
      std::string_view what, NodeId dest,
      std::span<const WeightedMember> members);
  static std::span<const PortState> ports_of(const Dest& d) {
    return d.ports ? std::span<const PortState>(*d.ports)
                   : std::span<const PortState>();
  }
  // edit() copies dest's port states into edit_ for a change; commit()
  // makes the result dest's (shared with any equal list). Callers rebuild
  // the table when the change calls for it.
  PortList& edit(NodeId dest);
  void commit(NodeId dest);
  PortState& port_state(PortList& ports, PortId port);
  // A port's state in a sorted port list, or in dest's; null if absent.
  static const PortState* find_port(std::span<const PortState> ports,
                                    PortId port);
  const PortState* find_port(NodeId dest, PortId port) const;
  // The live object of `pool` under `hash` for which same() holds, or
  // null; add_shared() puts `made` there (and owns it).
  template <typename T, typename Same>
  static std::shared_ptr<const T> find_shared(SharePool<T>& pool,
                                              std::uint64_t hash, Same same);
  template <typename T>
  static std::shared_ptr<const T> add_shared(SharePool<T>& pool,
                                             std::uint64_t hash, T* made);
  template <typename T, typename Same, typename Make>
  static std::shared_ptr<const T> share(SharePool<T>& pool, std::uint64_t hash,
                                        Same same, Make make);
  // dest's state for `port` when dest's port list is dest's alone and has
  // the port: a change there needs no copy (edit/commit). Null otherwise.
  // The rebuild memo's reference to the list does not count: the memo is
  // dropped (rebuild() makes it again); any other holder does.
  PortState* exclusive_port(NodeId dest, PortId port);
  static bool is_vetoed(const PortState& p) {
    return p.arn_veto || p.lsn_latched || p.port_down;
  }
  std::uint8_t level(const PortState& p) const;
  void release_latch(PortState& p, bool by_reinstall);
  void rebuild(NodeId dest);
  // rebuild()'s step of d to the table for the members in scratch_: one
  // another destination already made from d's table (shared), d's own
  // table changed where it is when nothing else holds it (`in_place`), or
  // a new copy. Returns the table d is to have.
  std::shared_ptr<const SharedTable> step_table(Dest& d, bool& in_place);
  // rebuild()'s work: the group state for `d`'s port states, the members
  // in scratch_, and whether the fallback was entered.
  GroupState compute_group(const Dest& d, bool& fallback_entered);
  void index_overrides(NodeId dest);
  // The entry per-flow selection picks: MemberTable::index_for on the
  // copies in `s`.
  static std::uint32_t per_flow_index(const Selector& s,
                                      std::uint64_t flow_hash) {
    return static_cast<std::uint32_t>(s.table_mask != kModulo
                                          ? flow_hash & s.table_mask
                                          : flow_hash % s.table_size);
  }
  std::optional<PortId> select_plain(Selector& s, NodeId dest,
                                     std::uint64_t flow_hash, Time now,
                                     SelectMode mode);
  // Out of line: inlined, its frame would slow the common path.
  [[gnu::noinline]] std::optional<PortId> select_overridden(
      Selector& s, NodeId dest, const FlowKey& key, std::uint64_t flow_hash,
      Time now, SelectMode mode);
  // A matching flow's view of one port (select_overridden scratch).
  struct FlowAdjust {
    PortId port;
    bool vetoed;
    std::uint8_t level;       // the flow's congestion level for the port
    std::uint8_t base_level;  // the port's level for the destination, or
                              // 0xff until select_overridden needs it
  };

  FibConfig config_;
  std::pmr::vector<Selector> selectors_;  // by destination
  std::vector<Dest> dests_;               // by destination
  SharePool<PortList> port_lists_;
  std::shared_ptr<MemberTablePool> tables_;  // never null
  PortList edit_;
  // set_route()'s last change of a port list, for the next destination
  // that makes the same one: a routing protocol (or a simulator's static
  // routes) installs the same members for many destinations, and most
  // start from the same list (none, or a shared one). Kept only when the
  // list had no LSN latch (then the result depends on nothing else but
  // ports_down_, whose changes clear it).
  struct RouteMemo {
    bool valid = false;
    std::shared_ptr<const PortList> from, to;
    std::vector<WeightedMember> members;
  } route_memo_;
  // rebuild()'s last outcome. It depends only on the destination's port
  // list and table (never changed while the memo holds them: that makes
  // their use_count() above 1) and the config, so the next destination
  // with the same two gets it without recomputing: after a memoised
  // set_route, its rebuild costs two pointer comparisons.
  struct RebuildMemo {
    bool valid = false;
    std::shared_ptr<const PortList> ports;
    std::shared_ptr<const SharedTable> from;  // the table before
    std::shared_ptr<const SharedTable> to;    // after (from: unchanged)
    GroupState state = GroupState::no_route;
    bool fallback_entered = false;
  } rebuild_memo_;
  PrefixTable prefixes_;
  FlowletTable flowlets_;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>>
      deadlines_;
  std::vector<WeightedMember> scratch_;
  std::vector<PortId> sort_scratch_;
  std::vector<PortId> ports_down_;  // sorted; applied to new port states
  std::vector<FlowAdjust> adjust_;  // capacity >= largest override list
  std::size_t flow_override_count_ = 0;
  FibCounters counters_;
};

}  // namespace arfabric::proto::fib
