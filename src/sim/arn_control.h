// ARN in the simulated fabric (draft-wh-rtgwg-adaptive-routing-arn-05 §2,
// §3): one real proto::arn::ArnEngine per switch, processed "in hardware".
//
// Model (docs/ARCHITECTURE.md, Simulator):
// - Built when the workload starts (after BGP's warm-up), from the routes
//   installed in the FIBs then: a switch monitors each switch-to-switch port
//   that some route uses; the affected destinations of a port are the leaves
//   and multi-homed hosts routed through it (FIB destination i stands for
//   10.(i/256).(i%256).0/24, as in BgpControl, and is named by
//   10.(i/256).(i%256).1; a destination is not routed at its own leaves); a
//   port has local alternatives when every one of those destinations has
//   another port in its route (then a detection is absorbed locally, §2
//   step 2). The same routes tell each engine where it can reroute
//   (propagation, §2.2).
//   Later BGP changes do not rebuild this (the ARN reaction is over by
//   then).
// - Targets: every switch neighbour, unicast UDP to its router address
//   172.16.0.0/12 + node index.
// - Rate limit: each switch's buckets hold a repetition of every condition
//   of every monitored port at once and refill within a repeat_interval
//   (docs/PROTOCOLS.md, "ARN rate limit"), so that a switch's own messages
//   never wait in the engine's queues for a token; but no port's bucket
//   refills faster than keeps its messages within `link_share` of its
//   link's rate (re-paced at each degradation: cable_rate()).
//   Control packets go before data, so unbounded repetitions on a slow
//   link would starve the data whose congestion they report.
// - Detection inputs: loss of signal (PortObserver) and, every
//   `sample_interval`, each monitored port's queue depth and utilisation
//   over the interval.
// - Each ARN is one control packet carrying the real encoded IPv4/UDP
//   bytes; a received one is processed `processing` after arrival
//   (pipelined, like LSN frames), and its records go to the switch's Fib
//   at once.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <vector>

#include "proto/arn/arn_engine.h"
#include "sim/control_tap.h"
#include "sim/loss_of_signal.h"
#include "sim/network.h"
#include "sim/notification.h"

namespace arfabric::sim {

struct ArnControlConfig {
  Time processing = us(1);  // per received message
  Time sample_interval = us(10);
  std::uint64_t queue_high_bytes = 256'000;
  std::uint64_t queue_low_bytes = 64'000;
  double util_high = 0.95, util_low = 0.80;
  Time repeat_interval = us(100);
  Time hold_time = us(500);
  double link_share = 0.1;  // in (0, 1]
};

struct ArnControlCounters {
  std::uint64_t messages = 0;  // control packets sent
  std::uint64_t bytes = 0;     // on the wire
  std::uint64_t received = 0;
  std::uint64_t vetoes = 0;  // veto records that set a veto
  std::uint64_t congestion = 0;
  std::uint64_t fib_rejected = 0;
  std::uint64_t detections = 0, suppressed = 0, waited = 0, rate_limited = 0;
  Time last_veto = Time::max();  // the latest veto of a routed path
};

class ArnControl : public ControlHandler, public PortObserver {
 public:
  // `leaf_id` per node: the leaf's id (FIB destination), or kNotLeaf.
  // Builds every engine from the routes in the switches' FIBs and starts
  // sampling at `now`. Errors: more than 65,535 switches or 65,535 leaves
  // and multi-homed hosts, or an engine configuration the engine refuses
  // (field named).
  static std::expected<std::unique_ptr<ArnControl>, NetworkError> create(
      Network& network, EventQueue& events, PacketPool& pool,
      const std::vector<proto::NodeId>& leaf_id, const ArnControlConfig& config,
      Time now);

  void set_tap(ControlTap* tap) { plane_.set_tap(tap); }

  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now) override;
  void on_control_dropped(const Packet& packet) override;
  void on_port_state(NodeIndex node, proto::PortId port, bool up,
                     Time now) override;
  // EventType::arn events.
  void on_event(const Event& e);
  // `cable` now runs at `rate`: its ports' buckets refill at the pace
  // link_share allows there.
  void cable_rate(std::size_t cable, BitsPerSecond rate, Time now);

  // Engine counters summed over switches, plus the host's.
  ArnControlCounters counters() const;
  const proto::arn::ArnEngine& engine(NodeIndex node) const {
    return *switches_[plane_.switch_index(node)].engine;
  }

 private:
  struct Monitored {
    proto::PortId port = 0;
    LinkIndex link = 0;
    std::uint64_t bytes_before = 0;
  };
  struct Switch {
    NodeIndex node = 0;
    std::unique_ptr<proto::arn::ArnEngine> engine;
    std::vector<Monitored> monitored;
    PendingTimer timer;
  };

  ArnControl(Network& network, EventQueue& events, PacketPool& pool,
             const ArnControlConfig& config);
  void flush(std::uint32_t sw, Time now);
  void arm(std::uint32_t sw);
  // Spaces the tokens of `sw`'s targets on `port` for a link of `rate`.
  void pace(std::uint32_t sw, proto::PortId port, BitsPerSecond rate, Time now);

  Network* network_;
  ArnControlConfig config_;
  NotificationPlane plane_;
  std::vector<Switch> switches_;  // by plane_'s switch number
  ArnControlCounters counters_;
};

}  // namespace arfabric::sim
