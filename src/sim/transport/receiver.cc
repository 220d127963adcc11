#include "sim/transport/receiver.h"

namespace arfabric::sim::transport {

Receiver::Receiver(const TransportConfig& config, FlowId flow,
                   std::uint64_t bytes)
    : flow_(flow),
      packets_(static_cast<std::uint32_t>(packet_count(config, bytes))),
      bitmap_((static_cast<std::size_t>(packets_) + 63) / 64, 0) {
  if (packets_ == 0) completed_at_ = Time{};
}

TransportHeader Receiver::ack_for(FlowId flow, const TransportHeader& data,
                                  std::uint32_t cumulative) {
  TransportHeader ack;
  ack.flow = flow;
  ack.is_ack = true;
  ack.acked_seq = data.seq;
  ack.ecn_capable = data.ecn_capable;
  ack.ecn_echo = data.ecn_ce;
  ack.signal_echo_valid = data.signal_valid;
  ack.signal_echo = data.signal;
  ack.sent_at = data.sent_at;
  ack.cumulative_ack = cumulative;
  return ack;
}

TransportHeader Receiver::ack_when_complete(FlowId flow, std::uint32_t packets,
                                            const TransportHeader& data) {
  TransportHeader ack = ack_for(flow, data, packets);
  if (!valid(flow, packets, data)) ack.acked_seq = kNoSeq;
  return ack;
}

TransportHeader Receiver::on_data(const TransportHeader& data, Time now) {
  ++counters_.packets;
  if (!valid(flow_, packets_, data)) {
    ++counters_.invalid;
    TransportHeader ack = ack_for(flow_, data, cumulative_);
    ack.acked_seq = kNoSeq;
    return ack;
  }
  if (data.ecn_ce) ++counters_.ecn_marked;
  if (received(data.seq)) {
    ++counters_.duplicates;
  } else {
    bitmap_[data.seq >> 6] |= std::uint64_t{1} << (data.seq & 63);
    bytes_delivered_ += data.payload_bytes;
    if (data.seq != cumulative_) {
      ++counters_.out_of_order;
    } else {
      while (cumulative_ < packets_ && received(cumulative_)) ++cumulative_;
      if (complete()) {
        completed_at_ = now;
        // received() needs no bit from now on. (Assigning {} would keep
        // the buffer.)
        std::vector<std::uint64_t>().swap(bitmap_);
      }
    }
  }
  return ack_for(flow_, data, cumulative_);
}

}  // namespace arfabric::sim::transport
