// One node's LSN engine: origination (§3.2.2) and reception (§3.2.3, §6) of
// draft-camarillo-rtgwg-lsn-00 behind the sans-I/O engine API
// (on_frame / on_timer / next_deadline, outputs drained as records).
//
// The two halves share only the configuration: a spine both originates (for
// its leaves) and, in a deeper fabric, receives; a leaf usually only
// receives. The host:
//   - calls set_port_state / set_queue_depth on link and queue events and
//     on_timer at next_deadline();
//   - sends each of pending_frames() on every port of trusted_ports()
//     (or uses drain_send_frames() for owning per-port records), then
//     clear_pending_frames();
//   - applies veto_changes() / congestion_changes() to its Fib, then
//     clear_changes().
#pragma once

#include <expected>
#include <span>
#include <utility>
#include <vector>

#include "proto/lsn/lsn_config.h"
#include "proto/lsn/lsn_originator.h"
#include "proto/lsn/lsn_receiver.h"

namespace arfabric::proto::lsn {

class Engine {
 public:
  // Errors: those of validate(config).
  static std::expected<Engine, ConfigError> create(const Config& config);

  // See Originator. Errors: "port" not configured.
  std::expected<bool, ConfigError> set_port_state(PortId port, bool up,
                                                  Time now) {
    return originator_.set_port_state(port, up, now);
  }
  std::expected<bool, ConfigError> set_queue_depth(PortId port,
                                                   std::uint64_t bytes,
                                                   Time now) {
    return originator_.set_queue_depth(port, bytes, now);
  }
  std::expected<bool, ConfigError> set_transit_reachable(NodeId node,
                                                         bool reachable,
                                                         Time now) {
    return originator_.set_transit_reachable(node, reachable, now);
  }
  Time next_deadline() const { return originator_.next_deadline(); }
  void on_timer(Time now) { originator_.on_timer(now); }

  // See Receiver. Never fails; drops are counted.
  std::size_t on_frame(PortId port, ByteSpan frame, Time now) {
    return receiver_.on_frame(port, frame, now);
  }

  std::span<const PendingFrame> pending_frames() const {
    return originator_.pending();
  }
  std::span<const PortId> trusted_ports() const {
    return originator_.trusted_ports();
  }
  void clear_pending_frames() { originator_.clear_pending(); }
  void drain_send_frames(std::vector<SendFrame>& out) {
    originator_.drain(out);
  }

  const std::vector<VetoChange>& veto_changes() const {
    return receiver_.veto_changes();
  }
  const std::vector<CongestionChange>& congestion_changes() const {
    return receiver_.congestion_changes();
  }
  void clear_changes() { receiver_.clear_outputs(); }

  const Originator& originator() const { return originator_; }
  const Receiver& receiver() const { return receiver_; }

 private:
  Engine(Originator o, Receiver r)
      : originator_(std::move(o)), receiver_(std::move(r)) {}
  Originator originator_;
  Receiver receiver_;
};

}  // namespace arfabric::proto::lsn
