#include "sim/network.h"

#include <unistd.h>

#include <algorithm>
#include <array>

#include "proto/fib/flow_hash.h"

namespace arfabric::sim {

namespace fib = proto::fib;

namespace {

// A core's own cache (L2), or 1 MB where the system does not say.
std::size_t core_cache_bytes() {
#if defined(_SC_LEVEL2_CACHE_SIZE)
  const long l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) return static_cast<std::size_t>(l2);
#endif
  return std::size_t{1} << 20;
}

}  // namespace

std::string_view drop_reason_name(DropReason r) {
  switch (r) {
    case DropReason::link_down:
      return "link_down";
    case DropReason::queue_overflow:
      return "queue_overflow";
    case DropReason::no_route:
      return "no_route";
    case DropReason::link_error:
      return "link_error";
    case DropReason::ttl_expired:
      return "ttl_expired";
    case DropReason::count_:
      break;
  }
  return "unknown";
}

std::expected<Network, NetworkError> Network::create(const NetworkSpec& spec,
                                                     EventQueue& events,
                                                     PacketPool& pool) {
  auto fail = [](std::string field, std::string reason) {
    return std::unexpected(NetworkError{std::move(field), std::move(reason)});
  };
  auto fail_at = [](NetworkError::Subject subject, std::size_t index,
                    std::string subfield, std::string reason) {
    return std::unexpected(
        NetworkError(subject, index, std::move(subfield), std::move(reason)));
  };
  constexpr auto kCable = NetworkError::Subject::cable;
  if (spec.prefetch_depth != 0 && spec.prefetch_depth != 2 &&
      spec.prefetch_depth != 3) {
    return fail("prefetch_depth", "is " + std::to_string(spec.prefetch_depth) +
                                      "; must be 2, 3 or 0 (automatic)");
  }
  Network net(events, pool);
  net.select_mode_ = spec.select_mode;
  net.rng_ = spec.seed == 0 ? 0x9e3779b97f4a7c15ull : spec.seed;
  const std::size_t n = spec.nodes.size();
  net.nodes_.resize(n);
  net.reach_.resize(n);
  // Each direction of each cable, as (cable, direction 0: a -> b, 1:
  // b -> a), by the node it leaves: that node's ports in order; and each
  // cable's port at a and at b.
  std::vector<std::vector<std::pair<std::uint32_t, int>>> out(n);
  std::vector<std::array<proto::PortId, 2>> port_of(spec.cables.size());
  proto::NodeId leaves = 0;
  for (std::size_t i = 0; i < n; ++i) {
    net.nodes_[i].leaf_id = spec.nodes[i].leaf_id;
  }
  for (std::size_t c = 0; c < spec.cables.size(); ++c) {
    const auto& cable = spec.cables[c];
    if (cable.a >= n || cable.b >= n) {
      return fail_at(kCable, c, "", "names a node that does not exist");
    }
    if (cable.a == cable.b) {
      return fail_at(kCable, c, "", "connects a node to itself");
    }
    if (cable.rate == 0) return fail_at(kCable, c, ".rate", "must be above 0");
    if (spec.nodes[cable.a].host && spec.nodes[cable.b].host) {
      return fail_at(kCable, c, "", "connects two hosts");
    }
    if (cable.drop_probability < 0 || cable.drop_probability > 1) {
      return fail_at(kCable, c, ".drop_probability", "must be within [0, 1]");
    }
    if (cable.drop_probability > 0) net.random_loss_ = true;
    out[cable.a].push_back({static_cast<std::uint32_t>(c), 0});
    out[cable.b].push_back({static_cast<std::uint32_t>(c), 1});
    port_of[c] = {static_cast<proto::PortId>(out[cable.a].size()),
                  static_cast<proto::PortId>(out[cable.b].size())};
    net.nodes_[cable.a].neighbour.push_back(cable.b);
    net.nodes_[cable.b].neighbour.push_back(cable.a);
  }
  // The links, node by node in port order.
  net.cable_links_.resize(spec.cables.size());
  net.first_port_.reserve(n + 1);
  net.links_.reserve(2 * spec.cables.size());
  net.cable_of_.reserve(2 * spec.cables.size());
  net.drop_probability_.reserve(2 * spec.cables.size());
  for (std::size_t i = 0; i < n; ++i) {
    net.first_port_.push_back(static_cast<LinkIndex>(net.links_.size()));
    for (const auto& [c, dir] : out[i]) {
      const auto& cable = spec.cables[c];
      const NodeIndex to = dir == 0 ? cable.b : cable.a;
      Link::Config lc;
      lc.from = static_cast<NodeIndex>(i);
      lc.to = to;
      lc.rate = cable.rate;
      lc.delay = cable.delay;
      // Host NICs queue without limit: the transport's window bounds them.
      if (!spec.nodes[i].host) {
        lc.buffer_bytes = spec.buffer_bytes;
        lc.ecn_threshold_bytes = spec.ecn_threshold_bytes;
      }
      lc.to_port = port_of[c][1 - dir];  // the far node's port
      lc.from_host = spec.nodes[i].host;
      lc.to_host = spec.nodes[to].host;
      net.cable_links_[c][dir] = static_cast<LinkIndex>(net.links_.size());
      net.cable_of_.push_back(c);
      net.drop_probability_.push_back(cable.drop_probability);
      net.links_.emplace_back(lc);
    }
  }
  net.first_port_.push_back(static_cast<LinkIndex>(net.links_.size()));
  for (std::size_t i = 0; i < n; ++i) {
    if (!spec.nodes[i].host) continue;
    if (out[i].empty()) {
      return fail_at(NetworkError::Subject::node, i, "",
                     "a host needs a cable");
    }
    if (out[i].size() > 1) continue;  // multi-homed: below
    const NodeIndex leaf = net.nodes_[i].neighbour[0];
    const auto [cable, dir] = out[i][0];
    Reach& r = net.reach_[i];
    r.leaf = leaf;
    r.fib_destination = net.nodes_[leaf].leaf_id;
    r.uplink = net.first_port_[i];
    r.downlink = net.first_port_[leaf] + port_of[cable][1 - dir] - 1;
    leaves = std::max<proto::NodeId>(leaves, net.nodes_[leaf].leaf_id + 1);
  }
  // A multi-homed host is a FIB destination of its own, numbered after
  // every leaf's id (a leaf whose hosts are all multi-homed has one too,
  // and routing carries it): each of its leaves reaches it over its own
  // port (a connected route, programmed below), every other switch
  // through routing.
  proto::NodeId destinations = leaves;
  const auto multihomed = [&](std::size_t i) {
    return spec.nodes[i].host && out[i].size() > 1;
  };
  bool any_multihomed = false;
  for (std::size_t i = 0; i < n; ++i) any_multihomed |= multihomed(i);
  for (std::size_t i = 0; i < n && any_multihomed; ++i) {
    if (spec.nodes[i].host) continue;
    destinations =
        std::max<proto::NodeId>(destinations, spec.nodes[i].leaf_id + 1);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!multihomed(i)) continue;
    Reach& r = net.reach_[i];
    r.leaf = kMultiHomed;
    r.uplink = kNoLink;
    r.fib_destination = destinations++;
    net.multihomed_.push_back({static_cast<NodeIndex>(i), r.fib_destination,
                               net.nodes_[i].neighbour});
  }
  net.fib_memory_ = std::make_unique<HugePageArena>();
  // Switches with the same port layout (a tier's uplinks) share member
  // tables: fewer to build, and a hop reads tables that stay in cache.
  const auto tables = std::make_shared<fib::MemberTablePool>();
  net.fibs_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (spec.nodes[i].host) continue;
    fib::FibConfig fc = spec.fib;
    fc.max_destinations = std::max<proto::NodeId>(destinations, 1);
    auto f = fib::Fib::create(fc, net.fib_memory_.get(), tables);
    if (!f) return fail("fib." + f.error().field, f.error().reason);
    net.fibs_[i] = std::make_unique<fib::Fib>(std::move(*f));
  }
  for (const MultiHomedHost& m : net.multihomed_) {
    for (NodeIndex leaf : m.leaves) {
      const fib::WeightedMember connected{*net.port_toward(leaf, m.host), 1};
      (void)net.fibs_[leaf]->set_route(m.destination, {&connected, 1}, Time{});
    }
  }
  // Packets in flight add to this, but are not known yet.
  const std::size_t fabric_bytes =
      net.links_.size() * sizeof(Link) + net.fib_memory_->allocated();
  net.deep_lookahead_ = spec.prefetch_depth == 0
                            ? fabric_bytes > core_cache_bytes()
                            : spec.prefetch_depth == 3;
  return net;
}

std::optional<proto::PortId> Network::port_toward(NodeIndex from,
                                                  NodeIndex to) const {
  const auto& nb = nodes_[from].neighbour;
  auto it = std::find(nb.begin(), nb.end(), to);
  if (it == nb.end()) return std::nullopt;
  return static_cast<proto::PortId>(it - nb.begin() + 1);
}

void Network::drop(PacketIndex index, DropReason reason) {
  ++counters_.dropped[static_cast<std::size_t>(reason)];
  release_dropped(index);
}

void Network::release_dropped(PacketIndex index) {
  const Packet& p = (*pool_)[index];
  if (p.kind == PacketKind::control && control_)
    control_->on_control_dropped(p);
  pool_->release(index);
}

void Network::put_on_link(LinkIndex l, PacketIndex index, Time now) {
  Link& link = links_[l];
  bool first = false;
  Time arrival{};
  switch (link.enqueue(index, (*pool_)[index], now, first, arrival)) {
    case EnqueueResult::accepted:
      if (first) {
        events_->push(arrival, EventType::link_arrival, l, link.epoch(), index);
      }
      return;
    case EnqueueResult::dropped_overflow:
      drop(index, DropReason::queue_overflow);
      return;
    case EnqueueResult::dropped_down:
      drop(index, DropReason::link_down);
      return;
  }
}

bool Network::send_control(NodeIndex node, proto::PortId port,
                           PacketIndex packet, Time now) {
  const LinkIndex l = port_link(node, port);
  if (l == kNoLink) return false;
  ++counters_.injected;
  put_on_link(l, packet, now);
  return true;
}

void Network::send_from_host(NodeIndex host, PacketIndex packet, Time now) {
  ++counters_.injected;
  LinkIndex uplink = reach_[host].uplink;
  if (uplink == kNoLink) {
    Packet& p = (*pool_)[packet];
    if (p.flow_hash == 0) set_flow_hash(p);
    uplink = multihomed_uplink(host, p.flow_hash);
  }
  put_on_link(uplink, packet, now);
}

// A multi-homed host's NIC spreads flows over its uplinks by flow hash
// (the hash the first switch would compute, so it is computed once), from
// bits the switches' own per-flow selection does not start from, and
// skips an uplink that is down while another is up.
LinkIndex Network::multihomed_uplink(NodeIndex host,
                                     std::uint64_t flow_hash) const {
  const LinkIndex first = first_port_[host];
  const std::uint32_t count = first_port_[host + 1] - first;
  const auto pick = static_cast<std::uint32_t>((flow_hash >> 40) % count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const LinkIndex l = first + (pick + k) % count;
    if (links_[l].up()) return l;
  }
  return first + pick;  // all down: lost on the link, counted there
}

// The 5-tuple as the first switch sees it: host indices stand for the
// addresses, the flow id for the ports. Nothing before the first switch
// changes these fields, so it is the same wherever it is computed.
std::uint64_t Network::flow_hash_of(NodeIndex source, NodeIndex destination,
                                    std::uint16_t source_port,
                                    std::uint16_t destination_port) {
  proto::FlowKey key;
  key.source[0] = static_cast<std::uint8_t>(source >> 24);
  key.source[1] = static_cast<std::uint8_t>(source >> 16);
  key.source[2] = static_cast<std::uint8_t>(source >> 8);
  key.source[3] = static_cast<std::uint8_t>(source);
  key.destination[0] = static_cast<std::uint8_t>(destination >> 24);
  key.destination[1] = static_cast<std::uint8_t>(destination >> 16);
  key.destination[2] = static_cast<std::uint8_t>(destination >> 8);
  key.destination[3] = static_cast<std::uint8_t>(destination);
  key.source_port = source_port;
  key.destination_port = destination_port;
  key.protocol = 17;
  return fib::flow_hash(key, 0) | 1;  // 0 means "not yet"
}

void Network::set_flow_hash(Packet& p) {
  p.flow_hash = flow_hash_of(
      p.source, p.destination, static_cast<std::uint16_t>(p.transport.flow),
      static_cast<std::uint16_t>(p.transport.flow >> 16));
}

std::optional<std::uint64_t> Network::flow_hash_across(
    NodeIndex from, NodeIndex to, std::size_t cable) const {
  if (select_mode_ != proto::fib::SelectMode::per_flow || !is_host(from) ||
      !is_host(to) || cable >= cable_links_.size()) {
    return std::nullopt;
  }
  const Reach& dst = reach_[to];
  for (std::uint32_t port = 0; port < kSteeringPorts; ++port) {
    const std::uint64_t hash =
        flow_hash_of(from, to, static_cast<std::uint16_t>(port), 0);
    LinkIndex l = reach_[from].uplink;
    if (l == kNoLink) l = multihomed_uplink(from, hash);
    // Hop by hop as route() would go, for at most a packet's lifetime.
    for (int hop = 0; hop < kInitialTtl && l != kNoLink; ++hop) {
      if (cable_of_[l] == cable) return hash;
      const NodeIndex node = links_[l].to();
      if (is_host(node)) break;
      if (dst.leaf == node) {
        l = dst.downlink;
        continue;
      }
      l = port_link(node, fibs_[node]->likely_port(dst.fib_destination, hash,
                                                   select_mode_));
    }
  }
  return std::nullopt;
}

LinkIndex Network::route(NodeIndex node_index, Packet& p, Time now) {
  const NodeIndex dst = p.destination;
  const Reach& to = reach_[dst];
  // A host behind this switch: straight to its port.
  if (to.leaf == node_index) return to.downlink;
  if (p.flow_hash == 0) set_flow_hash(p);
  const auto port = fibs_[node_index]->select(to.fib_destination, p.flow_hash,
                                              now, select_mode_);
  return port ? port_link(node_index, *port) : kNoLink;
}

void Network::egress(LinkIndex l, PacketIndex index, Time now) {
  if (headers_) {
    Packet& p = (*pool_)[index];
    if (p.transport.signal_valid) headers_->on_egress(l, p, now);
  }
  put_on_link(l, index, now);
}

// In a large fabric each hop starts with cache misses: its link, its
// packet, the link's FIFO entry behind the packet (the next head's
// arrival time), the FIB entry for the packet's destination and the
// egress link that entry names. The next events are usually other
// links' arrivals, so a hop starts loading, in stages, what the next hops
// need, each stage using what the one before loaded a hop earlier, and
// this hop's own work hides the latency:
// - for the next event (whose link and packet an earlier hop asked for),
//   the FIFO entry behind its packet, and the FIB entry -- or, looking
//   three ahead, the egress link the FIB entry (asked for a hop earlier)
//   names now;
// - for the second, its link and packet -- or, three ahead, the FIB entry;
// - three ahead: for the third, its link and packet.
// Three ahead, a packet due at a host has no FIB entry or egress link;
// the HostHandler loads its flow's record, then its sender or receiver.
// Three stages hide the egress link's miss too, but cost a hop ~76
// instructions more (callgrind): in a fabric that fits in L2 they made
// hops 10-15 % slower, in a 1,024-host dense CLOS 20 % faster
// (docs/PERFORMANCE.md). Inlined: GCC drops calls to a function whose only
// effect is a prefetch.
[[gnu::always_inline]] inline void Network::prefetch_next_arrivals() {
  if (events_->empty()) return;
  const Event next = events_->top();
  Event second{}, third{};
  // Two straight paths: testing deep_lookahead_ at each stage instead cost
  // a hop ~6 instructions more (callgrind).
  if (!deep_lookahead_) {
    if (next.type == EventType::link_arrival) {
      const Link& link = links_[next.a];
      link.prefetch_behind_head();
      prefetch_fib_entry(link.to(), (*pool_)[next.c]);
    }
    if (events_->second(second)) prefetch_link_and_packet(second);
    return;
  }
  if (next.type == EventType::link_arrival) {
    const Link& link = links_[next.a];
    Packet& packet = (*pool_)[next.c];
    if (!link.to_host()) {
      prefetch_egress(link.to(), packet);
    } else if (handler_ != nullptr) {
      handler_->prefetch_state(packet);
    }
  }
  const int found = events_->second_and_third(second, third);
  if (found >= 1 && second.type == EventType::link_arrival) {
    const Link& link = links_[second.a];
    // Two hops ahead: a line from memory takes about a hop at 4,096 hosts.
    link.prefetch_behind_head();
    const NodeIndex to = link.to();
    const Packet& packet = (*pool_)[second.c];
    if (!link.to_host()) {
      prefetch_fib_entry(to, packet);
    } else if (handler_ != nullptr) {
      handler_->prefetch_record(packet);
    }
  }
  if (found == 2) prefetch_link_and_packet(third);
}

// A link arrival's link (the line an arrival reads) and packet (the
// event's hint).
[[gnu::always_inline]] inline void Network::prefetch_link_and_packet(
    const Event& e) const {
  if (e.type != EventType::link_arrival) return;
  links_[e.a].prefetch_arrival();
  __builtin_prefetch(&(*pool_)[e.c]);
}

// The FIB entry route() reads for `packet` at `node`, if it reads one.
[[gnu::always_inline]] inline void Network::prefetch_fib_entry(
    NodeIndex node, const Packet& packet) const {
  const Reach& to = reach_[packet.destination];
  if (to.leaf != node && fibs_[node] != nullptr) {
    fibs_[node]->prefetch(to.fib_destination);
  }
}

// The egress link route() is likely to choose for `packet` at switch
// `node`, loaded without choosing (Fib::likely_port). `packet` is an
// event's hint and may no longer be the one arriving, or be free: that
// costs only a useless prefetch, and the flow hash it may set is the
// packet's own (a free packet's is cleared when it is allocated again).
[[gnu::always_inline]] inline void Network::prefetch_egress(NodeIndex node,
                                                            Packet& packet) {
  if (packet.kind == PacketKind::control) return;
  const Reach& to = reach_[packet.destination];
  if (to.leaf == node) {
    links_[to.downlink].prefetch();
    return;
  }
  if (fibs_[node] == nullptr) return;
  if (packet.flow_hash == 0) set_flow_hash(packet);
  const LinkIndex l =
      port_link(node, fibs_[node]->likely_port(to.fib_destination,
                                               packet.flow_hash, select_mode_));
  if (l != kNoLink) links_[l].prefetch();
}

void Network::on_event(const Event& e) {
  if (e.type != EventType::link_arrival) return;
  Link& link = links_[e.a];
  if (e.b != link.epoch()) return;  // the link went down meanwhile
  // The event names the head (EventType::link_arrival), so pop_arrival
  // reads the FIFO only for the packet behind it.
  const PacketIndex index = e.c;
  const Time next = link.pop_arrival(index);
  Packet& packet = (*pool_)[index];
  bool lost = false;
  if (random_loss_ && drop_probability_[e.a] > 0) {
    // xorshift64*: deterministic per run (NetworkSpec::seed).
    rng_ ^= rng_ >> 12;
    rng_ ^= rng_ << 25;
    rng_ ^= rng_ >> 27;
    const double u =
        static_cast<double>((rng_ * 2685821657736338717ull) >> 11) * 0x1.0p-53;
    // Not a BGP message: it rides TCP, which would send it again, and the
    // simulator does not model that retransmission (lost, it would be lost
    // for good, and a session could never come up).
    lost = u < drop_probability_[e.a] &&
           !(packet.kind == PacketKind::control &&
             packet.protocol == ControlProtocol::bgp);
  }
  // A transport packet at a switch: its egress link first, so that the
  // link loads while this hop does the rest (the push and the prefetches
  // for the next hops) before queueing on it.
  const NodeIndex to = link.to();
  const bool forwarded =
      !lost && packet.kind != PacketKind::control && !link.to_host();
  // A switch discards a packet it would forward with TTL 0, before any
  // lookup.
  const bool expired = forwarded && packet.ttl <= 1;
  LinkIndex egress_link = kNoLink;
  if (forwarded && !expired) {
    --packet.ttl;
    egress_link = route(to, packet, e.at);
    if (egress_link != kNoLink) links_[egress_link].prefetch();
  }
  if (next != Time::max()) {
    events_->push(next, EventType::link_arrival, e.a, link.epoch(),
                  link.head_packet());
  }
  prefetch_next_arrivals();
  // The egress link's first line has had the push and the look-ahead to
  // load (three deep, a hop more): the tail of its queue, on the heap when
  // it is busy, can load while IBCS works, before enqueue() writes it.
  if (deep_lookahead_ && egress_link != kNoLink) {
    links_[egress_link].prefetch_tail();
  }
  ++counters_.packet_hops;
  if (lost) {
    link.count_error_drop();
    drop(index, DropReason::link_error);
    return;
  }
  if (packet.kind == PacketKind::control) {
    ++counters_.control_delivered;
    if (control_ && !link.to_host()) {
      control_->on_control(to, link.to_port(), index, e.at);
    } else {
      pool_->release(index);
    }
    return;
  }
  if (!forwarded) {
    ++counters_.delivered;
    if (handler_) {
      handler_->on_packet(to, index, e.at);
    } else {
      pool_->release(index);
    }
    return;
  }
  if (expired) {
    drop(index, DropReason::ttl_expired);
    return;
  }
  if (headers_ && link.from_host() && packet.transport.signal_valid) {
    headers_->on_host_ingress(e.a, packet, e.at);
  }
  if (egress_link == kNoLink) {
    drop(index, DropReason::no_route);
    return;
  }
  egress(egress_link, index, e.at);
}

void Network::set_cable_up(std::size_t cable, bool up) {
  for (LinkIndex l : cable_links_[cable]) {
    if (up) {
      links_[l].set_up();
      continue;
    }
    lost_.clear();
    links_[l].set_down(lost_);
    for (PacketIndex p : lost_) {
      ++counters_.dropped[static_cast<std::size_t>(DropReason::link_down)];
      release_dropped(p);
    }
  }
}

void Network::set_cable_rate(std::size_t cable, BitsPerSecond rate, Time now) {
  for (LinkIndex l : cable_links_[cable]) {
    Link& link = links_[l];
    if (link.set_rate(rate, now)) {
      // The head, still being sent, arrives at a new time; its old event
      // is stale (epoch).
      events_->push(link.head_arrival(), EventType::link_arrival, l,
                    link.epoch(), link.head_packet());
    }
  }
}

}  // namespace arfabric::sim
