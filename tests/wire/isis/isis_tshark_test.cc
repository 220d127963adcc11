// Cross-checks the IS-IS codec against tshark, an independent decoder: an
// L2 LSP serialized by us inside an 802.3/LLC frame must decode in tshark
// with the same LSP ID, sequence number, checksum (status good), hostname,
// TLV 22 neighbour and maximum link bandwidth, and TLV 135 prefixes and
// metrics as our own decoder (cli/json/isis_json.h) reports. A second frame
// with a corrupted checksum must be "bad" for both.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/json/isis_json.h"
#include "support/capture.h"
#include "wire/inet/ethernet.h"
#include "wire/isis/frame.h"

namespace arfabric::wire::isis {
namespace {

using nlohmann::json;

Lsp spine_lsp() {
  Lsp lsp;
  lsp.header.pdu_type = kPduTypeL2Lsp;
  lsp.remaining_lifetime = 900;
  lsp.lsp_id = {{0x19, 0x21, 0x68, 0x00, 0x10, 0x01}, 0, 2};
  lsp.sequence_number = 0x1234abcd;
  lsp.flags = 0x03;
  lsp.tlvs = {
      ProtocolsSupportedTlv{{0xcc}},
      DynamicHostnameTlv{"spine-s1"},
      ExtendedIsReachTlv{{
          IsNeighbor{{0, 0, 0, 0, 0, 0x21},
                     0,
                     100,
                     {MaxLinkBandwidthSubTlv{
                         lsr::Bandwidth32::from_bytes_per_second(1.25e10f)}}},
          IsNeighbor{{0, 0, 0, 0, 0, 0x22},
                     0,
                     200,
                     {Ipv4InterfaceAddressSubTlv{{10, 2, 2, 0}},
                      MaxLinkBandwidthSubTlv{
                          lsr::Bandwidth32::from_bytes_per_second(5e9f)}}},
      }},
      ExtendedIpReachTlv{{
          Ipv4Prefix{
              20,
              false,
              16,
              {172, 16, 0, 0},
              std::vector<PrefixSubTlv>{PathBandwidthSubTlv{{0x4f9502f9}}}},
          Ipv4Prefix{5, true, 32, {192, 0, 2, 9}, std::nullopt},
      }},
  };
  return lsp;
}

Bytes frame_for(const Lsp& lsp, bool compute_checksum) {
  ByteWriter llc;
  serialize_llc(llc);
  EXPECT_TRUE(
      serialize(lsp, llc, {.codec = {}, .compute_checksum = compute_checksum}));
  ByteWriter out;
  EthernetHeader eth{.destination = kAllL2Iss,
                     .source = {0x02, 0, 0, 0, 0, 0x01},
                     .vlan_tci = std::nullopt,
                     .ethertype = static_cast<std::uint16_t>(llc.size())};
  serialize(eth, out);
  out.bytes(llc.data());
  if (out.size() < kEthernetMinFrameSize)
    out.zeros(kEthernetMinFrameSize - out.size());
  return out.take();
}

json our_json(const Bytes& frame) {
  auto eth = parse_ethernet(frame);
  EXPECT_TRUE(eth);
  return cli::isis_pdu_to_json(eth->payload.first(eth->header.ethertype));
}

TEST(IsisTshark, TsharkDecodesOurLspLikeWeDo) {
  Lsp bad = spine_lsp();
  ByteWriter probe;
  ASSERT_TRUE(serialize(bad, probe));
  const std::uint16_t good_checksum =
      static_cast<std::uint16_t>(probe.data()[24] << 8 | probe.data()[25]);
  bad.checksum = good_checksum ^ 0x0101;

  const std::vector<Bytes> frames = {frame_for(spine_lsp(), true),
                                     frame_for(bad, false)};
  const std::string pcap = arfabric::testing::temp_path("isis_lsp.pcap");
  arfabric::testing::write_pcap(pcap, frames);
  const json ts = arfabric::testing::run_tshark(pcap, "--no-duplicate-keys");
  ASSERT_EQ(ts.size(), 2u);

  const json ours = our_json(frames[0]);
  ASSERT_FALSE(ours.contains("error")) << ours.dump();
  const json& lsp = ours["isis"]["lsp"];
  const json t = arfabric::testing::tshark_layers(ts, 0);

  // Header fields.
  EXPECT_EQ(testing::tshark_values(t, "isis.type"),
            std::vector<std::string>{"20"});
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.lsp_id"),
            std::vector<std::string>{lsp["lsp_id"].get<std::string>()});
  EXPECT_EQ(lsp["lsp_id"], "1921.6800.1001.00-02");
  char seq[16];
  std::snprintf(seq, sizeof seq, "0x%08x",
                lsp["sequence_number"].get<std::uint32_t>());
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.sequence_number"),
            std::vector<std::string>{seq});
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.checksum"),
            std::vector<std::string>{lsp["checksum"].get<std::string>()});
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.checksum.status"),
            std::vector<std::string>{"1"});  // PROTO_CHECKSUM_E_GOOD
  EXPECT_TRUE(lsp["checksum_valid"].get<bool>());
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.pdu_length"),
      std::vector<std::string>{std::to_string(lsp["pdu_length"].get<int>())});

  // Hostname.
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.hostname"),
      std::vector<std::string>{lsp["tlvs"][1]["hostname"].get<std::string>()});

  // nlohmann::json keeps object keys sorted, so tshark's sibling entries
  // ("IS Neighbor: <id>", "Ext. IP Reachability: <prefix>") come back in
  // label order; spine_lsp() lists them in that order already.
  // TLV 22: neighbours, metrics, maximum link bandwidth (tshark: Mbit/s).
  const json& neighbors = lsp["tlvs"][2]["neighbors"];
  std::vector<std::string> ids, metrics;
  std::vector<double> bw_mbps;
  for (const json& n : neighbors) {
    ids.push_back(n["neighbor_id"]);
    metrics.push_back(std::to_string(n["metric"].get<int>()));
    for (const json& s : n["sub_tlvs"])
      if (s["name"] == "max_link_bandwidth")
        bw_mbps.push_back(s["bandwidth"]["bytes_per_second"].get<double>() * 8 /
                          1e6);
  }
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.ext_is_reachability.is_neighbor_id"),
      ids);
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.ext_is_reachability.metric"),
            metrics);
  const auto ts_bw =
      testing::tshark_values(t, "isis.lsp.maximum_link_bandwidth");
  ASSERT_EQ(ts_bw.size(), bw_mbps.size());
  for (std::size_t i = 0; i < ts_bw.size(); ++i)
    EXPECT_NEAR(std::stod(ts_bw[i]), bw_mbps[i], bw_mbps[i] * 1e-6) << i;
  EXPECT_NEAR(bw_mbps[0], 100000.0, 0.01);  // 100G (1.25e10 rounds)
  EXPECT_NEAR(bw_mbps[1], 40000.0, 0.01);   // 40G (5e9 is exact)
  EXPECT_EQ(testing::tshark_values(
                t, "isis.lsp.ext_is_reachability.ipv4_interface_address"),
            std::vector<std::string>{"10.2.2.0"});

  // TLV 135: prefixes, lengths, metrics, up/down, sub-TLV presence; tshark
  // does not know the Path Bandwidth type and shows it as code 31.
  std::vector<std::string> prefixes, lengths, pmetrics, updown, subtlv;
  for (const json& p : lsp["tlvs"][3]["prefixes"]) {
    const std::string text = p["prefix"];
    prefixes.push_back(text.substr(0, text.find('/')));
    lengths.push_back(text.substr(text.find('/') + 1));
    pmetrics.push_back(std::to_string(p["metric"].get<int>()));
    updown.push_back(p["up_down"].get<bool>() ? "1" : "0");
    subtlv.push_back(p.contains("sub_tlvs") ? "1" : "0");
  }
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.ext_ip_reachability.ipv4_prefix"),
      prefixes);
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.ext_ip_reachability.prefix_length"),
      lengths);
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.ext_ip_reachability.metric"),
            pmetrics);
  EXPECT_EQ(
      testing::tshark_values(t, "isis.lsp.ext_ip_reachability.distribution"),
      updown);
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.ext_ip_reachability.subtlv"),
            subtlv);
  EXPECT_EQ(testing::tshark_values(t, "isis.lsp.ext_ip_reachability.code"),
            std::vector<std::string>{
                std::to_string(kDefaultPathBandwidthSubTlvType)});

  // Frame 2: the corrupted checksum is bad for tshark and for us.
  const json t2 = arfabric::testing::tshark_layers(ts, 1);
  EXPECT_EQ(testing::tshark_values(t2, "isis.lsp.checksum.status"),
            std::vector<std::string>{"0"});  // PROTO_CHECKSUM_E_BAD
  const json ours2 = our_json(frames[1]);
  EXPECT_FALSE(ours2["isis"]["lsp"]["checksum_valid"].get<bool>());
  EXPECT_EQ(testing::tshark_values(t2, "isis.lsp.checksum"),
            std::vector<std::string>{
                ours2["isis"]["lsp"]["checksum"].get<std::string>()});
}

}  // namespace
}  // namespace arfabric::wire::isis
