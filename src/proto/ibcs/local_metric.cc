#include "proto/ibcs/local_metric.h"

#include <algorithm>
#include <cmath>

namespace arfabric::proto::ibcs {

std::expected<void, ConfigError> validate(const LocalMetricConfig& config) {
  if (!(config.ewma_weight > 0.0 && config.ewma_weight <= 1.0))
    return std::unexpected(ConfigError{"ewma_weight", "must be in (0, 1]"});
  if (config.estimator != Estimator::ewma && config.window <= Time())
    return std::unexpected(ConfigError{"window", "must be positive"});
  if (config.max_age <= Time())
    return std::unexpected(ConfigError{"max_age", "must be positive"});
  return {};
}

void LocalMetric::close_window(Estimator estimator) {
  switch (estimator) {
    case Estimator::window_mean:
      value_ = static_cast<std::uint32_t>(sum_ / count_);
      break;
    case Estimator::window_min:
      value_ = min_;
      break;
    case Estimator::window_max:
      value_ = max_;
      break;
    case Estimator::ewma:
      return;
  }
  has_value_ = true;
  sum_ = 0;
  count_ = 0;
}

void LocalMetric::record(const LocalMetricConfig& config, std::uint32_t sample,
                         Time now) {
  if (has_sample_ && now < last_sample_) now = last_sample_;
  last_sample_ = now;
  has_sample_ = true;
  if (config.estimator == Estimator::ewma) {
    ewma_ = has_value_ ? ewma_ + config.ewma_weight * (sample - ewma_)
                       : static_cast<double>(sample);
    has_value_ = true;
    value_ = static_cast<std::uint32_t>(
        std::clamp(std::llround(ewma_), 0LL, 0xffffffffLL));
    return;
  }
  const std::int64_t w = window_index(config, now);
  if (count_ > 0 && w != window_) close_window(config.estimator);
  window_ = w;
  if (count_ == 0) {
    min_ = max_ = sample;
  } else {
    min_ = std::min(min_, sample);
    max_ = std::max(max_, sample);
  }
  sum_ += sample;
  ++count_;
}

std::optional<std::uint32_t> LocalMetric::value(const LocalMetricConfig& config,
                                                Time now) {
  if (!has_sample_ || now - last_sample_ > config.max_age) return std::nullopt;
  if (config.estimator != Estimator::ewma && count_ > 0 &&
      window_index(config, now) != window_)
    close_window(config.estimator);
  if (!has_value_) return std::nullopt;
  return value_;
}

}  // namespace arfabric::proto::ibcs
