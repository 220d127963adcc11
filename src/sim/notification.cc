#include "sim/notification.h"

namespace arfabric::sim {

NotificationPlane::NotificationPlane(Network& network, EventQueue& events,
                                     PacketPool& pool, EventType event_type,
                                     ControlProtocol protocol,
                                     std::uint32_t overhead_bytes,
                                     Time processing)
    : network_(&network),
      events_(&events),
      pool_(&pool),
      event_type_(event_type),
      protocol_(protocol),
      overhead_bytes_(overhead_bytes),
      processing_(processing),
      index_(network.node_count(), kNotSwitch) {}

std::uint32_t NotificationPlane::add_switch(NodeIndex node) {
  index_[node] = switches_;
  return switches_++;
}

std::uint32_t NotificationPlane::send(NodeIndex node, proto::PortId port,
                                      ByteSpan bytes, Time now) {
  const auto& links = network_->out_links(node);
  if (port == 0 || port > links.size()) return 0;
  const Link& link = network_->link(links[port - 1]);
  if (!link.up()) return 0;
  const PacketIndex i = pool_->allocate();
  Packet& p = (*pool_)[i];
  p.kind = PacketKind::control;
  p.protocol = protocol_;
  p.source = node;
  p.destination = link.config().to;
  p.control = payloads_.store(bytes);
  p.wire_bytes = static_cast<std::uint32_t>(bytes.size()) + overhead_bytes_;
  const std::uint32_t wire_bytes = p.wire_bytes;
  if (tap_ != nullptr) {
    tap_->on_control_sent(
        {now, node, port, p.destination, protocol_, 0, bytes});
  }
  network_->send_control(node, port, i, now);
  return wire_bytes;
}

void NotificationPlane::on_control(NodeIndex node, proto::PortId port,
                                   PacketIndex packet, Time now) {
  const std::uint32_t slot = (*pool_)[packet].control;
  pool_->release(packet);
  if (index_[node] == kNotSwitch) {  // cannot happen: only switches send
    payloads_.release(slot);
    return;
  }
  events_->push(now + processing_, event_type_, slot, port, index_[node]);
}

void NotificationPlane::on_control_dropped(const Packet& packet) {
  payloads_.release(packet.control);
}

void NotificationPlane::arm(std::uint32_t index, PendingTimer& timer,
                            Time deadline) {
  if (timer.arm(deadline)) events_->push(deadline, event_type_, index, kTimer);
}

void NotificationPlane::sample_at(std::uint32_t index, Time at) {
  events_->push(at, event_type_, index, kSample);
}

}  // namespace arfabric::sim
