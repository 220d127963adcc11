#include "proto/fare/fare_config.h"

#include <gtest/gtest.h>

namespace arfabric::proto::fare {
namespace {

FareConfig good() { return {.role = Role::spine, .router_id = 0x0a000001}; }

std::string field_of(const FareConfig& c) {
  auto r = validate(c);
  return r ? "" : r.error().field;
}

TEST(FareConfig, DefaultsWithARouterIdAreValid) {
  EXPECT_TRUE(validate(good()));
  FareConfig leaf{.router_id = 1};
  EXPECT_TRUE(validate(leaf));
  EXPECT_EQ(leaf.sub_type, wire::fare::kDefaultPathBandwidthSubType);
  EXPECT_EQ(leaf.multihoming, MultihomingRule::divide_path_bandwidth);
  EXPECT_TRUE(leaf.super_spine_attach_link_ec);
  EXPECT_FALSE(leaf.spine_lower_to_next_next_hop);
}

TEST(FareConfig, RouterIdZeroIsRejected) {
  FareConfig c = good();
  c.router_id = 0;
  EXPECT_EQ(field_of(c), "router_id");
  EXPECT_EQ(validate(c).error().to_string(),
            "router_id: 0 is not a valid BGP Identifier");
}

TEST(FareConfig, RoleAndRuleOutOfRangeAreRejected) {
  FareConfig c = good();
  c.role = static_cast<Role>(3);
  EXPECT_EQ(field_of(c), "role");
  c = good();
  c.multihoming = static_cast<MultihomingRule>(2);
  EXPECT_EQ(field_of(c), "multihoming");
}

TEST(FareConfig, SubTypesOfRouteTargetAndOriginAreRejected) {
  FareConfig c = good();
  for (std::uint8_t s : {0x02, 0x03}) {
    c.sub_type = s;
    EXPECT_EQ(field_of(c), "sub_type") << int{s};
  }
  c.sub_type = 0x04;
  EXPECT_TRUE(validate(c));
}

TEST(FareConfig, LoweringOnlyOnASpine) {
  FareConfig c = good();
  c.spine_lower_to_next_next_hop = true;
  EXPECT_TRUE(validate(c));
  c.role = Role::leaf;
  EXPECT_EQ(field_of(c), "spine_lower_to_next_next_hop");
  c.role = Role::super_spine;
  EXPECT_EQ(field_of(c), "spine_lower_to_next_next_hop");
}

TEST(FareConfig, NonTransitivePathCommunityOnlyIn3Stage) {
  FareConfig c = good();
  c.path_bandwidth_transitive = false;
  EXPECT_TRUE(validate(c));
  c.role = Role::spine;
  EXPECT_TRUE(validate(c));
  c.spine_lower_to_next_next_hop = true;
  EXPECT_EQ(field_of(c), "path_bandwidth_transitive");
  c.spine_lower_to_next_next_hop = false;
  c.role = Role::super_spine;
  EXPECT_EQ(field_of(c), "path_bandwidth_transitive");
}

TEST(FareConfig, Names) {
  EXPECT_EQ(role_name(Role::super_spine), "super_spine");
  EXPECT_EQ(role_name(static_cast<Role>(9)), "unknown");
  EXPECT_EQ(multihoming_rule_name(MultihomingRule::multiply_link_bandwidth),
            "multiply_link_bandwidth");
}

}  // namespace
}  // namespace arfabric::proto::fare
