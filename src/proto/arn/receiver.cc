// ARN engine, receiving side: the affected object to (port, destination)
// records, revocation, and propagation (draft §3.2, §4.1).
#include <algorithm>

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

// Another port toward `destination` that no failure we hold vetoes.
bool ArnEngine::can_reroute(NodeId destination, PortId arrival) const {
  for (const auto& [node, ports] : next_hops_) {
    if (node != destination) continue;
    for (PortId p : ports) {
      if (p == arrival) continue;
      const bool vetoed =
          std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
            return e.used && e.active && e.vetoed && e.port == p &&
                   e.destination == destination;
          });
      if (!vetoed) return true;
    }
  }
  return false;
}

ArnEngine::Entry* ArnEngine::find(std::uint32_t id, NodeId destination) {
  for (Entry& e : entries_)
    if (e.used && e.path_id == id && e.destination == destination) return &e;
  return nullptr;
}

ArnEngine::Entry* ArnEngine::allocate() {
  for (Entry& e : entries_)
    if (!e.used) return &e;
  return nullptr;
}

void ArnEngine::revoke(Entry& e) {
  if (e.vetoed)
    outputs_.vetoes.push_back({e.port, e.destination, VetoSource::arn, false});
  if (e.level > 0)
    outputs_.congestion.push_back({e.port, e.destination, VetoSource::arn, 0});
  e.vetoed = false;
  e.level = 0;
  e.active = false;
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
  // IPv4 addresses use the first 4 bytes (the parser zeroes the rest).
  const auto node =
      destinations_.lookup(msg.flow->family == wire::arn::AddressFamily::ipv6,
                           msg.flow->destination);
  if (!node) {
    ++counters_.unknown_destination;
    return;
  }

  Entry* e = find(*msg.path_id, *node);
  const bool failure = msg.type == ArnType::failure_detected ||
                       msg.type == ArnType::failure_eliminated;
  if (!wire::arn::is_detection(msg.type)) {
    if (!e || (failure ? !e->vetoed : e->level == 0)) {
      if (e && e->propagated) send_to_targets(msg, arrival, true, now);
      ++counters_.stale_elimination;
      return;
    }
    if (failure) {
      outputs_.vetoes.push_back({e->port, *node, VetoSource::arn, false});
      e->vetoed = false;
    } else {
      outputs_.congestion.push_back({e->port, *node, VetoSource::arn, 0});
      e->level = 0;
    }
    e->active = e->vetoed || e->level > 0;
    e->expires = now + config_.hold_time;
    ++counters_.revoked;
    if (e->propagated) {
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
    e->path_id = *msg.path_id;
    e->destination = *node;
    e->port = arrival;
  }
  e->active = true;
  e->expires = now + config_.hold_time;
  if (failure && !e->vetoed) {
    e->vetoed = true;
    outputs_.vetoes.push_back({e->port, *node, VetoSource::arn, true});
  }
  if (!failure) {
    const std::uint8_t level = congestion_level(msg.metric);
    if (level != e->level) {
      e->level = level;
      outputs_.congestion.push_back({e->port, *node, VetoSource::arn, level});
    }
  }
  if (!config_.propagate || can_reroute(*node, arrival)) return;
  if (e->propagated && now - e->last_propagated < config_.repeat_interval)
    return;  // a loop or a burst of copies must not multiply messages
  e->propagated = true;
  e->last_propagated = now;
  send_to_targets(msg, arrival, true, now);
  ++counters_.propagated;
}

}  // namespace arfabric::proto::arn
