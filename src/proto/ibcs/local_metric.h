// L_Metric of one egress port: a smoothed local congestion metric
// (draft-tian-ccwg-ibcs-datapath-processing-00 §7.1 "L_Metric Stability and
// Sampling Frequencies", §7.2 "Fail-Open Capability").
//
// The draft requires L_Metric to be "decoupled from instantaneous
// micro-burst noise" and asks for "a configurable moving average or sampling
// window". Both are offered:
//
// - ewma: L = L + w * (sample - L), w in (0, 1]; the first sample seeds L.
// - window_mean / window_min / window_max: time is cut into fixed windows
//   [k*window, (k+1)*window); L is the mean / minimum / maximum of the
//   samples of the last COMPLETE window that had samples. A window is
//   complete once a sample or a query arrives at or after its end, so a
//   value is never built from a partly observed window.
//
// Staleness: when the newest sample is older than max_age, L_Metric is
// unavailable and the SUF fails open. Before the first value exists it is
// unavailable too.
//
// Samples are in the binding's metric units: converting a port's
// measurement (bytes of queue, bit/s spare, utilisation) into a CSIG bucket,
// Mb/s or Q16.16 is the caller's job (wire::ibcs::quantize_linear,
// utilisation_q16). Values are clamped to the field's maximum at rewrite.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>

#include "common/units.h"
#include "proto/config_error.h"

namespace arfabric::proto::ibcs {

enum class Estimator : std::uint8_t {
  ewma,
  window_mean,
  window_min,
  window_max
};

struct LocalMetricConfig {
  Estimator estimator = Estimator::ewma;
  double ewma_weight = 0.25;  // weight of the newest sample
  Time window = us(10);       // the draft's "baseline RTT, 5 to 50 us"
  Time max_age = us(100);     // older newest sample -> unavailable
};

// Errors: "ewma_weight" outside (0, 1]; "window" not positive (window
// estimators); "max_age" not positive.
std::expected<void, ConfigError> validate(const LocalMetricConfig& config);

// One egress port's state for one rule: a single cache line, because
// the SUF reads it for every packet it forwards. Its configuration is
// not kept here but passed in on every call (the SUF holds one per rule
// for all its ports, and always passes that one); each call follows the
// configuration it is given.
class alignas(64) LocalMetric {
 public:
  // Samples must come in non-decreasing time; an older one is folded into
  // the current window / average as if it arrived now.
  void record(const LocalMetricConfig& config, std::uint32_t sample, Time now);

  // The current L_Metric, or nullopt when unavailable (no value yet, or the
  // newest sample is older than max_age). Completes a window that `now` has
  // passed, hence non-const. Allocation-free.
  std::optional<std::uint32_t> value(const LocalMetricConfig& config, Time now);
  // When the newest sample came (its `now`, or the one before it for a
  // sample that came out of order); nullopt before the first.
  std::optional<Time> last_sample() const {
    return has_sample_ ? std::optional(last_sample_) : std::nullopt;
  }
  // Whether the newest sample came after `t` (false before the first).
  bool sampled_after(Time t) const { return has_sample_ && last_sample_ > t; }

 private:
  void close_window(Estimator estimator);
  static std::int64_t window_index(const LocalMetricConfig& config, Time t) {
    return t / config.window;
  }

  bool has_sample_ = false;
  bool has_value_ = false;
  std::uint32_t value_ = 0;
  Time last_sample_;
  double ewma_ = 0;
  // Window being filled.
  std::int64_t window_ = 0;
  std::uint64_t sum_ = 0;
  std::uint32_t count_ = 0;
  std::uint32_t min_ = 0;
  std::uint32_t max_ = 0;
};
static_assert(sizeof(LocalMetric) == 64, "one cache line (see the class)");

}  // namespace arfabric::proto::ibcs
