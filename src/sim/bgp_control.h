// The BGP control plane of a simulated fabric: one real proto::bgp::Speaker
// per switch, peering with every neighbouring switch over the simulated
// links, with FARE on or off.
//
// Model (docs/ARCHITECTURE.md, Simulator):
// - A session's TCP connection is a pair of connection ids; it opens in
//   one link delay (incoming side) and two (the initiator), fails at once
//   when the cable is down, and closes when either side closes it or when
//   the cable's loss of signal is detected.
// - Each message the speaker sends is one control packet carrying the real
//   encoded bytes; it shares the egress queue with data (never dropped by
//   drop-tail) and is lost if the link dies under it.
// - Each switch has a CPU: received messages wait in a FIFO and take
//   `update_processing` each; FIB updates take effect `fib_programming`
//   after the decision. Speaker timers run on the same clock.
// - Leaf i originates 10.(i / 256).(i % 256).0/24, which stands for its
//   hosts; a FibUpdate for it programs FIB destination i with the FARE
//   weights (bit/s) scaled to at most 65535, zero-weight paths left out.
// - A multi-homed host (Network::multihomed()) is FIB destination d, after
//   the leaves: each of its leaves originates 10.(d / 256).(d % 256).0/24,
//   and every speaker is configured with it as multi-homed to that many
//   leaves (draft-xu-idr-fare section 4.1: a leaf divides the path
//   bandwidth it receives by that number). A leaf whose cable to the host
//   is down (as detected) withdraws the prefix and programs BGP's route
//   to it; up again, its connected route and the origination return.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "proto/bgp/speaker.h"
#include "sim/control_tap.h"
#include "sim/network.h"

namespace arfabric::sim {

struct BgpSwitch {
  NodeIndex node = 0;
  std::uint32_t asn = 0;
  std::uint32_t router_id = 0;
  proto::fare::Role role = proto::fare::Role::leaf;
  bool leaf = false;  // originates its hosts' prefix (FIB id = leaf_id)
  proto::NodeId leaf_id = 0;
};

struct BgpControlConfig {
  bool fare = true;  // false: plain ECMP (equal weights)
  Time update_processing = us(200);
  Time fib_programming = ms(10);
  Time mrai{};
  Time failure_detection = us(10);
  std::uint16_t hold_time_s = 9;
  Time connect_retry = ms(100);
  Time idle_hold = ms(10);
};

struct BgpControlCounters {
  std::uint64_t messages = 0;  // control packets sent
  std::uint64_t bytes = 0;
  std::uint64_t fib_updates = 0;
  std::uint64_t sessions_up = 0, sessions_down = 0;
};

class BgpControl : public ControlHandler {
 public:
  // Errors: a switch whose speaker configuration is invalid (the message
  // names the switch and the field).
  static std::expected<std::unique_ptr<BgpControl>, NetworkError> create(
      Network& network, EventQueue& events, PacketPool& pool,
      const std::vector<BgpSwitch>& switches, const BgpControlConfig& config);

  void start(Time now);
  // Every BGP message sent from now on is shown to `tap` (nullptr: none),
  // with the sender's connection id (ids 2k-1 and 2k are the two
  // directions of one connection; 2k-1 is the side that connected).
  void set_tap(ControlTap* tap) { tap_ = tap; }
  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now) override;
  void on_control_dropped(const Packet& packet) override;
  // EventType::control events.
  void on_event(const Event& e);

  // The cable's loss of signal is detected `failure_detection` after
  // `now`; up again re-enables connections (sessions restart by
  // themselves). A multi-homed host's cable: its leaf withdraws the
  // host's prefix when the loss is detected, and uses BGP's route to the
  // host (through its other leaves) meanwhile; up again, the leaf's
  // connected route returns and it originates the prefix again, both
  // `failure_detection` after `now`.
  void cable_down(std::size_t cable, Time now);
  void cable_up(std::size_t cable, Time now);
  // Both ends learn the cable's new bandwidth (degradation).
  void cable_rate(std::size_t cable, BitsPerSecond rate, Time now);

  // BGP sessions by their ends: established, of all (a session between
  // two switches counts twice).
  struct Sessions {
    std::size_t established = 0, total = 0;
  };
  Sessions sessions() const;
  // sessions().established == total, stopping at the first that is not.
  bool all_established() const;
  // Something in flight: a control message on a link or in a CPU queue, a
  // connection being opened or closed, or a FIB update pending (timers do
  // not count).
  bool in_flight() const {
    return pending_work_ != 0 || payloads_.size() != free_payloads_.size();
  }
  // Some speaker holds changes back for its MRAI: they will go out when
  // its timer fires. Asked after every event once the workload is over
  // (quiet()), so the walk over the speakers is kept until one changes.
  bool held_back() const;
  // BGP has nothing left to do: nothing in flight, nothing held back.
  bool quiet() const { return !in_flight() && !held_back(); }
  // The route programmed at `node` toward leaf `leaf`: (port, weight).
  const std::vector<std::pair<proto::PortId, std::uint32_t>>* installed(
      NodeIndex node, proto::NodeId leaf) const;
  const BgpControlCounters& counters() const { return counters_; }
  Time last_fib_change() const { return last_fib_change_; }
  const proto::bgp::Speaker& speaker(NodeIndex node) const;

 private:
  enum class WorkKind : std::uint8_t {
    timer,
    bytes,
    connected,
    connect_failed,
    closed,
    fib,
    host_link,  // a multi-homed host's cable: connected[index], up or down
  };
  struct Work {
    WorkKind kind = WorkKind::timer;
    std::uint32_t sw = 0;  // index into switches_
    proto::bgp::PeerId peer = 0;
    proto::bgp::ConnectionId connection = 0;
    proto::bgp::Direction direction = proto::bgp::Direction::outgoing;
    Bytes bytes;
    proto::bgp::FibUpdate fib;
    std::uint32_t index = 0;  // host_link
    bool up = false;          // host_link
  };
  // One end of a simulated TCP connection, by connection id - 1.
  struct ConnectionEnd {
    std::uint32_t sw = 0;
    proto::bgp::PeerId peer = 0;
    proto::bgp::ConnectionId other = 0;
    std::size_t cable = 0;
    bool open = false;
  };
  struct Switch {
    BgpSwitch spec;
    std::unique_ptr<proto::bgp::Speaker> speaker;
    std::vector<NodeIndex> peer_node;
    std::vector<proto::PortId> peer_port;
    std::vector<std::size_t> peer_cable;
    std::vector<std::uint32_t> peer_switch;  // index into switches_
    Time cpu_busy_until{};
    PendingTimer timer;
    std::vector<std::vector<std::pair<proto::PortId, std::uint32_t>>>
        installed;  // by leaf id
    // The multi-homed hosts cabled to this switch. While the cable is up
    // (as detected) the switch originates the host's prefix and reaches
    // it over its connected route, which BGP never overwrites; while it
    // is down, BGP's route (through the host's other leaves) is used.
    struct Connected {
      proto::NodeId destination = 0;
      proto::PortId port = 0;
      std::size_t cable = 0;
      bool up = true;
    };
    std::vector<Connected> connected;
  };

  BgpControl(Network& network, EventQueue& events, PacketPool& pool,
             const BgpControlConfig& config)
      : network_(&network), events_(&events), pool_(&pool), config_(config) {}
  void schedule(Time at, Work work);
  // held_back()'s answer since the last pump() (every input a speaker
  // takes is followed by one); empty when a speaker may have changed.
  mutable std::optional<bool> held_back_;
  void pump(std::uint32_t sw, Time now);
  void arm_timer(std::uint32_t sw);
  void program(std::uint32_t sw, const proto::bgp::FibUpdate& update, Time now);
  void close_connection(proto::bgp::ConnectionId id, Time at);
  // Schedules host_link work for every switch end of `cable` that is a
  // multi-homed host's leaf.
  void host_cable(std::size_t cable, bool up, Time at);
  void on_host_link(std::uint32_t sw, std::uint32_t index, bool up, Time now);

  Network* network_;
  EventQueue* events_;
  PacketPool* pool_;
  BgpControlConfig config_;
  ControlTap* tap_ = nullptr;
  std::vector<Switch> switches_;
  std::vector<std::uint32_t> switch_of_node_;  // node -> index, or ~0
  std::vector<Work> work_;
  std::vector<std::uint32_t> free_work_;
  std::vector<Bytes> payloads_;
  std::vector<std::uint32_t> free_payloads_;
  std::vector<ConnectionEnd> connections_;
  std::vector<bool> cable_up_;
  BgpControlCounters counters_;
  Time last_fib_change_{};
  std::uint64_t pending_work_ = 0;  // scheduled work other than timers
};

}  // namespace arfabric::sim
