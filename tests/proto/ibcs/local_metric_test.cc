#include "proto/ibcs/local_metric.h"

#include <gtest/gtest.h>

namespace arfabric::proto::ibcs {
namespace {

TEST(LocalMetric, EwmaSeedsAndSmooths) {
  LocalMetric m({.estimator = Estimator::ewma, .ewma_weight = 0.25});
  EXPECT_FALSE(m.value(us(0)));
  m.record(100, us(1));
  EXPECT_EQ(m.value(us(1)), 100u);  // the first sample seeds
  m.record(200, us(2));
  EXPECT_EQ(m.value(us(2)), 125u);  // 100 + 0.25 * (200 - 100)
  m.record(0, us(3));
  EXPECT_EQ(m.value(us(3)), 94u);  // 125 - 0.25 * 125 = 93.75
}

TEST(LocalMetric, StaleAfterMaxAge) {
  LocalMetric m({.max_age = us(100)});
  m.record(7, us(10));
  EXPECT_EQ(m.value(us(110)), 7u);
  EXPECT_FALSE(m.value(us(110) + ps(1)));
  m.record(8, us(200));
  EXPECT_TRUE(m.value(us(200)));
}

TEST(LocalMetric, WindowUsesOnlyCompleteWindows) {
  LocalMetric mean({.estimator = Estimator::window_mean, .window = us(10)});
  LocalMetric lo({.estimator = Estimator::window_min, .window = us(10)});
  LocalMetric hi({.estimator = Estimator::window_max, .window = us(10)});
  for (LocalMetric* m : {&mean, &lo, &hi}) {
    m->record(10, us(1));
    m->record(40, us(5));
    m->record(25, us(9));
    EXPECT_FALSE(m->value(us(9)));  // window [0, 10) still open
  }
  // A query at 10 us closes [0, 10): mean 25, min 10, max 40.
  EXPECT_EQ(mean.value(us(10)), 25u);
  EXPECT_EQ(lo.value(us(10)), 10u);
  EXPECT_EQ(hi.value(us(10)), 40u);
  // Samples in [10, 20) do not show until that window closes.
  mean.record(1000, us(12));
  EXPECT_EQ(mean.value(us(15)), 25u);
  // Closing by a sample in a later window (windows may be skipped).
  mean.record(0, us(45));
  EXPECT_EQ(mean.value(us(45)), 1000u);
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
