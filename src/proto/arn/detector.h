// Detection of congestion and failure on one monitored port
// (draft-wh-rtgwg-adaptive-routing-arn-05 §2.1 "Triggering ARN").
//
// The draft leaves the sensing method out of scope and only says a value
// above "the preset threshold" means congested and a value "back below"
// means not congested. A single threshold flaps, so each measure has a
// high and a low mark (hysteresis): congestion starts when the queue or
// the utilisation reaches its high mark and ends only when both are at or
// below their low marks. Link down/up are failure detected/eliminated.
#pragma once

#include <cstdint>

#include "proto/arn/arn_config.h"

namespace arfabric::proto::arn {

enum class Event : std::uint8_t {
  none,
  congestion_detected,
  congestion_eliminated,
  failure_detected,
  failure_eliminated,
};

// Metric for a congested port: min(255, floor(64 * s)) with s =
// max(queue / queue_high, utilisation / util_high); see arn_config.h.
std::uint8_t congestion_metric(const MonitoredPort& config,
                               std::uint64_t queue_bytes, double utilisation);

class PortDetector {
 public:
  PortDetector() = default;
  explicit PortDetector(const MonitoredPort& config) : config_(config) {}

  // A new measurement; returns the transition it causes, if any. The
  // metric follows the measurement while congested.
  Event observe(std::uint64_t queue_bytes, double utilisation);
  // Link state; returns failure_detected / failure_eliminated on a change.
  Event link(bool up);

  bool congested() const { return congested_; }
  bool failed() const { return failed_; }
  std::uint8_t metric() const { return metric_; }

 private:
  MonitoredPort config_;
  bool congested_ = false;
  bool failed_ = false;
  std::uint8_t metric_ = 0;
};

}  // namespace arfabric::proto::arn
