#include "sim/notification.h"

namespace arfabric::sim {

std::uint32_t NotificationSender::send(NodeIndex node, proto::PortId port,
                                       ByteSpan bytes, Time now) const {
  const auto& links = network->out_links(node);
  if (port == 0 || port > links.size()) return 0;
  const Link& link = network->link(links[port - 1]);
  if (!link.up()) return 0;
  const PacketIndex i = pool->allocate();
  Packet& p = (*pool)[i];
  p.kind = PacketKind::control;
  p.protocol = protocol;
  p.source = node;
  p.destination = link.config().to;
  p.control = payloads->store(bytes);
  p.wire_bytes = static_cast<std::uint32_t>(bytes.size()) + overhead_bytes;
  const std::uint32_t wire_bytes = p.wire_bytes;
  if (tap != nullptr) {
    tap->on_control_sent({now, node, port, p.destination, protocol, 0, bytes});
  }
  network->send_control(node, port, i, now);
  return wire_bytes;
}

}  // namespace arfabric::sim
