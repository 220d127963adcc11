#include "proto/arn/detector.h"

#include <algorithm>
#include <cmath>

namespace arfabric::proto::arn {

std::uint8_t congestion_metric(const MonitoredPort& c,
                               std::uint64_t queue_bytes, double utilisation) {
  double s = 0;
  if (c.queue_high_bytes > 0)
    s = static_cast<double>(queue_bytes) /
        static_cast<double>(c.queue_high_bytes);
  if (c.util_high > 0) s = std::max(s, utilisation / c.util_high);
  return static_cast<std::uint8_t>(std::clamp(std::floor(64 * s), 0.0, 255.0));
}

Event PortDetector::observe(std::uint64_t queue_bytes, double utilisation) {
  const bool high = queue_bytes >= config_.queue_high_bytes ||
                    utilisation >= config_.util_high;
  const bool low =
      queue_bytes <= config_.queue_low_bytes && utilisation <= config_.util_low;
  if (congested_)
    metric_ = congestion_metric(config_, queue_bytes, utilisation);
  if (!congested_ && high) {
    congested_ = true;
    metric_ = congestion_metric(config_, queue_bytes, utilisation);
    return Event::congestion_detected;
  }
  if (congested_ && low) {
    congested_ = false;
    metric_ = 0;
    return Event::congestion_eliminated;
  }
  return Event::none;
}

Event PortDetector::link(bool up) {
  if (up == !failed_) return Event::none;
  failed_ = !up;
  return failed_ ? Event::failure_detected : Event::failure_eliminated;
}

}  // namespace arfabric::proto::arn
