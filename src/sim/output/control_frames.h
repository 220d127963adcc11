// Control packets as capture frames: a ControlTap that turns each BGP
// message, LSN frame and ARN message a simulated switch sends into an
// Ethernet frame (without FCS) and hands it, with its simulated time, to a
// sink -- the pcap writer of `arfabric sim --out` (src/cli/sim_out.h).
//
// Addressing (docs/OUTPUT.md, "control-<mode>.pcap"): node n has MAC
// 02:00:0a:ff:HH:LL and IPv4 address 10.255.HH.LL, HH.LL = n / 256, n % 256
// (the BGP NEXT_HOP the simulated speakers advertise).
// - BGP: each message is one synthetic IPv4/TCP segment (PSH+ACK). The side
//   that connected (connection id 2k-1) uses port 49152 + (k - 1) % 16384,
//   the side that accepted (id 2k) port 179. Sequence numbers start at 1
//   in each direction and advance by the bytes sent; the ACK field is the
//   other direction's next sequence number, so tshark follows each
//   connection as a TCP stream and decodes every message as BGP.
// - LSN: already an Ethernet frame; written as is.
// - ARN: an IPv4 packet (UDP transport) gets an Ethernet header from the
//   sender to the neighbour; an Ethernet frame (L2 transport) is written as
//   is. The two are told apart by a valid IPv4 header whose total length
//   is the whole message.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/bytes.h"
#include "sim/control_tap.h"

namespace arfabric::sim::output {

class ControlFrameTap : public ControlTap {
 public:
  using Sink = std::function<void(Time at, ByteSpan frame)>;
  explicit ControlFrameTap(Sink sink) : sink_(std::move(sink)) {}

  void on_control_sent(const ControlCapture& capture) override;

  // The frame for `capture`, advancing the BGP connection's sequence
  // number. Errors: none that can happen with the simulator's messages; a
  // BGP message too large for one IPv4 packet gives an empty frame (counted
  // in unframed(), not passed to the sink).
  Bytes frame(const ControlCapture& capture);

  std::uint64_t frames() const { return frames_; }
  std::uint64_t unframed() const { return unframed_; }

 private:
  Sink sink_;
  std::vector<std::uint32_t> next_sequence_;  // by connection id - 1
  std::uint64_t frames_ = 0, unframed_ = 0;
};

}  // namespace arfabric::sim::output
