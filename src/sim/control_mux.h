// Hands each control packet to the control plane it belongs to: the
// network has one ControlHandler, a fabric runs up to three (BGP on the
// switch CPU, LSN and ARN in the switch hardware), and a packet says which
// by Packet::protocol.
#pragma once

#include <array>
#include <cstddef>

#include "sim/network.h"

namespace arfabric::sim {

class ControlMux : public ControlHandler {
 public:
  // `handler` may be null: packets of that protocol are then released
  // unread (a mode without it never sends them).
  void set(ControlProtocol protocol, ControlHandler* handler) {
    handlers_[static_cast<std::size_t>(protocol)] = handler;
  }
  void set_pool(PacketPool& pool) { pool_ = &pool; }

  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now) override {
    ControlHandler* h = handler((*pool_)[packet].protocol);
    if (h != nullptr) {
      h->on_control(node, port, packet, now);
    } else {
      pool_->release(packet);
    }
  }
  void on_control_dropped(const Packet& packet) override {
    if (ControlHandler* h = handler(packet.protocol)) {
      h->on_control_dropped(packet);
    }
  }

 private:
  ControlHandler* handler(ControlProtocol p) const {
    return handlers_[static_cast<std::size_t>(p)];
  }
  std::array<ControlHandler*, 3> handlers_{};
  PacketPool* pool_ = nullptr;
};

}  // namespace arfabric::sim
