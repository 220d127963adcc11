// LSN in the simulated fabric (draft-camarillo-rtgwg-lsn-00 §3.2): one real
// proto::lsn::Engine per switch, processed "in hardware".
//
// Model (docs/ARCHITECTURE.md, Simulator):
// - Every switch runs an engine. Its switch-to-switch ports are trusted,
//   host-facing ports untrusted (§6). A switch with leaves directly behind
//   some ports (a spine) originates for them: Global Node ID = the leaf's
//   LSN id, the fabric's device count = the number of leaves.
// - Every switch that other switches may route through toward a leaf
//   (any switch but a leaf, and a leaf cabled to another leaf: dragonfly
//   routers) originates for the other leaves too, as transit devices
//   (proto::lsn::Config::transit): a bit says whether the switch's own FIB
//   still forwards toward that leaf (Fib::state() is effective). So a leaf
//   behind a failure two or more hops away is vetoed at the ingress too:
//   in a 5-stage fabric a super-spine that lost its only path to a leaf
//   tells the spines of every PoD, and they tell their leaves. Transit
//   bits are refreshed when a frame's vetoes reach the FIB, on a port
//   event, and every period (which picks up BGP's changes, ARN's vetoes
//   and the FIB latch's releases, up to a period late). A 3-stage spine has
//   every leaf attached, so it has none.
// - Origination: the engine's period, and at once on a port event (loss of
//   signal, via PortObserver) or a congestion-level change. Queue depths of
//   the originating ports are sampled every `congestion_sample` (0: never,
//   so only Msg-type 0 is sent).
// - Each frame is one control packet with the real encoded bytes, sent on
//   every trusted port whose link is up, sharing the egress queue with data
//   (never dropped by drop-tail).
// - A received frame is processed `processing` after it arrived (a
//   pipelined latency: frames do not wait for each other). Its VetoChange and
//   CongestionChange records go to the switch's Fib at once
//   (proto::lsn::apply_to_fib); recovery waits for BGP's re-install (the
//   Fib's latch).
// - A multi-homed host (Network::multihomed()) is a FIB destination of
//   its own, which no LSN bit names. A switch derives its vetoes and
//   congestion from its leaves' bits: the path through a port is vetoed
//   when the neighbour reports none of the host's leaves reachable (other
//   than the switch itself, when it is one of them: its own bit says
//   nothing about the host), and its congestion level is the lowest among
//   the leaves reachable through the port. Records are derived when a
//   frame changes a leaf's bits and go to the Fib like the leaves' own
//   (docs/PROTOCOLS.md, LSN).
// - Engines start with the workload (start()): the warm-up stands for a
//   fabric that has been running, and is the same in every mode.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <span>
#include <vector>

#include "proto/lsn/lsn_engine.h"
#include "sim/control_tap.h"
#include "sim/loss_of_signal.h"
#include "sim/network.h"
#include "sim/notification.h"

namespace arfabric::sim {

struct LsnControlConfig {
  Time processing = us(1);  // per received frame
  Time period = proto::lsn::kDefaultPeriod;
  Time congestion_sample = us(10);  // 0: no congestion Msg-types
  proto::lsn::CongestionThresholds congestion{};
};

struct LsnControlCounters {
  std::uint64_t frames = 0;  // control packets sent
  std::uint64_t bytes = 0;   // on the wire
  std::uint64_t received = 0;
  std::uint64_t vetoes = 0;      // veto records that set a veto
  std::uint64_t congestion = 0;  // congestion records applied
  std::uint64_t fib_rejected = 0;
  // When the latest veto of a routed path was applied.
  Time last_veto = Time::max();
};

class LsnControl : public ControlHandler, public PortObserver {
 public:
  // `leaf_id` per node: the leaf's LSN Global Node ID, or kNotLeaf.
  // Errors: more than 16,384 leaves, a leaf id beyond the leaf count, or
  // an engine configuration the engine refuses (field named).
  static std::expected<std::unique_ptr<LsnControl>, NetworkError> create(
      Network& network, EventQueue& events, PacketPool& pool,
      const std::vector<proto::NodeId>& leaf_id,
      const LsnControlConfig& config);

  void set_tap(ControlTap* tap) { plane_.set_tap(tap); }
  // Starts origination (the first periodic frames go out now).
  void start(Time now);

  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now) override;
  void on_control_dropped(const Packet& packet) override;
  void on_port_state(NodeIndex node, proto::PortId port, bool up,
                     Time now) override;
  // EventType::lsn events.
  void on_event(const Event& e);

  const LsnControlCounters& counters() const { return counters_; }
  const proto::lsn::Engine& engine(NodeIndex node) const {
    return *switches_[plane_.switch_index(node)].engine;
  }

 private:
  struct Switch {
    NodeIndex node = 0;
    proto::NodeId leaf_id = kNotLeaf;
    std::unique_ptr<proto::lsn::Engine> engine;
    std::vector<std::pair<proto::PortId, LinkIndex>> sampled;  // originating
    std::vector<bool> port_down;  // by port: as the switch detected it
    // Leaves neither attached nor the switch itself, in id order, when the
    // switch originates for transit devices.
    std::vector<proto::NodeId> transit;
    // By (multi-homed host, port): the veto (kHomedVetoed) and congestion
    // level last derived; empty until a frame changes a bit of one of
    // their leaves.
    std::vector<std::uint8_t> homed_state;
    PendingTimer timer;
  };
  // A multi-homed host: its FIB destination and its leaves' LSN ids
  // (sorted, distinct).
  struct HomedHost {
    proto::NodeId destination = 0;
    std::vector<proto::NodeId> leaves;
  };
  static constexpr std::uint8_t kHomedVetoed = 0x80;

  LsnControl(Network& network, EventQueue& events, PacketPool& pool,
             const LsnControlConfig& config);
  void flush(std::uint32_t sw, Time now);
  void apply(std::uint32_t sw, Time now);
  // Sets the bit of each of `leaves` that is one of the switch's transit
  // devices from the switch's FIB: reachable while its state is effective.
  void refresh_transit(std::uint32_t sw, std::span<const proto::NodeId> leaves,
                       Time now);
  void arm(std::uint32_t sw);
  // The records of the multi-homed hosts on the leaves of `touched_`,
  // derived from switch `sw`'s received bits, applied to its Fib.
  void apply_homed(std::uint32_t sw, Time now);
  // Counts the records that set a veto, and the time of one that vetoes a
  // path routing uses (LsnControlCounters::last_veto).
  void count_vetoes(const proto::fib::Fib& fib,
                    std::span<const proto::VetoChange> vetoes, Time now);

  Network* network_;
  LsnControlConfig config_;
  NotificationPlane plane_;
  bool started_ = false;
  std::vector<Switch> switches_;  // by plane_'s switch number
  LsnControlCounters counters_;
  std::vector<HomedHost> homed_;
  // By leaf id: the homed_ indices of the hosts on that leaf,
  // homed_of_leaf_[homed_first_[leaf] .. homed_first_[leaf + 1]).
  std::vector<std::uint32_t> homed_first_;
  std::vector<std::uint32_t> homed_of_leaf_;
  // apply()'s scratch: leaves whose bits changed, (port, homed_ index)
  // pairs whose records to derive, and the derived records.
  std::vector<proto::NodeId> changed_;
  std::vector<std::pair<proto::PortId, std::uint32_t>> touched_;
  std::vector<proto::VetoChange> homed_vetoes_;
  std::vector<proto::CongestionChange> homed_congestion_;
};

}  // namespace arfabric::sim
