#include "proto/ibcs/suf_config.h"

#include <gtest/gtest.h>

namespace arfabric::proto::ibcs {
namespace {

using wire::ibcs::Binding;

SufConfig good() {
  SufConfig c;
  c.rules = {{.binding = Binding::csig_l2}};
  c.ports.resize(2);
  return c;
}

TEST(SufConfig, NamesTheBadField) {
  EXPECT_TRUE(validate(good()));
  SufConfig c = good();
  c.rules.clear();
  EXPECT_EQ(validate(c).error().field, "rules");
  c = good();
  c.rules.push_back({.binding = Binding::csig_l2});
  EXPECT_EQ(validate(c).error().field, "rules[1].binding");
  c = good();
  c.rules.push_back(
      {.binding = Binding::hpcc_int, .edge_action = EdgeAction::strip});
  EXPECT_EQ(validate(c).error().field, "rules[1].edge_action");
  c = good();
  c.rules[0].metric.max_age = Time();
  EXPECT_EQ(validate(c).error().field, "rules[0].metric.max_age");
  c = good();
  c.ports.clear();
  EXPECT_EQ(validate(c).error().field, "ports");
  c = good();
  c.ports[1].peering = true;
  EXPECT_EQ(validate(c).error().field, "ports[1].peering");
}

// A CSIG TPID that other frames start with: a VLAN TPID would never be
// found (the walkers step over VLAN tags first), and IPv4's EtherType
// taken for a CSIG tag would hide every IPv4 packet from the HPCC walk
// too, so it is refused whatever the rules.
TEST(SufConfig, RefusesACsigTpidOtherFramesStartWith) {
  SufConfig c = good();
  c.wire.csig_ethertype = 0x8100;
  const auto r = validate(c);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "wire.csig_ethertype");
  EXPECT_EQ(r.error().reason,
            "0x8100 is a VLAN tag's TPID: the CSIG tag needs a TPID no other "
            "frame starts with");
  c.rules = {{.binding = Binding::hpcc_int}};
  c.wire.csig_ethertype = 0x0800;
  const auto hpcc = validate(c);
  ASSERT_FALSE(hpcc);
  EXPECT_EQ(hpcc.error().field, "wire.csig_ethertype");
}

TEST(SufConfig, DefaultEdgeActions) {
  EXPECT_EQ(default_edge_action(Binding::csig_l2), EdgeAction::strip);
  EXPECT_EQ(default_edge_action(Binding::hpcc_int), EdgeAction::zero);
  EXPECT_EQ(default_edge_action(Binding::ipv4_udp), EdgeAction::uninitialize);
}

}  // namespace
}  // namespace arfabric::proto::ibcs
