#include "proto/bgp/session_config.h"

#include <gtest/gtest.h>

#include "proto/bgp/session_test_util.h"

namespace arfabric::proto::bgp {
namespace {

using namespace stest;  // NOLINT

std::string bad_field(const SessionConfig& c) {
  auto r = validate(c);
  return r ? std::string() : r.error().field;
}

TEST(SessionConfigValidate, DefaultsWithIdentityAreValid) {
  EXPECT_TRUE(validate(local_config()).has_value());
  SessionConfig c = local_config();
  c.hold_time_s = 0;  // allowed: no keepalives
  EXPECT_TRUE(validate(c).has_value());
  c.hold_time_s = 3;
  EXPECT_TRUE(validate(c).has_value());
}

TEST(SessionConfigValidate, NamesTheBadField) {
  SessionConfig c = local_config();
  c.local_as = 0;
  EXPECT_EQ(bad_field(c), "local_as");
  c = local_config();
  c.local_as = wb::kAsTrans;
  EXPECT_EQ(bad_field(c), "local_as");
  c = local_config();
  c.remote_as = 0;
  EXPECT_EQ(bad_field(c), "remote_as");
  c = local_config();
  c.router_id = {};
  EXPECT_EQ(bad_field(c), "router_id");
  for (std::uint16_t h : {1, 2}) {
    c = local_config();
    c.hold_time_s = h;
    EXPECT_EQ(bad_field(c), "hold_time_s");
  }
  c = local_config();
  c.connect_retry_time = Time{};
  EXPECT_EQ(bad_field(c), "connect_retry_time");
  c = local_config();
  c.idle_hold_time = Time{} - sec(1);
  EXPECT_EQ(bad_field(c), "idle_hold_time");
  c = local_config();
  c.families.clear();
  EXPECT_EQ(bad_field(c), "families");
  c = local_config();
  c.families = {kV4, {1, 128}};
  EXPECT_EQ(bad_field(c), "families[1]");
  c = local_config();
  c.families = {kV4, kV4};
  EXPECT_EQ(bad_field(c), "families[1]");
  c = local_config();
  c.add_path = {{kV4, 4}};
  EXPECT_EQ(bad_field(c), "add_path[0].send_receive");
  c = local_config();
  c.add_path = {{kV6, 3}};
  EXPECT_EQ(bad_field(c), "add_path[0].family");
  c = local_config();
  c.add_path = {{kV4, 1}, {kV4, 2}};
  EXPECT_EQ(bad_field(c), "add_path[1].family");
}

TEST(SessionConfigValidate, ErrorText) {
  SessionConfig c = local_config();
  c.hold_time_s = 2;
  EXPECT_EQ(validate(c).error().to_string(),
            "hold_time_s: must be 0 or at least 3 seconds");
}

}  // namespace
}  // namespace arfabric::proto::bgp
