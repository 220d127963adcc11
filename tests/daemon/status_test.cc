// bgpctl's documents and tables from an engine that has not talked to
// anyone yet, and the FIB table rendering; the interop tests read the same
// JSON from live daemons.
#include "daemon/status.h"

#include <gtest/gtest.h>

#include "proto/bgp/fabric_harness.h"

namespace arfabric::daemon {
namespace {

namespace bgp = proto::bgp;

TEST(Status, NeighborsAndRibOfAFreshSpeaker) {
  auto config = parse_config(
      "asn: 65001\nrouter_id: 10.0.0.1\nprefixes: [10.1.0.0/24]\n"
      "peers:\n  - {name: s1, address: 10.0.1.2, asn: 65100,\n"
      "     local_address: 10.0.1.1, link_bandwidth: 400G}\n",
      "t.yaml");
  ASSERT_TRUE(config) << config.error().to_string();
  bgp::Speaker speaker(speaker_config(*config, {gbps(400)}));
  const std::vector<PeerView> peers = {{&config->peers[0], gbps(400)}};
  speaker.start(sec(1));  // runs the decision: the local route wins
  speaker.outputs().clear();

  const auto n = neighbors_json(speaker, peers);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0]["name"], "s1");
  EXPECT_EQ(n[0]["state"], "Connect");
  EXPECT_EQ(n[0]["link_bandwidth"], gbps(400));
  EXPECT_EQ(n[0]["received"], 0u);  // paths held now, PfxRcd
  EXPECT_FALSE(n[0].contains("negotiated"));
  const std::string table = render_neighbors(n);
  EXPECT_NE(table.find("s1"), std::string::npos) << table;
  EXPECT_NE(table.find("400G"), std::string::npos) << table;

  const auto rib = rib_json(speaker, peers);
  ASSERT_EQ(rib.size(), 1u);
  EXPECT_EQ(rib[0]["prefix"], "10.1.0.0/24");
  EXPECT_TRUE(rib[0]["local"].get<bool>());
  EXPECT_EQ(rib[0]["paths"][0]["peer"], "local");
  EXPECT_NE(render_rib(rib).find("10.1.0.0/24  (originated)"),
            std::string::npos)
      << render_rib(rib);

  // A removed peer is left out of the neighbour list.
  EXPECT_TRUE(neighbors_json(speaker, {{nullptr, 0}}).empty());
}

// JSON has no infinity or NaN: a Path Bandwidth of +Inf (binary16
// 0x7c00, "no limit") or NaN says so in "special", and bgpctl's table
// shows it (it used to abort reading a null as a number).
TEST(Status, ANonFinitePathBandwidthIsSpecialNotNull) {
  wire::fare::PathBandwidth inf;
  inf.router_id = 0x0a000001;
  inf.bandwidth_bits = 0x7c00;
  const auto j = path_bandwidth_json(inf);
  EXPECT_EQ(j["special"], "+inf");
  EXPECT_FALSE(j.contains("bits_per_second"));
  EXPECT_TRUE(j["valid"].get<bool>());
  wire::fare::PathBandwidth nan = inf;
  nan.bandwidth_bits = 0x7e00;
  EXPECT_EQ(path_bandwidth_json(nan)["special"], "nan");
  EXPECT_EQ(path_bandwidth_json(
                wire::fare::make_path_bandwidth(1, 50))["bits_per_second"],
            400e9);

  const nlohmann::json rib = {{{"prefix", "10.9.0.0/24"},
                               {"paths",
                                {{{"peer", "s1"},
                                  {"next_hop", "10.0.1.2"},
                                  {"as_path", "65100 65009"},
                                  {"path_bandwidth", j},
                                  {"link_bandwidth", {{"special", "nan"}}}}}},
                               {"installed", nlohmann::json::array()}}};
  const std::string table = render_rib(rib);
  EXPECT_NE(table.find("pathbw inf"), std::string::npos) << table;
  EXPECT_NE(table.find("linkbw nan"), std::string::npos) << table;
  EXPECT_EQ(table.find("(invalid)"), std::string::npos) << table;
}

// A negative Path Bandwidth (binary16 0xbc00 = -1 GB/s) is invalid: the
// table shows its value in the same units as any other, and says so.
TEST(Status, ANegativePathBandwidthShowsItsValueAndThatItIsInvalid) {
  wire::fare::PathBandwidth negative;
  negative.router_id = 0x0a000001;
  negative.bandwidth_bits = 0xbc00;
  const auto j = path_bandwidth_json(negative);
  EXPECT_FALSE(j["valid"].get<bool>());
  EXPECT_EQ(j["bits_per_second"], -8e9);
  const nlohmann::json rib = {{{"prefix", "10.9.0.0/24"},
                               {"paths",
                                {{{"peer", "s1"},
                                  {"next_hop", "10.0.1.2"},
                                  {"as_path", "65100"},
                                  {"path_bandwidth", j}}}},
                               {"installed", nlohmann::json::array()}}};
  const std::string table = render_rib(rib);
  EXPECT_NE(table.find("pathbw -8G (invalid)"), std::string::npos) << table;
}

// The largest Path Bandwidth (binary16 65504 GB/s) reads in Tb/s, a
// non-transitive one is shown too, and a link-local next hop after the
// global one.
TEST(Status, RibTableShowsTerabitsNonTransitiveBandwidthAndLinkLocalHops) {
  const auto largest =
      path_bandwidth_json(wire::fare::make_path_bandwidth(0x0a000001, 65504));
  auto non_transitive =
      path_bandwidth_json(wire::fare::make_path_bandwidth(0x0a000002, 50));
  const nlohmann::json rib = {
      {{"prefix", "2001:db8:9::/48"},
       {"paths",
        {{{"peer", "s1"},
          {"next_hop", "2001:db8::1"},
          {"next_hop_link_local", "fe80::1"},
          {"as_path", "65100"},
          {"path_bandwidth", largest},
          {"path_bandwidth_non_transitive", non_transitive}}}},
       {"installed", nlohmann::json::array()}}};
  const std::string table = render_rib(rib);
  EXPECT_NE(table.find("pathbw 524T pathbw-nt 400G"), std::string::npos)
      << table;
  EXPECT_NE(table.find("2001:db8::1 fe80::1"), std::string::npos) << table;
}

// Bytes that are not UTF-8 (a request echoed in an error) are replaced,
// not thrown on: bgpd used to die on one such byte on its control socket.
TEST(Status, DumpJsonReplacesBytesThatAreNotUtf8) {
  const std::string text =
      dump_json(nlohmann::json{{"error", "unknown request '\xff\xfe'"}});
  EXPECT_EQ(text, "{\"error\":\"unknown request '\xef\xbf\xbd\xef\xbf\xbd'\"}");
}

TEST(Status, FibTableShowsKernelAndFareWeights) {
  FibRoute r;
  r.prefix = "10.2.0.0/24";
  r.group_id = 7;
  r.programmed = true;
  r.members = {{"10.0.1.2", "eth1", 5, 256, gbps(100)},
               {"10.0.2.2", "eth2", 6, 128, gbps(50)}};
  FibRoute failed;
  failed.prefix = "10.3.0.0/24";
  failed.error = "RTM_NEWROUTE: Network is unreachable";
  const auto doc = fib_json({r, failed});
  EXPECT_EQ(doc[0]["members"][1]["kernel_weight"], 128);
  const std::string table = render_fib(doc);
  EXPECT_NE(table.find("via 10.0.1.2"), std::string::npos) << table;
  EXPECT_NE(table.find("weight 128/256  (FARE 50G)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("NOT PROGRAMMED (RTM_NEWROUTE"), std::string::npos)
      << table;
}

}  // namespace
}  // namespace arfabric::daemon
