#include "sim/loss_of_signal.h"

namespace arfabric::sim {

void LossOfSignal::cable_changed(std::size_t cable, bool up, Time now) {
  events_->push(now + delay_, EventType::port_state,
                static_cast<std::uint32_t>(cable), up ? 1 : 0);
}

void LossOfSignal::on_event(const Event& e) {
  const bool up = e.b != 0;
  // Each direction arrives on a port of the node it goes to.
  for (LinkIndex l : network_->cable_links(e.a)) {
    const Link::Config& c = network_->link(l).config();
    if (!network_->is_host(c.to)) detected(c.to, c.to_port, up, e.at);
  }
}

void LossOfSignal::detected(NodeIndex node, proto::PortId port, bool up,
                            Time now) {
  if (fast_failover_) network_->fib(node).set_port_up(port, up);
  for (PortObserver* o : observers_) o->on_port_state(node, port, up, now);
}

}  // namespace arfabric::sim
