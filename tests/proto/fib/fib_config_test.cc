#include "proto/fib/fib_config.h"

#include <gtest/gtest.h>

namespace arfabric::proto::fib {
namespace {

TEST(FibConfig, DefaultsAreValid) { EXPECT_TRUE(validate(FibConfig{})); }

TEST(FibConfig, ErrorsNameTheField) {
  FibConfig c;
  c.table_size = 32;
  EXPECT_EQ(validate(c).error(),
            (ConfigError{"config.table_size", "32 is outside 64..4096"}));
  c = {};
  c.table_size = 4097;
  EXPECT_EQ(validate(c).error().field, "config.table_size");
  c = {};
  c.congestion_multiplier = {4, 3, 0, 1};
  EXPECT_EQ(validate(c).error().field, "config.congestion_multiplier[2]");
  c = {};
  c.congestion_multiplier = {4, 5, 2, 1};
  EXPECT_EQ(validate(c).error().field, "config.congestion_multiplier[1]");
  c = {};
  c.flowlet_table_size = 1000;
  EXPECT_EQ(validate(c).error().field, "config.flowlet_table_size");
  c = {};
  c.max_destinations = 0;
  EXPECT_EQ(validate(c).error().field, "config.max_destinations");
  c = {};
  c.lsn_safety_bound = Time() - ns(1);
  EXPECT_EQ(validate(c).error().field, "config.lsn_safety_bound");
}

}  // namespace
}  // namespace arfabric::proto::fib
