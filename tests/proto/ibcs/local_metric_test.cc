#include "proto/ibcs/local_metric.h"

#include <gtest/gtest.h>

#include <utility>

namespace arfabric::proto::ibcs {
namespace {

TEST(LocalMetric, EwmaSeedsAndSmooths) {
  const LocalMetricConfig c{.estimator = Estimator::ewma, .ewma_weight = 0.25};
  LocalMetric m;
  EXPECT_FALSE(m.value(c, us(0)));
  m.record(c, 100, us(1));
  EXPECT_EQ(m.value(c, us(1)), 100u);  // the first sample seeds
  m.record(c, 200, us(2));
  EXPECT_EQ(m.value(c, us(2)), 125u);  // 100 + 0.25 * (200 - 100)
  m.record(c, 0, us(3));
  EXPECT_EQ(m.value(c, us(3)), 94u);  // 125 - 0.25 * 125 = 93.75
}

TEST(LocalMetric, StaleAfterMaxAge) {
  const LocalMetricConfig c{.max_age = us(100)};
  LocalMetric m;
  m.record(c, 7, us(10));
  EXPECT_EQ(m.value(c, us(110)), 7u);
  EXPECT_FALSE(m.value(c, us(110) + ps(1)));
  m.record(c, 8, us(200));
  EXPECT_TRUE(m.value(c, us(200)));
}

// The configuration is what each call passes: one metric's state read
// with a shorter max_age is stale where the longer one is not.
TEST(LocalMetric, EachCallUsesTheConfigurationItIsGiven) {
  const LocalMetricConfig patient{.max_age = us(100)};
  const LocalMetricConfig strict{.max_age = us(10)};
  LocalMetric m;
  m.record(patient, 7, us(10));
  EXPECT_EQ(m.value(patient, us(50)), 7u);
  EXPECT_FALSE(m.value(strict, us(50)));
}

TEST(LocalMetric, WindowUsesOnlyCompleteWindows) {
  const LocalMetricConfig mean_config{.estimator = Estimator::window_mean,
                                      .window = us(10)};
  const LocalMetricConfig lo_config{.estimator = Estimator::window_min,
                                    .window = us(10)};
  const LocalMetricConfig hi_config{.estimator = Estimator::window_max,
                                    .window = us(10)};
  LocalMetric mean, lo, hi;
  for (auto [m, c] : {std::pair{&mean, &mean_config},
                      std::pair{&lo, &lo_config}, std::pair{&hi, &hi_config}}) {
    m->record(*c, 10, us(1));
    m->record(*c, 40, us(5));
    m->record(*c, 25, us(9));
    EXPECT_FALSE(m->value(*c, us(9)));  // window [0, 10) still open
  }
  // A query at 10 us closes [0, 10): mean 25, min 10, max 40.
  EXPECT_EQ(mean.value(mean_config, us(10)), 25u);
  EXPECT_EQ(lo.value(lo_config, us(10)), 10u);
  EXPECT_EQ(hi.value(hi_config, us(10)), 40u);
  // Samples in [10, 20) do not show until that window closes.
  mean.record(mean_config, 1000, us(12));
  EXPECT_EQ(mean.value(mean_config, us(15)), 25u);
  // Closing by a sample in a later window (windows may be skipped).
  mean.record(mean_config, 0, us(45));
  EXPECT_EQ(mean.value(mean_config, us(45)), 1000u);
}

TEST(LocalMetric, Validation) {
  EXPECT_TRUE(validate(LocalMetricConfig{}));
  EXPECT_EQ(validate({.ewma_weight = 0}).error().field, "ewma_weight");
  EXPECT_EQ(validate({.ewma_weight = 1.5}).error().field, "ewma_weight");
  EXPECT_EQ(validate({.estimator = Estimator::window_min, .window = Time()})
                .error()
                .field,
            "window");
  EXPECT_EQ(validate({.max_age = Time()}).error().field, "max_age");
}

}  // namespace
}  // namespace arfabric::proto::ibcs
