#include "proto/fib/fib.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <string>

#include "proto/fib/flow_hash.h"

namespace arfabric::proto::fib {

namespace {

std::unexpected<ConfigError> dest_error(std::string_view what, NodeId dest,
                                        NodeId max) {
  return std::unexpected(ConfigError{
      std::string(what) + ".destination",
      std::to_string(dest) + " is not below " + std::to_string(max)});
}

// Each port id at its own index: the entries of any table whose every
// entry is that one port (Fib::Selector::entries).
constexpr auto kEveryPort = [] {
  std::array<PortId, std::size_t{std::numeric_limits<PortId>::max()} + 1> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<PortId>(i);
  return a;
}();

// Of a Fib::PortList (the fields that usually differ; equality decides).
template <typename PortList>
std::uint64_t hash_of_ports(const PortList& ports) {
  std::uint64_t h = 0x5851F42D4C957F2Dull;
  for (const auto& p : ports) {
    const std::uint64_t flags =
        std::uint64_t{p.arn_veto} | std::uint64_t{p.port_down} << 1 |
        std::uint64_t{p.lsn_latched} << 2 |
        std::uint64_t{p.lsn_reachable} << 3 |
        std::uint64_t{p.reinstalled} << 4 | std::uint64_t{p.withdrawn} << 5;
    h = mix64(h ^
              (std::uint64_t{p.port} | std::uint64_t{p.routing_weight} << 16));
    h = mix64(h ^ (std::uint64_t{p.backup_weight} | flags << 32 |
                   std::uint64_t{p.congestion[0]} << 40 |
                   std::uint64_t{p.congestion[1]} << 48));
  }
  return h;
}

std::uint64_t hash_of(std::uint64_t parent,
                      std::span<const WeightedMember> members) {
  std::uint64_t h = mix64(parent + 0x9E3779B97F4A7C15ull);
  for (const WeightedMember& m : members) {
    h = mix64(h ^ (std::uint64_t{m.port} | std::uint64_t{m.weight} << 16));
  }
  return h;
}

}  // namespace

template <typename T, typename Same>
std::shared_ptr<const T> Fib::find_shared(SharePool<T>& pool,
                                          std::uint64_t hash, Same same) {
  const auto it = pool.live.find(hash);
  if (it == pool.live.end()) return nullptr;
  if (std::shared_ptr<const T> p = it->second.lock()) {
    return same(*p) ? p : nullptr;
  }
  pool.live.erase(it);
  return nullptr;
}

template <typename T>
std::shared_ptr<const T> Fib::add_shared(SharePool<T>& pool, std::uint64_t hash,
                                         T* made) {
  // Its own allocation (not make_shared), so that the object is freed with
  // its last user even while the pool's weak reference lingers.
  std::shared_ptr<const T> shared(made);
  pool.live.insert_or_assign(hash, shared);
  if (pool.live.size() >= pool.sweep_at) {
    absl::erase_if(pool.live,
                   [](const auto& entry) { return entry.second.expired(); });
    pool.sweep_at = std::max<std::size_t>(64, 2 * pool.live.size());
  }
  return shared;
}

template <typename T, typename Same, typename Make>
std::shared_ptr<const T> Fib::share(SharePool<T>& pool, std::uint64_t hash,
                                    Same same, Make make) {
  if (auto found = find_shared(pool, hash, same)) return found;
  return add_shared(pool, hash, make());
}

Fib::PortList& Fib::edit(NodeId dest) {
  const auto ports = ports_of(dests_[dest]);
  edit_.assign(ports.begin(), ports.end());
  return edit_;
}

Fib::PortState* Fib::exclusive_port(NodeId dest, PortId port) {
  Dest& d = dests_[dest];
  const PortState* found = find_port(ports_of(d), port);
  if (found == nullptr) return nullptr;
  // The rebuild memo's reference is dropped rather than counted: it would
  // otherwise keep the last destination rebuilt from changing in place.
  if (d.ports.use_count() == 2 && rebuild_memo_.ports == d.ports) {
    rebuild_memo_ = RebuildMemo{};
  }
  if (d.ports.use_count() != 1) return nullptr;
  // Not const: lists are made by commit() as `new PortList`.
  return const_cast<PortState*>(found);
}

void Fib::commit(NodeId dest) {
  Dest& d = dests_[dest];
  if (edit_.empty()) {
    d.ports.reset();
    return;
  }
  if (d.ports && *d.ports == edit_) return;  // nothing changed
  d.ports = share(
      port_lists_, hash_of_ports(edit_),
      [&](const PortList& l) { return l == edit_; },
      [&] { return new PortList(edit_); });
}

std::expected<Fib, ConfigError> Fib::create(
    const FibConfig& config, std::pmr::memory_resource* memory,
    std::shared_ptr<MemberTablePool> tables) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  if (!tables) tables = std::make_shared<MemberTablePool>();
  return Fib(config, memory, std::move(tables));
}

Fib::Fib(const FibConfig& config, std::pmr::memory_resource* memory,
         std::shared_ptr<MemberTablePool> tables)
    : config_(config),
      selectors_(config.max_destinations, memory),
      dests_(config.max_destinations),
      tables_(std::move(tables)),
      flowlets_(config.flowlet_table_size, config.flowlet_gap) {}

std::expected<void, ConfigError> Fib::check_members(
    std::string_view what, NodeId dest,
    std::span<const WeightedMember> members) {
  if (dest >= dests_.size())
    return dest_error(what, dest, config_.max_destinations);
  sort_scratch_.clear();
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].weight > kMaxWeight)
      return std::unexpected(ConfigError{
          std::string(what) + ".members[" + std::to_string(i) + "]",
          "weight " + std::to_string(members[i].weight) + " exceeds 16777216"});
    sort_scratch_.push_back(members[i].port);
  }
  std::sort(sort_scratch_.begin(), sort_scratch_.end());
  auto dup = std::adjacent_find(sort_scratch_.begin(), sort_scratch_.end());
  if (dup != sort_scratch_.end())
    return std::unexpected(
        ConfigError{std::string(what) + ".members",
                    "port " + std::to_string(*dup) + " listed twice"});
  return {};
}

Fib::PortState& Fib::port_state(PortList& ports, PortId port) {
  auto it =
      std::lower_bound(ports.begin(), ports.end(), port,
                       [](const PortState& s, PortId p) { return s.port < p; });
  if (it == ports.end() || it->port != port) {
    it = ports.insert(it, PortState{});
    it->port = port;
    it->port_down =
        std::binary_search(ports_down_.begin(), ports_down_.end(), port);
  }
  return *it;
}

void Fib::set_port_up(PortId port, bool up) {
  auto it = std::lower_bound(ports_down_.begin(), ports_down_.end(), port);
  const bool known = it != ports_down_.end() && *it == port;
  if (up == !known) return;
  if (up) {
    ports_down_.erase(it);
  } else {
    ports_down_.insert(it, port);
  }
  route_memo_ = {};  // new port states would get the other port_down
  // Destinations sharing a port list share its changed copy too: the last
  // (old, new) pair is remembered (holding the old keeps its address from
  // being reused meanwhile).
  std::shared_ptr<const PortList> last_old, last_new;
  for (NodeId dest = 0; dest < dests_.size(); ++dest) {
    Dest& d = dests_[dest];
    const PortState* p = find_port(ports_of(d), port);
    if (p == nullptr || p->port_down == !up) continue;
    const bool before = is_vetoed(*p);
    const bool after = p->arn_veto || p->lsn_latched || !up;
    if (d.ports == last_old) {
      d.ports = last_new;
    } else {
      last_old = d.ports;
      port_state(edit(dest), port).port_down = !up;
      commit(dest);
      last_new = d.ports;
    }
    if (before != after) rebuild(dest);
  }
}

std::uint8_t Fib::level(const PortState& p) const {
  return std::max(p.congestion[0], p.congestion[1]);
}

void Fib::release_latch(PortState& p, bool by_reinstall) {
  p.lsn_latched = false;
  p.reinstalled = false;
  p.withdrawn = false;
  p.deadline = Time::max();
  ++(by_reinstall ? counters_.latch_released_reinstall
                  : counters_.latch_released_safety_bound);
}

std::expected<void, ConfigError> Fib::set_route(
    NodeId dest, std::span<const WeightedMember> members, Time now) {
  if (route_memo_.valid && dest < dests_.size() &&
      dests_[dest].ports == route_memo_.from &&
      std::ranges::equal(members, route_memo_.members)) {
    // The same step as the last call's (members checked then): commit()
    // would find the same shared list.
    dests_[dest].ports = route_memo_.to;
    rebuild(dest);
    return {};
  }
  if (auto ok = check_members("set_route", dest, members); !ok) return ok;
  const std::shared_ptr<const PortList> from = dests_[dest].ports;
  route_memo_.valid = std::ranges::none_of(
      ports_of(dests_[dest]), [](const PortState& p) { return p.lsn_latched; });
  PortList& ports = edit(dest);
  for (PortState& p : ports) p.routing_weight = 0;
  for (const WeightedMember& m : members)
    if (m.weight > 0) port_state(ports, m.port).routing_weight = m.weight;
  for (PortState& p : ports) {
    if (!p.lsn_latched) continue;
    if (p.routing_weight == 0) {
      p.withdrawn = true;
      continue;
    }
    const bool counts =
        now > p.veto_at &&
        (config_.reinstall_rule == ReinstallRule::any_install_after_veto ||
         p.withdrawn);
    if (!counts) continue;
    p.reinstalled = true;
    if (p.lsn_reachable) release_latch(p, true);
  }
  commit(dest);
  if (route_memo_.valid) {
    route_memo_.from = from;
    route_memo_.to = dests_[dest].ports;
    route_memo_.members.assign(members.begin(), members.end());
  }
  rebuild(dest);
  return {};
}

std::expected<void, ConfigError> Fib::remove_route(NodeId dest, Time now) {
  return set_route(dest, {}, now);
}

std::expected<void, ConfigError> Fib::set_backup(
    NodeId dest, std::span<const WeightedMember> members) {
  if (auto ok = check_members("set_backup", dest, members); !ok) return ok;
  PortList& ports = edit(dest);
  for (PortState& p : ports) p.backup_weight = 0;
  for (const WeightedMember& m : members)
    if (m.weight > 0) port_state(ports, m.port).backup_weight = m.weight;
  commit(dest);
  rebuild(dest);
  return {};
}

std::expected<void, ConfigError> Fib::apply(const VetoChange& c, Time now) {
  if (c.destination >= dests_.size())
    return dest_error("veto", c.destination, config_.max_destinations);
  if (static_cast<std::size_t>(c.source) >= kVetoSources)
    return std::unexpected(ConfigError{"veto.source", "unknown source"});
  ++counters_.veto_changes;
  PortState& p = port_state(edit(c.destination), c.port);
  const bool before = is_vetoed(p);
  if (c.source == VetoSource::arn) {
    p.arn_veto = c.vetoed;
  } else if (c.vetoed) {
    if (p.lsn_reachable || !p.lsn_latched) {  // a transition, not a repeat
      p.veto_at = now;
      p.reinstalled = false;
      p.withdrawn = false;
    }
    p.lsn_reachable = false;
    p.lsn_latched = true;
    p.deadline = Time::max();
  } else if (!p.lsn_reachable) {  // transition to reachable
    p.lsn_reachable = true;
    if (p.lsn_latched) {
      if (p.reinstalled) {
        release_latch(p, true);
      } else if (config_.lsn_safety_bound == Time()) {
        release_latch(p, false);
      } else {
        ++counters_.lsn_reachable_held;
        if (config_.lsn_safety_bound != Time::max()) {
          p.deadline = now + config_.lsn_safety_bound;
          deadlines_.push({p.deadline, c.destination, c.port});
        }
      }
    }
  }
  const bool changed = before != is_vetoed(p);
  commit(c.destination);
  if (changed) rebuild(c.destination);
  return {};
}

std::expected<void, ConfigError> Fib::apply(const CongestionChange& c) {
  if (c.destination >= dests_.size())
    return dest_error("congestion", c.destination, config_.max_destinations);
  if (static_cast<std::size_t>(c.source) >= kVetoSources)
    return std::unexpected(ConfigError{"congestion.source", "unknown source"});
  if (c.level > 3)
    return std::unexpected(ConfigError{"congestion.level",
                                       std::to_string(c.level) + " exceeds 3"});
  ++counters_.congestion_changes;
  // Where only this destination holds the list, it changes where it is;
  // otherwise a copy does (edit/commit).
  PortState* p = exclusive_port(c.destination, c.port);
  const bool copied = p == nullptr;
  if (copied) p = &port_state(edit(c.destination), c.port);
  const std::uint8_t before = level(*p);
  p->congestion[static_cast<std::size_t>(c.source)] = c.level;
  const bool changed = level(*p) != before;
  if (copied) commit(c.destination);
  if (changed) rebuild(c.destination);
  return {};
}

Time Fib::next_deadline() const {
  return deadlines_.empty() ? Time::max() : deadlines_.top().at;
}

void Fib::on_timer(Time now) {
  while (!deadlines_.empty() && deadlines_.top().at <= now) {
    const Deadline due = deadlines_.top();
    deadlines_.pop();
    PortState& p = port_state(edit(due.dest), due.port);
    if (!p.lsn_latched || !p.lsn_reachable || p.deadline != due.at) continue;
    release_latch(p, false);
    const bool restored = !is_vetoed(p);
    commit(due.dest);
    if (restored) rebuild(due.dest);
  }
}

GroupState Fib::compute_group(const Dest& d, bool& fallback_entered) {
  const auto ports = ports_of(d);
  // Congestion-shaped weights of the members passing `include`.
  auto collect = [&](auto include, auto weight_of) {
    scratch_.clear();
    std::uint8_t lowest = 3;
    for (const PortState& p : ports)
      if (include(p)) lowest = std::min(lowest, level(p));
    for (const PortState& p : ports) {
      if (!include(p)) continue;
      const std::uint8_t l = level(p);
      std::uint32_t w = weight_of(p);
      if (config_.congestion_policy == CongestionPolicy::scale) {
        w *= config_.congestion_multiplier[l];
      } else if (l != lowest) {
        continue;
      }
      scratch_.push_back({p.port, w});
    }
  };
  auto routing = [](const PortState& p) { return p.routing_weight; };
  auto backup = [](const PortState& p) { return p.backup_weight; };
  fallback_entered = false;
  if (std::ranges::none_of(
          ports, [](const PortState& p) { return p.routing_weight > 0; })) {
    scratch_.clear();
    return GroupState::no_route;
  }
  collect(
      [](const PortState& p) { return p.routing_weight > 0 && !is_vetoed(p); },
      routing);
  if (!scratch_.empty()) return GroupState::effective;
  fallback_entered = true;
  switch (config_.fallback) {
    case Fallback::keep_routing:
      collect([](const PortState& p) { return p.routing_weight > 0; }, routing);
      return GroupState::keep_routing;
    case Fallback::backup:
      collect(
          [](const PortState& p) {
            return p.backup_weight > 0 && !is_vetoed(p);
          },
          backup);
      return scratch_.empty() ? GroupState::drop : GroupState::backup;
    case Fallback::drop:
      break;
  }
  return GroupState::drop;
}

void Fib::rebuild(NodeId dest) {
  Dest& d = dests_[dest];
  RebuildMemo& memo = rebuild_memo_;
  bool in_place = false;
  if (!memo.valid || d.ports != memo.ports || d.table != memo.from) {
    // Dropped first: its references would hide that d's table is d's
    // alone (step_table).
    memo = RebuildMemo{};
    memo.state = compute_group(d, memo.fallback_entered);
    memo.to = memo.state != GroupState::no_route &&
                      memo.state != GroupState::drop &&
                      !(d.table && scratch_ == d.table->active)
                  ? step_table(d, in_place)
                  : d.table;
    // A table changed in place is no longer the one it was built from:
    // then there is nothing to remember for the next destination.
    if (!in_place) {
      memo.valid = true;
      memo.ports = d.ports;
      memo.from = d.table;
    }
  }
  if (memo.fallback_entered) ++counters_.fallback_entered;
  Selector& s = selectors_[dest];
  s.state = memo.state;
  if (s.state == GroupState::no_route || s.state == GroupState::drop) return;
  if (d.table == memo.to && !in_place) return;  // the same members
  d.table = memo.to;
  const MemberTable& table = d.table->table;
  s.table_size = static_cast<std::uint16_t>(table.size());
  if (d.table->active.size() == 1) {
    const PortId port = d.table->active.front().port;
    assert(std::ranges::count(table.entries(), port) == table.size());
    s.entries = &kEveryPort[port];
    s.table_mask = 0;
  } else {
    s.entries = table.entries().data();
    // size >= 64 when it is not a power of two
    s.table_mask =
        table.mask() != 0 ? static_cast<std::uint16_t>(table.mask()) : kModulo;
  }
  ++counters_.table_rebuilds;
  counters_.entries_moved += d.table->moved;
}

std::shared_ptr<const Fib::SharedTable> Fib::step_table(Dest& d,
                                                        bool& in_place) {
  // The table this destination's own history gives: built from its current
  // one (resilient update), shared with every destination that made the
  // same step from the same table.
  // (Fibs sharing a pool may differ in table size.)
  const std::uint64_t parent = d.table ? d.table->id : 0;
  const std::uint64_t hash =
      hash_of(parent, scratch_) ^ mix64(config_.table_size);
  auto same = [&](const SharedTable& t) {
    return t.parent == parent && t.active == scratch_ &&
           t.table.size() == config_.table_size;
  };
  in_place = false;
  if (auto found = find_shared(tables_->tables_, hash, same)) return found;
  if (d.table && d.table.use_count() == 1) {
    // No one else holds the table, so no one else can step from it: it
    // becomes the new one where it is, without a copy. Its entry in the
    // pool keeps the old key, and no longer matches it (same() compares
    // the parent), so it stops being shared: nothing else could share it.
    // Not const: tables are made below as `new SharedTable`.
    auto& t = const_cast<SharedTable&>(*d.table);
    t.moved = t.table.assign(scratch_, tables_->scratch_);
    t.active = scratch_;
    t.parent = parent;
    t.id = tables_->next_id_++;
    in_place = true;
    return d.table;
  }
  auto* t = new SharedTable{
      d.table ? d.table->table : MemberTable(config_.table_size), scratch_,
      tables_->next_id_++, parent, 0};
  t->moved = t->table.assign(t->active, tables_->scratch_);
  return add_shared(tables_->tables_, hash, t);
}

// The per-destination selection (no overrides). Kept separate so both
// select() forms share it; the compiler inlines it into each.
[[gnu::always_inline]] inline std::optional<PortId> Fib::select_plain(
    Selector& s, NodeId dest, std::uint64_t flow_hash, Time now,
    SelectMode mode) {
  switch (s.state) {
    case GroupState::no_route:
      ++counters_.no_route;
      return std::nullopt;
    case GroupState::drop:
      ++counters_.fallback_drop;
      return std::nullopt;
    case GroupState::keep_routing:
      ++counters_.fallback_keep_routing;
      break;
    case GroupState::backup:
      ++counters_.fallback_backup;
      break;
    case GroupState::effective:
      break;
  }
  ++counters_.selections[static_cast<std::size_t>(mode)];
  switch (mode) {
    case SelectMode::per_flow:
      return s.entries[per_flow_index(s, flow_hash)];
    case SelectMode::per_packet: {
      // i & table_mask is i, except for a one-port table (mask 0).
      const std::uint32_t i = s.spray_next;
      if (++s.spray_next == s.table_size) s.spray_next = 0;
      return s.entries[i & s.table_mask];
    }
    case SelectMode::flowlet:
      return flowlets_.select(dest, flow_hash, now, dests_[dest].table->table);
  }
  return std::nullopt;
}

std::optional<PortId> Fib::select(NodeId dest, std::uint64_t flow_hash,
                                  Time now, SelectMode mode) {
  if (dest >= selectors_.size()) {
    ++counters_.no_route;
    return std::nullopt;
  }
  Selector& s = selectors_[dest];
  if (s.has_overrides) [[unlikely]]
    ++counters_.flow_key_missing;
  return select_plain(s, dest, flow_hash, now, mode);
}

std::optional<PortId> Fib::select(NodeId dest, const FlowKey& key,
                                  std::uint64_t flow_hash, Time now,
                                  SelectMode mode) {
  if (dest >= selectors_.size()) {
    ++counters_.no_route;
    return std::nullopt;
  }
  Selector& s = selectors_[dest];
  if (!s.has_overrides) [[likely]]
    return select_plain(s, dest, flow_hash, now, mode);
  return select_overridden(s, dest, key, flow_hash, now, mode);
}

namespace {

// Redraws before the scan; a flow reaches the scan only if at least this
// many independent draws hit a refused port: probability (refused share)^32,
// e.g. 3% when 90% of the entries are refused to it.
constexpr std::uint32_t kFlowDraws = 32;
constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kAcceptSalt = 0xA5A5'5A5A'C3C3'3C3Cull;
constexpr std::uint64_t kScanSalt = 0x0F0F'F0F0'1234'8765ull;
constexpr std::uint8_t kUnknownLevel = 0xff;  // FlowAdjust::base_level
// Field-set groups this small are verified one by one: cheaper than
// hashing the key.
constexpr std::uint32_t kLinearGroup = 8;

}  // namespace

std::optional<PortId> Fib::select_overridden(Selector& s, NodeId dest,
                                             const FlowKey& key,
                                             std::uint64_t flow_hash, Time now,
                                             SelectMode mode) {
  const Dest& d = dests_[dest];
  const Overrides& overrides = *d.overrides;  // has_overrides: set
  adjust_.clear();
  std::uint32_t begin = 0;
  for (const auto& [fields, end] : overrides.groups) {
    std::uint32_t i = begin, stop = end;
    if (end - begin > kLinearGroup) {  // hash the masked key, then search
      FlowMatch probe{fields, key};
      const std::uint64_t h = fib::flow_hash(probe.normalise().key, fields);
      const auto first = overrides.hashes.begin();
      i = static_cast<std::uint32_t>(
          std::lower_bound(first + begin, first + end, h) - first);
      stop = static_cast<std::uint32_t>(
          std::upper_bound(first + i, first + end, h) - first);
    }
    for (; i < stop; ++i) {
      const FlowOverride& o = overrides.list[i];
      if (!o.match.matches(key)) continue;  // another key, or a collision
      auto it =
          std::find_if(adjust_.begin(), adjust_.end(),
                       [&](const FlowAdjust& a) { return a.port == o.port; });
      if (it == adjust_.end()) {
        adjust_.push_back({o.port, o.vetoed, o.level, kUnknownLevel});
      } else {
        it->vetoed = it->vetoed || o.vetoed;
        it->level = std::max(it->level, o.level);
      }
    }
    begin = end;
  }
  const std::optional<PortId> first =
      select_plain(s, dest, flow_hash, now, mode);
  // No route / drop: an override can only take paths away.
  if (adjust_.empty() || !first) return first;
  ++counters_.flow_matched;
  auto find = [&](PortId port) -> FlowAdjust* {
    for (FlowAdjust& a : adjust_)
      if (a.port == port) return &a;
    return nullptr;
  };
  // Whether this flow may use `port`; `h` is the draw's hash. The port's
  // own level is looked up only for a congestion override, when needed.
  auto accept = [&](PortId port, std::uint64_t h) {
    FlowAdjust* a = find(port);
    if (a == nullptr) return true;
    if (a->vetoed) return false;
    if (a->level == 0) return true;
    if (a->base_level == kUnknownLevel) {
      const auto ports = ports_of(d);
      auto p = std::lower_bound(
          ports.begin(), ports.end(), port,
          [](const PortState& s, PortId q) { return s.port < q; });
      a->base_level = p != ports.end() && p->port == port ? level(*p) : 0;
    }
    if (a->level <= a->base_level) return true;
    if (config_.congestion_policy == CongestionPolicy::tier) return false;
    return mix64(h ^ kAcceptSalt) %
               config_.congestion_multiplier[a->base_level] <
           config_.congestion_multiplier[a->level];
  };
  // Spraying has no flow to keep together: vary the draws per packet.
  const std::uint64_t seed = mode == SelectMode::per_packet
                                 ? mix64(flow_hash + s.spray_next)
                                 : flow_hash;
  if (accept(*first, seed)) return first;
  const MemberTable& t = d.table->table;
  for (std::uint32_t k = 1; k <= kFlowDraws; ++k) {
    const std::uint64_t h = mix64(seed + k * kGolden);
    const PortId port = t.at(t.index_for(h));
    if (accept(port, h)) {
      ++counters_.flow_moved;
      return port;
    }
  }
  // Nearly everything refused: the first entry the flow is not vetoed on,
  // from a start of its own; congestion is ignored here (it never removes
  // the last path).
  const std::uint32_t start = t.index_for(mix64(seed ^ kScanSalt));
  for (std::uint32_t i = 0; i < t.size(); ++i) {
    const PortId port = t.at((start + i) % t.size());
    const FlowAdjust* a = find(port);
    if (a == nullptr || !a->vetoed) {
      ++counters_.flow_moved;
      return port;
    }
  }
  // Every member is vetoed for this flow: the destination's fallback rule.
  ++counters_.flow_fallback;
  switch (config_.fallback) {
    case Fallback::keep_routing:
      ++counters_.fallback_keep_routing;
      return first;
    case Fallback::backup:
      if (s.state != GroupState::backup) {
        std::uint64_t total = 0;
        auto usable = [&](const PortState& p) {
          const FlowAdjust* a = find(p.port);
          return p.backup_weight > 0 && !is_vetoed(p) &&
                 (a == nullptr || !a->vetoed);
        };
        for (const PortState& p : ports_of(d))
          if (usable(p)) total += p.backup_weight;
        if (total > 0) {
          std::uint64_t r = mix64(seed ^ kScanSalt) % total;
          for (const PortState& p : ports_of(d)) {
            if (!usable(p)) continue;
            if (r < p.backup_weight) {
              ++counters_.fallback_backup;
              return p.port;
            }
            r -= p.backup_weight;
          }
        }
      }
      break;
    case Fallback::drop:
      break;
  }
  // select_plain counted a selection that did not happen.
  --counters_.selections[static_cast<std::size_t>(mode)];
  ++counters_.fallback_drop;
  return std::nullopt;
}

std::expected<void, ConfigError> Fib::apply(const FlowOverrideChange& c) {
  if (c.destination >= dests_.size())
    return dest_error("flow_override", c.destination, config_.max_destinations);
  if (static_cast<std::size_t>(c.source) >= kVetoSources)
    return std::unexpected(
        ConfigError{"flow_override.source", "unknown source"});
  if (c.level > 3)
    return std::unexpected(ConfigError{"flow_override.level",
                                       std::to_string(c.level) + " exceeds 3"});
  if (c.match.fields > kMatchAll)
    return std::unexpected(
        ConfigError{"flow_override.match.fields",
                    std::to_string(c.match.fields) + " exceeds 5 bits"});
  FlowMatch match = c.match;
  match.normalise();
  std::unique_ptr<Overrides>& overrides = dests_[c.destination].overrides;
  const bool remove = !c.vetoed && c.level == 0;
  if (overrides) {
    std::vector<FlowOverride>& list = overrides->list;
    auto it =
        std::find_if(list.begin(), list.end(), [&](const FlowOverride& o) {
          return o.port == c.port && o.source == c.source && o.match == match;
        });
    if (it != list.end()) {
      ++counters_.flow_override_changes;
      if (remove) {
        list.erase(it);
        --flow_override_count_;
        index_overrides(c.destination);
      } else {
        it->vetoed = c.vetoed;
        it->level = c.level;
      }
      return {};
    }
  }
  if (remove) {
    ++counters_.flow_override_changes;
    return {};
  }
  if (flow_override_count_ >= config_.max_flow_overrides) {
    ++counters_.flow_overrides_full;
    return std::unexpected(ConfigError{
        "flow_override", "table full (max_flow_overrides " +
                             std::to_string(config_.max_flow_overrides) + ")"});
  }
  ++counters_.flow_override_changes;
  if (!overrides) overrides = std::make_unique<Overrides>();
  overrides->list.push_back({match, c.port, c.source, c.vetoed, c.level});
  ++flow_override_count_;
  index_overrides(c.destination);
  // select() must not allocate: room for every override of one destination.
  const std::size_t n = overrides->list.size();
  if (adjust_.capacity() < n) adjust_.reserve(n * 2);
  return {};
}

// Sorts dest's overrides for lookup. An emptied block is kept: ARN sets
// and clears a flow's override again and again.
void Fib::index_overrides(NodeId dest) {
  Overrides& d = *dests_[dest].overrides;
  selectors_[dest].has_overrides = !d.list.empty();
  std::vector<std::pair<std::uint64_t, FlowOverride>> keyed;
  keyed.reserve(d.list.size());
  for (const FlowOverride& o : d.list)
    keyed.emplace_back(flow_hash(o.match.key, o.match.fields), o);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.second.match.fields != b.second.match.fields
               ? a.second.match.fields < b.second.match.fields
               : a.first < b.first;
  });
  d.list.clear();
  d.hashes.clear();
  d.groups.clear();
  for (const auto& [h, o] : keyed) {
    if (d.groups.empty() || d.groups.back().first != o.match.fields)
      d.groups.emplace_back(o.match.fields, 0);
    d.list.push_back(o);
    d.hashes.push_back(h);
    d.groups.back().second = static_cast<std::uint32_t>(d.list.size());
  }
}

std::span<const FlowOverride> Fib::flow_overrides(NodeId dest) const {
  if (dest >= dests_.size() || !dests_[dest].overrides) return {};
  return dests_[dest].overrides->list;
}

std::expected<void, ConfigError> Fib::add_prefix(const Prefix& prefix,
                                                 NodeId node) {
  if (node >= dests_.size())
    return dest_error("add_prefix", node, config_.max_destinations);
  return prefixes_.add(prefix, node);
}

GroupState Fib::state(NodeId dest) const {
  return dest < selectors_.size() ? selectors_[dest].state
                                  : GroupState::no_route;
}

const MemberTable* Fib::table(NodeId dest) const {
  if (dest >= dests_.size() || !dests_[dest].table) return nullptr;
  return &dests_[dest].table->table;
}

const Fib::PortState* Fib::find_port(std::span<const PortState> ports,
                                     PortId port) {
  auto it =
      std::lower_bound(ports.begin(), ports.end(), port,
                       [](const PortState& s, PortId p) { return s.port < p; });
  return it != ports.end() && it->port == port ? &*it : nullptr;
}

const Fib::PortState* Fib::find_port(NodeId dest, PortId port) const {
  return dest < dests_.size() ? find_port(ports_of(dests_[dest]), port)
                              : nullptr;
}

bool Fib::vetoed(NodeId dest, PortId port) const {
  const PortState* p = find_port(dest, port);
  return p != nullptr && is_vetoed(*p);
}

bool Fib::routes_through(NodeId dest, PortId port) const {
  const PortState* p = find_port(dest, port);
  return p != nullptr && p->routing_weight > 0;
}

std::vector<PortId> Fib::routing_ports(NodeId dest) const {
  std::vector<PortId> ports;
  if (dest >= dests_.size()) return ports;
  for (const PortState& p : ports_of(dests_[dest])) {
    if (p.routing_weight > 0) ports.push_back(p.port);
  }
  return ports;
}

}  // namespace arfabric::proto::fib
