// LSN origination, draft-camarillo-rtgwg-lsn-00 §3.2.2.
//
// A node that has Global Node IDs directly behind its ports (a spine: its
// leaves) tells every switch neighbour, per 256-device Dev-Range, which of
// them it reaches (Msg-type 0) and which it reaches without congestion at
// level N (Msg-types 1..3: bit 1 = "reachable and not congested at level N",
// i.e. reachable with level < N; bit 0 = unreachable or level >= N).
// Devices not attached ("transit" devices) have level 0 and are reachable
// unless Config::transit is set and the host reports otherwise
// (set_transit_reachable), as a node of a deeper fabric does when its own
// paths toward them are gone.
//
// Frames are kept pre-built, one per (Msg-type, Dev-Range), encoded once by
// wire::lsn::serialize; a port event patches the affected bits in place and
// queues the frame ("triggered"), the period queues them all ("periodic").
// So origination allocates nothing: pending() hands out views of those
// frames, each to be sent on every trusted port. drain() expands them into
// owning SendFrame records for hosts that prefer that.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <span>
#include <vector>

#include "common/bytes.h"
#include "common/units.h"
#include "proto/fib/forwarding_types.h"
#include "proto/lsn/lsn_config.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {

// One frame to transmit on every trusted port. `frame` views the
// originator's buffer: it stays valid (and current) until the originator is
// destroyed; its content may change on the next set_port_state /
// set_queue_depth / on_timer, which is what a late sender should send anyway.
struct PendingFrame {
  wire::lsn::MsgType msg_type = wire::lsn::MsgType::reachable;
  std::uint8_t dev_range = 0;
  ByteSpan frame;
};

// An owning "send `frame` on `port`" record.
struct SendFrame {
  PortId port = 0;
  Bytes frame;
  bool operator==(const SendFrame&) const = default;
};

struct OriginatorCounters {
  std::uint64_t triggered_frames = 0;  // queued by a port event
  std::uint64_t periodic_frames = 0;   // queued by the period
};

class Originator {
 public:
  // Errors: those of validate(config).
  static std::expected<Originator, ConfigError> create(const Config& config);

  // Records the link state of `port`. When the reachability of an attached
  // node changes, the affected frames are queued at once (triggered).
  // Returns whether any frame was queued. Errors: "port" not configured.
  std::expected<bool, ConfigError> set_port_state(PortId port, bool up,
                                                  Time now);
  // Records the egress queue depth of `port`; a change of its congestion
  // level (with hysteresis) triggers the Msg-type 1..3 frames it affects.
  // Returns whether any frame was queued. Errors: "port" not configured.
  std::expected<bool, ConfigError> set_queue_depth(PortId port,
                                                   std::uint64_t bytes,
                                                   Time now);

  // Config::transit: whether this node's forwarding reaches `node`, a
  // device not attached to it. A change patches the node's bit in every
  // Msg-type and queues those frames (triggered). Returns whether any frame
  // was queued. Errors: "node" beyond num_devices, or attached (its ports
  // decide); "transit" not configured.
  std::expected<bool, ConfigError> set_transit_reachable(NodeId node,
                                                         bool reachable,
                                                         Time now);

  // When on_timer() wants to run: Time() (at once) before the first
  // periodic origination, Time::max() when this node originates nothing.
  Time next_deadline() const { return next_; }
  // Queues the periodic frames if the deadline has passed.
  void on_timer(Time now);

  // Frames to send on each of trusted_ports(), oldest first, each at most
  // once however often it was queued.
  std::span<const PendingFrame> pending() const { return pending_; }
  std::span<const PortId> trusted_ports() const { return trusted_; }
  void clear_pending();
  // Appends one SendFrame per (pending frame, trusted port) and clears the
  // pending list. Allocates one Bytes per record.
  void drain(std::vector<SendFrame>& out);

  // The current pre-built frame (with FCS if configured).
  ByteSpan frame(wire::lsn::MsgType type, std::uint8_t dev_range) const;
  std::uint32_t ranges() const { return ranges_; }
  bool originates() const { return !node_ports_.empty() || config_.transit; }
  // Congestion level 0..3 of a port (0 for an unknown port).
  std::uint8_t congestion_level(PortId port) const;
  const OriginatorCounters& counters() const { return counters_; }

 private:
  struct PortState {
    bool up = true;
    std::uint8_t level = 0;
  };

  explicit Originator(const Config& config);
  std::expected<std::uint32_t, ConfigError> index_of(PortId port) const;
  // Recomputes the bits of every node behind port index `p`.
  bool refresh_port_nodes(std::uint32_t p);
  bool refresh_node(NodeId node);
  // Sets a node's bit in every Msg-type: Msg-type 0 `reachable`, Msg-type
  // N "reachable and level < N". Returns whether any bit changed.
  bool set_bits(NodeId node, bool reachable, std::uint8_t level);
  bool attached(NodeId node) const {
    return node_begin_[node] != node_begin_[node + 1];
  }
  bool patch(std::uint32_t type, NodeId node, bool bit);
  std::uint32_t slot(std::uint32_t type, std::uint32_t range) const {
    return type * ranges_ + range;
  }
  std::uint8_t* frame_at(std::uint32_t slot) {
    return frames_.data() + slot * frame_size_;
  }
  const std::uint8_t* frame_at(std::uint32_t slot) const {
    return frames_.data() + slot * frame_size_;
  }
  bool congestion_active(std::uint32_t type, std::uint32_t range) const;
  void queue(std::uint32_t slot);
  void finish();  // recomputes the FCS of frames patched since last time

  Config config_;
  std::uint32_t ranges_ = 0;
  std::size_t frame_size_ = 0;
  std::vector<std::int32_t> port_index_;  // PortId -> index or -1
  std::vector<PortState> ports_;
  std::vector<PortId> trusted_;
  // node -> attached port indexes, and port index -> nodes (CSR).
  std::vector<std::uint32_t> node_begin_, node_ports_;
  std::vector<std::uint32_t> port_begin_, port_nodes_;
  Bytes frames_;  // 4 * ranges_ frames of frame_size_ bytes
  std::array<std::uint64_t, 4> queued_{};  // bit per slot (<= 256 slots)
  std::array<std::uint64_t, 4> dirty_{};
  std::vector<std::uint32_t> linger_;  // per slot, Msg-types 1..3
  std::vector<PendingFrame> pending_;
  Time next_ = Time::max();
  OriginatorCounters counters_;
};

}  // namespace arfabric::proto::lsn
