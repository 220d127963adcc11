// ARN engine, receiving side: the affected object to (port, destination)
// or (port, destination, flow match) records, revocation, and propagation
// (draft §2.2, §3.1).
#include <algorithm>
#include <bit>
#include <cassert>

#include "proto/arn/arn_engine.h"
#include "wire/arn/arn_transport.h"

namespace arfabric::proto::arn {

using wire::arn::ArnMessage;
using wire::arn::ArnType;

void ArnEngine::set_next_hops(NodeId destination,
                              std::span<const PortId> ports) {
  for (auto& [node, list] : next_hops_) {
    if (node == destination) {
      list.assign(ports.begin(), ports.end());
      return;
    }
  }
  next_hops_.emplace_back(destination,
                          std::vector<PortId>(ports.begin(), ports.end()));
}

// Another port toward `destination` that no failure we hold vetoes (for
// the whole destination; a flow veto leaves the port to other traffic).
bool ArnEngine::can_reroute(NodeId destination, PortId arrival) const {
  assert(path_vetoes_ ==
         static_cast<std::size_t>(std::ranges::count_if(held(), vetoes_path)));
  for (const auto& [node, ports] : next_hops_) {
    if (node != destination) continue;
    for (PortId p : ports) {
      if (p == arrival) continue;
      if (path_vetoes_ == 0) return true;
      const bool vetoed = std::ranges::any_of(held(), [&](const Entry& e) {
        return vetoes_path(e) && e.port == p && e.destination == destination;
      });
      if (!vetoed) return true;
    }
  }
  return false;
}

// `match` null: the destination object of `destination`; else that flow.
ArnEngine::Entry* ArnEngine::find(std::uint32_t id, NodeId destination,
                                  const FlowMatch* match, PortId port) {
  if (match == nullptr) {
    const auto it = object_entries_.find(ObjectKey{id, destination, port});
    return it == object_entries_.end() ? nullptr : &entries_[it->second];
  }
  for (Entry& e : held()) {
    if (e.used && e.is_flow && e.path_id == id &&
        e.destination == destination && e.port == port && e.match == *match)
      return &e;
  }
  return nullptr;
}

void ArnEngine::hold(Entry& e, Time now) {
  const Time expires = now + config_.hold_time;
  // Held again at the same time: its record is still queued and current.
  if (e.used && e.expires == expires) return;
  assert(expiries_.empty() || expiries_.back().at <= expires);
  e.expires = expires;
  expiries_.push_back(
      {expires, static_cast<std::uint32_t>(&e - entries_.data())});
}

// The lowest free entry, as a scan of the table would find it (the order
// of the table is the order on_timer() expires entries in).
ArnEngine::Entry* ArnEngine::allocate() {
  for (std::size_t w = 0; w < used_bits_.size(); ++w) {
    const std::uint64_t free = ~used_bits_[w];
    if (free == 0) continue;
    const std::size_t i =
        w * 64 + static_cast<std::size_t>(std::countr_zero(free));
    if (i >= entries_.size()) return nullptr;
    used_bits_[w] |= std::uint64_t{1} << (i % 64);
    held_end_ = std::max(held_end_, i + 1);
    return &entries_[i];
  }
  return nullptr;
}

// The Fib holds one override per (destination, match, port): give it the
// merged state of every condition we hold for that key.
void ArnEngine::emit_flow(const Entry& e) {
  FlowOverrideChange c{e.destination,   e.match, e.port,
                       VetoSource::arn, false,   0};
  for (const Entry& o : held()) {
    if (!o.used || !o.is_flow || o.destination != e.destination ||
        o.port != e.port || !(o.match == e.match))
      continue;
    c.vetoed = c.vetoed || o.vetoed;
    c.level = std::max(c.level, o.level);
  }
  outputs_.flows.push_back(c);
}

void ArnEngine::revoke(Entry& e) {
  const bool had = e.vetoed || e.level > 0;
  if (vetoes_path(e)) --path_vetoes_;
  if (!e.is_flow) {
    if (e.vetoed)
      outputs_.vetoes.push_back(
          {e.port, e.destination, VetoSource::arn, false});
    if (e.level > 0)
      outputs_.congestion.push_back(
          {e.port, e.destination, VetoSource::arn, 0});
  }
  e.vetoed = false;
  e.level = 0;
  e.active = false;
  if (e.is_flow && had) emit_flow(e);
}

void ArnEngine::on_message(PortId arrival, ByteSpan bytes, Time now) {
  ++counters_.received;
  ArnMessage msg;
  if (config_.transport == Transport::udp) {
    auto d = wire::arn::parse_ipv4_udp(bytes, config_.udp);
    if (!d) {
      ++counters_.malformed;
      return;
    }
    msg = std::move(d->message);
  } else {
    auto f = wire::arn::parse_l2(bytes, config_.l2);
    if (!f) {
      ++counters_.malformed;
      return;
    }
    msg = std::move(f->message);
  }
  if (!msg.path_id || !msg.flow ||
      !(msg.flow->mask & wire::arn::kMaskDestination) ||
      path_id_node(*msg.path_id) == config_.node_id) {
    ++counters_.ignored;
    return;
  }
  const wire::arn::FiveTuple& tuple = *msg.flow;
  // IPv4 addresses use the first 4 bytes (the parser zeroes the rest).
  const auto node = destinations_.lookup(
      tuple.family == wire::arn::AddressFamily::ipv6, tuple.destination);
  if (!node) {
    ++counters_.unknown_destination;
    return;
  }
  // More Mask bits than Destination: a flow or an aggregate (§3.1).
  std::optional<FlowMatch> match;
  if (tuple.mask != wire::arn::kMaskDestination) {
    ++counters_.flow_objects;
    match.emplace();
    match->fields = tuple.mask;  // the kMatch* bits are the Mask bits
    match->key.protocol = tuple.protocol;
    match->key.source = tuple.source;
    match->key.destination = tuple.destination;
    match->key.source_port = tuple.source_port;
    match->key.destination_port = tuple.destination_port;
    match->normalise();
  }
  const FlowMatch* m = match ? &*match : nullptr;

  Entry* e = find(*msg.path_id, *node, m, arrival);
  const bool vetoed_path = e != nullptr && vetoes_path(*e);
  const bool failure = msg.type == ArnType::failure_detected ||
                       msg.type == ArnType::failure_eliminated;
  if (!wire::arn::is_detection(msg.type)) {
    if (!e || (failure ? !e->vetoed : e->level == 0)) {
      if (e && pass_elimination(relays_[relay_key(*e)], arrival, now)) {
        send_to_targets(msg, arrival, true, now);
      }
      ++counters_.stale_elimination;
      return;
    }
    if (failure) {
      e->vetoed = false;
      if (!m)
        outputs_.vetoes.push_back({e->port, *node, VetoSource::arn, false});
    } else {
      e->level = 0;
      if (!m)
        outputs_.congestion.push_back({e->port, *node, VetoSource::arn, 0});
    }
    if (m) emit_flow(*e);
    e->active = e->vetoed || e->level > 0;
    if (vetoed_path && !vetoes_path(*e)) --path_vetoes_;
    hold(*e, now);
    ++counters_.revoked;
    if (pass_elimination(relays_[relay_key(*e)], arrival, now)) {
      send_to_targets(msg, arrival, true, now);
      ++counters_.propagated;
    }
    return;
  }

  if (e) {
    ++counters_.refreshed;
  } else {
    e = allocate();
    if (!e) {
      ++counters_.table_full;
      return;
    }
    *e = Entry{};
    e->used = true;
    e->is_flow = m != nullptr;
    if (m) e->match = *m;
    e->path_id = *msg.path_id;
    e->destination = *node;
    e->port = arrival;
    if (!m) {
      object_entries_.emplace(ObjectKey{e->path_id, e->destination, e->port},
                              static_cast<std::uint32_t>(e - entries_.data()));
    }
    ++relays_[relay_key(*e)].entries;
  }
  e->active = true;
  hold(*e, now);
  bool changed = false;
  if (failure && !e->vetoed) {
    e->vetoed = true;
    changed = true;
    if (!m) outputs_.vetoes.push_back({e->port, *node, VetoSource::arn, true});
  }
  if (!vetoed_path && vetoes_path(*e)) ++path_vetoes_;
  if (!failure) {
    const std::uint8_t level = congestion_level(msg.metric);
    if (level != e->level) {
      e->level = level;
      changed = true;
      if (!m)
        outputs_.congestion.push_back({e->port, *node, VetoSource::arn, level});
    }
  }
  if (m && changed) emit_flow(*e);
  if (!config_.propagate || can_reroute(*node, arrival)) return;
  Relay& relay = relays_[relay_key(*e)];
  if (relay.propagated && now - relay.last_detection < burst_window())
    // A loop or a burst of copies (several neighbours relaying one
    // message, microseconds apart) must not multiply messages; the
    // reporter's repeats, a whole repeat_interval apart, each go on. (A
    // full-interval window dropped every other repeat for nanoseconds of
    // jitter, and a spine went 500 us without a refresh through a port.)
    return;
  relay.propagated = true;
  relay.last_detection = now;
  send_to_targets(msg, arrival, true, now);
  ++counters_.propagated;
}

bool ArnEngine::pass_elimination(Relay& r, PortId port, Time now) {
  if (!r.propagated) return false;
  if (r.eliminated && port != r.elimination_port &&
      now - r.last_elimination < burst_window()) {
    return false;
  }
  r.eliminated = true;
  r.elimination_port = port;
  r.last_elimination = now;
  return true;
}

}  // namespace arfabric::proto::arn
