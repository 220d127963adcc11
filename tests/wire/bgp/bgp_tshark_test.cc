// Cross-check with an independent decoder: messages built by our serializer
// are written to a pcap and decoded by tshark; tshark's fields must equal
// what we put in.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "support/capture.h"
#include "wire/bgp/message.h"

namespace arfabric::wire::bgp {
namespace {

using Fields = std::map<std::string, std::vector<std::string>>;

// Every leaf value under `j`, by key, in document order (tshark nests
// attributes and prefixes at varying depths; --no-duplicate-keys turns
// repeated keys into arrays).
void flatten(const nlohmann::json& j, const std::string& key, Fields& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      flatten(it.value(), it.key(), out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) flatten(v, key, out);
  } else if (j.is_string()) {
    out[key].push_back(j.get<std::string>());
  }
}

Fields bgp_fields(const nlohmann::json& frames, std::size_t i) {
  Fields f;
  flatten(arfabric::testing::tshark_layers(frames, i).at("bgp"), "", f);
  return f;
}

using V = std::vector<std::string>;

Open test_open() {
  Open o;
  o.my_as = kAsTrans;
  o.hold_time = 90;
  o.identifier = {192, 0, 2, 7};
  OptionalParameter caps;
  caps.capabilities = {
      {capability_code::kMultiprotocol,
       MultiprotocolCapability{{kAfiIpv6, kSafiUnicast}, 0}},
      {capability_code::kRouteRefresh, RouteRefreshCapability{}},
      {capability_code::kFourOctetAs, FourOctetAsCapability{4200000001}},
      {capability_code::kAddPath,
       AddPathCapability{{{{kAfiIpv4, kSafiUnicast}, 1}}}},
  };
  o.parameters = {caps};
  return o;
}

Update test_update() {
  Update u;
  u.withdrawn = {*prefix_from_string("10.9.0.0/16")};
  u.nlri = {*prefix_from_string("10.1.1.0/24"),
            *prefix_from_string("172.16.0.0/12")};
  MpReachNlri mp;
  mp.family = {kAfiIpv6, kSafiUnicast};
  mp.next_hop = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9};
  mp.nlri = {*prefix_from_string("2001:db8:a::/48")};
  ExtendedCommunity rt;
  rt.bytes = {0x00, 0x02, 0xfd, 0xe9, 0x00, 0x00, 0x00, 0x64};
  u.attributes = {
      make_attribute(attr_type::kMpReachNlri, mp),
      make_attribute(attr_type::kOrigin, Origin{OriginValue::incomplete}),
      make_attribute(attr_type::kAsPath,
                     AsPath{{{segment_type::kAsSequence, {4200000001, 65002}},
                             {segment_type::kAsSet, {65003, 65004}}}}),
      make_attribute(attr_type::kNextHop, NextHop{{10, 0, 0, 1}}),
      make_attribute(attr_type::kMed, Med{1234}),
      make_attribute(attr_type::kLocalPref, LocalPref{150}),
      make_attribute(attr_type::kCommunities, Communities{{0xfde90007}}),
      make_attribute(attr_type::kExtendedCommunities,
                     ExtendedCommunities{{rt}}),
  };
  return u;
}

TEST(BgpTshark, OpenUpdateNotificationMatchTshark) {
  SessionCodecOptions o;
  o.four_octet_as = true;
  const std::vector<Message> messages = {
      test_open(), test_update(),
      Notification{error_code::kUpdateMessage, subcode::kMalformedAsPath, {}}};
  std::vector<Bytes> frames;
  std::uint32_t seq = 1;
  for (const Message& m : messages) {
    ByteWriter w;
    ASSERT_TRUE(serialize(m, o, w));
    frames.push_back(arfabric::testing::tcp_frame(w.data(), seq));
    seq += static_cast<std::uint32_t>(w.size());
  }
  const std::string pcap = arfabric::testing::temp_path("bgp.pcap");
  arfabric::testing::write_pcap(pcap, frames);
  const auto json = arfabric::testing::run_tshark(
      pcap, "--no-duplicate-keys -d tcp.port==179,bgp");
  ASSERT_EQ(json.size(), 3u);

  Fields f = bgp_fields(json, 0);
  EXPECT_EQ(f["bgp.type"], V{"1"});
  EXPECT_EQ(f["bgp.open.version"], V{"4"});
  EXPECT_EQ(f["bgp.open.myas"], V{"23456"});
  EXPECT_EQ(f["bgp.open.holdtime"], V{"90"});
  EXPECT_EQ(f["bgp.open.identifier"], V{"192.0.2.7"});
  EXPECT_EQ(f["bgp.cap.type"], (V{"1", "2", "65", "69"}));
  EXPECT_EQ(f["bgp.cap.mp.afi"], V{"2"});
  EXPECT_EQ(f["bgp.cap.4as"], V{"4200000001"});
  EXPECT_EQ(f["bgp.cap.ap.sendreceive"], V{"1"});

  f = bgp_fields(json, 1);
  EXPECT_EQ(f["bgp.type"], V{"2"});
  EXPECT_EQ(f["bgp.withdrawn_prefix"], V{"10.9.0.0"});
  EXPECT_EQ(f["bgp.nlri_prefix"], (V{"10.1.1.0", "172.16.0.0"}));
  EXPECT_EQ(f["bgp.update.path_attribute.type_code"],
            (V{"14", "1", "2", "3", "4", "5", "8", "16"}));
  EXPECT_EQ(f["bgp.update.path_attribute.mp_reach_nlri.afi"], V{"2"});
  EXPECT_EQ(f["bgp.update.path_attribute.mp_reach_nlri.next_hop.ipv6"],
            V{"2001:db8::9"});
  EXPECT_EQ(f["bgp.mp_reach_nlri_ipv6_prefix"], V{"2001:db8:a::"});
  EXPECT_EQ(f["bgp.update.path_attribute.origin"], V{"2"});
  EXPECT_EQ(f["bgp.update.path_attribute.as_path_segment.type"], (V{"2", "1"}));
  EXPECT_EQ(f["bgp.update.path_attribute.as_path_segment.as4"],
            (V{"4200000001", "65002", "65003", "65004"}));
  EXPECT_EQ(f["bgp.update.path_attribute.next_hop"], V{"10.0.0.1"});
  EXPECT_EQ(f["bgp.update.path_attribute.multi_exit_disc"], V{"1234"});
  EXPECT_EQ(f["bgp.update.path_attribute.local_pref"], V{"150"});
  EXPECT_EQ(f["bgp.update.path_attribute.community_as"], V{"65001"});
  EXPECT_EQ(f["bgp.update.path_attribute.community_value"], V{"7"});
  EXPECT_EQ(f["bgp.ext_com.stype_tr_as2"], V{"0x02"});
  EXPECT_EQ(f["bgp.ext_com.value_as2"], V{"65001"});
  EXPECT_EQ(f["bgp.ext_com.value_an4"], V{"100"});

  f = bgp_fields(json, 2);
  EXPECT_EQ(f["bgp.type"], V{"3"});
  EXPECT_EQ(f["bgp.notify.major_error"], V{"3"});
  EXPECT_EQ(f["bgp.notify.minor_error_update"], V{"11"});
}

}  // namespace
}  // namespace arfabric::wire::bgp
