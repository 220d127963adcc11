// The packet-hop workload of the simulator's data-plane benchmarks
// (sim_network_bench, sim_hop_count): a 3-stage CLOS at 400G, equal-cost
// routes, and every host keeping 8 packets in flight in a closed loop:
// each packet delivered makes its receiver send a new one to a
// pseudo-random host. Deterministic: the same shape gives the same events.
//
// Two families of shapes:
// - ClosShape::dense(leaves): leaves / 2 spines and 8 hosts per leaf. The
//   fabric grows with the square of the hosts (4,096 hosts: 256 uplinks
//   per leaf, 131,072 spine-leaf cables), a worst case for the working set.
// - ClosShape::non_blocking(k): k leaves, k spines and k hosts per leaf,
//   as many uplinks as hosts on each leaf (k^2 hosts, 2 k^2 cables), the
//   shape of a real fabric built from switches of radix 2k.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "sim/network.h"

namespace arfabric::sim::bench {

struct ClosShape {
  std::uint32_t leaves = 0;
  std::uint32_t spines = 0;
  std::uint32_t hosts_per_leaf = 0;

  static ClosShape dense(std::uint32_t leaves) {
    return {leaves, leaves / 2, 8};
  }
  static ClosShape non_blocking(std::uint32_t k) { return {k, k, k}; }
};

class ClosLoop : public HostHandler {
 public:
  static constexpr int kPacketsPerHost = 8;

  // Builds the fabric, installs the routes, sends the first packets and
  // runs warm-up events (200,000, or 6 per packet in flight if more), so
  // that the pool and the link rings reach their working size. Throws
  // std::runtime_error if the network is refused.
  explicit ClosLoop(const ClosShape& shape)
      : leaves_(shape.leaves),
        spines_(shape.spines),
        hosts_per_leaf_(shape.hosts_per_leaf) {
    NetworkSpec spec;
    for (std::uint32_t i = 0; i < spines_; ++i)
      spec.nodes.push_back({false, 0});
    for (std::uint32_t i = 0; i < leaves_; ++i)
      spec.nodes.push_back({false, i});
    first_host_ = spines_ + leaves_;
    hosts_ = leaves_ * hosts_per_leaf_;
    for (std::uint32_t i = 0; i < hosts_; ++i) spec.nodes.push_back({true, 0});
    for (std::uint32_t l = 0; l < leaves_; ++l) {
      for (std::uint32_t s = 0; s < spines_; ++s) {
        spec.cables.push_back({spines_ + l, s, gbps(400), ns(500)});
      }
      for (std::uint32_t h = 0; h < hosts_per_leaf_; ++h) {
        spec.cables.push_back({first_host_ + l * hosts_per_leaf_ + h,
                               spines_ + l, gbps(400), ns(500)});
      }
    }
    spec.buffer_bytes = 1 << 20;
    spec.ecn_threshold_bytes = 100 * 1024;
    spec.fib.table_size = 256;
    spec.fib.flowlet_table_size = 1024;
    auto created = Network::create(spec, events_, pool_);
    if (!created) throw std::runtime_error(created.error().to_string());
    net_ = std::make_unique<Network>(std::move(*created));
    install_routes();
    net_->set_host_handler(this);
    for (std::uint32_t h = 0; h < hosts_; ++h) {
      for (int k = 0; k < kPacketsPerHost; ++k) send(first_host_ + h, Time{});
    }
    run(std::max<long>(200000, 6L * hosts_ * kPacketsPerHost));
  }

  // Dispatches the next `n` events.
  void run(long n) {
    for (long i = 0; i < n && !events_.empty(); ++i) {
      net_->on_event(events_.pop());
    }
  }

  const Network& network() const { return *net_; }
  const EventQueue& events() const { return events_; }
  std::uint32_t hosts() const { return hosts_; }

  void on_packet(NodeIndex host, PacketIndex packet, Time now) override {
    pool_.release(packet);
    send(host, now);
  }

 private:
  void install_routes() {
    namespace fib = proto::fib;
    for (std::uint32_t l = 0; l < leaves_; ++l) {
      std::vector<fib::WeightedMember> up;
      for (std::uint32_t s = 0; s < spines_; ++s) {
        up.push_back({*net_->port_toward(spines_ + l, s), 1});
      }
      for (std::uint32_t d = 0; d < leaves_; ++d) {
        if (d != l) (void)net_->fib(spines_ + l).set_route(d, up, Time{});
      }
    }
    for (std::uint32_t s = 0; s < spines_; ++s) {
      for (std::uint32_t d = 0; d < leaves_; ++d) {
        const fib::WeightedMember down{*net_->port_toward(s, spines_ + d), 1};
        (void)net_->fib(s).set_route(d, {&down, 1}, Time{});
      }
    }
  }
  std::uint32_t random_host() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return first_host_ + static_cast<std::uint32_t>(state_ % hosts_);
  }
  void send(NodeIndex from, Time now) {
    NodeIndex to = random_host();
    if (to == from) to = first_host_ + (to - first_host_ + 1) % hosts_;
    const PacketIndex i = pool_.allocate();
    Packet& p = pool_[i];
    p.source = from;
    p.destination = to;
    p.wire_bytes = 4160;
    p.transport.flow = next_flow_++;
    net_->send_from_host(from, i, now);
  }

  std::uint32_t leaves_, spines_, hosts_per_leaf_, hosts_ = 0, first_host_ = 0;
  EventQueue events_;
  PacketPool pool_;
  std::unique_ptr<Network> net_;
  std::uint64_t state_ = 88172645463325252ull;
  FlowId next_flow_ = 0;
};

}  // namespace arfabric::sim::bench
