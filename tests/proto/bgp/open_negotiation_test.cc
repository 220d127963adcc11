#include "proto/bgp/open_negotiation.h"

#include <gtest/gtest.h>

#include "proto/bgp/session_test_util.h"

namespace arfabric::proto::bgp {
namespace {

using namespace stest;  // NOLINT
namespace cc = wb::capability_code;

TEST(LocalOpen, AsTransForFourOctetAsn) {
  SessionConfig c = local_config();
  c.local_as = 4200000001;
  const wb::Open o = local_open(c);
  EXPECT_EQ(o.my_as, wb::kAsTrans);
  EXPECT_EQ(o.four_octet_as(), 4200000001u);
}

TEST(LocalOpen, CapabilitiesInOrder) {
  SessionConfig c = local_config();
  c.families = {kV4, kV6};
  c.extended_message = true;
  c.add_path = {{kV6, 3}};
  const auto caps = local_open(c).capabilities();
  std::vector<std::uint8_t> codes;
  for (const auto& cap : caps) codes.push_back(cap.code);
  EXPECT_EQ(codes,
            (std::vector<std::uint8_t>{cc::kMultiprotocol, cc::kMultiprotocol,
                                       cc::kRouteRefresh, cc::kExtendedMessage,
                                       cc::kFourOctetAs, cc::kAddPath}));
  // The encoded OPEN: 19 header + 10 fixed + 2 parameter header + caps
  // 6 + 6 + 2 + 2 + 6 + (2 + 4) = 28 -> 59 bytes.
  EXPECT_EQ(encode(local_open(c)).size(), 59u);
}

TEST(CapabilityFilter, DropsWhatTheNotificationNames) {
  CapabilityFilter f;
  // 2/7 naming MP IPv6 unicast and route refresh (code 2, length 0).
  EXPECT_TRUE(f.add_from({2, 7, {1, 4, 0, 2, 0, 1, 2, 0}}));
  EXPECT_TRUE(f.drops_family(kV6));
  EXPECT_FALSE(f.drops_family(kV4));
  EXPECT_TRUE(f.drops_code(cc::kRouteRefresh));
  SessionConfig c = local_config();
  c.families = {kV4, kV6};
  const wb::Open o = local_open(c, f);
  EXPECT_EQ(advertised_families(o), std::vector<wb::AfiSafi>{kV4});
  for (const auto& cap : o.capabilities())
    EXPECT_NE(cap.code, cc::kRouteRefresh);
  // Not 2/7, or data that are not capabilities: nothing changes.
  CapabilityFilter g;
  EXPECT_FALSE(g.add_from({6, 2, {}}));
  EXPECT_FALSE(g.add_from({2, 7, {1, 9}}));
  EXPECT_TRUE(g.empty());
}

TEST(AcceptOpen, NoMultiprotocolMeansIpv4Unicast) {
  SessionConfig c = local_config();
  c.families = {kV4, kV6};
  wb::Open remote = peer_open();
  remote.parameters.clear();  // RFC 4760 section 8
  auto n = accept_open(c, local_open(c), remote);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->families, std::vector<wb::AfiSafi>{kV4});
  EXPECT_FALSE(n->route_refresh);
  EXPECT_FALSE(n->receive.four_octet_as);
  EXPECT_EQ(n->remote_as, 65002u);  // from My AS
}

TEST(AcceptOpen, HoldTimeIsTheMinimum) {
  SessionConfig c = local_config();
  wb::Open remote = peer_open();
  remote.hold_time = 0;
  EXPECT_EQ(accept_open(c, local_open(c), remote)->hold_time_s, 0);
  remote.hold_time = 180;
  EXPECT_EQ(accept_open(c, local_open(c), remote)->hold_time_s, 90);
}

TEST(AcceptOpen, InternalPeerWithOurIdentifier) {
  SessionConfig c = local_config();
  c.remote_as = 65001;  // iBGP
  SessionConfig pc = peer_config();
  pc.local_as = 65001;
  pc.router_id = c.router_id;
  auto n = accept_open(c, local_open(c), local_open(pc));
  ASSERT_FALSE(n.has_value());
  EXPECT_EQ(n.error().subcode, wb::subcode::kBadBgpIdentifier);
  // eBGP may share an Identifier (RFC 6286 section 2.2).
  c = local_config();
  pc = peer_config();
  pc.router_id = c.router_id;
  EXPECT_TRUE(accept_open(c, local_open(c), local_open(pc)).has_value());
}

TEST(AcceptOpen, AddPathPerDirection) {
  SessionConfig c = local_config();
  c.add_path = {{kV4, 3}};
  SessionConfig pc = peer_config();
  pc.add_path = {{kV4, 2}};  // peer only sends
  auto n = accept_open(c, local_open(c), local_open(pc));
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->receive.add_path, std::vector<wb::AfiSafi>{kV4});
  EXPECT_TRUE(n->send.add_path.empty());
}

}  // namespace
}  // namespace arfabric::proto::bgp
