// A tap on the simulated control plane: every control packet a switch sends
// (BGP message, LSN frame, ARN notification) is shown to the tap with its
// real encoded bytes, e.g. to write the pcap of `arfabric sim --out`.
//
// The tap sees what left the switch's CPU (or its LSN/ARN hardware), at the
// time it was handed to the egress queue; whether it arrived is the
// network's business (a dead link still loses it).
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "common/units.h"
#include "proto/fib/forwarding_types.h"
#include "sim/packet.h"

namespace arfabric::sim {

struct ControlCapture {
  Time at{};
  NodeIndex node = 0;       // the sending switch
  proto::PortId port = 0;   // its egress port (1-based)
  NodeIndex neighbour = 0;  // the switch at the far end of the cable
  ControlProtocol protocol = ControlProtocol::bgp;
  // BGP: the simulated TCP connection (one id per direction; the two ids
  // of a connection are adjacent, 2k-1 and 2k); others: 0.
  std::uint32_t connection = 0;
  // BGP: one whole BGP message; LSN: an Ethernet frame without FCS; ARN:
  // an IPv4 packet (UDP transport) or an Ethernet frame without FCS (L2).
  ByteSpan bytes;
};

class ControlTap {
 public:
  virtual ~ControlTap() = default;
  virtual void on_control_sent(const ControlCapture& capture) = 0;
};

}  // namespace arfabric::sim
