#include "sim/arn_control.h"

#include <algorithm>
#include <string>

#include "sim/scenario/scenario.h"

namespace arfabric::sim {

namespace arn = proto::arn;

namespace {

// Destination d's address: leaf d's hosts, or multi-homed host d
// (10.(d/256).(d%256).0/24, as BgpControl originates them).
wire::Ipv4Address destination_address(proto::NodeId d) {
  return {10, static_cast<std::uint8_t>(d >> 8), static_cast<std::uint8_t>(d),
          1};
}

wire::Ipv4Address router_address(NodeIndex node) {
  return {172, static_cast<std::uint8_t>(16 + ((node >> 16) & 0x0f)),
          static_cast<std::uint8_t>(node >> 8),
          static_cast<std::uint8_t>(node)};
}

}  // namespace

ArnControl::ArnControl(Network& network, EventQueue& events, PacketPool& pool,
                       const ArnControlConfig& config)
    : network_(&network),
      config_(config),
      plane_(network, events, pool, EventType::arn, ControlProtocol::arn,
             kArnFrameOverheadBytes, config.processing) {}

std::expected<std::unique_ptr<ArnControl>, NetworkError> ArnControl::create(
    Network& network, EventQueue& events, PacketPool& pool,
    const std::vector<proto::NodeId>& leaf_id, const ArnControlConfig& config,
    Time now) {
  // Every FIB destination routes lead to, with the switches where it is
  // local (not routed): the leaves, and the multi-homed hosts.
  struct Destination {
    proto::NodeId id = 0;
    std::vector<NodeIndex> local;
  };
  std::vector<Destination> destinations;
  std::size_t switch_count = 0;
  for (NodeIndex n = 0; n < network.node_count(); ++n) {
    if (network.is_host(n)) continue;
    ++switch_count;
    if (leaf_id[n] != kNotLeaf) destinations.push_back({leaf_id[n], {n}});
  }
  for (const Network::MultiHomedHost& m : network.multihomed()) {
    destinations.push_back({m.destination, m.leaves});
  }
  if (switch_count > 0xffff || destinations.size() > 0xffff) {
    return std::unexpected(NetworkError{
        "arn", "more than 65535 switches or leaves and multi-homed hosts"});
  }
  std::unique_ptr<ArnControl> c(new ArnControl(network, events, pool, config));
  for (NodeIndex n = 0; n < network.node_count(); ++n) {
    if (network.is_host(n)) continue;
    const auto& out = network.out_links(n);
    arn::ArnConfig ac;
    ac.node_id = static_cast<std::uint16_t>(c->switches_.size());
    ac.port_count = static_cast<std::uint16_t>(out.size() + 1);
    ac.router_address = router_address(n);
    ac.repeat_interval = config.repeat_interval;
    ac.hold_time = config.hold_time;
    // The routed ports toward each destination (read once), the
    // destinations routed through each port, and whether each such
    // destination has another port.
    std::vector<std::vector<proto::PortId>> routes(destinations.size());
    std::vector<std::vector<proto::NodeId>> behind(out.size() + 1);
    std::vector<bool> alternatives(out.size() + 1, true);
    for (std::size_t i = 0; i < destinations.size(); ++i) {
      const Destination& d = destinations[i];
      routes[i] = network.fib(n).routing_ports(d.id);
      // A leaf's own hosts are not a destination it routes (notifications
      // about them are ignored as unknown).
      if (std::find(d.local.begin(), d.local.end(), n) != d.local.end()) {
        continue;
      }
      ac.destinations.push_back({destination_address(d.id), 24, d.id});
      const std::vector<proto::PortId>& ports = routes[i];
      for (proto::PortId port : ports) {
        behind[port].push_back(d.id);
        if (ports.size() < 2) alternatives[port] = false;
      }
    }
    Switch sw;
    sw.node = n;
    for (std::size_t p = 0; p < out.size(); ++p) {
      const auto port = static_cast<proto::PortId>(p + 1);
      const NodeIndex nb = network.link(out[p]).config().to;
      if (network.is_host(nb)) continue;
      ac.targets.push_back({port, router_address(nb)});
      if (behind[port].empty()) continue;
      arn::MonitoredPort m;
      m.port = port;
      for (proto::NodeId d : behind[port]) {
        m.affected.push_back(destination_address(d));
      }
      m.queue_high_bytes = config.queue_high_bytes;
      m.queue_low_bytes = config.queue_low_bytes;
      m.util_high = config.util_high;
      m.util_low = config.util_low;
      ac.monitored.push_back(std::move(m));
      sw.monitored.push_back(
          {port, out[p], network.link(out[p]).counters().bytes});
    }
    // Buckets that hold a repetition of every condition (congestion and
    // failure) of every monitored port at once, with 16 to spare for
    // propagated messages, and refill within a repeat_interval, so that
    // no message of the switch's own waits for a token (with the engine's
    // defaults, 16 tokens and one per 5 us, a spine whose 20 ports failed
    // at once would make the last 4 messages to each leaf wait up to
    // 20 us: tests/sim/arn_control_test.cc). The limit then bounds a
    // switch's ARN rate at what its ports can need.
    std::size_t objects = 0;
    for (const arn::MonitoredPort& m : ac.monitored) {
      objects += m.affected.size();
    }
    const std::size_t repetition = 2 * objects;
    ac.bucket_capacity = std::max<std::uint32_t>(
        ac.bucket_capacity, static_cast<std::uint32_t>(repetition + 16));
    if (repetition > 0) {
      ac.refill_interval =
          std::min(ac.refill_interval,
                   std::max(ps(1), ps(config.repeat_interval.ps() /
                                      static_cast<std::int64_t>(repetition))));
    }
    auto engine = arn::ArnEngine::create(ac);
    if (!engine) {
      return std::unexpected(NetworkError{
          "arn.node" + std::to_string(n) + "." + engine.error().field,
          engine.error().reason});
    }
    sw.engine = std::make_unique<arn::ArnEngine>(std::move(*engine));
    for (std::size_t i = 0; i < sw.monitored.size(); ++i) {
      const proto::PortId port = sw.monitored[i].port;
      sw.engine->set_local_alternatives(port, alternatives[port], now);
      if (!network.link(sw.monitored[i].link).up()) {
        sw.engine->link_state(port, false, now);
      }
    }
    for (std::size_t i = 0; i < destinations.size(); ++i) {
      sw.engine->set_next_hops(destinations[i].id, routes[i]);
    }
    const std::uint32_t index = c->plane_.add_switch(n);
    c->switches_.push_back(std::move(sw));
    for (const arn::Target& target : ac.targets) {
      c->pace(index, target.port, network.link(out[target.port - 1]).rate(),
              now);
    }
    if (config.sample_interval > Time{} &&
        !c->switches_.back().monitored.empty()) {
      c->plane_.sample_at(index, now + config.sample_interval);
    }
  }
  for (std::uint32_t i = 0; i < c->switches_.size(); ++i) {
    c->flush(i, now);
    c->arm(i);
  }
  return c;
}

void ArnControl::pace(std::uint32_t index, proto::PortId port,
                      BitsPerSecond rate, Time now) {
  arn::ArnEngine& engine = *switches_[index].engine;
  const Time interval = std::max(engine.config().refill_interval,
                                 arn_message_spacing(rate, config_.link_share));
  // Only a port without a target (toward a host) is refused.
  (void)engine.set_refill_interval(port, interval, now);
}

void ArnControl::cable_rate(std::size_t cable, BitsPerSecond rate, Time now) {
  for (const LinkIndex l : network_->cable_links(cable)) {
    const NodeIndex from = network_->link(l).from();
    if (network_->is_host(from)) continue;
    const auto& out = network_->out_links(from);
    const auto port = static_cast<proto::PortId>(
        std::find(out.begin(), out.end(), l) - out.begin() + 1);
    const std::uint32_t index = plane_.switch_index(from);
    pace(index, port, rate, now);
    flush(index, now);  // what a faster pace let go
    arm(index);
  }
}

void ArnControl::flush(std::uint32_t index, Time now) {
  Switch& sw = switches_[index];
  arn::Outputs& out = sw.engine->outputs();
  proto::fib::Fib& fib = network_->fib(sw.node);
  for (const proto::VetoChange& v : out.vetoes) {
    // As LsnControl: convergence counts vetoes of paths routing uses, not
    // a super-spine told by a spine about a leaf it reaches another way.
    const bool routed = v.vetoed && fib.routes_through(v.destination, v.port);
    if (fib.apply(v, now)) {
      if (v.vetoed) {
        ++counters_.vetoes;
        if (routed) counters_.last_veto = now;
      }
    } else {
      ++counters_.fib_rejected;
    }
  }
  for (const proto::CongestionChange& cc : out.congestion) {
    if (fib.apply(cc)) {
      ++counters_.congestion;
    } else {
      ++counters_.fib_rejected;
    }
  }
  for (const arn::Transmit& t : out.transmits) {
    if (const std::uint32_t bytes =
            plane_.send(sw.node, t.port, t.bytes, now)) {
      ++counters_.messages;
      counters_.bytes += bytes;
    }
  }
  out.clear();
}

void ArnControl::arm(std::uint32_t index) {
  Switch& sw = switches_[index];
  plane_.arm(index, sw.timer, sw.engine->next_deadline());
}

void ArnControl::on_control(NodeIndex node, proto::PortId port,
                            PacketIndex packet, Time now) {
  plane_.on_control(node, port, packet, now);
}

void ArnControl::on_control_dropped(const Packet& packet) {
  plane_.on_control_dropped(packet);
}

void ArnControl::on_port_state(NodeIndex node, proto::PortId port, bool up,
                               Time now) {
  const std::uint32_t index = plane_.switch_index(node);
  if (index == NotificationPlane::kNotSwitch) return;
  switches_[index].engine->link_state(port, up, now);
  flush(index, now);
  arm(index);
}

void ArnControl::on_event(const Event& e) {
  if (e.b == NotificationPlane::kTimer) {
    Switch& sw = switches_[e.a];
    if (!sw.timer.fire(e.at)) return;  // superseded
    sw.engine->on_timer(e.at);
    flush(e.a, e.at);
    arm(e.a);
    return;
  }
  if (e.b == NotificationPlane::kSample) {
    Switch& sw = switches_[e.a];
    const double interval = config_.sample_interval.seconds();
    for (Monitored& m : sw.monitored) {
      const Link& link = network_->link(m.link);
      const std::uint64_t bytes = link.counters().bytes;
      const double utilisation = static_cast<double>(bytes - m.bytes_before) *
                                 8 /
                                 (static_cast<double>(link.rate()) * interval);
      m.bytes_before = bytes;
      sw.engine->observe(m.port, network_->queued_bytes(m.link, e.at),
                         utilisation, e.at);
    }
    flush(e.a, e.at);
    arm(e.a);
    plane_.sample_at(e.a, e.at + config_.sample_interval);
    return;
  }
  // A received message, now processed.
  const std::uint32_t index = plane_.deliver(
      e, [&](std::uint32_t sw, proto::PortId port, ByteSpan bytes) {
        ++counters_.received;
        switches_[sw].engine->on_message(port, bytes, e.at);
      });
  flush(index, e.at);
  arm(index);
}

ArnControlCounters ArnControl::counters() const {
  ArnControlCounters c = counters_;
  for (const Switch& sw : switches_) {
    const arn::Counters& e = sw.engine->counters();
    c.detections += e.detections;
    c.suppressed += e.suppressed;
    c.waited += e.waited;
    c.rate_limited += e.rate_limited;
  }
  return c;
}

}  // namespace arfabric::sim
