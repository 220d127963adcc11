// An in-test "network" for the transport engines: a tiny discrete-event
// loop with one sender NIC per flow, a per-packet random extra delay
// (reordering, as per-packet spraying over unequal paths), seeded random
// or chosen drops of data and ACKs, and one shared bottleneck queue with
// drop-tail and DCTCP-style ECN marking (CE when the queue holds more than
// K bytes as the packet arrives). Allocation and std::function are fine
// here: this is test scaffolding, not the simulator.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "common/units.h"
#include "sim/transport/receiver.h"
#include "sim/transport/sender.h"

namespace arfabric::sim::transport::testing {

struct NetworkConfig {
  BitsPerSecond host_rate = gbps(100);
  BitsPerSecond bottleneck_rate = gbps(100);
  std::uint64_t ecn_threshold_bytes = 1ull << 40;  // K
  std::uint64_t buffer_bytes = 1ull << 40;
  Time data_delay = us(2);  // sender NIC -> bottleneck queue
  Time ack_delay = us(3);   // receiver -> sender
  Time jitter{};            // extra data delay, uniform in [0, jitter]
  double data_loss = 0.0;
  double ack_loss = 0.0;
  std::function<bool(const TransportHeader&, Time)> drop_data;
  std::function<bool(const TransportHeader&, Time)> drop_ack;
  bool signal = false;  // stamp an IBCS signal (the flow id + 100)
  std::uint64_t seed = 1;
};

struct FlowSpec {
  std::uint64_t bytes = 0;
  Time start{};
};

class Network {
 public:
  Network(const TransportConfig& tc, NetworkConfig nc,
          const std::vector<FlowSpec>& flows)
      : tc_(tc), nc_(std::move(nc)), rng_(nc_.seed) {
    for (std::size_t i = 0; i < flows.size(); ++i) {
      const auto f = static_cast<FlowId>(i);
      senders_.emplace_back(tc, f, flows[i].bytes, flows[i].start);
      receivers_.emplace_back(tc, f, flows[i].bytes);
      starts_.push_back(flows[i].start);
      push(flows[i].start, Kind::nic_free, f, {});
    }
    nic_busy_.assign(flows.size(), true);
    timer_at_.assign(flows.size(), Time::max());
  }

  // Runs until every flow completes or `end`; returns true if all did.
  bool run(Time end) {
    while (!events_.empty()) {
      const Event e = events_.top();
      if (e.at > end) break;
      events_.pop();
      now_ = e.at;
      handle(e);
      if (all_complete()) return true;
    }
    return all_complete();
  }

  bool all_complete() const {
    for (const auto& s : senders_) {
      if (!s.complete()) return false;
    }
    for (const auto& r : receivers_) {
      if (!r.complete()) return false;
    }
    return true;
  }

  Time now() const { return now_; }
  Sender& sender(FlowId f) { return senders_[f]; }
  Receiver& receiver(FlowId f) { return receivers_[f]; }
  std::uint64_t queue_bytes() const { return queue_bytes_; }
  std::uint64_t max_queue_bytes() const { return max_queue_; }
  std::uint64_t queue_drops() const { return queue_drops_; }
  std::uint64_t random_drops() const { return random_drops_; }
  std::uint64_t marks() const { return marks_; }
  // Integral of the queue over time, byte-picoseconds, for averages.
  long double queue_integral() const { return queue_integral_; }

 private:
  enum class Kind { nic_free, timer, at_queue, depart, at_receiver, at_sender };
  struct Event {
    Time at;
    std::uint64_t order;
    Kind kind;
    FlowId flow;
    TransportHeader h;
    bool operator>(const Event& o) const {
      return at != o.at ? at > o.at : order > o.order;
    }
  };

  void push(Time at, Kind k, FlowId f, const TransportHeader& h) {
    events_.push(Event{at, order_++, k, f, h});
  }
  bool chance(double p) {
    return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p;
  }
  void account_queue() {
    queue_integral_ +=
        static_cast<long double>(queue_bytes_) *
        static_cast<long double>((now_ - last_queue_change_).ps());
    last_queue_change_ = now_;
  }

  void pump(FlowId f) {
    if (nic_busy_[f] || now_ < starts_[f]) return;
    auto p = senders_[f].next_packet(now_);
    if (p) {
      if (nc_.signal) {
        p->signal_valid = true;
        p->signal = f + 100;
      }
      const Time tx = transmission_time(wire_bytes(tc_, *p), nc_.host_rate);
      nic_busy_[f] = true;
      push(now_ + tx, Kind::nic_free, f, {});
      const bool drop =
          (nc_.drop_data && nc_.drop_data(*p, now_)) || chance(nc_.data_loss);
      Time extra{};
      if (nc_.jitter > Time()) {
        extra = ps(std::uniform_int_distribution<std::int64_t>(
            0, nc_.jitter.ps())(rng_));
      }
      if (drop) {
        ++random_drops_;
      } else {
        push(now_ + tx + nc_.data_delay + extra, Kind::at_queue, f, *p);
      }
    }
    arm_timer(f);
  }

  void arm_timer(FlowId f) {
    const Time d = senders_[f].next_deadline();
    if (d != Time::max() && d != timer_at_[f]) {
      timer_at_[f] = d;
      push(d, Kind::timer, f, {});
    }
  }

  void handle(const Event& e) {
    switch (e.kind) {
      case Kind::nic_free:
        nic_busy_[e.flow] = false;
        pump(e.flow);
        break;
      case Kind::timer:
        if (senders_[e.flow].next_deadline() <= now_) {
          senders_[e.flow].on_timer(now_);
        }
        if (timer_at_[e.flow] == e.at) timer_at_[e.flow] = Time::max();
        pump(e.flow);
        break;
      case Kind::at_queue: {
        const std::uint32_t size = wire_bytes(tc_, e.h);
        if (queue_bytes_ + size > nc_.buffer_bytes) {
          ++queue_drops_;
          break;
        }
        TransportHeader h = e.h;
        if (h.ecn_capable && queue_bytes_ > nc_.ecn_threshold_bytes) {
          h.ecn_ce = true;
          ++marks_;
        }
        account_queue();
        queue_bytes_ += size;
        max_queue_ = std::max(max_queue_, queue_bytes_);
        queue_.push_back(h);
        if (queue_.size() == 1) {
          push(now_ + transmission_time(size, nc_.bottleneck_rate),
               Kind::depart, 0, {});
        }
        break;
      }
      case Kind::depart: {
        const TransportHeader h = queue_.front();
        queue_.pop_front();
        account_queue();
        queue_bytes_ -= wire_bytes(tc_, h);
        push(now_, Kind::at_receiver, h.flow, h);
        if (!queue_.empty()) {
          push(now_ + transmission_time(wire_bytes(tc_, queue_.front()),
                                        nc_.bottleneck_rate),
               Kind::depart, 0, {});
        }
        break;
      }
      case Kind::at_receiver: {
        const TransportHeader ack = receivers_[e.flow].on_data(e.h, now_);
        const bool drop =
            (nc_.drop_ack && nc_.drop_ack(ack, now_)) || chance(nc_.ack_loss);
        if (!drop) push(now_ + nc_.ack_delay, Kind::at_sender, e.flow, ack);
        break;
      }
      case Kind::at_sender:
        senders_[e.flow].on_ack(e.h, now_);
        pump(e.flow);
        break;
    }
  }

  TransportConfig tc_;
  NetworkConfig nc_;
  std::mt19937_64 rng_;
  std::vector<Sender> senders_;
  std::vector<Receiver> receivers_;
  std::vector<Time> starts_;
  std::vector<bool> nic_busy_;
  std::vector<Time> timer_at_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::uint64_t order_ = 0;
  Time now_{};
  std::deque<TransportHeader> queue_;
  std::uint64_t queue_bytes_ = 0;
  std::uint64_t max_queue_ = 0;
  std::uint64_t queue_drops_ = 0;
  std::uint64_t random_drops_ = 0;
  std::uint64_t marks_ = 0;
  long double queue_integral_ = 0;
  Time last_queue_change_{};
};

}  // namespace arfabric::sim::transport::testing
