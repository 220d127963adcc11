#include "sim/lsn_control.h"

#include <algorithm>
#include <string>

#include "proto/lsn/fib_glue.h"

namespace arfabric::sim {

namespace lsn = proto::lsn;

namespace {

// FCS, preamble and inter-frame gap around the frame the engine builds.
constexpr std::uint32_t kFrameOverheadBytes =
    wire::lsn::kWireSize - wire::lsn::kFrameSize;

wire::MacAddress switch_mac(NodeIndex node) {
  return {0x02,
          0x00,
          static_cast<std::uint8_t>(node >> 24),
          static_cast<std::uint8_t>(node >> 16),
          static_cast<std::uint8_t>(node >> 8),
          static_cast<std::uint8_t>(node)};
}

}  // namespace

LsnControl::LsnControl(Network& network, EventQueue& events, PacketPool& pool,
                       const LsnControlConfig& config)
    : network_(&network),
      config_(config),
      plane_(network, events, pool, EventType::lsn, ControlProtocol::lsn,
             kFrameOverheadBytes, config.processing) {}

std::expected<std::unique_ptr<LsnControl>, NetworkError> LsnControl::create(
    Network& network, EventQueue& events, PacketPool& pool,
    const std::vector<proto::NodeId>& leaf_id, const LsnControlConfig& config) {
  std::uint32_t leaves = 0;
  for (proto::NodeId id : leaf_id) leaves += id != kNotLeaf ? 1 : 0;
  if (leaves == 0 || leaves > proto::kMaxLsnNodes) {
    return std::unexpected(NetworkError{
        "lsn", std::to_string(leaves) + " leaves (LSN needs 1 to 16384)"});
  }
  std::unique_ptr<LsnControl> c(new LsnControl(network, events, pool, config));
  for (NodeIndex n = 0; n < network.node_count(); ++n) {
    if (network.is_host(n)) continue;
    if (leaf_id[n] != kNotLeaf && leaf_id[n] >= leaves) {
      return std::unexpected(NetworkError{
          "lsn", "node " + std::to_string(n) + " has LSN id " +
                     std::to_string(leaf_id[n]) + " but the fabric has " +
                     std::to_string(leaves) + " leaves"});
    }
    lsn::Config lc;
    lc.node_mac = switch_mac(n);
    lc.num_devices = leaves;
    lc.period = config.period;
    lc.congestion = config.congestion;
    Switch sw;
    sw.node = n;
    sw.leaf_id = leaf_id[n];
    const auto& out = network.out_links(n);
    sw.port_down.assign(out.size() + 1, false);
    for (std::size_t p = 0; p < out.size(); ++p) {
      sw.port_down[p + 1] = !network.link(out[p]).up();
    }
    for (std::size_t p = 0; p < out.size(); ++p) {
      const auto port = static_cast<proto::PortId>(p + 1);
      const NodeIndex nb = network.link(out[p]).config().to;
      const bool to_switch = !network.is_host(nb);
      lc.ports.push_back(
          {port, to_switch ? lsn::PortRole::trusted : lsn::PortRole::untrusted,
           network.link(out[p]).up()});
      if (to_switch && leaf_id[nb] != kNotLeaf) {
        lc.attached.push_back({leaf_id[nb], port});
        sw.sampled.emplace_back(port, out[p]);
      }
    }
    // Others route through this switch toward leaves unless it is a leaf
    // with no leaf behind its switch ports (a CLOS leaf).
    lc.transit = leaf_id[n] == kNotLeaf || !lc.attached.empty();
    if (lc.transit) {
      std::vector<bool> not_transit(leaves, false);
      for (const lsn::Attachment& a : lc.attached) not_transit[a.node] = true;
      if (leaf_id[n] != kNotLeaf) not_transit[leaf_id[n]] = true;
      for (proto::NodeId id = 0; id < leaves; ++id) {
        if (!not_transit[id]) sw.transit.push_back(id);
      }
    }
    auto engine = lsn::Engine::create(lc);
    if (!engine) {
      return std::unexpected(NetworkError{
          "lsn.node" + std::to_string(n) + "." + engine.error().field,
          engine.error().reason});
    }
    sw.engine = std::make_unique<lsn::Engine>(std::move(*engine));
    c->plane_.add_switch(n);
    c->switches_.push_back(std::move(sw));
  }
  // Multi-homed hosts, and by leaf the hosts on it.
  std::vector<std::uint32_t> hosts_on(leaves + 1, 0);
  for (const Network::MultiHomedHost& m : network.multihomed()) {
    HomedHost h{m.destination, {}};
    for (NodeIndex leaf : m.leaves) {
      // Cannot be kNotLeaf: hosts attach to leaves.
      if (leaf_id[leaf] != kNotLeaf) h.leaves.push_back(leaf_id[leaf]);
    }
    std::ranges::sort(h.leaves);
    h.leaves.erase(std::unique(h.leaves.begin(), h.leaves.end()),
                   h.leaves.end());
    for (proto::NodeId leaf : h.leaves) ++hosts_on[leaf + 1];
    c->homed_.push_back(std::move(h));
  }
  if (!c->homed_.empty()) {
    for (std::uint32_t l = 0; l < leaves; ++l) hosts_on[l + 1] += hosts_on[l];
    c->homed_first_ = hosts_on;
    c->homed_of_leaf_.resize(hosts_on[leaves]);
    for (std::uint32_t h = 0; h < c->homed_.size(); ++h) {
      for (proto::NodeId leaf : c->homed_[h].leaves) {
        c->homed_of_leaf_[hosts_on[leaf]++] = h;
      }
    }
  }
  return c;
}

void LsnControl::start(Time now) {
  started_ = true;
  for (std::uint32_t i = 0; i < switches_.size(); ++i) {
    Switch& sw = switches_[i];
    refresh_transit(i, sw.transit, now);
    sw.engine->on_timer(now);
    flush(i, now);
    arm(i);
    if (config_.congestion_sample > Time{} && !sw.sampled.empty()) {
      plane_.sample_at(i, now + config_.congestion_sample);
    }
  }
}

void LsnControl::flush(std::uint32_t index, Time now) {
  Switch& sw = switches_[index];
  lsn::Engine& e = *sw.engine;
  for (const lsn::PendingFrame& f : e.pending_frames()) {
    for (proto::PortId port : e.trusted_ports()) {
      // Not on a port the switch holds down (it may be up again but not
      // yet detected).
      if (sw.port_down[port]) continue;
      if (const std::uint32_t bytes =
              plane_.send(sw.node, port, f.frame, now)) {
        ++counters_.frames;
        counters_.bytes += bytes;
      }
    }
  }
  e.clear_pending_frames();
}

void LsnControl::arm(std::uint32_t index) {
  Switch& sw = switches_[index];
  plane_.arm(index, sw.timer, sw.engine->next_deadline());
}

void LsnControl::count_vetoes(const proto::fib::Fib& fib,
                              std::span<const proto::VetoChange> vetoes,
                              Time now) {
  for (const proto::VetoChange& v : vetoes) {
    if (!v.vetoed) continue;
    ++counters_.vetoes;
    // Convergence is the last ingress that stops using a path: a veto
    // of a path routing does not use (a super-spine hearing from a
    // spine about a leaf it reaches another way) changes no forwarding.
    if (fib.routes_through(v.destination, v.port)) counters_.last_veto = now;
  }
}

void LsnControl::apply(std::uint32_t index, Time now) {
  Switch& sw = switches_[index];
  proto::fib::Fib& fib = network_->fib(sw.node);
  changed_.clear();
  touched_.clear();
  // The multi-homed hosts on `leaf`, whose path through `port` to derive.
  const auto touch = [&](proto::PortId port, proto::NodeId leaf) {
    if (std::size_t{leaf} + 1 >= homed_first_.size()) return;
    for (std::uint32_t k = homed_first_[leaf]; k < homed_first_[leaf + 1];
         ++k) {
      touched_.emplace_back(port, homed_of_leaf_[k]);
    }
  };
  for (const proto::VetoChange& v : sw.engine->veto_changes()) {
    if (!sw.transit.empty()) changed_.push_back(v.destination);
    touch(v.port, v.destination);
  }
  for (const proto::CongestionChange& c : sw.engine->congestion_changes()) {
    touch(c.port, c.destination);
  }
  count_vetoes(fib, sw.engine->veto_changes(), now);
  counters_.congestion += sw.engine->congestion_changes().size();
  const lsn::FibApplyResult r = lsn::apply_to_fib(fib, *sw.engine, now);
  counters_.fib_rejected += r.rejected;
  if (!touched_.empty()) apply_homed(index, now);
  if (!changed_.empty()) {
    refresh_transit(index, changed_, now);
    flush(index, now);
    arm(index);
  }
}

void LsnControl::apply_homed(std::uint32_t index, Time now) {
  Switch& sw = switches_[index];
  const lsn::Receiver& received = sw.engine->receiver();
  const std::size_t ports = network_->out_links(sw.node).size() + 1;
  if (sw.homed_state.empty()) sw.homed_state.assign(homed_.size() * ports, 0);
  std::ranges::sort(touched_);
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  homed_vetoes_.clear();
  homed_congestion_.clear();
  for (const auto& [port, h] : touched_) {
    const HomedHost& host = homed_[h];
    const auto path =
        lsn::multihomed_path(received, port, host.leaves, sw.leaf_id);
    if (!path) continue;
    std::uint8_t& state = sw.homed_state[h * ports + port];
    const bool was_vetoed = (state & kHomedVetoed) != 0;
    const std::uint8_t applied_level = state & ~kHomedVetoed;
    if (path->reachable == was_vetoed) {
      homed_vetoes_.push_back(
          {port, host.destination, proto::VetoSource::lsn, !path->reachable});
    }
    if (!path->reachable) {
      state = kHomedVetoed | applied_level;
      continue;
    }
    if (path->level != applied_level) {
      homed_congestion_.push_back(
          {port, host.destination, proto::VetoSource::lsn, path->level});
    }
    state = path->level;
  }
  proto::fib::Fib& fib = network_->fib(sw.node);
  count_vetoes(fib, homed_vetoes_, now);
  counters_.congestion += homed_congestion_.size();
  const lsn::FibApplyResult r =
      lsn::apply_to_fib(fib, homed_vetoes_, homed_congestion_, now);
  counters_.fib_rejected += r.rejected;
}

void LsnControl::refresh_transit(std::uint32_t index,
                                 std::span<const proto::NodeId> leaves,
                                 Time now) {
  Switch& sw = switches_[index];
  if (sw.transit.empty()) return;
  const proto::fib::Fib& fib = network_->fib(sw.node);
  for (proto::NodeId leaf : leaves) {
    if (!std::binary_search(sw.transit.begin(), sw.transit.end(), leaf)) {
      continue;
    }
    const bool reachable = fib.state(leaf) == proto::fib::GroupState::effective;
    // Cannot fail: transit is configured and `leaf` is one of its devices.
    (void)sw.engine->set_transit_reachable(leaf, reachable, now);
  }
}

void LsnControl::on_control(NodeIndex node, proto::PortId port,
                            PacketIndex packet, Time now) {
  plane_.on_control(node, port, packet, now);
}

void LsnControl::on_control_dropped(const Packet& packet) {
  plane_.on_control_dropped(packet);
}

void LsnControl::on_port_state(NodeIndex node, proto::PortId port, bool up,
                               Time now) {
  const std::uint32_t index = plane_.switch_index(node);
  if (index == NotificationPlane::kNotSwitch) return;
  // Errors only for an unknown port, which the engine was built from.
  (void)switches_[index].engine->set_port_state(port, up, now);
  switches_[index].port_down[port] = !up;
  if (!started_) return;
  // With fast failover (the runner always enables it) LossOfSignal has
  // taken the port out of the FIB already; without it routing will, and
  // the period picks that up.
  refresh_transit(index, switches_[index].transit, now);
  flush(index, now);
  arm(index);
}

void LsnControl::on_event(const Event& e) {
  if (e.b == NotificationPlane::kTimer) {
    Switch& sw = switches_[e.a];
    if (!sw.timer.fire(e.at)) return;  // superseded
    refresh_transit(e.a, sw.transit, e.at);
    sw.engine->on_timer(e.at);
    flush(e.a, e.at);
    arm(e.a);
    return;
  }
  if (e.b == NotificationPlane::kSample) {
    Switch& sw = switches_[e.a];
    for (const auto& [port, link] : sw.sampled) {
      (void)sw.engine->set_queue_depth(port, network_->queued_bytes(link, e.at),
                                       e.at);
    }
    flush(e.a, e.at);
    arm(e.a);
    plane_.sample_at(e.a, e.at + config_.congestion_sample);
    return;
  }
  // A received frame, now processed.
  const std::uint32_t index = plane_.deliver(
      e, [&](std::uint32_t sw, proto::PortId port, ByteSpan frame) {
        ++counters_.received;
        switches_[sw].engine->on_frame(port, frame, e.at);
      });
  apply(index, e.at);
}

}  // namespace arfabric::sim
