// Configuration of the hosts' reliable transport (sim/transport): packet
// sizes, window limits, retransmission timer (RFC 6298 with a datacenter
// minimum), RACK-style reordering tolerance (RFC 8985) and the congestion
// controller (DCTCP, RFC 8257, a controller driven by the echoed IBCS
// signal, or a fixed window). The transport is arfabric's own, not a
// draft's: docs/TRANSPORT.md lists every rule and the RFC it follows.
#pragma once

#include <cstdint>
#include <expected>
#include <string>

#include "common/units.h"
#include "sim/packet.h"

namespace arfabric::sim::transport {

enum class CongestionControl : std::uint8_t {
  none,   // fixed window = initial_window_packets (tests, baselines)
  dctcp,  // RFC 8257 over a Reno-style window, in packets
  // The same window, cut in proportion to how far the echoed IBCS signal
  // is past its target (docs/TRANSPORT.md); data packets not ECN-capable.
  ibcs,
};

struct TransportConfig {
  std::uint32_t mss_bytes = 4096;   // payload of every packet but the last
  std::uint32_t header_bytes = 64;  // added to the wire size of each packet
  std::uint32_t initial_window_packets = 16;
  std::uint32_t max_window_packets = 256;  // also bounds per-flow state
  Time min_rto = us(200);    // datacenter floor (RFC 6298 says 1 s)
  Time initial_rto = ms(1);  // before the first RTT sample
  Time max_rto = ms(100);    // cap of the exponential backoff
  // RACK reordering window floor (RFC 8985 section 6.2 uses min_rtt / 4;
  // per-packet spraying needs at least the spread of queueing delays).
  Time reorder_window = us(5);
  // A packet is lost only if one sent at least this many transmissions
  // later was delivered (and the time rule holds too). >= 1.
  std::uint32_t dupack_threshold = 3;
  double dctcp_g = 1.0 / 16;         // RFC 8257 section 4.2 default
  double dctcp_initial_alpha = 1.0;  // RFC 8257 section 3.3
  CongestionControl cc = CongestionControl::dctcp;
  // cc == ibcs: the target of the echoed signal, in the signal's own
  // units (CSIG buckets), and its order. A MAX signal (delay, queue
  // depth) is congested above the target, a MIN signal (available
  // bandwidth) below it.
  std::uint32_t ibcs_target = 2;  // nqd's scenario default
  bool ibcs_max_signal = true;
  // A congested echo cuts cwnd by ibcs_beta x the relative excess, at
  // most by ibcs_max_decrease (as Swift's beta and max_mdf).
  double ibcs_beta = 0.8;
  double ibcs_max_decrease = 0.5;
};

struct ConfigError {
  std::string field;   // e.g. "initial_window_packets"
  std::string reason;  // e.g. "must not exceed max_window_packets"
  std::string to_string() const { return field + ": " + reason; }
  bool operator==(const ConfigError&) const = default;
};

// Error: the first bad field, with why (zero MSS, windows out of order or
// above 2^20 packets, RTOs not positive or out of order, g or alpha
// outside (0, 1] / [0, 1], dupack_threshold 0, an unknown cc; with cc ==
// ibcs: ibcs_beta outside (0, 1], ibcs_max_decrease outside (0, 1), a MIN
// signal's ibcs_target 0, never congested). The transport does not know
// the signal's range: the scenario checks a MAX target against its top.
std::expected<void, ConfigError> validate(const TransportConfig& config);

// Packets a flow of `bytes` needs (0 for an empty flow).
std::uint64_t packet_count(const TransportConfig& config, std::uint64_t bytes);

// Bytes a header occupies on the wire: payload plus header_bytes (an ACK
// carries no payload).
constexpr std::uint32_t wire_bytes(const TransportConfig& config,
                                   const TransportHeader& header) {
  return header.payload_bytes + config.header_bytes;
}

}  // namespace arfabric::sim::transport
