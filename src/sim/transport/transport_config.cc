#include "sim/transport/transport_config.h"

namespace arfabric::sim::transport {

namespace {
constexpr std::uint32_t kMaxWindow = 1u << 20;

std::unexpected<ConfigError> bad(const char* field, const char* reason) {
  return std::unexpected(ConfigError{field, reason});
}
}  // namespace

std::expected<void, ConfigError> validate(const TransportConfig& c) {
  if (c.mss_bytes == 0) return bad("mss_bytes", "must be positive");
  if (c.max_window_packets == 0 || c.max_window_packets > kMaxWindow) {
    return bad("max_window_packets", "must be in 1..1048576");
  }
  if (c.initial_window_packets == 0) {
    return bad("initial_window_packets", "must be positive");
  }
  if (c.initial_window_packets > c.max_window_packets) {
    return bad("initial_window_packets", "must not exceed max_window_packets");
  }
  if (c.min_rto <= Time()) return bad("min_rto", "must be positive");
  if (c.initial_rto < c.min_rto) {
    return bad("initial_rto", "must be at least min_rto");
  }
  if (c.max_rto < c.initial_rto) {
    return bad("max_rto", "must be at least initial_rto");
  }
  if (c.reorder_window < Time()) {
    return bad("reorder_window", "must not be negative");
  }
  if (c.dupack_threshold == 0) {
    return bad("dupack_threshold", "must be at least 1");
  }
  if (!(c.dctcp_g > 0.0 && c.dctcp_g <= 1.0)) {
    return bad("dctcp_g", "must be in (0, 1]");
  }
  if (!(c.dctcp_initial_alpha >= 0.0 && c.dctcp_initial_alpha <= 1.0)) {
    return bad("dctcp_initial_alpha", "must be in [0, 1]");
  }
  if (c.cc == CongestionControl::ibcs) {
    if (!(c.ibcs_beta > 0.0 && c.ibcs_beta <= 1.0)) {
      return bad("ibcs_beta", "must be in (0, 1]");
    }
    if (!(c.ibcs_max_decrease > 0.0 && c.ibcs_max_decrease < 1.0)) {
      return bad("ibcs_max_decrease", "must be in (0, 1)");
    }
    if (!c.ibcs_max_signal && c.ibcs_target == 0) {
      return bad("ibcs_target",
                 "must be positive for a MIN signal (nothing is below 0)");
    }
  }
  if (c.cc != CongestionControl::none && c.cc != CongestionControl::dctcp &&
      c.cc != CongestionControl::ibcs) {
    return bad("cc", "unknown congestion control");
  }
  return {};
}

std::uint64_t packet_count(const TransportConfig& config, std::uint64_t bytes) {
  return (bytes + config.mss_bytes - 1) / config.mss_bytes;
}

}  // namespace arfabric::sim::transport
