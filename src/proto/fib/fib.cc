#include "proto/fib/fib.h"

#include <algorithm>
#include <string>

namespace arfabric::proto::fib {

namespace {

std::unexpected<ConfigError> dest_error(std::string_view what, NodeId dest,
                                        NodeId max) {
  return std::unexpected(ConfigError{
      std::string(what) + ".destination",
      std::to_string(dest) + " is not below " + std::to_string(max)});
}

}  // namespace

std::expected<Fib, ConfigError> Fib::create(const FibConfig& config) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  return Fib(config);
}

Fib::Fib(const FibConfig& config)
    : config_(config),
      dests_(config.max_destinations),
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

Fib::PortState& Fib::port_state(Dest& d, PortId port) {
  auto it =
      std::lower_bound(d.ports.begin(), d.ports.end(), port,
                       [](const PortState& s, PortId p) { return s.port < p; });
  if (it == d.ports.end() || it->port != port) {
    it = d.ports.insert(it, PortState{});
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
  for (NodeId dest = 0; dest < dests_.size(); ++dest) {
    Dest& d = dests_[dest];
    auto p = std::lower_bound(
        d.ports.begin(), d.ports.end(), port,
        [](const PortState& s, PortId q) { return s.port < q; });
    if (p == d.ports.end() || p->port != port) continue;
    const bool before = is_vetoed(*p);
    p->port_down = !up;
    if (before != is_vetoed(*p)) rebuild(dest);
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
  if (auto ok = check_members("set_route", dest, members); !ok) return ok;
  Dest& d = dests_[dest];
  for (PortState& p : d.ports) p.routing_weight = 0;
  for (const WeightedMember& m : members)
    if (m.weight > 0) port_state(d, m.port).routing_weight = m.weight;
  for (PortState& p : d.ports) {
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
  rebuild(dest);
  return {};
}

std::expected<void, ConfigError> Fib::remove_route(NodeId dest, Time now) {
  return set_route(dest, {}, now);
}

std::expected<void, ConfigError> Fib::set_backup(
    NodeId dest, std::span<const WeightedMember> members) {
  if (auto ok = check_members("set_backup", dest, members); !ok) return ok;
  Dest& d = dests_[dest];
  for (PortState& p : d.ports) p.backup_weight = 0;
  for (const WeightedMember& m : members)
    if (m.weight > 0) port_state(d, m.port).backup_weight = m.weight;
  rebuild(dest);
  return {};
}

std::expected<void, ConfigError> Fib::apply(const VetoChange& c, Time now) {
  if (c.destination >= dests_.size())
    return dest_error("veto", c.destination, config_.max_destinations);
  if (static_cast<std::size_t>(c.source) >= kVetoSources)
    return std::unexpected(ConfigError{"veto.source", "unknown source"});
  ++counters_.veto_changes;
  PortState& p = port_state(dests_[c.destination], c.port);
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
  if (before != is_vetoed(p)) rebuild(c.destination);
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
  PortState& p = port_state(dests_[c.destination], c.port);
  const std::uint8_t before = level(p);
  p.congestion[static_cast<std::size_t>(c.source)] = c.level;
  if (level(p) != before) rebuild(c.destination);
  return {};
}

Time Fib::next_deadline() const {
  return deadlines_.empty() ? Time::max() : deadlines_.top().at;
}

void Fib::on_timer(Time now) {
  while (!deadlines_.empty() && deadlines_.top().at <= now) {
    const Deadline due = deadlines_.top();
    deadlines_.pop();
    PortState& p = port_state(dests_[due.dest], due.port);
    if (!p.lsn_latched || !p.lsn_reachable || p.deadline != due.at) continue;
    release_latch(p, false);
    if (!is_vetoed(p)) rebuild(due.dest);
  }
}

void Fib::rebuild(NodeId dest) {
  Dest& d = dests_[dest];
  // Congestion-shaped weights of the members passing `include`.
  auto collect = [&](auto include, auto weight_of) {
    scratch_.clear();
    std::uint8_t lowest = 3;
    for (const PortState& p : d.ports)
      if (include(p)) lowest = std::min(lowest, level(p));
    for (const PortState& p : d.ports) {
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
  GroupState next = GroupState::no_route;
  collect([](const PortState& p) { return p.routing_weight > 0; }, routing);
  if (scratch_.empty()) {
    next = GroupState::no_route;
  } else {
    collect(
        [](const PortState& p) {
          return p.routing_weight > 0 && !is_vetoed(p);
        },
        routing);
    next = GroupState::effective;
    if (scratch_.empty()) {
      ++counters_.fallback_entered;
      switch (config_.fallback) {
        case Fallback::keep_routing:
          collect([](const PortState& p) { return p.routing_weight > 0; },
                  routing);
          next = GroupState::keep_routing;
          break;
        case Fallback::backup:
          collect(
              [](const PortState& p) {
                return p.backup_weight > 0 && !is_vetoed(p);
              },
              backup);
          next = scratch_.empty() ? GroupState::drop : GroupState::backup;
          break;
        case Fallback::drop:
          next = GroupState::drop;
          break;
      }
    }
  }
  d.state = next;
  if (next == GroupState::no_route || next == GroupState::drop) return;
  if (d.table && scratch_ == d.active) return;
  if (!d.table) d.table.emplace(config_.table_size);
  d.active = scratch_;
  ++counters_.table_rebuilds;
  counters_.entries_moved += d.table->assign(d.active);
}

std::optional<PortId> Fib::select(NodeId dest, std::uint64_t flow_hash,
                                  Time now, SelectMode mode) {
  if (dest >= dests_.size()) {
    ++counters_.no_route;
    return std::nullopt;
  }
  Dest& d = dests_[dest];
  switch (d.state) {
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
  const MemberTable& t = *d.table;
  ++counters_.selections[static_cast<std::size_t>(mode)];
  switch (mode) {
    case SelectMode::per_flow:
      return t.at(t.index_for(flow_hash));
    case SelectMode::per_packet: {
      const std::uint32_t i = d.spray_next;
      if (++d.spray_next == t.size()) d.spray_next = 0;
      return t.at(i);
    }
    case SelectMode::flowlet:
      return flowlets_.select(dest, flow_hash, now, t);
  }
  return std::nullopt;
}

std::expected<void, ConfigError> Fib::add_prefix(const Prefix& prefix,
                                                 NodeId node) {
  if (node >= dests_.size())
    return dest_error("add_prefix", node, config_.max_destinations);
  return prefixes_.add(prefix, node);
}

GroupState Fib::state(NodeId dest) const {
  return dest < dests_.size() ? dests_[dest].state : GroupState::no_route;
}

const MemberTable* Fib::table(NodeId dest) const {
  if (dest >= dests_.size() || !dests_[dest].table) return nullptr;
  return &*dests_[dest].table;
}

bool Fib::vetoed(NodeId dest, PortId port) const {
  if (dest >= dests_.size()) return false;
  const auto& ports = dests_[dest].ports;
  auto it =
      std::lower_bound(ports.begin(), ports.end(), port,
                       [](const PortState& s, PortId p) { return s.port < p; });
  return it != ports.end() && it->port == port && is_vetoed(*it);
}

std::vector<PortId> Fib::routing_ports(NodeId dest) const {
  std::vector<PortId> ports;
  if (dest >= dests_.size()) return ports;
  for (const PortState& p : dests_[dest].ports) {
    if (p.routing_weight > 0) ports.push_back(p.port);
  }
  return ports;
}

}  // namespace arfabric::proto::fib
