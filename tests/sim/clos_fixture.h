// Test fixtures for the simulator: a 3-stage CLOS NetworkSpec with
// equal-cost routes installed directly in the FIBs, and a runner that owns
// the event queue, pool and network and records what reaches hosts.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "sim/loss_of_signal.h"
#include "sim/network.h"

namespace arfabric::sim::testing {

namespace fib = proto::fib;

// Collects what reaches hosts.
struct Sink : HostHandler {
  PacketPool* pool;
  std::vector<std::pair<NodeIndex, Time>> got;
  std::vector<Packet> packets;
  explicit Sink(PacketPool& p) : pool(&p) {}
  void on_packet(NodeIndex host, PacketIndex packet, Time now) override {
    got.emplace_back(host, now);
    packets.push_back((*pool)[packet]);
    pool->release(packet);
  }
};

// A 3-stage CLOS: nodes are spines, then leaves, then hosts.
struct Clos {
  std::size_t spines, leaves, hosts_per_leaf;
  NetworkSpec spec;
  Clos(std::size_t s, std::size_t l, std::size_t h, BitsPerSecond rate,
       Time delay)
      : spines(s), leaves(l), hosts_per_leaf(h) {
    for (std::size_t i = 0; i < s; ++i) spec.nodes.push_back({false, 0});
    for (std::size_t i = 0; i < l; ++i) {
      spec.nodes.push_back({false, static_cast<proto::NodeId>(i)});
    }
    for (std::size_t i = 0; i < l * h; ++i) spec.nodes.push_back({true, 0});
    for (std::size_t li = 0; li < l; ++li) {
      for (std::size_t si = 0; si < s; ++si) {
        spec.cables.push_back({leaf(li), spine(si), rate, delay});
      }
      for (std::size_t hi = 0; hi < h; ++hi) {
        spec.cables.push_back({host(li, hi), leaf(li), rate, delay});
      }
    }
    spec.fib.table_size = 256;
  }
  NodeIndex spine(std::size_t i) const { return static_cast<NodeIndex>(i); }
  NodeIndex leaf(std::size_t i) const {
    return static_cast<NodeIndex>(spines + i);
  }
  NodeIndex host(std::size_t l, std::size_t h) const {
    return static_cast<NodeIndex>(spines + leaves + l * hosts_per_leaf + h);
  }
  // The index in spec.cables of the cable between a and b.
  std::size_t cable(NodeIndex a, NodeIndex b) const {
    for (std::size_t c = 0; c < spec.cables.size(); ++c) {
      const auto& k = spec.cables[c];
      if ((k.a == a && k.b == b) || (k.a == b && k.b == a)) return c;
    }
    ADD_FAILURE() << "no cable between " << a << " and " << b;
    return 0;
  }
  // Equal-cost routes everywhere: leaves over all spines, spines down.
  void install_routes(Network& net) const {
    for (std::size_t li = 0; li < leaves; ++li) {
      std::vector<fib::WeightedMember> up;
      for (std::size_t si = 0; si < spines; ++si) {
        up.push_back({*net.port_toward(leaf(li), spine(si)), 1});
      }
      for (std::size_t d = 0; d < leaves; ++d) {
        if (d == li) continue;
        ASSERT_TRUE(net.fib(leaf(li)).set_route(static_cast<proto::NodeId>(d),
                                                up, Time{}));
      }
    }
    for (std::size_t si = 0; si < spines; ++si) {
      for (std::size_t d = 0; d < leaves; ++d) {
        const fib::WeightedMember down{*net.port_toward(spine(si), leaf(d)), 1};
        ASSERT_TRUE(net.fib(spine(si)).set_route(static_cast<proto::NodeId>(d),
                                                 {&down, 1}, Time{}));
      }
    }
  }
};

struct Sim {
  EventQueue events;
  PacketPool pool;
  std::optional<Network> net;
  Sink sink{pool};
  explicit Sim(const NetworkSpec& spec) {
    auto n = Network::create(spec, events, pool);
    EXPECT_TRUE(n) << n.error().to_string();
    net.emplace(std::move(*n));
    net->set_host_handler(&sink);
  }
  PacketIndex send(NodeIndex from, NodeIndex to, std::uint32_t bytes,
                   FlowId flow, Time now) {
    const PacketIndex i = pool.allocate();
    Packet& p = pool[i];
    p.source = from;
    p.destination = to;
    p.wire_bytes = bytes;
    p.transport.flow = flow;
    net->send_from_host(from, i, now);
    return i;
  }
  void run_until(Time t) {
    while (!events.empty() && events.top().at <= t) net->on_event(events.pop());
  }
  std::uint64_t dropped() const {
    std::uint64_t n = 0;
    for (auto d : net->counters().dropped) n += d;
    return n;
  }
};

// Runs `events` up to `t` in a fabric with one control plane: packets on
// the links, loss of signal, and `control`'s own events (`type`); any
// other event fails the test.
template <typename Control>
void run_control_plane_until(EventQueue& events, Network& net,
                             LossOfSignal& los, Control& control,
                             EventType type, Time t) {
  while (!events.empty() && events.top().at <= t) {
    const Event e = events.pop();
    if (e.type == EventType::link_arrival) {
      net.on_event(e);
    } else if (e.type == EventType::port_state) {
      los.on_event(e);
    } else if (e.type == type) {
      control.on_event(e);
    } else {
      FAIL() << "unexpected event type";
    }
  }
}

}  // namespace arfabric::sim::testing
