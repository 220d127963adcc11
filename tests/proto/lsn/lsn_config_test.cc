#include "proto/lsn/lsn_config.h"

#include <gtest/gtest.h>

#include "proto/lsn/lsn_test_support.h"

namespace arfabric::proto::lsn {
namespace {

std::string error_field(const Config& c) {
  auto r = validate(c);
  return r ? std::string("ok") : r.error().field;
}

TEST(LsnConfig, DefaultsOfASpineAreValid) {
  const Config c = testing::spine_config(256);
  ASSERT_TRUE(validate(c));
  EXPECT_EQ(c.period, us(100));
  EXPECT_EQ(c.codec.ethertype, 0x8808);
  EXPECT_EQ(c.codec.opcode, 0x5aa5);
}

TEST(LsnConfig, RangeCountRoundsUp) {
  EXPECT_EQ(range_count(1), 1u);
  EXPECT_EQ(range_count(256), 1u);
  EXPECT_EQ(range_count(257), 2u);
  EXPECT_EQ(range_count(1000), 4u);  // 0..255, ..511, ..767, ..1023
  EXPECT_EQ(range_count(16384), 64u);
}

TEST(LsnConfig, ErrorsNameTheField) {
  Config c = testing::spine_config(4);
  c.node_mac[0] = 0x01;
  EXPECT_EQ(error_field(c), "node_mac");

  c = testing::spine_config(4);
  c.ports.clear();
  c.attached.clear();
  EXPECT_EQ(error_field(c), "ports");

  c = testing::spine_config(4);
  c.ports[3].id = 1;
  EXPECT_EQ(error_field(c), "ports[3].id");

  c = testing::spine_config(4);
  c.num_devices = 0;
  EXPECT_EQ(error_field(c), "num_devices");
  c.num_devices = 16385;
  EXPECT_EQ(error_field(c), "num_devices");
  c.num_devices = 16384;
  EXPECT_EQ(error_field(c), "ok");

  c = testing::spine_config(4);
  c.attached[2].node = 4;
  EXPECT_EQ(error_field(c), "attached[2].node");

  c = testing::spine_config(4);
  c.attached[1].port = 99;
  EXPECT_EQ(error_field(c), "attached[1].port");

  c = testing::spine_config(4);
  c.attached.push_back(c.attached[1]);
  EXPECT_EQ(error_field(c), "attached[4]");
  // The same node on two ports (parallel links) is fine.
  c.attached.back().port = 3;
  EXPECT_EQ(error_field(c), "ok");

  c = testing::spine_config(4);
  c.period = Time();
  EXPECT_EQ(error_field(c), "period");

  c = testing::spine_config(4);
  c.congestion.rise[1] = c.congestion.rise[0];
  EXPECT_EQ(error_field(c), "congestion.rise[1]");
  c = testing::spine_config(4);
  c.congestion.rise[0] = 0;
  EXPECT_EQ(error_field(c), "congestion.rise[0]");

  c = testing::spine_config(4);
  c.congestion.fall[2] = c.congestion.rise[2] + 1;
  EXPECT_EQ(error_field(c), "congestion.fall[2]");
  c = testing::spine_config(4);
  c.congestion.fall[0] = 0;
  EXPECT_EQ(error_field(c), "congestion.fall[0]");

  c = testing::spine_config(4);
  c.congestion_linger_periods = 0;
  EXPECT_EQ(error_field(c), "congestion_linger_periods");
  c.always_send_congestion = true;
  EXPECT_EQ(error_field(c), "ok");
}

TEST(LsnConfig, ErrorTextNamesTheValue) {
  Config c = testing::spine_config(4);
  c.attached[1].port = 99;
  EXPECT_EQ(validate(c).error().to_string(),
            "attached[1].port: port 99 is not in ports");
}

}  // namespace
}  // namespace arfabric::proto::lsn
