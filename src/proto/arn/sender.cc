// ARN engine, sending side: detection inputs, the notify decision,
// repetition, eliminations and per-target rate limiting with fair queues
// (draft §2.1; the rate limit is ours).
#include <algorithm>
#include <string>

#include "proto/arn/arn_engine.h"
#include "wire/arn/arn_transport.h"

namespace arfabric::proto::arn {

using wire::arn::ArnMessage;
using wire::arn::ArnType;

namespace {

// Wildcard fields are sent as zero (docs/PROTOCOLS.md, ARN 5-tuple
// layout), so that every copy of a flow object names it identically.
wire::arn::FiveTuple normalised(wire::arn::FiveTuple f) {
  using namespace wire::arn;
  if (!(f.mask & kMaskProtocol)) f.protocol = 0;
  if (!(f.mask & kMaskSource)) f.source = {};
  if (!(f.mask & kMaskDestination)) f.destination = {};
  if (!(f.mask & kMaskSourcePort)) f.source_port = 0;
  if (!(f.mask & kMaskDestinationPort)) f.destination_port = 0;
  if (f.family == AddressFamily::ipv4) {
    std::fill(f.source.begin() + 4, f.source.end(), 0);
    std::fill(f.destination.begin() + 4, f.destination.end(), 0);
  }
  f.reserved = 0;
  return f;
}

}  // namespace

std::expected<ArnEngine, ConfigError> ArnEngine::create(ArnConfig config) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  ArnEngine engine(std::move(config));
  const auto& dests = engine.config_.destinations;
  for (std::size_t i = 0; i < dests.size(); ++i) {
    // The table wants host bits clear; a node's own address with its
    // prefix length is a natural way to configure it, so mask them here.
    fib::Prefix p{.ipv6 = dests[i].prefix.ipv6, .length = dests[i].length};
    for (unsigned bit = 0; bit < dests[i].length; ++bit)
      p.address[bit / 8] |= dests[i].prefix.bytes[bit / 8] & (0x80 >> bit % 8);
    const std::size_t before = engine.destinations_.size();
    auto ok = engine.destinations_.add(p, dests[i].node);
    const std::string at = "destinations[" + std::to_string(i) + "]";
    if (!ok)
      return std::unexpected(
          ConfigError{at + "." + ok.error().field, ok.error().reason});
    if (engine.destinations_.size() == before)
      return std::unexpected(ConfigError{at + ".prefix", "listed twice"});
  }
  return engine;
}

ArnEngine::ArnEngine(ArnConfig config) : config_(std::move(config)) {
  monitor_of_port_.assign(config_.port_count, -1);
  for (std::size_t i = 0; i < config_.monitored.size(); ++i) {
    for (auto& f : config_.monitored[i].flows) f = normalised(f);
    monitor_of_port_[config_.monitored[i].port] = static_cast<int>(i);
    detectors_.emplace_back(config_.monitored[i]);
  }
  conditions_.resize(config_.monitored.size());
  local_alternatives_.assign(config_.port_count, false);
  buckets_.assign(
      config_.targets.size(),
      Bucket{config_.bucket_capacity, Time(), config_.refill_interval});
  queues_.resize(config_.targets.size());
  update_own_limit();
  entries_.resize(config_.max_entries);
  used_bits_.assign((entries_.size() + 63) / 64, 0);
}

bool ArnEngine::observe(PortId port, std::uint64_t queue_bytes,
                        double utilisation, Time now) {
  if (port >= monitor_of_port_.size() || monitor_of_port_[port] < 0)
    return false;
  const auto m = static_cast<std::size_t>(monitor_of_port_[port]);
  handle(m, detectors_[m].observe(queue_bytes, utilisation), now);
  return true;
}

bool ArnEngine::link_state(PortId port, bool up, Time now) {
  if (port >= monitor_of_port_.size() || monitor_of_port_[port] < 0)
    return false;
  const auto m = static_cast<std::size_t>(monitor_of_port_[port]);
  handle(m, detectors_[m].link(up), now);
  return true;
}

bool ArnEngine::set_local_alternatives(PortId port, bool available, Time now) {
  if (port >= monitor_of_port_.size() || monitor_of_port_[port] < 0)
    return false;
  local_alternatives_[port] = available;
  if (available) return true;
  const auto m = static_cast<std::size_t>(monitor_of_port_[port]);
  for (Kind k : {kCongestion, kFailure}) {
    Condition& c = conditions_[m][k];
    if (c.phase != Phase::suppressed) continue;
    c.phase = Phase::notifying;
    c.next_send = now;
    tick(m, k, now);  // due now: marks sends_due_ stale
  }
  return true;
}

void ArnEngine::handle(std::size_t m, Event event, Time now) {
  if (event == Event::none) return;
  const Kind kind = event == Event::congestion_detected ||
                            event == Event::congestion_eliminated
                        ? kCongestion
                        : kFailure;
  const bool detected =
      event == Event::congestion_detected || event == Event::failure_detected;
  Condition& c = conditions_[m][kind];
  sends_due_stale_ = true;
  if (detected) {
    ++counters_.detections;
    if (local_alternatives_[config_.monitored[m].port]) {
      c.phase = Phase::suppressed;
      ++counters_.suppressed;
      return;
    }
    c.phase = Phase::notifying;
  } else {
    if (c.phase != Phase::notifying) {
      c.phase = Phase::idle;  // nothing was announced, nothing to revoke
      return;
    }
    c.phase = Phase::eliminating;
    c.eliminations_left = config_.elimination_repeats;
  }
  c.next_send = now;
  tick(m, kind, now);
}

// Sends what a due condition owes and schedules the next send.
void ArnEngine::tick(std::size_t m, Kind kind, Time now) {
  Condition& c = conditions_[m][kind];
  if (c.next_send > now) return;
  sends_due_stale_ = true;
  if (c.phase == Phase::notifying) {
    notify(m, kind, true, now);
    c.next_send = now + config_.repeat_interval;
  } else if (c.phase == Phase::eliminating) {
    if (c.eliminations_left == 0) {
      c.phase = Phase::idle;
      return;
    }
    notify(m, kind, false, now);
    if (--c.eliminations_left == 0)
      c.phase = Phase::idle;
    else
      c.next_send = now + config_.repeat_interval;
  }
}

wire::arn::ArnMessage ArnEngine::message(std::size_t m, Kind kind,
                                         bool detection) const {
  ArnMessage msg;
  if (kind == kFailure) {
    msg.type =
        detection ? ArnType::failure_detected : ArnType::failure_eliminated;
    msg.metric = detection ? kFailureMetric : 0;
  } else {
    msg.type = detection ? ArnType::congestion_detected
                         : ArnType::congestion_eliminated;
    msg.metric = detection ? detectors_[m].metric() : 0;
  }
  msg.path_id = path_id(config_.node_id, config_.monitored[m].port);
  return msg;
}

void ArnEngine::notify(std::size_t m, Kind kind, bool detection, Time now) {
  const MonitoredPort& mp = config_.monitored[m];
  ArnMessage msg = message(m, kind, detection);
  // Never back through the affected port: behind it is the failed link,
  // or (congestion) the node the traffic is going to, not an upstream.
  for (const IpAddress& a : mp.affected) {
    wire::arn::FiveTuple flow;
    flow.family = a.ipv6 ? wire::arn::AddressFamily::ipv6
                         : wire::arn::AddressFamily::ipv4;
    flow.mask = wire::arn::kMaskDestination;
    flow.destination = a.bytes;
    msg.flow = flow;
    send_to_targets(msg, mp.port, true, now);
  }
  Condition& c = conditions_[m][kind];
  if (detection) c.announced_flows = mp.flows;
  for (const wire::arn::FiveTuple& flow : c.announced_flows) {
    msg.flow = flow;
    send_to_targets(msg, mp.port, true, now);
  }
}

std::expected<void, ConfigError> ArnEngine::set_flows(
    PortId port, std::span<const wire::arn::FiveTuple> flows, Time now) {
  if (port >= monitor_of_port_.size() || monitor_of_port_[port] < 0)
    return std::unexpected(
        ConfigError{"port", std::to_string(port) + " is not monitored"});
  std::vector<wire::arn::FiveTuple> next;
  next.reserve(flows.size());
  for (std::size_t j = 0; j < flows.size(); ++j) {
    if (auto ok = validate_flow(flows[j], "flows[" + std::to_string(j) + "]");
        !ok)
      return ok;
    next.push_back(normalised(flows[j]));
  }
  const auto m = static_cast<std::size_t>(monitor_of_port_[port]);
  MonitoredPort& mp = config_.monitored[m];
  // The new list first: the eliminations below are about dropped flows.
  mp.flows = std::move(next);
  update_own_limit();
  for (Kind k : {kCongestion, kFailure}) {
    const Condition& c = conditions_[m][k];
    if (c.phase != Phase::notifying) continue;
    ArnMessage msg = message(m, k, false);
    for (const wire::arn::FiveTuple& old : c.announced_flows) {
      if (std::ranges::find(mp.flows, old) != mp.flows.end()) continue;
      msg.flow = old;
      send_to_targets(msg, port, true, now);
    }
  }
  return {};
}

bool ArnEngine::take_token(std::size_t t, Time now) {
  refill(t, now);
  Bucket& b = buckets_[t];
  if (b.tokens == 0) return false;
  --b.tokens;
  return true;
}

void ArnEngine::refill(std::size_t t, Time now) {
  Bucket& b = buckets_[t];
  if (now <= b.last_refill) return;
  const std::int64_t n = (now - b.last_refill) / b.refill_interval;
  const std::uint64_t tokens = b.tokens + static_cast<std::uint64_t>(n);
  b.tokens = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(tokens, config_.bucket_capacity));
  b.last_refill += b.refill_interval * n;
  if (b.tokens == config_.bucket_capacity) b.last_refill = now;
}

std::expected<void, ConfigError> ArnEngine::set_refill_interval(PortId port,
                                                                Time interval,
                                                                Time now) {
  if (interval <= Time())
    return std::unexpected(ConfigError{"refill_interval", "must be positive"});
  bool found = false;
  for (std::size_t t = 0; t < config_.targets.size(); ++t) {
    if (config_.targets[t].port != port) continue;
    found = true;
    Bucket& b = buckets_[t];
    if (b.refill_interval == interval) continue;
    refill(t, now);
    // The time toward the next token counts, but at most one new
    // interval of it: a faster pace never dates the next token back
    // before `now`.
    if (now > b.last_refill)
      b.last_refill = std::max(b.last_refill, now - interval);
    b.refill_interval = interval;
    serve(t, now);  // a token due at once goes at once
  }
  if (!found) return std::unexpected(ConfigError{"port", "has no target"});
  return {};
}

void ArnEngine::send_to_targets(const ArnMessage& msg, PortId except_port,
                                bool exclude, Time now) {
  for (std::size_t t = 0; t < config_.targets.size(); ++t) {
    if (exclude && config_.targets[t].port == except_port) continue;
    if (!queues_[t].empty()) serve(t, now);
    if (queues_[t].empty() && take_token(t, now)) {
      transmit(t, msg);
    } else {
      wait_for_token(t, msg);
    }
  }
}

std::size_t ArnEngine::WaitingKeyHash::operator()(const WaitingKey& k) const {
  const wire::arn::FiveTuple& f = k.flow;
  std::uint64_t x = mix64(std::uint64_t{k.path_id} << 32 |
                          std::uint64_t{k.failure} << 16 | f.mask);
  for (const auto* address : {&f.source, &f.destination})
    for (std::size_t i = 0; i < 16; i += 8) {
      std::uint64_t word = 0;
      for (std::size_t b = 0; b < 8; ++b) word = word << 8 | (*address)[i + b];
      x = mix64(x ^ word);
    }
  return static_cast<std::size_t>(
      mix64(x ^ (std::uint64_t{f.source_port} << 32 |
                 std::uint64_t{f.destination_port} << 16 | f.protocol)));
}

ArnEngine::WaitingKey ArnEngine::waiting_key(const ArnMessage& msg) {
  return {msg.path_id.value_or(0),
          msg.type == ArnType::failure_detected ||
              msg.type == ArnType::failure_eliminated,
          msg.flow.value_or(wire::arn::FiveTuple{})};
}

bool ArnEngine::relayed(const ArnMessage& msg) const {
  return !msg.path_id || path_id_node(*msg.path_id) != config_.node_id;
}

bool ArnEngine::about_a_dropped_flow(const ArnMessage& msg) const {
  if (!msg.path_id || !msg.flow) return false;
  const PortId port = static_cast<PortId>(*msg.path_id & 0xffff);
  if (port >= monitor_of_port_.size() || monitor_of_port_[port] < 0)
    return false;
  const MonitoredPort& mp =
      config_.monitored[static_cast<std::size_t>(monitor_of_port_[port])];
  const wire::arn::FiveTuple& f = *msg.flow;
  if (std::ranges::find(mp.flows, f) != mp.flows.end()) return false;
  // An affected destination (notify()'s form of it).
  return f.mask != wire::arn::kMaskDestination ||
         std::ranges::none_of(mp.affected, [&](const IpAddress& a) {
           return a.bytes == f.destination &&
                  a.ipv6 == (f.family == wire::arn::AddressFamily::ipv6);
         });
}

void ArnEngine::update_own_limit() {
  own_limit_ = 0;
  for (const MonitoredPort& mp : config_.monitored)
    own_limit_ += 2 * (mp.affected.size() + mp.flows.size());
}

void ArnEngine::wait_for_token(std::size_t t, const ArnMessage& msg) {
  TargetQueue& q = queues_[t];
  const WaitingKey key = waiting_key(msg);
  Lane& lane = q.lanes[key.failure ? kFailure : kCongestion];
  if (const auto it = q.place.find(key); it != q.place.end()) {
    lane.messages[it->second - lane.first].message = msg;
    ++counters_.superseded;
    return;
  }
  const bool relay = relayed(msg);
  if (relay) {
    // A relayed failure takes the place of the newest congestion relay
    // (which strict priority may hold back for long), else it is dropped.
    if (q.relays >= config_.max_waiting_relays &&
        !(key.failure && evict_newest_congestion_relay(q))) {
      ++counters_.rate_limited;
      return;
    }
    ++q.relays;
  } else {
    if (q.own >= own_limit_) {
      // Full only with messages about dropped flows among those waiting
      // (the others are at most own_limit_): the newcomer if it is one,
      // else the oldest of them, congestion before failure.
      if (about_a_dropped_flow(msg)) {
        ++counters_.evicted;
        return;
      }
      evict_one_about_a_dropped_flow(q);
    }
    ++q.own;
  }
  if (q.empty()) ++targets_waiting_;
  q.place.emplace(key, lane.first + lane.messages.size());
  lane.messages.push_back({msg});
  ++counters_.waited;
}

void ArnEngine::evict_one_about_a_dropped_flow(TargetQueue& q) {
  for (Lane& lane : q.lanes) {
    for (Waiting& w : lane.messages) {
      if (w.evicted || relayed(w.message) || !about_a_dropped_flow(w.message))
        continue;
      w.evicted = true;
      q.place.erase(waiting_key(w.message));
      --q.own;
      ++counters_.evicted;
      return;
    }
  }
}

bool ArnEngine::evict_newest_congestion_relay(TargetQueue& q) {
  auto& waiting = q.lanes[kCongestion].messages;
  for (auto w = waiting.rbegin(); w != waiting.rend(); ++w) {
    if (w->evicted || !relayed(w->message)) continue;
    w->evicted = true;
    q.place.erase(waiting_key(w->message));
    --q.relays;
    ++counters_.rate_limited;
    return true;
  }
  return false;
}

void ArnEngine::serve(std::size_t t, Time now) {
  TargetQueue& q = queues_[t];
  if (q.empty()) return;
  for (Lane* lane : {&q.lanes[kFailure], &q.lanes[kCongestion]}) {
    while (!lane->messages.empty()) {
      const Waiting& w = lane->messages.front();
      if (!w.evicted) {
        if (!take_token(t, now)) break;
        q.place.erase(waiting_key(w.message));
        if (relayed(w.message))
          --q.relays;
        else
          --q.own;
        transmit(t, w.message);
      }
      lane->messages.pop_front();
      ++lane->first;
    }
    if (!lane->messages.empty()) break;  // out of tokens
  }
  if (q.empty()) --targets_waiting_;
}

void ArnEngine::transmit(std::size_t t, const ArnMessage& msg) {
  const Target& target = config_.targets[t];
  scratch_.clear();
  std::expected<void, EncodeError> ok;
  if (config_.transport == Transport::udp) {
    ok = wire::arn::serialize_ipv4_udp(msg, config_.router_address,
                                       target.address, config_.udp, scratch_);
  } else {
    wire::arn::ArnL2Frame frame{config_.l2_destination, config_.mac, msg};
    ok = wire::arn::serialize_l2(frame, scratch_, config_.l2);
  }
  if (!ok) return;  // only a re-sent message with bad reserved bits
  outputs_.transmits.push_back(
      Transmit{target.port, config_.transport, scratch_.data()});
  ++counters_.sent;
}

Time ArnEngine::tokens_due() const {
  if (targets_waiting_ == 0) return Time::max();
  Time due = Time::max();
  for (std::size_t t = 0; t < queues_.size(); ++t)
    if (!queues_[t].empty())
      due =
          std::min(due, buckets_[t].last_refill + buckets_[t].refill_interval);
  return due;
}

Time ArnEngine::sends_due() const {
  if (sends_due_stale_) {
    sends_due_ = Time::max();
    for (const auto& pair : conditions_)
      for (const Condition& c : pair)
        if (c.phase == Phase::notifying || c.phase == Phase::eliminating)
          sends_due_ = std::min(sends_due_, c.next_send);
    sends_due_stale_ = false;
  }
  return sends_due_;
}

Time ArnEngine::next_deadline() const {
  const Time t = sends_due();
  while (!expiries_.empty() && !current(expiries_.front())) {
    expiries_.pop_front();
  }
  const Time sends = std::min(t, tokens_due());
  return expiries_.empty() ? sends : std::min(sends, expiries_.front().at);
}

void ArnEngine::on_timer(Time now) {
  expired_.clear();
  while (!expiries_.empty() && expiries_.front().at <= now) {
    if (current(expiries_.front())) expired_.push_back(expiries_.front().entry);
    expiries_.pop_front();
  }
  // In table order, as a scan finds them (one current record an entry:
  // hold()).
  std::ranges::sort(expired_);
  for (const std::uint32_t index : expired_) {
    Entry& e = entries_[index];
    if (e.active) {
      revoke(e);
      ++counters_.timed_out;
    }
    if (!e.is_flow) {
      object_entries_.erase(ObjectKey{e.path_id, e.destination, e.port});
    }
    if (const auto r = relays_.find(relay_key(e));
        r != relays_.end() && --r->second.entries == 0) {
      relays_.erase(r);
    }
    e = Entry{};
    used_bits_[index / 64] &= ~(std::uint64_t{1} << (index % 64));
  }
  while (held_end_ > 0 && !entries_[held_end_ - 1].used) --held_end_;
  // What waits for a token goes before what a repetition adds.
  if (targets_waiting_ > 0)
    for (std::size_t t = 0; t < queues_.size(); ++t)
      if (!queues_[t].empty()) serve(t, now);
  // None due: every tick() would send nothing and change nothing.
  if (sends_due() > now) return;
  for (std::size_t m = 0; m < conditions_.size(); ++m)
    for (Kind k : {kCongestion, kFailure}) tick(m, k, now);
}

}  // namespace arfabric::proto::arn
