// An in-memory event loop that wires BGP speakers back to back: each link
// carries a byte stream with a fixed delay, connection requests succeed
// after one delay when the link is up, and FIB updates are recorded per
// node. Tests build CLOS fabrics from it (3- and 5-stage, RFC 7938 ASNs)
// and check what every leaf installs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "common/overloaded.h"
#include "common/units.h"
#include "proto/bgp/speaker.h"
#include "wire/bgp/nlri.h"

namespace arfabric::proto::bgp::testing {

inline Destination destination(const std::string& text) {
  auto p = wire::bgp::prefix_from_string(text);
  EXPECT_TRUE(p) << text;
  return destination_of(text.find(':') == std::string::npos
                            ? wire::bgp::kAfiIpv4
                            : wire::bgp::kAfiIpv6,
                        *p);
}

class Harness {
 public:
  struct NodeSpec {
    std::string name;
    std::uint32_t asn = 0;
    fare::Role role = fare::Role::leaf;
    std::vector<Destination> networks;
  };

  Time link_delay = us(10);
  bool fare_enabled = true;
  bool spine_lower_to_next_next_hop = false;
  std::uint32_t maximum_paths = 64;
  Time mrai = Time{};
  std::uint16_t hold_time_s = 9;
  std::function<void(SpeakerConfig&)> tweak;  // per-node config hook

  std::size_t add_node(NodeSpec spec) {
    Node node;
    node.spec = std::move(spec);
    nodes_.push_back(std::move(node));
    return nodes_.size() - 1;
  }

  // A point-to-point link; returns its index.
  std::size_t add_link(std::size_t a, std::size_t b, BitsPerSecond bandwidth) {
    Link l{a, b, 0, 0, bandwidth, true};
    l.peer_a = add_peer(a, b, bandwidth);
    l.peer_b = add_peer(b, a, bandwidth);
    links_.push_back(l);
    return links_.size() - 1;
  }

  // Creates every speaker and starts it at time 0.
  void start() {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      Node& node = nodes_[n];
      SpeakerConfig c;
      c.local_as = node.spec.asn;
      c.router_id = {10, 255, static_cast<std::uint8_t>(n >> 8),
                     static_cast<std::uint8_t>(n)};
      c.peers = node.peers;
      c.networks = node.spec.networks;
      c.rib.fare_enabled = fare_enabled;
      c.rib.maximum_paths = maximum_paths;
      c.rib.fare.role = node.spec.role;
      c.rib.fare.spine_lower_to_next_next_hop =
          spine_lower_to_next_next_hop && node.spec.role == fare::Role::spine;
      if (tweak) tweak(c);
      auto ok = validate(c);
      EXPECT_TRUE(ok) << node.spec.name << ": " << ok.error().to_string();
      node.speaker = std::make_unique<Speaker>(std::move(c));
    }
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      nodes_[n].speaker->start(now_);
      pump(n);
    }
  }

  // Runs events and timers up to `until`.
  void run_until(Time until) {
    while (true) {
      Time next = Time::max();
      if (!events_.empty()) next = events_.top().at;
      std::size_t timer_node = nodes_.size();
      for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const Time d = nodes_[n].speaker->next_deadline();
        if (d < next) {
          next = d;
          timer_node = n;
        }
      }
      if (next > until) break;
      now_ = std::max(now_, next);
      if (timer_node < nodes_.size()) {
        nodes_[timer_node].speaker->on_timer(now_);
        pump(timer_node);
        continue;
      }
      Event e = events_.top();
      events_.pop();
      e.action();
    }
    now_ = std::max(now_, until);
  }

  void run_for(Time d) { run_until(now_ + d); }

  // Takes a link down: both ends see their connection close (as with a
  // loss-of-signal interface event), and reconnects fail until link_up.
  void link_down(std::size_t link) {
    Link& l = links_[link];
    l.up = false;
    std::vector<Conn> dropped;
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (it->second.link == link) {
        dropped.push_back(it->second);
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
    for (const Conn& c : dropped) {
      nodes_[c.node].speaker->on_closed(c.peer, c.id, now_);
      pump(c.node);
    }
  }
  void link_up(std::size_t link) { links_[link].up = true; }

  // Changes the bandwidth both ends configure for the link.
  void set_link_bandwidth(std::size_t link, BitsPerSecond bandwidth) {
    Link& l = links_[link];
    l.bandwidth = bandwidth;
    nodes_[l.a].speaker->set_link_bandwidth(l.peer_a, bandwidth, now_);
    pump(l.a);
    nodes_[l.b].speaker->set_link_bandwidth(l.peer_b, bandwidth, now_);
    pump(l.b);
  }

  // Calls `f` on node n's speaker at the current time and handles what it
  // outputs.
  void act(std::size_t n, const std::function<void(Speaker&, Time)>& f) {
    f(*nodes_[n].speaker, now_);
    pump(n);
  }
  Speaker& speaker(std::size_t n) { return *nodes_[n].speaker; }
  const std::string& name(std::size_t n) const { return nodes_[n].spec.name; }
  Time now() const { return now_; }
  std::size_t link_count() const { return links_.size(); }
  std::size_t peer_of(std::size_t link, std::size_t node) const {
    const Link& l = links_[link];
    return node == l.a ? l.peer_a : l.peer_b;
  }

  // The FIB of node `n` as programmed through FibUpdate outputs:
  // destination -> (neighbour node -> weight).
  std::map<std::size_t, BitsPerSecond> fib(std::size_t n,
                                           const Destination& d) const {
    std::map<std::size_t, BitsPerSecond> out;
    const auto& f = nodes_[n].fib;
    auto it = f.find(d);
    if (it == f.end()) return out;
    for (const NextHopWeight& h : it->second) {
      out[nodes_[n].neighbour[h.peer]] = h.weight;
    }
    return out;
  }
  std::size_t fib_size(std::size_t n) const { return nodes_[n].fib.size(); }
  std::uint64_t fib_updates(std::size_t n) const {
    return nodes_[n].fib_updates;
  }
  bool all_established() const {
    for (const Node& node : nodes_) {
      for (PeerId p = 0; p < node.peers.size(); ++p) {
        if (node.speaker->peer_state(p) != SessionState::established) {
          return false;
        }
      }
    }
    return true;
  }
  std::size_t open_connections() const { return connections_.size(); }

 private:
  struct Node {
    NodeSpec spec;
    std::vector<PeerConfig> peers;
    std::unique_ptr<Speaker> speaker;
    std::vector<std::size_t> neighbour;  // peer id -> node
    std::map<Destination, std::vector<NextHopWeight>> fib;
    std::uint64_t fib_updates = 0;
  };
  struct Link {
    std::size_t a, b;
    PeerId peer_a, peer_b;
    BitsPerSecond bandwidth;
    bool up;
  };
  struct Conn {
    std::size_t node;
    PeerId peer;
    ConnectionId id;
    ConnectionId remote;  // the other end's id
    std::size_t link;
  };
  struct Event {
    Time at;
    std::uint64_t seq;
    std::function<void()> action;
    bool operator>(const Event& o) const {
      return at != o.at ? at > o.at : seq > o.seq;
    }
  };

  PeerId add_peer(std::size_t from, std::size_t to, BitsPerSecond bandwidth) {
    Node& node = nodes_[from];
    const PeerId id = static_cast<PeerId>(node.peers.size());
    PeerConfig p;
    p.name = nodes_[to].spec.name;
    p.session.remote_as = nodes_[to].spec.asn;
    p.session.hold_time_s = hold_time_s;
    p.session.connect_retry_time = sec(1);
    p.session.idle_hold_time = ms(100);
    p.session.families = {{wire::bgp::kAfiIpv4, wire::bgp::kSafiUnicast},
                          {wire::bgp::kAfiIpv6, wire::bgp::kSafiUnicast}};
    p.role = nodes_[to].spec.role;
    p.link_bandwidth = bandwidth;
    p.next_hop_ipv4 = {10, static_cast<std::uint8_t>(from >> 8),
                       static_cast<std::uint8_t>(from),
                       static_cast<std::uint8_t>(id)};
    p.next_hop_ipv6 = Bytes(16, 0);
    p.next_hop_ipv6[0] = 0xfd;
    p.next_hop_ipv6[14] = static_cast<std::uint8_t>(from);
    p.next_hop_ipv6[15] = static_cast<std::uint8_t>(id);
    p.mrai = mrai;
    p.address_rank = static_cast<std::uint32_t>(to);
    node.peers.push_back(p);
    node.neighbour.push_back(to);
    return id;
  }

  std::size_t link_of(std::size_t node, PeerId peer) const {
    for (std::size_t i = 0; i < links_.size(); ++i) {
      const Link& l = links_[i];
      if ((l.a == node && l.peer_a == peer) ||
          (l.b == node && l.peer_b == peer)) {
        return i;
      }
    }
    ADD_FAILURE() << "no link for peer";
    return 0;
  }

  void schedule(Time at, std::function<void()> action) {
    events_.push(Event{at, seq_++, std::move(action)});
  }

  // Handles node n's outputs.
  void pump(std::size_t n) {
    std::vector<SpeakerOutput> outs;
    outs.swap(nodes_[n].speaker->outputs());
    for (SpeakerOutput& o : outs) {
      std::visit(Overloaded{
                     [&](ConnectRequest& c) { connect(n, c.peer); },
                     [&](SendRequest& s) { send(n, s); },
                     [&](CloseRequest& c) { close(n, c.connection); },
                     [&](FibUpdate& f) {
                       ++nodes_[n].fib_updates;
                       if (f.next_hops.empty()) {
                         nodes_[n].fib.erase(f.destination);
                       } else {
                         nodes_[n].fib[f.destination] = f.next_hops;
                       }
                     },
                     [&](PeerStatus&) {},
                 },
                 o);
    }
  }

  void connect(std::size_t n, PeerId peer) {
    const std::size_t li = link_of(n, peer);
    const Link& l = links_[li];
    const std::size_t m = l.a == n ? l.b : l.a;
    const PeerId mpeer = l.a == n ? l.peer_b : l.peer_a;
    if (!l.up) {
      schedule(now_ + link_delay, [this, n, peer] {
        nodes_[n].speaker->on_connect_failed(peer, now_);
        pump(n);
      });
      return;
    }
    const ConnectionId mine = next_conn_++, theirs = next_conn_++;
    connections_[mine] = Conn{n, peer, mine, theirs, li};
    connections_[theirs] = Conn{m, mpeer, theirs, mine, li};
    // The SYN reaches the far end after one delay, the SYN-ACK comes back
    // after two.
    schedule(now_ + link_delay, [this, theirs] {
      auto it = connections_.find(theirs);
      if (it == connections_.end()) return;
      const Conn c = it->second;
      nodes_[c.node].speaker->on_connected(c.peer, c.id, Direction::incoming,
                                           now_);
      pump(c.node);
    });
    schedule(now_ + link_delay * 2, [this, mine] {
      auto it = connections_.find(mine);
      if (it == connections_.end()) return;
      const Conn c = it->second;
      nodes_[c.node].speaker->on_connected(c.peer, c.id, Direction::outgoing,
                                           now_);
      pump(c.node);
    });
  }

  void send(std::size_t n, SendRequest& s) {
    auto it = connections_.find(s.connection);
    if (it == connections_.end()) return;  // closed meanwhile
    const ConnectionId remote = it->second.remote;
    auto bytes = std::make_shared<Bytes>(std::move(s.bytes));
    (void)n;
    schedule(now_ + link_delay, [this, remote, bytes] {
      auto r = connections_.find(remote);
      if (r == connections_.end()) return;
      const Conn c = r->second;
      nodes_[c.node].speaker->on_bytes(c.peer, c.id, *bytes, now_);
      pump(c.node);
    });
  }

  void close(std::size_t n, ConnectionId id) {
    (void)n;
    auto it = connections_.find(id);
    if (it == connections_.end()) return;
    const ConnectionId remote = it->second.remote;
    connections_.erase(it);
    schedule(now_ + link_delay, [this, remote] {
      auto r = connections_.find(remote);
      if (r == connections_.end()) return;
      const Conn c = r->second;
      connections_.erase(r);
      nodes_[c.node].speaker->on_closed(c.peer, c.id, now_);
      pump(c.node);
    });
  }

  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::map<ConnectionId, Conn> connections_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  ConnectionId next_conn_ = 1;
  Time now_ = Time{};
};

}  // namespace arfabric::proto::bgp::testing
