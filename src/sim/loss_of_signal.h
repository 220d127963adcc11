// Loss-of-signal detection: each end of a cable sees the cable go down (or
// come back) `delay` after it happened, and the switch hardware reacts at
// once, without the CPU:
//   - fast failover: the port leaves every next-hop group of the switch's
//     FIB (proto::fib::Fib::set_port_up), in every mode -- what any
//     switch ASIC does for its own ports;
//   - the observers (LSN origination, ARN detection) learn the port state.
// BGP's reaction to the same detection (closing the sessions on the cable)
// is BgpControl's, with the same delay.
#pragma once

#include <cstddef>
#include <vector>

#include "sim/network.h"

namespace arfabric::sim {

class PortObserver {
 public:
  virtual ~PortObserver() = default;
  // Switch `node` detected that its port `port` went down / came up.
  virtual void on_port_state(NodeIndex node, proto::PortId port, bool up,
                             Time now) = 0;
};

class LossOfSignal {
 public:
  LossOfSignal(Network& network, EventQueue& events, Time delay,
               bool fast_failover)
      : network_(&network),
        events_(&events),
        delay_(delay),
        fast_failover_(fast_failover) {}

  void add_observer(PortObserver& observer) { observers_.push_back(&observer); }
  // The cable went down or up at `now`: both ends detect it `delay` later.
  void cable_changed(std::size_t cable, bool up, Time now);
  // EventType::port_state events.
  void on_event(const Event& e);

 private:
  void detected(NodeIndex node, proto::PortId port, bool up, Time now);

  Network* network_;
  EventQueue* events_;
  Time delay_;
  bool fast_failover_;
  std::vector<PortObserver*> observers_;
};

}  // namespace arfabric::sim
