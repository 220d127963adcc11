#include "sim/bgp_control.h"

#include <algorithm>

#include "common/overloaded.h"

namespace arfabric::sim {

namespace bgp = proto::bgp;

namespace {

constexpr std::uint32_t kNone = 0xffffffff;
// A BGP message's bytes on the wire around it: TCP and IPv4 headers (20
// each, no options), Ethernet header and FCS (14 + 4), preamble and
// inter-frame gap (8 + 12), as LSN frames and ARN packets are counted.
constexpr std::uint32_t kControlOverheadBytes = 20 + 20 + 14 + 4 + 20;

bgp::Destination leaf_prefix(proto::NodeId leaf) {
  bgp::Destination d;
  d.afi = wire::bgp::kAfiIpv4;
  d.length = 24;
  d.address[0] = 10;
  d.address[1] = static_cast<std::uint8_t>(leaf >> 8);
  d.address[2] = static_cast<std::uint8_t>(leaf);
  return d;
}

wire::Ipv4Address ipv4(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v >> 24),
          static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
          static_cast<std::uint8_t>(v)};
}

}  // namespace

std::expected<std::unique_ptr<BgpControl>, NetworkError> BgpControl::create(
    Network& network, EventQueue& events, PacketPool& pool,
    const std::vector<BgpSwitch>& switches, const BgpControlConfig& config) {
  std::unique_ptr<BgpControl> c(new BgpControl(network, events, pool, config));
  c->switch_of_node_.assign(network.node_count(), kNone);
  for (std::uint32_t i = 0; i < switches.size(); ++i) {
    c->switch_of_node_[switches[i].node] = i;
  }
  c->cable_up_.assign(network.cable_count(), true);
  c->switches_.resize(switches.size());
  for (std::uint32_t i = 0; i < switches.size(); ++i) {
    Switch& sw = c->switches_[i];
    sw.spec = switches[i];
    bgp::SpeakerConfig sc;
    sc.local_as = sw.spec.asn;
    sc.router_id = ipv4(sw.spec.router_id);
    sc.rib.fare_enabled = config.fare;
    sc.rib.fare.role = sw.spec.role;
    const auto& out = network.out_links(sw.spec.node);
    for (std::size_t p = 0; p < out.size(); ++p) {
      const NodeIndex nb = network.link(out[p]).config().to;
      const std::uint32_t nb_sw = c->switch_of_node_[nb];
      if (nb_sw == kNone) continue;  // a host
      bgp::PeerConfig pc;
      pc.name = "node" + std::to_string(nb);
      pc.session.remote_as = switches[nb_sw].asn;
      pc.session.hold_time_s = config.hold_time_s;
      pc.session.connect_retry_time = config.connect_retry;
      pc.session.idle_hold_time = config.idle_hold;
      pc.role = switches[nb_sw].role;
      pc.link_bandwidth = network.link(out[p]).rate();
      // The switch's address by node index, as in the --out pcap
      // (docs/OUTPUT.md), so the NEXT_HOP seen there is the sender.
      pc.next_hop_ipv4 = {10, 255, static_cast<std::uint8_t>(sw.spec.node >> 8),
                          static_cast<std::uint8_t>(sw.spec.node)};
      pc.mrai = config.mrai;
      pc.address_rank = nb;
      sc.peers.push_back(pc);
      sw.peer_node.push_back(nb);
      sw.peer_port.push_back(static_cast<proto::PortId>(p + 1));
      sw.peer_cable.push_back(network.cable_of(out[p]));
      sw.peer_switch.push_back(nb_sw);
    }
    if (sw.spec.leaf) sc.networks.push_back(leaf_prefix(sw.spec.leaf_id));
    for (const Network::MultiHomedHost& m : network.multihomed()) {
      const bgp::Destination prefix = leaf_prefix(m.destination);
      sc.multihomed.emplace_back(prefix,
                                 static_cast<std::uint32_t>(m.leaves.size()));
      if (std::ranges::find(m.leaves, sw.spec.node) != m.leaves.end()) {
        sc.networks.push_back(prefix);
        const proto::PortId port = *network.port_toward(sw.spec.node, m.host);
        sw.connected.push_back(
            {m.destination, port,
             network.cable_of(network.out_links(sw.spec.node)[port - 1]),
             true});
      }
    }
    if (auto ok = bgp::validate(sc); !ok) {
      return std::unexpected(NetworkError{"switch node " +
                                              std::to_string(sw.spec.node) +
                                              "." + ok.error().field,
                                          ok.error().reason});
    }
    sw.speaker = std::make_unique<bgp::Speaker>(std::move(sc));
  }
  return c;
}

const bgp::Speaker& BgpControl::speaker(NodeIndex node) const {
  return *switches_[switch_of_node_[node]].speaker;
}

void BgpControl::start(Time now) {
  for (std::uint32_t i = 0; i < switches_.size(); ++i) {
    switches_[i].speaker->start(now);
    pump(i, now);
  }
}

void BgpControl::schedule(Time at, Work work) {
  if (work.kind != WorkKind::timer) ++pending_work_;
  std::uint32_t index;
  if (!free_work_.empty()) {
    index = free_work_.back();
    free_work_.pop_back();
    work_[index] = std::move(work);
  } else {
    index = static_cast<std::uint32_t>(work_.size());
    work_.push_back(std::move(work));
  }
  events_->push(at, EventType::control, index, 0);
}

void BgpControl::arm_timer(std::uint32_t sw) {
  Switch& s = switches_[sw];
  const Time deadline = s.speaker->next_deadline();
  if (s.timer.arm(deadline)) {
    Work w;
    w.kind = WorkKind::timer;
    w.sw = sw;
    schedule(deadline, std::move(w));
  }
}

void BgpControl::close_connection(bgp::ConnectionId id, Time at) {
  ConnectionEnd& end = connections_[id - 1];
  if (!end.open) return;
  end.open = false;
  Work w;
  w.kind = WorkKind::closed;
  w.sw = end.sw;
  w.peer = end.peer;
  w.connection = id;
  schedule(at, std::move(w));
}

void BgpControl::pump(std::uint32_t sw_index, Time now) {
  held_back_.reset();  // the speaker has just taken an input
  Switch& sw = switches_[sw_index];
  std::vector<bgp::SpeakerOutput> outs;
  outs.swap(sw.speaker->outputs());
  for (bgp::SpeakerOutput& o : outs) {
    std::visit(
        Overloaded{
            [&](bgp::ConnectRequest& c) {
              const std::size_t cable = sw.peer_cable[c.peer];
              const Time delay = network_->link(network_->cable_links(cable)[0])
                                     .config()
                                     .delay;
              if (!cable_up_[cable]) {
                Work w;
                w.kind = WorkKind::connect_failed;
                w.sw = sw_index;
                w.peer = c.peer;
                schedule(now + delay, std::move(w));
                return;
              }
              const std::uint32_t other_sw = sw.peer_switch[c.peer];
              const Switch& other = switches_[other_sw];
              const auto back = std::find(other.peer_node.begin(),
                                          other.peer_node.end(), sw.spec.node);
              const bgp::PeerId other_peer =
                  static_cast<bgp::PeerId>(back - other.peer_node.begin());
              const auto mine =
                  static_cast<bgp::ConnectionId>(connections_.size() + 1);
              const bgp::ConnectionId theirs = mine + 1;
              connections_.push_back({sw_index, c.peer, theirs, cable, true});
              connections_.push_back({other_sw, other_peer, mine, cable, true});
              Work in;
              in.kind = WorkKind::connected;
              in.sw = other_sw;
              in.peer = other_peer;
              in.connection = theirs;
              in.direction = bgp::Direction::incoming;
              schedule(now + delay, std::move(in));
              Work out;
              out.kind = WorkKind::connected;
              out.sw = sw_index;
              out.peer = c.peer;
              out.connection = mine;
              out.direction = bgp::Direction::outgoing;
              schedule(now + delay * 2, std::move(out));
            },
            [&](bgp::SendRequest& s) {
              if (s.connection == 0 || s.connection > connections_.size() ||
                  !connections_[s.connection - 1].open) {
                return;
              }
              std::uint32_t payload;
              if (!free_payloads_.empty()) {
                payload = free_payloads_.back();
                free_payloads_.pop_back();
                payloads_[payload] = std::move(s.bytes);
              } else {
                payload = static_cast<std::uint32_t>(payloads_.size());
                payloads_.push_back(std::move(s.bytes));
              }
              const PacketIndex i = pool_->allocate();
              Packet& p = (*pool_)[i];
              p.kind = PacketKind::control;
              p.source = sw.spec.node;
              p.destination = sw.peer_node[s.peer];
              p.control = payload;
              p.connection = connections_[s.connection - 1].other;
              p.wire_bytes = static_cast<std::uint32_t>(
                  payloads_[payload].size() + kControlOverheadBytes);
              ++counters_.messages;
              counters_.bytes += p.wire_bytes;
              if (tap_) {
                tap_->on_control_sent({.at = now,
                                       .node = sw.spec.node,
                                       .port = sw.peer_port[s.peer],
                                       .neighbour = sw.peer_node[s.peer],
                                       .protocol = ControlProtocol::bgp,
                                       .connection = s.connection,
                                       .bytes = payloads_[payload]});
              }
              network_->send_control(sw.spec.node, sw.peer_port[s.peer], i,
                                     now);
            },
            [&](bgp::CloseRequest& c) {
              if (c.connection == 0 || c.connection > connections_.size()) {
                return;
              }
              ConnectionEnd& end = connections_[c.connection - 1];
              if (!end.open) return;
              end.open = false;
              const Time delay =
                  network_->link(network_->cable_links(end.cable)[0])
                      .config()
                      .delay;
              close_connection(end.other, now + delay);
            },
            [&](bgp::FibUpdate& f) {
              Work w;
              w.kind = WorkKind::fib;
              w.sw = sw_index;
              w.fib = std::move(f);
              schedule(now + config_.fib_programming, std::move(w));
            },
            [&](bgp::PeerStatus& st) {
              ++(st.established ? counters_.sessions_up
                                : counters_.sessions_down);
            },
        },
        o);
  }
  arm_timer(sw_index);
}

void BgpControl::on_control(NodeIndex node, proto::PortId, PacketIndex index,
                            Time now) {
  const Packet p = (*pool_)[index];
  pool_->release(index);
  Bytes bytes = std::move(payloads_[p.control]);
  free_payloads_.push_back(p.control);
  const std::uint32_t sw = switch_of_node_[node];
  if (sw == kNone || p.connection == 0 || p.connection > connections_.size() ||
      !connections_[p.connection - 1].open) {
    return;  // the connection closed while the message was in flight
  }
  // The CPU takes messages in arrival order, one processing delay each.
  Switch& s = switches_[sw];
  s.cpu_busy_until =
      std::max(s.cpu_busy_until, now) + config_.update_processing;
  Work w;
  w.kind = WorkKind::bytes;
  w.sw = sw;
  w.peer = connections_[p.connection - 1].peer;
  w.connection = p.connection;
  w.bytes = std::move(bytes);
  schedule(s.cpu_busy_until, std::move(w));
}

void BgpControl::on_control_dropped(const Packet& packet) {
  // The message is gone with its link; its TCP connection is closed by the
  // loss-of-signal detection, so nothing else waits for it.
  payloads_[packet.control] = Bytes{};
  free_payloads_.push_back(packet.control);
}

void BgpControl::program(std::uint32_t sw_index, const bgp::FibUpdate& update,
                         Time now) {
  Switch& sw = switches_[sw_index];
  const bgp::Destination& d = update.destination;
  if (d.afi != wire::bgp::kAfiIpv4 || d.length != 24 || d.address[0] != 10) {
    return;
  }
  const proto::NodeId leaf = (proto::NodeId{d.address[1]} << 8) | d.address[2];
  std::uint64_t max = 0;
  for (const auto& h : update.next_hops) max = std::max(max, h.weight);
  std::vector<proto::fib::WeightedMember> members;
  std::vector<std::pair<proto::PortId, std::uint32_t>> record;
  for (const auto& h : update.next_hops) {
    if (h.weight == 0 || max == 0) continue;
    // Scaled so the largest is 65535; never rounds a live path to 0.
    const auto w = static_cast<std::uint32_t>(std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(static_cast<double>(h.weight) /
                                      static_cast<double>(max) * 65535.0)));
    members.push_back({sw.peer_port[h.peer], w});
    record.emplace_back(sw.peer_port[h.peer], w);
  }
  auto& fib = network_->fib(sw.spec.node);
  if (leaf >= fib.config().max_destinations) return;
  for (const Switch::Connected& c : sw.connected) {
    if (c.destination == leaf && c.up) return;  // the connected route stands
  }
  (void)fib.set_route(leaf, members, now);
  if (sw.installed.size() <= leaf) sw.installed.resize(leaf + 1);
  sw.installed[leaf] = std::move(record);
  ++counters_.fib_updates;
  last_fib_change_ = now;
}

void BgpControl::on_event(const Event& e) {
  if (e.type != EventType::control || e.a >= work_.size()) return;
  Work w = std::move(work_[e.a]);
  free_work_.push_back(e.a);
  if (w.kind != WorkKind::timer) --pending_work_;
  Switch& sw = switches_[w.sw];
  const Time now = e.at;
  switch (w.kind) {
    case WorkKind::timer:
      if (!sw.timer.fire(now)) return;  // superseded
      sw.speaker->on_timer(now);
      break;
    case WorkKind::bytes:
      sw.speaker->on_bytes(w.peer, w.connection, w.bytes, now);
      break;
    case WorkKind::connected:
      if (!connections_[w.connection - 1].open) return;
      sw.speaker->on_connected(w.peer, w.connection, w.direction, now);
      break;
    case WorkKind::connect_failed:
      sw.speaker->on_connect_failed(w.peer, now);
      break;
    case WorkKind::closed:
      sw.speaker->on_closed(w.peer, w.connection, now);
      break;
    case WorkKind::fib:
      program(w.sw, w.fib, now);
      return;
    case WorkKind::host_link:
      on_host_link(w.sw, w.index, w.up, now);
      break;
  }
  pump(w.sw, now);
}

void BgpControl::cable_down(std::size_t cable, Time now) {
  cable_up_[cable] = false;
  const Time detected = now + config_.failure_detection;
  for (std::size_t i = 0; i < connections_.size(); ++i) {
    if (connections_[i].open && connections_[i].cable == cable) {
      close_connection(static_cast<bgp::ConnectionId>(i + 1), detected);
    }
  }
  host_cable(cable, false, detected);
}

void BgpControl::cable_up(std::size_t cable, Time now) {
  cable_up_[cable] = true;
  host_cable(cable, true, now + config_.failure_detection);
}

void BgpControl::host_cable(std::size_t cable, bool up, Time at) {
  for (std::uint32_t i = 0; i < switches_.size(); ++i) {
    const auto& connected = switches_[i].connected;
    for (std::uint32_t k = 0; k < connected.size(); ++k) {
      if (connected[k].cable != cable) continue;
      Work w;
      w.kind = WorkKind::host_link;
      w.sw = i;
      w.index = k;
      w.up = up;
      schedule(at, std::move(w));
    }
  }
}

void BgpControl::on_host_link(std::uint32_t sw_index, std::uint32_t index,
                              bool up, Time now) {
  Switch& sw = switches_[sw_index];
  Switch::Connected& c = sw.connected[index];
  if (c.up == up) return;
  c.up = up;
  const bgp::Destination prefix = leaf_prefix(c.destination);
  if (!up) {
    sw.speaker->withdraw_origin(prefix, now);
    return;
  }
  // The interface is up: its connected route is back at once, whatever
  // BGP had programmed meanwhile.
  const proto::fib::WeightedMember member{c.port, 1};
  (void)network_->fib(sw.spec.node).set_route(c.destination, {&member, 1}, now);
  if (c.destination < sw.installed.size()) sw.installed[c.destination].clear();
  ++counters_.fib_updates;
  last_fib_change_ = now;
  sw.speaker->originate(prefix, now);
}

void BgpControl::cable_rate(std::size_t cable, BitsPerSecond rate, Time now) {
  for (std::uint32_t i = 0; i < switches_.size(); ++i) {
    Switch& sw = switches_[i];
    for (bgp::PeerId p = 0; p < sw.peer_cable.size(); ++p) {
      if (sw.peer_cable[p] != cable) continue;
      sw.speaker->set_link_bandwidth(p, rate, now);
      pump(i, now);
    }
  }
}

bool BgpControl::held_back() const {
  if (!held_back_) {
    held_back_ = std::ranges::any_of(switches_, [](const Switch& sw) {
      return sw.speaker->exports_pending();
    });
  }
  return *held_back_;
}

bool BgpControl::all_established() const {
  for (const Switch& sw : switches_) {
    for (bgp::PeerId p = 0; p < sw.peer_node.size(); ++p) {
      if (sw.speaker->peer_state(p) != bgp::SessionState::established) {
        return false;
      }
    }
  }
  return true;
}

BgpControl::Sessions BgpControl::sessions() const {
  Sessions s;
  for (const Switch& sw : switches_) {
    for (bgp::PeerId p = 0; p < sw.peer_node.size(); ++p) {
      ++s.total;
      s.established +=
          sw.speaker->peer_state(p) == bgp::SessionState::established;
    }
  }
  return s;
}

const std::vector<std::pair<proto::PortId, std::uint32_t>>*
BgpControl::installed(NodeIndex node, proto::NodeId leaf) const {
  const std::uint32_t sw = switch_of_node_[node];
  if (sw == kNone || leaf >= switches_[sw].installed.size()) return nullptr;
  return &switches_[sw].installed[leaf];
}

}  // namespace arfabric::sim
