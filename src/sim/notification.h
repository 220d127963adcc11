// What LsnControl and ArnControl share: the plumbing of a hardware
// notification plane, one engine per switch.
//
// - Switches are numbered 0, 1, ... in the order they are added; hosts
//   have no number (kNotSwitch).
// - A notification (an LSN frame, an ARN message) travels as a control
//   packet carrying its encoded bytes, kept in a PayloadSlab until it is
//   processed or lost.
// - A received one is processed `processing` after its arrival (a
//   pipelined latency: notifications do not wait for each other), as an
//   event of the plane's own EventType. Its packet is freed on arrival,
//   as a BGP message's is: from then on it counts as delivered and no
//   longer in flight, even when the run ends before its processing.
// - The plane's events say what they are by `b`: kTimer (a switch's
//   engine timer, a = switch), kSample (a switch's periodic sampling, a =
//   switch) or a port, 1-based (a received notification: a = its bytes'
//   slot, b = the port it arrived on, c = the switch's number).
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "sim/control_tap.h"
#include "sim/event_queue.h"
#include "sim/network.h"
#include "sim/payload_slab.h"

namespace arfabric::sim {

class NotificationPlane {
 public:
  static constexpr std::uint32_t kNotSwitch = 0xffffffff;
  static constexpr std::uint32_t kTimer = 0;
  static constexpr std::uint32_t kSample = 0x10000;  // above any port

  // `overhead_bytes`: bytes on the wire besides the encoded ones (headers
  // the encoding does not include, preamble, inter-frame gap).
  NotificationPlane(Network& network, EventQueue& events, PacketPool& pool,
                    EventType event_type, ControlProtocol protocol,
                    std::uint32_t overhead_bytes, Time processing);
  NotificationPlane(const NotificationPlane&) = delete;
  NotificationPlane& operator=(const NotificationPlane&) = delete;

  // Numbers switch `node` next; returns its number.
  std::uint32_t add_switch(NodeIndex node);
  // `node`'s number, or kNotSwitch.
  std::uint32_t switch_index(NodeIndex node) const { return index_[node]; }
  // Shown every packet sent from now on (null: none).
  void set_tap(ControlTap* tap) { tap_ = tap; }

  // Sends `bytes` from switch `node` out of `port` (1-based). Returns the
  // packet's size on the wire, or 0 (nothing sent) when the port does not
  // exist or its link is down (the packet would only be lost).
  std::uint32_t send(NodeIndex node, proto::PortId port, ByteSpan bytes,
                     Time now);

  // ControlHandler's two calls: a notification arrived at `node` on
  // `port` (processed `processing` later), or was lost on the way.
  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now);
  void on_control_dropped(const Packet& packet);

  // For a received notification's event: calls handle(switch number,
  // arrival port, its bytes), then frees its bytes, and returns the switch
  // number. `handle` must not send: the bytes live in the slab that send()
  // grows.
  template <typename Handle>
  std::uint32_t deliver(const Event& e, Handle handle) {
    const std::uint32_t slot = e.a, index = e.c;
    handle(index, static_cast<proto::PortId>(e.b), payloads_.at(slot));
    payloads_.release(slot);
    return index;
  }

  // Pushes switch `index`'s timer event for `deadline` when it is earlier
  // than the one pending (PendingTimer).
  void arm(std::uint32_t index, PendingTimer& timer, Time deadline);
  // Pushes switch `index`'s sampling event for `at`.
  void sample_at(std::uint32_t index, Time at);

 private:
  Network* network_;
  EventQueue* events_;
  PacketPool* pool_;
  EventType event_type_;
  ControlProtocol protocol_;
  std::uint32_t overhead_bytes_;
  Time processing_;
  ControlTap* tap_ = nullptr;
  PayloadSlab payloads_;
  std::vector<std::uint32_t> index_;  // by node: its number, or kNotSwitch
  std::uint32_t switches_ = 0;
};

}  // namespace arfabric::sim
