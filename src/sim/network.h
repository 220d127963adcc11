// The data plane of a simulated fabric: nodes (switches and hosts), their
// ports, the links between them, and packet forwarding.
//
// A switch forwards a transport packet to a host attached to it directly;
// otherwise it looks up the destination host's leaf in its FIB (the real
// proto::fib::Fib, weighted ECMP with vetoes) and puts the packet on the
// chosen port's link. A multi-homed host is a FIB destination of its own
// (multihomed()), reached through its leaves' connected routes. The flow hash
// is computed once, at the first switch, before any header changes (IBCS draft
// "Phase 2"). Hosts are sinks and sources: packets that reach a host go to a
// HostHandler (the transport layer), which sends with send_from_host().
//
// Every packet sent is, at any moment, in exactly one place: on a link, or
// handed to a host, or dropped with a counted reason -- the conservation
// the tests check.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/fib/fib.h"
#include "sim/event_queue.h"
#include "sim/huge_pages.h"
#include "sim/link.h"
#include "sim/packet_pool.h"

namespace arfabric::sim {

enum class DropReason : std::uint8_t {
  link_down,  // sent onto, or in flight on, a dead link ("black-holed")
  queue_overflow,
  no_route,     // the FIB had nothing (no route, or a drop fallback)
  link_error,   // random loss
  ttl_expired,  // a switch would have forwarded it with TTL 0 (a loop)
  count_,
};
std::string_view drop_reason_name(DropReason r);

struct NetworkSpec {
  struct Node {
    bool host = false;
    // Switches: the FIB destination id when this switch is a leaf (hosts
    // attach to it), else unused. Hosts: unused.
    proto::NodeId leaf_id = 0;
  };
  struct Cable {
    NodeIndex a = 0, b = 0;
    BitsPerSecond rate = 0;
    Time delay{};
    double drop_probability = 0;  // per packet and direction (bit errors)
  };
  std::vector<Node> nodes;
  std::vector<Cable> cables;
  std::uint32_t buffer_bytes = 0;         // per switch egress port; 0 = none
  std::uint32_t ecn_threshold_bytes = 0;  // per switch egress port
  proto::fib::SelectMode select_mode = proto::fib::SelectMode::per_flow;
  proto::fib::FibConfig fib;  // max_destinations is set to the leaf count
  std::uint64_t seed = 1;     // random losses (drop_probability)
  // How many events ahead a hop prefetches (Network::on_event): 2, 3, or
  // 0 for 3 where the links and FIB tables outgrow a core's L2. Speed
  // only: every result is the same.
  std::uint8_t prefetch_depth = 0;
};

// "This node is not a leaf", in per-node tables of leaf ids (FIB
// destinations, LSN Global Node IDs).
inline constexpr proto::NodeId kNotLeaf = 0xffffffff;

struct NetworkError {
  // What a field belongs to, for callers that know nodes and cables by
  // name: field is then "nodes[index]" or "cables[index]" + subfield.
  enum class Subject : std::uint8_t { none, node, cable };

  NetworkError(std::string field_, std::string reason_)
      : field(std::move(field_)), reason(std::move(reason_)) {}
  NetworkError(Subject subject_, std::size_t index_, std::string subfield_,
               std::string reason_)
      : field((subject_ == Subject::node ? "nodes[" : "cables[") +
              std::to_string(index_) + "]" + subfield_),
        reason(std::move(reason_)),
        subject(subject_),
        index(index_),
        subfield(std::move(subfield_)) {}

  std::string field;
  std::string reason;
  Subject subject = Subject::none;
  std::size_t index = 0;
  std::string subfield;  // e.g. ".rate"
  std::string to_string() const { return field + ": " + reason; }
};

class HostHandler {
 public:
  virtual ~HostHandler() = default;
  // `packet` reached `host`; the handler owns it (and releases it).
  virtual void on_packet(NodeIndex host, PacketIndex packet, Time now) = 0;
  // Look-ahead, three events deep (Network::prefetch_next_arrivals):
  // `packet` is due at a host two events from now, then one.
  // prefetch_record() may start loading the handler's record for it, and
  // prefetch_state(), a hop later, may read that record to start loading
  // what it points to. `packet` may be stale (freed, even reused): both
  // must only read, within bounds. Default: nothing.
  virtual void prefetch_record(const Packet&) const {}
  virtual void prefetch_state(const Packet&) const {}
};

class ControlHandler {
 public:
  virtual ~ControlHandler() = default;
  // A control packet (PacketKind::control) reached switch `node` on
  // `port`; the handler owns it (and releases it).
  virtual void on_control(NodeIndex node, proto::PortId port,
                          PacketIndex packet, Time now) = 0;
  // A control packet was dropped (dead link, bit error) before the network
  // releases it: the handler frees what the packet refers to.
  virtual void on_control_dropped(const Packet& packet) { (void)packet; }
};

// Header processing at switch ports, for in-band signals (sim/ibcs.h): the
// network calls it for transport packets that carry a signal
// (TransportHeader::signal_valid), after the flow hash and the FIB choice,
// so nothing it changes can steer the packet (IBCS draft "Phase 2").
class HeaderProcessor {
 public:
  virtual ~HeaderProcessor() = default;
  // The packet arrived over link `l` from a host at that host's leaf.
  virtual void on_host_ingress(LinkIndex l, Packet& packet, Time now) = 0;
  // A switch is about to queue the packet on its egress link `l`.
  virtual void on_egress(LinkIndex l, Packet& packet, Time now) = 0;
};

struct NetworkCounters {
  std::uint64_t injected = 0;           // packets hosts and switch CPUs sent
  std::uint64_t packet_hops = 0;        // arrivals at the far end of a link
  std::uint64_t delivered = 0;          // transport packets handed to hosts
  std::uint64_t control_delivered = 0;  // control packets handed to CPUs
  std::array<std::uint64_t, static_cast<std::size_t>(DropReason::count_)>
      dropped{};
  bool operator==(const NetworkCounters&) const = default;
};

class Network {
 public:
  // Errors: a cable to an unknown node or to itself, a host with no cable,
  // a cable between two hosts, a zero rate, a prefetch_depth other than 0,
  // 2 or 3.
  static std::expected<Network, NetworkError> create(const NetworkSpec& spec,
                                                     EventQueue& events,
                                                     PacketPool& pool);

  void set_host_handler(HostHandler* handler) { handler_ = handler; }
  void set_control_handler(ControlHandler* handler) { control_ = handler; }
  void set_header_processor(HeaderProcessor* processor) {
    headers_ = processor;
  }

  // A switch sends a control packet out of `port` (1-based). Control
  // packets have strict priority over queued data and are never dropped by
  // drop-tail (the high-priority queue, sim/link.h); a dead link still
  // loses them. Returns false when the port does not exist.
  bool send_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                    Time now);

  // A host puts a packet on its uplink (the NIC queue has no limit).
  void send_from_host(NodeIndex host, PacketIndex packet, Time now);

  // Dispatch of the events this network scheduled.
  void on_event(const Event& e);

  // Links. `link` is one direction of a cable. They are numbered node by
  // node in port order (a node's ports are its cables in spec order), so
  // that port p of node n is link out_links(n)[p - 1] = out_links(n)[0] +
  // p - 1, a sum rather than a table lookup on the forwarding path.
  // cable_links(c) is cable c's {a -> b, b -> a}; cable_of(l) its inverse.
  void set_cable_up(std::size_t cable, bool up);
  // From `now` on, for every byte not yet sent (Link::set_rate). rate > 0.
  void set_cable_rate(std::size_t cable, BitsPerSecond rate, Time now);
  const Link& link(LinkIndex l) const { return links_[l]; }
  // Bytes not yet transmitted on link `l` at `now` (what a switch's queue
  // counters would read: Link::queued_bytes).
  std::uint64_t queued_bytes(LinkIndex l, Time now) {
    return links_[l].queued_bytes(now);
  }
  std::size_t link_count() const { return links_.size(); }
  std::size_t cable_count() const { return cable_links_.size(); }
  const std::array<LinkIndex, 2>& cable_links(std::size_t cable) const {
    return cable_links_[cable];
  }
  std::size_t cable_of(LinkIndex l) const { return cable_of_[l]; }

  // A node's ports, in order: port p of node n is link out_links(n)[p - 1].
  std::ranges::iota_view<LinkIndex, LinkIndex> out_links(NodeIndex n) const {
    return {first_port_[n], first_port_[n + 1]};
  }
  // The port (1-based) that link `l` leaves its node on.
  proto::PortId port_of(LinkIndex l) const {
    return static_cast<proto::PortId>(l - first_port_[links_[l].from()] + 1);
  }
  // The port of node `from` whose cable goes to `to`, if any.
  std::optional<proto::PortId> port_toward(NodeIndex from, NodeIndex to) const;
  proto::fib::Fib& fib(NodeIndex sw) { return *fibs_[sw]; }
  bool is_host(NodeIndex n) const { return reach_[n].host(); }
  // The node at the far end of each port: neighbours(n)[p - 1] for port p.
  const std::vector<NodeIndex>& neighbours(NodeIndex n) const {
    return nodes_[n].neighbour;
  }
  proto::NodeId leaf_id(NodeIndex leaf) const { return nodes_[leaf].leaf_id; }
  std::size_t node_count() const { return nodes_.size(); }

  const NetworkCounters& counters() const { return counters_; }

  // Hosts with cables to more than one leaf (FARE-BGP section 4.1, "server
  // multi-homing"): each is a FIB destination of its own, numbered after
  // the leaves' ids in node order; each of its leaves has a connected
  // route to it from the start, and every other switch needs routing
  // (BGP: the leaves originate it). The host sends each flow on one
  // uplink, chosen by flow hash.
  struct MultiHomedHost {
    NodeIndex host = 0;
    proto::NodeId destination = 0;
    std::vector<NodeIndex> leaves;  // in the host's port order
  };
  const std::vector<MultiHomedHost>& multihomed() const { return multihomed_; }
  // The FIB destination of traffic to `host`.
  proto::NodeId fib_destination(NodeIndex host) const {
    return reach_[host].fib_destination;
  }

  // A flow hash for a flow from host `from` to host `to` whose path, in
  // the FIBs as they are now, crosses `cable` (either way): what a sender
  // gets by choosing its UDP source port, as traffic generators do to put
  // a flow on one ECMP path. Tries source ports 0 .. kSteeringPorts - 1.
  // nullopt when none of them crosses the cable, or when path selection
  // is not per-flow (spraying and flowlets choose again and again). The
  // path holds while the tables do: a veto or new weights may move it.
  static constexpr std::uint32_t kSteeringPorts = 4096;
  std::optional<std::uint64_t> flow_hash_across(NodeIndex from, NodeIndex to,
                                                std::size_t cable) const;

 private:
  struct Node {
    proto::NodeId leaf_id = 0;
    std::vector<NodeIndex> neighbour;  // by port - 1
  };
  // What a hop needs to know about the node a packet arrives at or is
  // addressed to, by node index: 16 bytes instead of a whole Node, so
  // that forwarding touches one small entry (they matter once the nodes
  // no longer fit in cache).
  struct Reach {
    // hosts: their leaf switch, or kMultiHomed; switches: kNoNode
    NodeIndex leaf = kNoNode;
    // Single-homed hosts: the links from their leaf and to it. A
    // multi-homed host's uplink is kNoLink (chosen per flow).
    LinkIndex downlink = 0;
    LinkIndex uplink = 0;
    // Hosts: their leaf's FIB id, or their own (multihomed()); else 0.
    proto::NodeId fib_destination = 0;
    bool host() const { return leaf != kNoNode; }
  };
  static constexpr NodeIndex kNoNode = 0xffffffff;
  static constexpr NodeIndex kMultiHomed = 0xfffffffe;
  static constexpr LinkIndex kNoLink = 0xffffffff;

  Network(EventQueue& events, PacketPool& pool)
      : events_(&events), pool_(&pool) {}
  // The link a transport packet at switch `node` leaves on (computing its
  // flow hash at the first switch), or kNoLink when the FIB has no port
  // for it.
  LinkIndex route(NodeIndex node, Packet& packet, Time now);
  void put_on_link(LinkIndex l, PacketIndex index, Time now);
  // A switch's egress: the header processor, then the link.
  void egress(LinkIndex l, PacketIndex index, Time now);
  void drop(PacketIndex index, DropReason reason);
  void prefetch_next_arrivals();
  void prefetch_link_and_packet(const Event& e) const;
  void prefetch_fib_entry(NodeIndex node, const Packet& packet) const;
  void prefetch_egress(NodeIndex node, Packet& packet);
  void release_dropped(PacketIndex index);
  // The flow hash (never 0) of a UDP 5-tuple between two nodes.
  static std::uint64_t flow_hash_of(NodeIndex source, NodeIndex destination,
                                    std::uint16_t source_port,
                                    std::uint16_t destination_port);
  // Sets p.flow_hash from the packet's 5-tuple.
  static void set_flow_hash(Packet& p);
  LinkIndex multihomed_uplink(NodeIndex host, std::uint64_t flow_hash) const;
  // The link of `node`'s port `port`, or kNoLink for port 0 or one the
  // node does not have.
  LinkIndex port_link(NodeIndex node, proto::PortId port) const {
    const LinkIndex first = first_port_[node];
    return port == 0 || port > first_port_[node + 1] - first ? kNoLink
                                                             : first + port - 1;
  }

  EventQueue* events_;
  PacketPool* pool_;
  HostHandler* handler_ = nullptr;
  ControlHandler* control_ = nullptr;
  HeaderProcessor* headers_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<Reach> reach_;  // by node
  std::vector<MultiHomedHost> multihomed_;
  // By node, and one past the last: its first port's link (links are
  // numbered node by node, in port order).
  std::vector<LinkIndex> first_port_;
  std::vector<std::array<LinkIndex, 2>> cable_links_;  // by cable
  std::vector<std::uint32_t> cable_of_;                // by link
  // Where the FIBs' destination tables live (huge pages: a hop reads one
  // at random); declared before fibs_, so that it outlives them.
  std::unique_ptr<HugePageArena> fib_memory_;
  // By node: its FIB, or null for hosts. Apart from Node, so that the
  // forwarding path reads 8 bytes a node.
  std::vector<std::unique_ptr<proto::fib::Fib>> fibs_;
  std::vector<Link, HugePageAllocator<Link>> links_;
  std::vector<PacketIndex> lost_;         // scratch for link-down losses
  std::vector<double> drop_probability_;  // by link
  bool random_loss_ = false;              // some link has drop_probability > 0
  std::uint64_t rng_ = 1;                 // xorshift64* state
  proto::fib::SelectMode select_mode_ = proto::fib::SelectMode::per_flow;
  // Whether hops prefetch three events ahead, not two
  // (NetworkSpec::prefetch_depth, prefetch_next_arrivals).
  bool deep_lookahead_ = false;
  NetworkCounters counters_;
};

}  // namespace arfabric::sim
