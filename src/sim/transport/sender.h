// The sending half of one transport flow, sans-I/O: the host NIC model asks
// next_packet() for what the window allows, hands back every ACK through
// on_ack(), and calls on_timer() at next_deadline().
//
// - Reliability with selective state: the sender keeps, per packet of its
//   send span, whether it is acked, in flight or queued for retransmission;
//   every ACK names the packet that triggered it (acked_seq) and carries
//   the cumulative point, so a lost ACK costs nothing.
// - Loss detection tolerant of per-packet spraying, after RACK (RFC 8985):
//   a packet is lost when a packet sent at least `reorder window` later and
//   at least `dupack_threshold` transmissions later has been delivered.
//   Only those packets are retransmitted. The RTO (RFC 6298, exponential
//   backoff) is the backstop, e.g. for a lost tail.
// - Congestion control: DCTCP (RFC 8257) in packets, the same window
//   driven by the echoed IBCS signal instead of ECN, or a fixed window.
//   At most one multiplicative decrease per window of data (RFC 3168
//   section 6.1.2, RFC 5681): ECN cuts by (1 - alpha/2), an IBCS signal
//   past its target by up to ibcs_max_decrease, loss halves.
// - RTT samples come from the send time the receiver echoes (as TCP
//   timestamps, RFC 7323), so retransmissions give unambiguous samples.
//
// State is sized when the flow is created: the send span is the flow's
// packet count rounded up to a power of two, capped at 2 x
// max_window_packets (new data is sent only within the span above the
// cumulative ACK); nothing allocates per packet.
#pragma once

#include <cstdint>
#include <optional>

#include "common/units.h"
#include "sim/packet.h"
#include "sim/transport/ring.h"
#include "sim/transport/transport_config.h"

namespace arfabric::sim::transport {

struct SenderCounters {
  std::uint64_t packets_sent = 0;     // first transmissions and retransmissions
  std::uint64_t retransmissions = 0;  // of which retransmissions
  std::uint64_t spurious_retransmissions = 0;  // original copy acked later
  std::uint64_t losses_detected = 0;           // by the RACK rule (not RTO)
  std::uint64_t timeouts = 0;                  // RTO expiries
  std::uint64_t acks = 0;
  std::uint64_t duplicate_acks = 0;     // acked_seq acked before
  std::uint64_t invalid_acks = 0;       // other flow, not an ACK, never sent
  std::uint64_t ecn_echoes = 0;         // ACKs with ECN echo
  std::uint64_t window_reductions = 0;  // ECN or loss cuts (not RTO)
  std::uint64_t bytes_acked = 0;
  std::uint64_t rtt_samples = 0;
  Time rtt_sum{};
  Time min_rtt = Time::max();

  // Adds `other`'s counts to these (min_rtt: the smaller of the two).
  void add(const SenderCounters& other);
};

// Aligned to a cache line, so that its six lines are exactly the ones
// prefetch() loads.
class alignas(64) Sender {
 public:
  // Precondition: validate(config) succeeded; packet_count(config, bytes)
  // < 2^32. An empty flow is complete at `now` and sends nothing. The
  // Sender keeps a reference to `config`, which must outlive it (every
  // flow of a run shares its Flows' one: a copy in each took 80 of a
  // Sender's bytes, a cache line more for each ACK to read).
  Sender(const TransportConfig& config, FlowId flow, std::uint64_t bytes,
         Time now);
  Sender(const TransportConfig&& config, FlowId flow, std::uint64_t bytes,
         Time now) = delete;

  // The next data packet the window allows, or nullopt (window full,
  // everything sent and waiting, or complete). Retransmissions first.
  std::optional<TransportHeader> next_packet(Time now);
  // An ACK from the receiver. Ignored (counted invalid) if it is not an
  // ACK of this flow or names a packet never sent.
  void on_ack(const TransportHeader& ack, Time now);
  // The retransmission timer; does nothing before next_deadline().
  void on_timer(Time now);
  Time next_deadline() const { return rto_deadline_; }

  bool complete() const { return snd_una_ == packets_; }
  Time completion_time() const { return completed_at_; }  // max() until then

  FlowId flow() const { return flow_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint32_t packets() const { return packets_; }
  const SenderCounters& counters() const { return counters_; }
  double cwnd() const { return cwnd_; }  // packets
  double ssthresh() const { return ssthresh_; }
  double alpha() const { return alpha_; }
  std::uint32_t in_flight() const { return in_flight_; }
  std::uint32_t cumulative_ack() const { return snd_una_; }
  Time srtt() const { return srtt_; }
  Time rto() const;  // with backoff
  Time reorder_window() const;
  Time avg_rtt() const;
  // Starts loading every line of the object, all of which on_ack() and
  // the next_packet() after it read (the simulator's look-ahead, before
  // an ACK arrives).
  void prefetch() const {
    const auto self = reinterpret_cast<std::uintptr_t>(this);
    for (std::uintptr_t line = self & ~std::uintptr_t{63};
         line < self + sizeof(Sender); line += 64) {
      __builtin_prefetch(reinterpret_cast<const void*>(line));
    }
  }
  // The last IBCS signal the receiver echoed (nullopt until one is).
  std::optional<std::uint32_t> signal_echo() const {
    return signal_echo_valid_ ? std::optional(signal_echo_) : std::nullopt;
  }

 private:
  struct Slot {
    Time sent_at{};        // of the latest transmission
    std::uint64_t tx = 0;  // transmission number of the latest one
    bool acked = false;
    bool in_flight = false;
    bool queued = false;  // declared lost, waiting in retransmit_
  };
  struct Sent {  // one transmission, in send order
    std::uint64_t tx = 0;
    std::uint32_t seq = 0;
  };

  Slot& slot(std::uint32_t seq) { return slots_[seq & span_mask_]; }
  std::uint32_t payload(std::uint32_t seq) const;
  bool live(const Sent& s) const;
  bool acknowledge(std::uint32_t seq);
  void mark_lost(std::uint32_t seq);
  void detect_losses();
  void rtt_sample(Time rtt);
  void dctcp_on_ack(std::uint32_t newly_acked, bool marked, Time sent_at,
                    Time now);
  void ibcs_on_ack(std::uint32_t newly_acked, bool own_new,
                   const TransportHeader& ack, Time now);
  // How far `signal` is past the target, relative to the larger of the
  // two: 0 (not congested) up to 1.
  double ibcs_excess(std::uint32_t signal) const;
  // RFC 5681 section 3.1 growth by `newly_acked` packets.
  void grow(std::uint32_t newly_acked);
  void cut(double factor, Time now);

  // The fields are ordered so that the 8-byte ones pack without holes:
  // at 4,096 hosts a flow's Sender is read from memory on most ACKs, and
  // every line of it counts (docs/PERFORMANCE.md).
  const TransportConfig* config_;  // the caller's (see the constructor)
  std::uint64_t bytes_;
  FlowId flow_;
  std::uint32_t packets_;
  std::uint32_t span_mask_ = 0;
  std::uint32_t span_ = 0;

  std::uint32_t snd_una_ = 0;   // every packet below is acked
  std::uint32_t next_seq_ = 0;  // first never-sent packet
  std::uint32_t in_flight_ = 0;
  std::uint32_t backoff_ = 0;  // RTO doublings (RFC 6298)
  std::uint64_t next_tx_ = 0;

  // By seq & span_mask_; a slot is set when its seq is first sent
  // (next_packet), and only sent seqs are read.
  UninitializedArray<Slot> slots_;
  Ring<Sent> sent_order_;           // transmissions, oldest first
  Ring<std::uint32_t> retransmit_;  // seqs declared lost

  // RACK: the most recently sent delivered transmission.
  Time rack_sent_at_{};
  std::uint64_t rack_tx_ = 0;
  bool rack_valid_ = false;

  bool can_cut_ = true;  // one reduction per window of data
  bool signal_echo_valid_ = false;
  std::uint32_t signal_echo_ = 0;

  // RTT / RTO (RFC 6298).
  Time srtt_{};
  Time rttvar_{};
  Time base_rto_;
  Time rto_deadline_ = Time::max();

  // Congestion control.
  double cwnd_;
  double ssthresh_;
  double alpha_;
  Time round_start_{};  // DCTCP observation window start
  std::uint64_t round_acked_ = 0;
  std::uint64_t round_marked_ = 0;
  Time last_cut_at_{};

  Time completed_at_ = Time::max();
  SenderCounters counters_;
};
static_assert(sizeof(Sender) == 6 * 64, "six lines (see the fields)");

}  // namespace arfabric::sim::transport
