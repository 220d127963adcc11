#include "sim/transport/sender.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>

namespace arfabric::sim::transport {

namespace {
constexpr double kMinWindow = 1.0;
constexpr double kAlphaFloor = 1.0 / (1 << 20);

std::uint32_t pow2_at_least(std::uint64_t v) {
  return static_cast<std::uint32_t>(
      std::bit_ceil(std::max<std::uint64_t>(v, 1)));
}
}  // namespace

void SenderCounters::add(const SenderCounters& other) {
  packets_sent += other.packets_sent;
  retransmissions += other.retransmissions;
  spurious_retransmissions += other.spurious_retransmissions;
  losses_detected += other.losses_detected;
  timeouts += other.timeouts;
  acks += other.acks;
  duplicate_acks += other.duplicate_acks;
  invalid_acks += other.invalid_acks;
  ecn_echoes += other.ecn_echoes;
  window_reductions += other.window_reductions;
  bytes_acked += other.bytes_acked;
  rtt_samples += other.rtt_samples;
  rtt_sum = rtt_sum + other.rtt_sum;
  min_rtt = std::min(min_rtt, other.min_rtt);
}

Sender::Sender(const TransportConfig& config, FlowId flow, std::uint64_t bytes,
               Time now)
    : config_(&config),
      bytes_(bytes),
      flow_(flow),
      packets_(static_cast<std::uint32_t>(packet_count(config, bytes))),
      base_rto_(config.initial_rto),
      cwnd_(config.initial_window_packets),
      ssthresh_(config.max_window_packets),
      alpha_(config.dctcp_initial_alpha),
      round_start_(now) {
  assert(packet_count(config, bytes) < (std::uint64_t{1} << 32));
  span_ = std::min(pow2_at_least(packets_),
                   pow2_at_least(2ull * config.max_window_packets));
  span_mask_ = span_ - 1;
  slots_ = UninitializedArray<Slot>(span_);
  // Live transmissions never exceed the span (one per unacked packet);
  // twice that leaves room between compactions of stale entries.
  sent_order_.reset(2ull * span_);
  retransmit_.reset(2ull * span_);
  if (packets_ == 0) completed_at_ = now;
}

std::uint32_t Sender::payload(std::uint32_t seq) const {
  if (seq + 1 < packets_) return config_->mss_bytes;
  return static_cast<std::uint32_t>(bytes_ - std::uint64_t{config_->mss_bytes} *
                                                 (packets_ - 1));
}

bool Sender::live(const Sent& s) const {
  if (s.seq < snd_una_) return false;
  const Slot& sl = slots_[s.seq & span_mask_];
  return !sl.acked && sl.in_flight && sl.tx == s.tx;
}

Time Sender::rto() const {
  Time r = base_rto_;
  for (std::uint32_t i = 0; i < backoff_ && r < config_->max_rto; ++i)
    r = r * 2;
  return std::min(r, config_->max_rto);
}

Time Sender::reorder_window() const {
  if (counters_.rtt_samples == 0) return config_->reorder_window;
  return std::max(config_->reorder_window, ps(counters_.min_rtt.ps() / 4));
}

Time Sender::avg_rtt() const {
  if (counters_.rtt_samples == 0) return Time{};
  return ps(counters_.rtt_sum.ps() /
            static_cast<std::int64_t>(counters_.rtt_samples));
}

std::optional<TransportHeader> Sender::next_packet(Time now) {
  if (complete()) return std::nullopt;
  if (in_flight_ >= static_cast<std::uint32_t>(cwnd_)) return std::nullopt;
  std::uint32_t seq = 0;
  bool retransmission = false;
  for (;;) {
    if (!retransmit_.empty()) {
      seq = retransmit_.front();
      retransmit_.pop_front();
      if (seq < snd_una_) continue;
      Slot& s = slot(seq);
      if (s.acked || !s.queued) continue;
      retransmission = true;
      break;
    }
    if (next_seq_ < packets_ && next_seq_ - snd_una_ < span_) {
      seq = next_seq_++;
      slot(seq) = Slot{};
      break;
    }
    return std::nullopt;
  }
  Slot& s = slot(seq);
  s.sent_at = now;
  s.tx = next_tx_++;
  s.in_flight = true;
  s.queued = false;
  if (sent_order_.full())
    sent_order_.compact([this](const Sent& e) { return live(e); });
  sent_order_.push_back(Sent{s.tx, seq});
  ++in_flight_;
  if (rto_deadline_ == Time::max()) rto_deadline_ = now + rto();
  ++counters_.packets_sent;
  if (retransmission) ++counters_.retransmissions;

  TransportHeader h;
  h.flow = flow_;
  h.seq = seq;
  h.payload_bytes = payload(seq);
  h.retransmission = retransmission;
  h.ecn_capable = config_->cc == CongestionControl::dctcp;
  h.sent_at = now;
  return h;
}

bool Sender::acknowledge(std::uint32_t seq) {
  Slot& s = slot(seq);
  if (s.acked) return false;
  s.acked = true;
  if (s.in_flight) {
    s.in_flight = false;
    --in_flight_;
  }
  counters_.bytes_acked += payload(seq);
  return true;
}

void Sender::mark_lost(std::uint32_t seq) {
  Slot& s = slot(seq);
  s.in_flight = false;
  --in_flight_;
  if (s.queued) return;
  s.queued = true;
  if (retransmit_.full()) {
    retransmit_.compact([this](std::uint32_t q) {
      if (q < snd_una_) return false;
      const Slot& qs = slots_[q & span_mask_];
      return !qs.acked && qs.queued;
    });
  }
  retransmit_.push_back(seq);
}

void Sender::rtt_sample(Time rtt) {
  // RFC 6298 section 2 (alpha = 1/8, beta = 1/4, G = 0).
  if (counters_.rtt_samples == 0) {
    srtt_ = rtt;
    rttvar_ = ps(rtt.ps() / 2);
  } else {
    const std::int64_t err = std::abs(srtt_.ps() - rtt.ps());
    rttvar_ = ps((3 * rttvar_.ps() + err) / 4);
    srtt_ = ps((7 * srtt_.ps() + rtt.ps()) / 8);
  }
  base_rto_ =
      std::clamp(srtt_ + rttvar_ * 4, config_->min_rto, config_->max_rto);
  ++counters_.rtt_samples;
  counters_.rtt_sum += rtt;
  counters_.min_rtt = std::min(counters_.min_rtt, rtt);
}

void Sender::detect_losses() {
  if (!rack_valid_) return;
  const Time window = reorder_window();
  while (!sent_order_.empty()) {
    const Sent e = sent_order_.front();
    if (!live(e)) {
      sent_order_.pop_front();
      continue;
    }
    // Entries are in send order: once one is too recent, all later are.
    const Slot& s = slots_[e.seq & span_mask_];
    if (s.sent_at + window > rack_sent_at_ ||
        e.tx + config_->dupack_threshold > rack_tx_) {
      break;
    }
    sent_order_.pop_front();
    mark_lost(e.seq);
    ++counters_.losses_detected;
  }
}

void Sender::cut(double factor, Time now) {
  cwnd_ = std::max(kMinWindow, cwnd_ * factor);
  ssthresh_ = cwnd_;
  can_cut_ = false;
  last_cut_at_ = now;
  ++counters_.window_reductions;
}

void Sender::dctcp_on_ack(std::uint32_t newly_acked, bool marked, Time sent_at,
                          Time now) {
  // RFC 8257 section 3.3, in packets: count acked and marked packets over
  // one window of data; the window ends when a packet sent after it began
  // is acked, then alpha = (1 - g) alpha + g F.
  round_acked_ += newly_acked;
  if (marked) ++round_marked_;
  if (sent_at >= round_start_ && round_acked_ > 0) {
    const double f =
        static_cast<double>(round_marked_) / static_cast<double>(round_acked_);
    alpha_ = (1.0 - config_->dctcp_g) * alpha_ + config_->dctcp_g * f;
    // Without marks alpha decays geometrically into denormals, whose
    // arithmetic is ~100x slower; Linux keeps alpha in 1/1024 units.
    if (alpha_ < kAlphaFloor) alpha_ = 0.0;
    round_acked_ = round_marked_ = 0;
    round_start_ = now;
  }
  // RFC 8257 section 3.4 / RFC 3168 section 6.1.2: cut once per window.
  if (marked) {
    if (can_cut_) cut(1.0 - alpha_ / 2.0, now);
    return;
  }
  grow(newly_acked);
}

double Sender::ibcs_excess(std::uint32_t signal) const {
  const double target = config_->ibcs_target;
  const double value = signal;
  if (config_->ibcs_max_signal) {
    return value > target ? (value - target) / value : 0.0;
  }
  return value < target ? (target - value) / target : 0.0;
}

void Sender::ibcs_on_ack(std::uint32_t newly_acked, bool own_new,
                         const TransportHeader& ack, Time now) {
  // The echo is the bottleneck value the acked packet met on its way
  // (IBCS section 6.1, compare-and-replace). Past the target: cut in
  // proportion to the excess (as Swift does with delay), once per window
  // like DCTCP's ECN cut.
  if (own_new && ack.signal_echo_valid) {
    const double excess = ibcs_excess(ack.signal_echo);
    if (excess > 0.0) {
      if (can_cut_) {
        cut(std::max(1.0 - config_->ibcs_beta * excess,
                     1.0 - config_->ibcs_max_decrease),
            now);
      }
      return;
    }
  }
  grow(newly_acked);
}

void Sender::grow(std::uint32_t newly_acked) {
  if (!can_cut_ || newly_acked == 0) return;  // no growth in CWR/recovery
  // RFC 5681 section 3.1: slow start below ssthresh, else 1 MSS per RTT.
  if (cwnd_ < ssthresh_) {
    cwnd_ += newly_acked;
  } else {
    cwnd_ += static_cast<double>(newly_acked) / cwnd_;
  }
  cwnd_ = std::min(cwnd_, static_cast<double>(config_->max_window_packets));
}

void Sender::on_ack(const TransportHeader& ack, Time now) {
  if (ack.flow != flow_ || !ack.is_ack || ack.acked_seq >= next_seq_ ||
      ack.cumulative_ack > next_seq_ || ack.sent_at > now) {
    ++counters_.invalid_acks;
    return;
  }
  ++counters_.acks;
  if (ack.signal_echo_valid) {
    signal_echo_valid_ = true;
    signal_echo_ = ack.signal_echo;
  }
  rtt_sample(now - ack.sent_at);
  if (ack.sent_at >= last_cut_at_) can_cut_ = true;

  std::uint32_t newly = 0;
  bool own_new = false;
  if (ack.acked_seq >= snd_una_) {
    Slot& s = slot(ack.acked_seq);
    // The ACK's echoed send time tells which copy arrived; the RACK count
    // rule needs that copy's transmission number (unknown for an older one).
    if (s.sent_at == ack.sent_at) {
      rack_tx_ = std::max(rack_tx_, s.tx);
    } else if (!s.acked) {
      ++counters_.spurious_retransmissions;
    }
    own_new = acknowledge(ack.acked_seq);
    newly += own_new ? 1 : 0;
  }
  if (!own_new) ++counters_.duplicate_acks;
  if (!rack_valid_ || ack.sent_at > rack_sent_at_) rack_sent_at_ = ack.sent_at;
  rack_valid_ = true;

  for (std::uint32_t q = snd_una_; q < ack.cumulative_ack; ++q) {
    newly += acknowledge(q) ? 1 : 0;
  }
  while (snd_una_ < next_seq_ && slot(snd_una_).acked) ++snd_una_;

  const bool marked = ack.ecn_echo && own_new;
  if (ack.ecn_echo) ++counters_.ecn_echoes;
  if (config_->cc == CongestionControl::dctcp) {
    dctcp_on_ack(newly, marked, ack.sent_at, now);
  } else if (config_->cc == CongestionControl::ibcs) {
    ibcs_on_ack(newly, own_new, ack, now);
  }

  const std::uint64_t lost_before = counters_.losses_detected;
  detect_losses();
  if (counters_.losses_detected != lost_before &&
      config_->cc != CongestionControl::none && can_cut_) {
    cut(0.5, now);  // RFC 8257 section 3.5 / RFC 5681: halve on loss
  }

  if (newly > 0) {
    backoff_ = 0;  // progress: RFC 6298 section 5.3 restarts the timer
    rto_deadline_ = Time::max();
  }
  if (in_flight_ == 0) {
    rto_deadline_ = Time::max();
  } else if (rto_deadline_ == Time::max()) {
    rto_deadline_ = now + rto();
  }
  if (complete() && completed_at_ == Time::max()) completed_at_ = now;
}

void Sender::on_timer(Time now) {
  if (now < rto_deadline_) return;
  // RFC 6298 section 5.4-5.6: every unacked packet in flight is presumed
  // lost (retransmitted lowest first), the timer backs off.
  ++counters_.timeouts;
  retransmit_.clear();
  for (std::uint32_t q = snd_una_; q < next_seq_; ++q) {
    Slot& s = slot(q);
    if (s.acked) continue;
    if (s.in_flight) {
      s.in_flight = false;
      --in_flight_;
    }
    s.queued = true;
    retransmit_.push_back(q);  // at most span_ entries: fits
  }
  sent_order_.clear();
  ++backoff_;
  rto_deadline_ = Time::max();
  if (config_->cc != CongestionControl::none) {
    // RFC 5681 section 3.1: ssthresh = max(FlightSize / 2, 2), LW = 1.
    ssthresh_ = std::max(cwnd_ / 2.0, 2.0);
    cwnd_ = kMinWindow;
    can_cut_ = false;
    last_cut_at_ = now;
  }
}

}  // namespace arfabric::sim::transport
