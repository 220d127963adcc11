// The receiving half of one transport flow, sans-I/O: every data packet is
// answered by one ACK carrying the cumulative point, the packet that
// triggered it (a one-packet selective ACK), the ECN echo of that packet
// (per-packet echo, as RFC 8257 section 3.2 obtains with immediate ACKs),
// its send time (so the sender samples the RTT unambiguously, RFC 7323
// style) and the IBCS signal it arrived with (the IBCS draft delivers the
// path's bottleneck metric to the end host; the echo closes the loop to
// the sender's congestion controller).
//
// The receive bitmap is one bit per packet of the flow, allocated when the
// flow is created and freed when the last packet arrives (every later one
// is a duplicate); on_data never allocates. A complete receiver's ACKs
// depend on the data packet alone (ack_when_complete).
#pragma once

#include <cstdint>
#include <vector>

#include "common/units.h"
#include "sim/packet.h"
#include "sim/transport/transport_config.h"

namespace arfabric::sim::transport {

inline constexpr std::uint32_t kNoSeq = 0xffffffff;

struct ReceiverCounters {
  std::uint64_t packets = 0;       // data packets received, all kinds
  std::uint64_t duplicates = 0;    // already received (counted once)
  std::uint64_t out_of_order = 0;  // new, but above a hole
  std::uint64_t invalid = 0;       // other flow, an ACK, or seq past the end
  std::uint64_t ecn_marked = 0;    // arrived with CE
};

// Aligned to a cache line, so that it spans two lines, not three: a data
// packet's arrival reads it from memory at 4,096 hosts.
class alignas(64) Receiver {
 public:
  // Precondition: validate(config) succeeded. An empty flow is complete
  // from the start (completion time zero).
  Receiver(const TransportConfig& config, FlowId flow, std::uint64_t bytes);

  // Accepts a data packet in any order and returns the ACK to send. An
  // invalid packet (counted) changes nothing; its ACK only repeats the
  // cumulative point, with acked_seq = kNoSeq, which the sender ignores.
  TransportHeader on_data(const TransportHeader& data, Time now);
  // The ACK that on_data returns for `data` once a receiver of `flow`, a
  // flow of `packets` packets, is complete (every packet is then a
  // duplicate or invalid), without the receiver: Flows frees a flow's
  // receiver when the flow completes, and still answers late copies.
  static TransportHeader ack_when_complete(FlowId flow, std::uint32_t packets,
                                           const TransportHeader& data);

  bool complete() const { return cumulative_ == packets_; }
  Time completion_time() const { return completed_at_; }  // max() until then
  std::uint64_t bytes_delivered() const { return bytes_delivered_; }
  std::uint32_t cumulative_ack() const { return cumulative_; }
  const ReceiverCounters& counters() const { return counters_; }

 private:
  // A data packet of `flow` within its `packets` packets.
  static bool valid(FlowId flow, std::uint32_t packets,
                    const TransportHeader& data) {
    return data.flow == flow && !data.is_ack && data.seq < packets;
  }
  // An ACK for `data` with the echoes of its header and `cumulative`.
  static TransportHeader ack_for(FlowId flow, const TransportHeader& data,
                                 std::uint32_t cumulative);
  bool received(std::uint32_t seq) const {
    return seq < cumulative_ || ((bitmap_[seq >> 6] >> (seq & 63)) & 1);
  }

  FlowId flow_;
  std::uint32_t packets_;
  std::vector<std::uint64_t> bitmap_;
  std::uint32_t cumulative_ = 0;
  std::uint64_t bytes_delivered_ = 0;
  Time completed_at_ = Time::max();
  ReceiverCounters counters_;
};

}  // namespace arfabric::sim::transport
