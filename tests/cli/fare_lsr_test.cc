#include "cli/fare_lsr.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "daemon/netns_harness.h"
#include "support/capture.h"
#include "support/isis_routers.h"
#include "support/ospf_routers.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/isis/frame.h"
#include "wire/isis/lsp.h"
#include "wire/ospf/ospfv2_lsa.h"
#include "wire/ospf/packet.h"

namespace arfabric::cli {
namespace {

namespace isis = wire::isis;
using nlohmann::json;

// Router n's LSP (sequence `sequence`) with its links and one /24 prefix
// 10.0.n.0 at metric 10.
isis::Lsp lsp(std::uint8_t n,
              const std::vector<std::pair<std::uint8_t, float>>& links,
              std::uint32_t sequence = 1) {
  isis::Lsp l = testing::isis_router_lsp(n, links);
  l.sequence_number = sequence;
  l.tlvs.push_back(isis::ExtendedIpReachTlv{{isis::Ipv4Prefix{
      .metric = 10, .prefix_length = 24, .prefix = {10, 0, n, 0}}}});
  return l;
}

// The Ethernet frame that carries `l` (802.3 length, LLC, the PDU), with
// its checksum computed or as `l` has it.
Bytes frame(const isis::Lsp& l, bool compute_checksum = true) {
  ByteWriter pdu;
  isis::serialize_llc(pdu);
  EXPECT_TRUE(isis::serialize(
      l, pdu, {.codec = {}, .compute_checksum = compute_checksum}));
  ByteWriter f;
  const std::uint8_t dst[] = {0x09, 0x00, 0x2b, 0x00, 0x00, 0x05};
  const std::uint8_t src[] = {0x02, 0, 0, 0, 0, 1};
  f.bytes(dst);
  f.bytes(src);
  f.u16(static_cast<std::uint16_t>(pdu.size()));
  f.bytes(pdu.data());
  return f.take();
}

// Frames with their capture times.
std::string write_frames(
    const std::string& name,
    const std::vector<std::pair<Bytes, std::uint64_t>>& frames) {
  const std::string path = testing::temp_path(name) + ".pcap";
  auto w = sysdep::PcapWriter::open(path);
  EXPECT_TRUE(w) << w.error();
  for (const auto& [f, ns] : frames) w->write(f, ns);
  EXPECT_TRUE(w->flush());
  return path;
}

std::string write_capture(const std::string& name,
                          const std::vector<isis::Lsp>& lsps) {
  std::vector<std::pair<Bytes, std::uint64_t>> frames;
  std::uint64_t t = 0;
  for (const isis::Lsp& l : lsps) frames.push_back({frame(l), t += 1000});
  return write_frames(name, frames);
}

std::vector<json> routes(const std::string& text) {
  std::vector<json> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    v.push_back(json::parse(line));
  return v;
}

// Figure 1 in a capture: leaves 1 and 2 under spines 11 and 12; leaf 1's
// uplink to spine 12 is 20G and spine 12's downlink to leaf 2 10G. An
// older copy of spine 11's LSP (40G everywhere but 5G to leaf 2) comes
// after the newer one (as on another interface) and does not replace it.
// Leaf 2 also has an IPv6 prefix.
TEST(FareLsrCommand, WeightsFromTheNewestLsps) {
  const float g40 = 5e9f, g20 = 2.5e9f, g10 = 1.25e9f;
  isis::Lsp leaf2 = lsp(2, {{11, g40}, {12, g40}});
  leaf2.tlvs.push_back(isis::Ipv6ReachTlv{
      {isis::Ipv6Prefix{.metric = 10,
                        .prefix_length = 48,
                        .prefix = {0x20, 0x01, 0x0d, 0xb8, 0, 2}}}});
  const std::string path = write_capture(
      "fare-lsr",
      {lsp(11, {{1, g40}, {2, g40}}, 2), lsp(1, {{11, g40}, {12, g20}}), leaf2,
       lsp(11, {{1, g40}, {2, 6.25e8f}}, 1), lsp(12, {{1, g40}, {2, g10}})});
  FareLsrOptions o{.pcap_path = path, .self = "0000.0000.0001"};
  std::ostringstream out, err;
  ASSERT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  const auto r = routes(out.str());
  ASSERT_EQ(r.size(), 4u) << out.str();  // 10.0.2.0, .11.0, .12.0, v6
  EXPECT_EQ(r[0]["prefix"], "10.0.2.0/24");
  EXPECT_EQ(r[0]["metric"], 30);
  EXPECT_EQ(r[0]["weighted"], true);
  EXPECT_EQ(r[0]["originators"], json::array({"0000.0000.0002"}));
  EXPECT_EQ(r[0]["first_hops"],
            json::parse(R"([{"neighbor":"0000.0000.000b","weight":40000000000},
                             {"neighbor":"0000.0000.000c","weight":10000000000}])"));
  EXPECT_EQ(r[0]["path_bandwidth"], 50'000'000'000ull);
  EXPECT_EQ(r[1]["prefix"], "10.0.11.0/24");
  EXPECT_EQ(r[3]["prefix"], "2001:db8:2::/48");
  EXPECT_EQ(r[3]["first_hops"], r[0]["first_hops"]);
  std::filesystem::remove(path);
}

// LSPs behind QinQ tags and in Linux cooked captures (`tcpdump -i any`:
// protocol 4, 802.2 LLC) are read as in a plain Ethernet frame; a frame
// whose tag is cut short is said.
TEST(FareLsrCommand, IsisFromCapturesOfEveryLinkType) {
  const float g40 = 5e9f, g20 = 2.5e9f, g10 = 1.25e9f;
  const std::vector<isis::Lsp> lsps = {
      lsp(1, {{11, g40}, {12, g20}}), lsp(2, {{11, g40}, {12, g40}}),
      lsp(11, {{1, g40}, {2, g40}}), lsp(12, {{1, g40}, {2, g10}})};
  // Each frame's LLC frame: what follows the 802.3 length.
  const auto with_header = [](const Bytes& header, const Bytes& ethernet) {
    Bytes f = header;
    f.insert(f.end(), ethernet.begin() + 12, ethernet.end());
    return f;
  };
  Bytes qinq(12, 0x02);
  for (std::uint8_t b : {0x88, 0xa8, 0x00, 0x05, 0x81, 0x00, 0x00, 0x07})
    qinq.push_back(b);
  Bytes sll(14, 0);
  Bytes sll2(20, 0);
  const auto llc_only = [](Bytes header, const Bytes& ethernet,
                           std::size_t protocol_at) {
    header[protocol_at] = 0x00;
    header[protocol_at + 1] = 0x04;  // ETH_P_802_2
    header.insert(header.end(), ethernet.begin() + 14, ethernet.end());
    return header;
  };
  sll.resize(16);
  const std::vector<std::pair<int, std::function<Bytes(const Bytes&)>>>
      captures = {{1, [&](const Bytes& e) { return with_header(qinq, e); }},
                  {113, [&](const Bytes& e) { return llc_only(sll, e, 14); }},
                  {276, [&](const Bytes& e) { return llc_only(sll2, e, 0); }}};
  for (const auto& [link_type, wrap] : captures) {
    std::vector<std::pair<Bytes, std::uint32_t>> frames;
    for (const isis::Lsp& l : lsps) frames.push_back({wrap(frame(l)), 0});
    const std::string path = testing::temp_path("fare-lsr-isis-link") + ".pcap";
    testing::write_pcap_file(path, link_type, frames);
    FareLsrOptions o{.pcap_path = path, .self = "0000.0000.0001"};
    std::ostringstream out, err;
    ASSERT_EQ(run_fare_lsr(o, out, err), 0) << link_type << err.str();
    EXPECT_EQ(err.str(), "") << link_type;
    const auto r = routes(out.str());
    ASSERT_FALSE(r.empty()) << link_type;
    EXPECT_EQ(r[0]["prefix"], "10.0.2.0/24") << link_type;
    EXPECT_EQ(
        r[0]["first_hops"],
        json::parse(R"([{"neighbor":"0000.0000.000b","weight":40000000000},
                              {"neighbor":"0000.0000.000c","weight":10000000000}])"))
        << link_type;
    std::filesystem::remove(path);
  }
  // The QinQ capture with one more frame, its C-tag cut short.
  std::vector<std::pair<Bytes, std::uint32_t>> frames;
  for (const isis::Lsp& l : lsps)
    frames.push_back({with_header(qinq, frame(l)), 0});
  frames.push_back({Bytes(qinq.begin(), qinq.begin() + 19), 0});
  const std::string path = testing::temp_path("fare-lsr-isis-cut") + ".pcap";
  testing::write_pcap_file(path, 1, frames);
  FareLsrOptions o{.pcap_path = path, .self = "0000.0000.0001"};
  std::ostringstream out, err;
  ASSERT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
  EXPECT_EQ(err.str(),
            "arfabric fare-lsr: skipped 1 frames whose link-layer header is "
            "cut short (first: frame 5: eth.vlan.tci at offset 18: a tag "
            "(TPID 0x8100) cut short)\n");
  std::filesystem::remove(path);
}

// What a router has withdrawn is gone: a purge (lifetime 0) at the same
// sequence number, also with FRR's checksum 0, and an LSP whose lifetime
// ran out before the capture's last frame. An LSP that does not decode
// is said, and the older copy stands.
TEST(FareLsrCommand, PurgesExpiryAndUndecodableLsps) {
  const float g40 = 5e9f, g10 = 1.25e9f;
  const std::vector<isis::Lsp> base = {
      lsp(1, {{11, g40}, {12, g40}}), lsp(2, {{11, g40}, {12, g40}}),
      lsp(11, {{1, g40}, {2, g40}}), lsp(12, {{1, g40}, {2, g10}})};
  auto first_hops = [](const std::string& path, std::string* err_text) {
    FareLsrOptions o{.pcap_path = path, .self = "0000.0000.0001"};
    std::ostringstream out, err;
    EXPECT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
    if (err_text) *err_text = err.str();
    std::filesystem::remove(path);
    for (const json& r : routes(out.str()))
      if (r["prefix"] == "10.0.2.0/24") return r["first_hops"];
    return json();
  };
  const json only_11 =
      json::parse(R"([{"neighbor":"0000.0000.000b","weight":40000000000}])");
  std::vector<std::pair<Bytes, std::uint64_t>> frames;
  for (const isis::Lsp& l : base) frames.push_back({frame(l), 1000});
  isis::Lsp purge = base[3];
  purge.remaining_lifetime = 0;
  purge.tlvs.clear();
  for (const bool frr : {true, false}) {
    auto with_purge = frames;
    purge.checksum = 0;
    with_purge.push_back({frame(purge, /*compute_checksum=*/!frr), 2000});
    std::string err;
    EXPECT_EQ(first_hops(write_frames("fare-lsr-purge", with_purge), &err),
              only_11)
        << (frr ? "checksum 0" : "checksum computed");
    EXPECT_EQ(err, "");
  }
  // A purge whose checksum is wrong and not 0 is not a purge.
  auto bad_purge = frames;
  purge.checksum = 0x1234;
  bad_purge.push_back({frame(purge, /*compute_checksum=*/false), 2000});
  std::string skipped;
  EXPECT_EQ(first_hops(write_frames("fare-lsr-bad-purge", bad_purge), &skipped)
                .size(),
            2u);
  EXPECT_EQ(skipped, "arfabric fare-lsr: skipped 1 LSPs with a bad checksum\n");
  // Spine 12 without its fragment 0 is left out, and said.
  auto no_zero = frames;
  isis::Lsp fragment_one = base[3];
  fragment_one.lsp_id.fragment = 1;
  no_zero[3] = {frame(fragment_one), 1000};
  EXPECT_EQ(first_hops(write_frames("fare-lsr-no-zero", no_zero), &skipped),
            only_11);
  EXPECT_EQ(skipped,
            "arfabric fare-lsr: left out 1 routers without a current "
            "fragment 0\n");
  // Spine 12's LSP, 100 s left when captured, 500 s before the last
  // frame.
  auto expired = frames;
  isis::Lsp short_lived = base[3];
  short_lived.remaining_lifetime = 100;
  expired[3] = {frame(short_lived), 0};
  expired.push_back({frame(base[0]), 500'000'000'000});
  EXPECT_EQ(first_hops(write_frames("fare-lsr-expired", expired), nullptr),
            only_11);
  // A newer copy of spine 12 whose PDU length runs past the frame.
  auto broken = frames;
  isis::Lsp newer = base[3];
  newer.sequence_number = 2;
  Bytes bad = frame(newer);
  bad[14 + 3 + 8] = 0xff;  // Ethernet header, LLC, PDU length's high octet
  broken.push_back({bad, 3000});
  std::string err;
  EXPECT_EQ(first_hops(write_frames("fare-lsr-broken", broken), &err),
            json::parse(R"([{"neighbor":"0000.0000.000b","weight":40000000000},
                             {"neighbor":"0000.0000.000c","weight":10000000000}])"));
  EXPECT_TRUE(
      err.starts_with("arfabric fare-lsr: skipped 1 LSPs that do not "
                      "decode (first: frame 5: isis.lsp.pdu_length"))
      << err;
}

TEST(FareLsrCommand, ErrorsSayWhat) {
  const std::string path =
      write_capture("fare-lsr-errors", {lsp(1, {{11, 5e9f}})});
  auto run = [](FareLsrOptions o) {
    std::ostringstream out, err;
    EXPECT_EQ(run_fare_lsr(o, out, err), 1);
    EXPECT_EQ(out.str(), "");
    return err.str();
  };
  EXPECT_EQ(run({.pcap_path = path, .self = "1.2"}),
            "arfabric fare-lsr: --self: '1.2' is neither an IS-IS system ID "
            "(three groups of four hex digits, 0000.0000.0001) nor an OSPFv2 "
            "router ID (10.0.0.1)\n");
  EXPECT_EQ(run({.pcap_path = path, .self = "0000.0000.0001", .area = "0"}),
            "arfabric fare-lsr: --area is for OSPFv2, and --self "
            "0000.0000.0001 is an IS-IS system ID (use --level)\n");
  EXPECT_EQ(run({.pcap_path = path, .self = "10.0.1.1", .level = 2}),
            "arfabric fare-lsr: --level is for IS-IS, and --self 10.0.1.1 is "
            "an OSPFv2 router ID (use --area)\n");
  for (const std::string area : {"1.2.3", "4294967296", "-1", ""})
    EXPECT_EQ(run({.pcap_path = path, .self = "10.0.1.1", .area = area}),
              "arfabric fare-lsr: --area: '" + area +
                  "' is not an area ID (0.0.0.1, or a number up to "
                  "4294967295)\n");
  // An IS-IS capture has no OSPF LSA.
  EXPECT_EQ(run({.pcap_path = path, .self = "10.0.1.1"}),
            "arfabric fare-lsr: " + path + ": no LSA of area 0.0.0.0\n");
  EXPECT_EQ(
      run({.pcap_path = path, .self = "0000.0000.0009"}),
      "arfabric fare-lsr: 0000.0000.0009 has no level-2 LSP in " + path + "\n");
  EXPECT_EQ(run({.pcap_path = path, .self = "0000.0000.0001", .level = 1}),
            "arfabric fare-lsr: " + path + ": no level-1 LSP\n");
  EXPECT_NE(run({.pcap_path = path + ".missing", .self = "0000.0000.0001"})
                .find(path + ".missing"),
            std::string::npos);
  std::filesystem::remove(path);
}

// OSPFv2 captures: Link State Updates in IPv4 multicast frames.
namespace ospf = wire::ospf;
using testing::OspfLink;

Bytes encoded(const ospf::Ospfv2Lsa& lsa) {
  ByteWriter out;
  EXPECT_TRUE(ospf::serialize_ospfv2_lsa(lsa, out));
  return out.take();
}

// The frame of an LS Update from router `source` in `area` holding
// `lsas` (encoded LSAs), its IP header a fragment when told.
Bytes ospf_frame(const std::vector<Bytes>& lsas, wire::Ipv4Address area = {},
                 bool fragment = false) {
  ByteWriter body;
  ospf::serialize_ls_update(lsas, body);
  ByteWriter packet;
  EXPECT_TRUE(ospf::serialize_ospfv2_packet(
      {.router_id = testing::ospf_router(1), .area_id = area}, body.data(),
      packet));
  ByteWriter f;
  wire::serialize(wire::EthernetHeader{.destination = {1, 0, 0x5e, 0, 0, 5},
                                       .source = {2, 0, 0, 0, 0, 1},
                                       .ethertype = 0x0800},
                  f);
  EXPECT_TRUE(wire::serialize(
      wire::Ipv4Header{.flags = static_cast<std::uint8_t>(fragment ? 1 : 0),
                       .ttl = 1,
                       .protocol = ospf::kIpProtocolOspf,
                       .source = {172, 16, 1, 11},
                       .destination = {224, 0, 0, 5}},
      packet.size(), f));
  f.bytes(packet.data());
  return f.take();
}

// Figure 1 in area 0 (as in link_state_ospf_test.cc): leaves 1 and 2
// under spines 11 and 12, l1->s12 20G, s12->l2 10G, the rest 40G, leaf
// 2's 10.0.2.0/24 with a Path Bandwidth of 28G. Each router's LSAs
// encoded; leaf 2's Extended Prefix LSA last.
std::vector<Bytes> figure1() {
  std::vector<ospf::Ospfv2Lsa> lsas;
  auto add = [&](std::uint8_t n, const std::vector<OspfLink>& links,
                 const std::vector<testing::OspfStub>& stubs) {
    lsas.push_back(testing::ospf_router_lsa(n, links, stubs));
    for (const auto& te : testing::ospf_te_lsas(n, links)) lsas.push_back(te);
  };
  add(1,
      {{.neighbor = 11, .bytes_per_second = 5e9},
       {.neighbor = 12, .bytes_per_second = 2.5e9}},
      {{.network = {10, 0, 1, 0}}});
  add(2,
      {{.neighbor = 11, .bytes_per_second = 5e9},
       {.neighbor = 12, .bytes_per_second = 5e9}},
      {{.network = {10, 0, 2, 0}, .length = 24, .metric = 1}});
  add(11,
      {{.neighbor = 1, .bytes_per_second = 5e9},
       {.neighbor = 2, .bytes_per_second = 5e9}},
      {});
  add(12,
      {{.neighbor = 1, .bytes_per_second = 5e9},
       {.neighbor = 2, .bytes_per_second = 1.25e9}},
      {});
  lsas.push_back(
      testing::ospf_path_bandwidth_lsa(2, 1, 1, {10, 0, 2, 0}, 24, 3.5e9));
  std::vector<Bytes> out;
  for (const auto& l : lsas) out.push_back(encoded(l));
  return out;
}

// Spine 12's TE LSA for its link to leaf 2 (the last of figure1()'s
// TE LSAs of spine 12) at `bytes_per_second`, with sequence number and
// age as given.
Bytes spine12_to_leaf2(float bytes_per_second, std::uint32_t sequence,
                       std::uint16_t age = 1) {
  auto te = testing::ospf_te_lsas(
      12, {{.neighbor = 1, .bytes_per_second = 5e9},
           {.neighbor = 2, .bytes_per_second = bytes_per_second}})[1];
  te.header.sequence_number = sequence;
  te.header.ls_age = age;
  return encoded(te);
}

std::string run_ok(const FareLsrOptions& o, std::string* errors = nullptr) {
  std::ostringstream out, err;
  EXPECT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
  if (errors) *errors = err.str();
  return out.str();
}

json leaf2_hops(std::uint64_t via11, std::uint64_t via12) {
  return json::array({{{"neighbor", "10.0.11.1"}, {"weight", via11}},
                      {{"neighbor", "10.0.12.1"}, {"weight", via12}}});
}

// The newest instance of each LSA by RFC 2328 §13.1: a higher sequence
// number wins over a later frame, and at an equal one the higher
// checksum. LSAs of another area are read only with --area.
TEST(FareLsrCommand, OspfWeightsFromTheNewestLsas) {
  std::vector<Bytes> lsas = figure1();
  const Bytes newest = spine12_to_leaf2(1.25e9, 0x80000002);
  // Replacing the figure's copy (sequence 0x80000001).
  std::erase_if(lsas, [](const Bytes& b) {
    return ospf::parse_ospfv2_lsa(b)->header.link_state_id ==
               wire::Ipv4Address{ospf::kOpaqueTypeTe, 0, 0, 2} &&
           ospf::parse_ospfv2_lsa(b)->header.advertising_router ==
               testing::ospf_router(12);
  });
  lsas.push_back(newest);
  std::vector<ospf::Ospfv2Lsa> other_area = {
      testing::ospf_router_lsa(1, {{.neighbor = 21}}),
      testing::ospf_router_lsa(21, {{.neighbor = 1}},
                               {{.network = {10, 21, 0, 0}}})};
  const std::string path = write_frames(
      "fare-lsr-ospf",
      {{ospf_frame(lsas), 1000},
       // Older (sequence 0x80000001), though later in the capture.
       {ospf_frame({spine12_to_leaf2(5e9, 0x80000001)}), 2000},
       {ospf_frame({encoded(other_area[0]), encoded(other_area[1])},
                   {0, 0, 0, 1}),
        3000}});
  std::string errors;
  auto r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}, &errors));
  EXPECT_EQ(errors, "");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["prefix"], "10.0.2.0/24");
  EXPECT_EQ(r[0]["metric"], 21);
  EXPECT_EQ(r[0]["originators"], json::array({"10.0.2.1"}));
  EXPECT_EQ(r[0]["weighted"], true);
  EXPECT_EQ(r[0]["first_hops"],
            leaf2_hops(28'000'000'000ull, 10'000'000'000ull));
  EXPECT_EQ(r[0]["path_bandwidth"], 28'000'000'000ull);
  EXPECT_EQ(r[0]["inter_area"], false);
  EXPECT_FALSE(r[0].contains("up_down"));

  r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1", .area = "1"}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["prefix"], "10.21.0.0/24");
  EXPECT_EQ(r[0]["fallback"], "unknown_capacity");

  // Two copies at one sequence number: the higher checksum wins, in
  // either order.
  const Bytes a = spine12_to_leaf2(1.25e9, 0x80000003),
              b = spine12_to_leaf2(6.25e8, 0x80000003);
  const bool a_wins = ospf::parse_ospfv2_lsa(a)->header.checksum >
                      ospf::parse_ospfv2_lsa(b)->header.checksum;
  for (const auto& [first, second] : {std::pair{a, b}, std::pair{b, a}}) {
    const std::string tie =
        write_frames("fare-lsr-ospf-tie", {{ospf_frame(lsas), 1000},
                                           {ospf_frame({first}), 2000},
                                           {ospf_frame({second}), 3000}});
    r = routes(run_ok({.pcap_path = tie, .self = "10.0.1.1"}));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0]["first_hops"],
              leaf2_hops(28'000'000'000ull,
                         a_wins ? 10'000'000'000ull : 5'000'000'000ull));
    std::filesystem::remove(tie);
  }
  std::filesystem::remove(path);
}

// Withdrawn is gone: a MaxAge copy (a flush) at the same sequence
// number, and an LSA whose age reached MaxAge before the capture's last
// frame. What is skipped is said.
TEST(FareLsrCommand, OspfFlushesAgesAndSkips) {
  const std::vector<Bytes> lsas = figure1();
  // Leaf 2's Path Bandwidth flushed: the links alone bound the paths.
  Bytes flush = lsas.back();
  flush[0] = 3600 >> 8;
  flush[1] = 3600 & 0xff;
  std::string path =
      write_frames("fare-lsr-ospf-flush",
                   {{ospf_frame(lsas), 1000}, {ospf_frame({flush}), 2000}});
  auto r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["first_hops"],
            leaf2_hops(40'000'000'000ull, 10'000'000'000ull));
  std::filesystem::remove(path);

  // Spine 12's link to leaf 2 at age 3599, the capture's last frame 2 s
  // later: its bandwidth is gone, and the 20G uplink bounds that path.
  path = write_frames(
      "fare-lsr-ospf-age",
      {{ospf_frame(lsas), 0},
       {ospf_frame({spine12_to_leaf2(1.25e9, 0x80000002, 3599)}), 1000},
       {ospf_frame({}), 2'000'000'000}});
  r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["first_hops"],
            leaf2_hops(28'000'000'000ull, 20'000'000'000ull));
  std::filesystem::remove(path);

  // Skipped: a bad LSA checksum, a bad packet checksum, an IP fragment, a
  // Router-LSA that does not decode; a Network-LSA and a router with
  // only a TE LSA are ignored. The figure still stands.
  Bytes bad_lsa = spine12_to_leaf2(5e9, 0x80000009);
  bad_lsa.back() ^= 1;
  Bytes bad_packet = ospf_frame({spine12_to_leaf2(5e9, 0x80000009)});
  bad_packet[14 + 20 + 12] ^= 1;  // the OSPF checksum
  ospf::Ospfv2Lsa undecodable = testing::ospf_router_lsa(11, {});
  undecodable.header.sequence_number = 0x80000009;
  ByteWriter undecodable_bytes;
  ASSERT_TRUE(ospf::serialize_ospfv2_lsa(undecodable.header,
                                         std::vector<std::uint8_t>{0, 0, 0, 1},
                                         undecodable_bytes));
  const ospf::Ospfv2Lsa network{
      .header = testing::ospf_header(2, 11, {172, 16, 11, 1}),
      .body = ospf::UndecodedLsaBody{{255, 255, 255, 0, 10, 0, 11, 1}}};
  path = write_frames(
      "fare-lsr-ospf-skips",
      {{ospf_frame(lsas), 1000},
       {ospf_frame({bad_lsa}), 2000},
       {bad_packet, 3000},
       {ospf_frame({spine12_to_leaf2(5e9, 0x80000009)}, {}, true), 4000},
       {ospf_frame({undecodable_bytes.data()}), 5000},
       {ospf_frame({encoded(network),
                    encoded(testing::ospf_te_lsas(
                        13, {{.neighbor = 1, .bytes_per_second = 1}})[0])}),
        6000}});
  std::string errors;
  r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}, &errors));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["first_hops"],
            leaf2_hops(28'000'000'000ull, 10'000'000'000ull));
  EXPECT_EQ(errors,
            "arfabric fare-lsr: skipped 1 OSPF packets with a bad checksum\n"
            "arfabric fare-lsr: skipped 1 LSAs with a bad checksum\n"
            "arfabric fare-lsr: skipped 1 IP fragments of OSPF packets (not "
            "reassembled)\n"
            "arfabric fare-lsr: skipped 1 OSPF packets or LSAs that do not "
            "decode (first: frame 5: ospf.router_lsa.link_count at offset "
            "50: 1 links counted, 0 present)\n"
            "arfabric fare-lsr: left out LANs (transit links, Network-LSAs: "
            "not supported): in 1 LSAs (first: frame 6, LS type 2, link "
            "state ID "
            "172.16.11.1, advertising router 10.0.11.1: Network-LSA)\n"
            "arfabric fare-lsr: left out 1 routers without a usable "
            "Router-LSA\n");
  std::filesystem::remove(path);
}

// Sequence numbers are signed (0x7fffffff is newer than 0x80000002); a
// flushed or aged-out instance gives way to one originated since, at any
// sequence number (a router that restarted), not to copies flooded
// before; a DoNotAge copy at MaxAge is flushed all the same.
TEST(FareLsrCommand, OspfSequenceNumbersFlushesAndRestarts) {
  const std::vector<Bytes> lsas = figure1();
  auto hops = [](const std::vector<std::pair<Bytes, std::uint64_t>>& frames) {
    const std::string path = write_frames("fare-lsr-ospf-seq", frames);
    auto r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}));
    std::filesystem::remove(path);
    return r.size() == 1 ? r[0]["first_hops"] : json(r.size());
  };
  EXPECT_EQ(hops({{ospf_frame(lsas), 1000},
                  {ospf_frame({spine12_to_leaf2(5e9, 0x7fffffff)}), 2000},
                  {ospf_frame({spine12_to_leaf2(2.5e9, 0x80000002)}), 3000}}),
            leaf2_hops(28'000'000'000ull, 20'000'000'000ull));
  // Flushed at 0x80000005, then begun again at 0x80000001.
  Bytes flushed = spine12_to_leaf2(5e9, 0x80000005, 3600);
  EXPECT_EQ(hops({{ospf_frame(lsas), 1000},
                  {ospf_frame({spine12_to_leaf2(5e9, 0x80000005)}), 2000},
                  {ospf_frame({flushed}), 3000},
                  {ospf_frame({spine12_to_leaf2(6.25e8, 0x80000001)}), 4000}}),
            leaf2_hops(28'000'000'000ull, 5'000'000'000ull));
  // Copies still flooding about after the flush do not bring it back: the
  // flushed instance itself (same sequence number and checksum, older),
  // and an older instance whose age says it was sent before the flush.
  // Frames out of time order in the file count in time order.
  EXPECT_EQ(hops({{ospf_frame(lsas), 1000},
                  {ospf_frame({spine12_to_leaf2(5e9, 0x80000005, 40)}),
                   3'000'000'000},
                  {ospf_frame({flushed}), 2'000'000'000},
                  {ospf_frame({spine12_to_leaf2(6.25e8, 0x80000004, 900)}),
                   4'000'000'000}}),
            leaf2_hops(28'000'000'000ull, 20'000'000'000ull));
  // A restart at the flushed one's own sequence number (other contents)
  // replaces it; so does one after the LSA aged out unflushed.
  EXPECT_EQ(hops({{ospf_frame(lsas), 1000},
                  {ospf_frame({flushed}), 2'000'000'000},
                  {ospf_frame({spine12_to_leaf2(6.25e8, 0x80000005, 2)}),
                   3'000'000'000}}),
            leaf2_hops(28'000'000'000ull, 5'000'000'000ull));
  EXPECT_EQ(hops({{ospf_frame(lsas), 0},
                  {ospf_frame({spine12_to_leaf2(5e9, 0x80000005, 3599)}), 1000},
                  {ospf_frame({spine12_to_leaf2(6.25e8, 0x80000001, 1)}),
                   3'000'000'000}}),
            leaf2_hops(28'000'000'000ull, 5'000'000'000ull));
  // DoNotAge (0x8000) with MaxAge: flushed, so that path is bounded by the
  // uplink alone.
  EXPECT_EQ(
      hops({{ospf_frame(lsas), 1000},
            {ospf_frame({spine12_to_leaf2(5e9, 0x80000005, 0x8000 | 3600)}),
             2000}}),
      leaf2_hops(28'000'000'000ull, 20'000'000'000ull));
  // DoNotAge alone: it never ages out.
  EXPECT_EQ(
      hops({{ospf_frame(lsas), 0},
            {ospf_frame({spine12_to_leaf2(2.5e9, 0x80000005, 0x8000 | 3599)}),
             1000},
            {ospf_frame({}), 10'000'000'000}}),
      leaf2_hops(28'000'000'000ull, 20'000'000'000ull));
}

// Linux cooked captures (`tcpdump -i any`), raw IP and 802.1ad + 802.1Q
// tagged Ethernet carry the same LSAs; frames of another link type and an
// OSPF packet the capture cut short are counted.
TEST(FareLsrCommand, OspfFromCapturesOfEveryLinkType) {
  const Bytes ethernet = ospf_frame(figure1());
  const Bytes ip(ethernet.begin() + 14, ethernet.end());
  auto with_header = [&](const Bytes& header) {
    Bytes f = header;
    f.insert(f.end(), ip.begin(), ip.end());
    return f;
  };
  Bytes sll(16, 0);
  sll[14] = 0x08;  // protocol IPv4
  Bytes sll2(20, 0);
  sll2[0] = 0x08;
  Bytes qinq(ethernet.begin(), ethernet.begin() + 12);
  for (std::uint8_t b :
       {0x88, 0xa8, 0x00, 0x05, 0x81, 0x00, 0x00, 0x07, 0x08, 0x00})
    qinq.push_back(b);
  const std::vector<std::pair<std::uint32_t, Bytes>> captures = {
      {113, with_header(sll)},
      {276, with_header(sll2)},
      {101, ip},
      {12, ip},
      {1, with_header(qinq)}};
  for (const auto& [link_type, frame] : captures) {
    const std::string path = testing::temp_path("fare-lsr-ospf-link") + ".pcap";
    testing::write_pcap_file(path, link_type, {{frame, 0}});
    const auto r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}));
    ASSERT_EQ(r.size(), 1u) << link_type;
    EXPECT_EQ(r[0]["first_hops"],
              leaf2_hops(28'000'000'000ull, 10'000'000'000ull))
        << link_type;
    std::filesystem::remove(path);
  }
  // A newer leaf-2 Router-LSA in a frame cut short: said, the older
  // stands. A frame of another link type: said.
  const std::string path = testing::temp_path("fare-lsr-ospf-cut") + ".pcap";
  Bytes cut = ospf_frame({encoded([] {
    auto l = testing::ospf_router_lsa(2, {{.neighbor = 11}, {.neighbor = 12}});
    l.header.sequence_number = 0x80000002;
    return l;
  }())});
  cut.resize(60);
  testing::write_pcap_file(path, 1, {{ethernet, 0}, {cut, 0}});
  std::string errors;
  auto r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}, &errors));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(errors,
            "arfabric fare-lsr: skipped 1 OSPF packets or LSAs that do not "
            "decode (first: frame 2: ipv4.total_length at offset 2: total "
            "length 96 does not fit between the 20-byte header and the 46 "
            "bytes available)\n");
  // A raw-IP frame of no IP version is said as such, not as a cut header.
  testing::write_pcap_file(path, 101, {{ip, 0}, {Bytes(20, 0x00), 0}});
  errors.clear();
  r = routes(run_ok({.pcap_path = path, .self = "10.0.1.1"}, &errors));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(errors,
            "arfabric fare-lsr: skipped 1 raw-IP frames that hold no IPv4 or "
            "IPv6 packet (first: frame 2: ip.version at offset 0: version 0 "
            "is neither IPv4 nor IPv6)\n");
  testing::write_pcap_file(path, 105, {{ethernet, 0}});  // 802.11
  std::ostringstream out, err;
  EXPECT_EQ(run_fare_lsr({.pcap_path = path, .self = "10.0.1.1"}, out, err), 1);
  EXPECT_EQ(err.str(),
            "arfabric fare-lsr: skipped 1 frames of link types other than "
            "Ethernet, raw IP and Linux cooked (first: " +
                sysdep::link_type_name(105) +
                ")\n"
                "arfabric fare-lsr: " +
                path + ": no LSA of area 0.0.0.0\n");
  std::filesystem::remove(path);
}

TEST(FareLsrCommand, OspfErrorsSayWhat) {
  const std::string path =
      write_frames("fare-lsr-ospf-errors", {{ospf_frame(figure1()), 1000}});
  std::ostringstream out, err;
  EXPECT_EQ(run_fare_lsr({.pcap_path = path, .self = "10.0.9.1"}, out, err), 1);
  EXPECT_EQ(err.str(),
            "arfabric fare-lsr: 10.0.9.1 has no Router-LSA in "
            "area 0.0.0.0 in " +
                path + "\n");
  err.str("");
  EXPECT_EQ(
      run_fare_lsr({.pcap_path = path, .self = "10.0.1.1", .area = "0.0.0.2"},
                   out, err),
      1);
  EXPECT_EQ(err.str(),
            "arfabric fare-lsr: " + path + ": no LSA of area 0.0.0.2\n");
  EXPECT_EQ(out.str(), "");
  std::filesystem::remove(path);
}

// Real peers: FRR routers in four namespaces, leaves l1 and l2 under
// spines s1 and s2, point-to-point /31 links, each router with 10.0.<id>.1
// on lo, captured on l1's two interfaces with dumpcap. Each interface gets
// its Maximum Bandwidth from zebra's link-params once the adjacencies are
// up: l1's uplink to s2 20G, s2's downlink to l2 10G, the rest 40G (bytes/s
// below). FRR sends no Path Bandwidth, so the links alone bound the paths:
// from l1, 40G through s1 and min(20G up, 10G down) through s2.
class FrrLeafSpine {
 public:
  static constexpr const char* kZebra = "/usr/lib/frr/zebra";
  static constexpr const char* kVtysh = "/usr/bin/vtysh";
  static constexpr const char* kDumpcap = "/usr/bin/dumpcap";
  const std::vector<std::string> names = {"l1", "l2", "s1", "s2"};
  const std::map<std::string, int> id = {
      {"l1", 1}, {"l2", 2}, {"s1", 11}, {"s2", 12}};
  // Per router, its interfaces and the Maximum Bandwidth each advertises.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>>
      interfaces;

  explicit FrrLeafSpine(testing::NetnsLab& lab) : lab_(lab) {
    for (const std::string& n : names) {
      ns_[n] = lab_.add_namespace(n);
      lab_.exec(ns_[n], "ip addr add 10.0." + std::to_string(id.at(n)) +
                            ".1/24 dev lo");
    }
    cable("l1", "s1", "5e+09", "5e+09");
    cable("l1", "s2", "2.5e+09", "5e+09");
    cable("l2", "s1", "5e+09", "5e+09");
    cable("l2", "s2", "5e+09", "1.25e+09");
  }

  std::filesystem::path capture() const { return lab_.dir() / "l1.pcapng"; }

  // dumpcap on l1's interfaces; `-p`: leaving promiscuous mode would make
  // zebra report an interface change (ospfd re-originates its TE LSAs).
  ::testing::AssertionResult start_capture() {
    std::vector<std::string> dump = {kDumpcap, "-q", "-p", "-w",
                                     capture().string()};
    for (const auto& [i, bw] : interfaces["l1"]) {
      dump.push_back("-i");
      dump.push_back(i);
    }
    dumper_ = lab_.start(ns_["l1"], "dumpcap", dump);
    if (!testing::eventually([&] { return std::filesystem::exists(capture()); },
                             10))
      return ::testing::AssertionFailure() << "no capture\n"
                                           << lab_.dump_logs();
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult stop_capture() {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    lab_.signal(dumper_, SIGINT);
    if (lab_.wait_exit(dumper_) != 0)
      return ::testing::AssertionFailure() << lab_.dump_logs();
    return ::testing::AssertionSuccess();
  }

  // zebra and then `daemon` (isisd, ospfd) with `config` on router n.
  ::testing::AssertionResult start(const std::string& n,
                                   const std::string& daemon,
                                   const std::string& config) {
    const auto dir = lab_.dir() / n;
    std::filesystem::create_directories(dir);
    const std::string zsock = (dir / "zserv.api").string();
    lab_.start(ns_[n], n + "-zebra",
               {kZebra, "-z", zsock, "-P", "0", "-f",
                lab_.write(n + "-zebra.conf", "hostname " + n + "\n").string(),
                "-i", (dir / "zebra.pid").string(), "--vty_socket",
                dir.string(), "-u", "root", "-g", "root", "--log", "stdout"});
    if (!testing::eventually([&] { return std::filesystem::exists(zsock); },
                             10))
      return ::testing::AssertionFailure() << n << ": no zebra socket\n"
                                           << lab_.dump_logs();
    const std::string name = std::filesystem::path(daemon).filename();
    lab_.start(ns_[n], n + "-" + name,
               {daemon, "-z", zsock, "-f",
                lab_.write(n + "-" + name + ".conf", config).string(), "-i",
                (dir / (name + ".pid")).string(), "--vty_socket", dir.string(),
                "-u", "root", "-g", "root", "--log", "stdout"});
    return ::testing::AssertionSuccess();
  }

  std::string vty(const std::string& n, const std::string& commands) {
    return testing::shell(std::string(kVtysh) + " --vty_socket " +
                          (lab_.dir() / n).string() + " " + commands)
        .second;
  }

  // Waits until router n's `show_command` lists `count` lines holding
  // `marker` (two adjacencies up, say).
  ::testing::AssertionResult wait_for(const std::string& n,
                                      const std::string& show_command,
                                      const std::string& marker,
                                      std::size_t count, double seconds) {
    std::string text;
    const bool ok = testing::eventually(
        [&] {
          text = vty(n, "-c '" + show_command + "'");
          std::size_t found = 0;
          for (std::size_t at = 0;
               (at = text.find(marker, at)) != std::string::npos; ++at)
            ++found;
          return found == count;
        },
        seconds);
    if (!ok)
      return ::testing::AssertionFailure() << n << ": " << show_command << ":\n"
                                           << text << lab_.dump_logs();
    return ::testing::AssertionSuccess();
  }

  // zebra's link-params on router n's interfaces.
  ::testing::AssertionResult set_link_params(const std::string& n) {
    for (const auto& [i, bw] : interfaces[n]) {
      const auto [rc, text] = testing::shell(
          std::string(kVtysh) + " --vty_socket " + (lab_.dir() / n).string() +
          " -c 'configure terminal' -c 'interface " + i +
          "' -c 'link-params' -c 'enable' -c 'max-bw " + bw + "'");
      if (rc != 0) return ::testing::AssertionFailure() << n << ": " << text;
    }
    return ::testing::AssertionSuccess();
  }

  testing::NetnsLab& lab() { return lab_; }

 private:
  void cable(const std::string& a, const std::string& b, const std::string& ab,
             const std::string& ba) {
    const std::string net = "10.9." + std::to_string(subnet_++) + ".";
    const auto [ia, ib] = lab_.link(ns_[a], net + "0/31", ns_[b], net + "1/31");
    interfaces[a].push_back({ia, ab});
    interfaces[b].push_back({ib, ba});
  }

  testing::NetnsLab& lab_;
  std::map<std::string, std::string> ns_;
  int subnet_ = 0;
  std::size_t dumper_ = 0;
};

// The route l1 computes to `prefix` from the capture, by run_fare_lsr.
json route_from_capture(const FrrLeafSpine& lab, const std::string& self,
                        const std::string& prefix) {
  FareLsrOptions o{.pcap_path = lab.capture().string(), .self = self};
  std::ostringstream out, err;
  EXPECT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
  for (const json& j : routes(out.str()))
    if (j["prefix"] == prefix) return j;
  ADD_FAILURE() << "no route to " << prefix << " in\n" << out.str();
  return json();
}

// IS-IS level 2 with TE on (`mpls-te on`). FRR 8.4's isisd left some links
// without their Maximum Bandwidth when zebra's configuration file already
// held the link-params at start, so they are given once the adjacencies
// are up.
TEST(FareLsrInterop, WeightsFromFrrIsisdLsps) {
  const std::string isisd = "/usr/lib/frr/isisd";
  for (const std::string b : {FrrLeafSpine::kZebra, FrrLeafSpine::kVtysh,
                              FrrLeafSpine::kDumpcap, isisd.c_str()})
    ASSERT_TRUE(testing::require(b));
  testing::NetnsLab netns;
  FrrLeafSpine lab(netns);
  ASSERT_TRUE(lab.start_capture());
  for (const std::string& n : lab.names) {
    const std::string sid = "00" + std::to_string(100 + lab.id.at(n)).substr(1);
    std::string conf = "hostname " + n + "\n";
    for (const auto& [i, bw] : lab.interfaces[n])
      conf += "interface " + i +
              "\n ip router isis f\n isis network point-to-point\n"
              " isis circuit-type level-2-only\n!\n";
    conf += "interface lo\n ip router isis f\n isis passive\n!\n";
    conf += "router isis f\n net 49.0001.0000.0000." + sid +
            ".00\n is-type level-2-only\n metric-style wide\n"
            " lsp-gen-interval 1\n mpls-te on\n mpls-te router-address 10.0." +
            std::to_string(lab.id.at(n)) + ".1\n!\n";
    ASSERT_TRUE(lab.start(n, isisd, conf));
  }
  for (const std::string& n : lab.names) {
    ASSERT_TRUE(lab.wait_for(n, "show isis neighbor", " Up ", 2, 30));
    ASSERT_TRUE(lab.set_link_params(n));
  }
  // l1 has every router's LSP with both links' bandwidths and l2's prefix.
  ASSERT_TRUE(lab.wait_for("l1", "show isis database detail",
                           "Maximum Bandwidth", 8, 60));
  ASSERT_TRUE(lab.wait_for("l1", "show isis database detail",
                           "Extended IP Reachability: 10.0.2.0/24", 1, 30));
  ASSERT_TRUE(lab.stop_capture());

  const json leaf2 = route_from_capture(lab, "0000.0000.0001", "10.0.2.0/24");
  // FRR's binary32 5e9 and 1.25e9 B/s are exact.
  EXPECT_EQ(leaf2["weighted"], true) << leaf2.dump();
  EXPECT_EQ(leaf2["originators"], json::array({"0000.0000.0002"}));
  EXPECT_EQ(leaf2["first_hops"],
            json::parse(R"([{"neighbor":"0000.0000.0011","weight":40000000000},
                             {"neighbor":"0000.0000.0012","weight":10000000000}])"))
      << leaf2.dump();
  EXPECT_EQ(leaf2["path_bandwidth"], 50'000'000'000ull);
}

// OSPFv2 area 0 with TE on (`capability opaque`, `mpls-te on`): each
// link's Maximum Bandwidth in a TE opaque LSA, which ospfd originates
// only once the neighbour is Full and the link has link-params. FRR
// advertises lo's address as a /32 stub (not the /24). The capture is
// stopped once all four databases agree and hold still: l1 drops a copy
// that arrives within MinLSArrival of the last one, and the sender
// retransmits it seconds later.
TEST(FareLsrInterop, WeightsFromFrrOspfdLsas) {
  const std::string ospfd = "/usr/lib/frr/ospfd";
  for (const std::string b : {FrrLeafSpine::kZebra, FrrLeafSpine::kVtysh,
                              FrrLeafSpine::kDumpcap, ospfd.c_str()})
    ASSERT_TRUE(testing::require(b));
  testing::NetnsLab netns;
  FrrLeafSpine lab(netns);
  ASSERT_TRUE(lab.start_capture());
  for (const std::string& n : lab.names) {
    const std::string rid = "10.0." + std::to_string(lab.id.at(n)) + ".1";
    std::string conf = "hostname " + n + "\n";
    for (const auto& [i, bw] : lab.interfaces[n])
      conf += "interface " + i +
              "\n ip ospf network point-to-point\n ip ospf area 0.0.0.0\n!\n";
    conf += "interface lo\n ip ospf area 0.0.0.0\n ip ospf passive\n!\n";
    conf += "router ospf\n ospf router-id " + rid +
            "\n capability opaque\n mpls-te on\n mpls-te router-address " +
            rid + "\n!\n";
    ASSERT_TRUE(lab.start(n, ospfd, conf));
  }
  for (const std::string& n : lab.names) {
    ASSERT_TRUE(lab.wait_for(n, "show ip ospf neighbor", "Full/", 2, 60));
    ASSERT_TRUE(lab.set_link_params(n));
  }
  // l1 has both point-to-point links of every router, and 8 TE links.
  ASSERT_TRUE(lab.wait_for("l1", "show ip ospf database router",
                           "another Router (point-to-point)", 8, 60));
  ASSERT_TRUE(lab.wait_for("l1", "show ip ospf database opaque-area",
                           "Maximum Bandwidth:", 8, 60));
  // Every LSA's sequence number and checksum, the ages left out.
  auto lsdb = [&](const std::string& n) {
    std::istringstream in(lab.vty(n, "-c 'show ip ospf database'"));
    std::string all;
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::vector<std::string> w{std::istream_iterator<std::string>(words),
                                 std::istream_iterator<std::string>()};
      if (w.size() >= 5 && w[3].starts_with("0x8"))
        all += w[0] + " " + w[1] + " " + w[3] + " " + w[4] + "\n";
    }
    return all;
  };
  std::string settled;
  auto stable_since = std::chrono::steady_clock::now();
  const bool agreed = testing::eventually(
      [&] {
        const std::string now = lsdb("l1");
        bool same = !now.empty();
        for (const std::string& n : lab.names) same &= lsdb(n) == now;
        if (!same || now != settled) {
          settled = now;
          stable_since = std::chrono::steady_clock::now();
          return false;
        }
        return std::chrono::steady_clock::now() - stable_since >
               std::chrono::seconds(3);
      },
      60);
  ASSERT_TRUE(agreed) << settled << lab.lab().dump_logs();
  ASSERT_TRUE(lab.stop_capture());

  const json leaf2 = route_from_capture(lab, "10.0.1.1", "10.0.2.1/32");
  EXPECT_EQ(leaf2["weighted"], true) << leaf2.dump();
  EXPECT_EQ(leaf2["metric"], 20) << leaf2.dump();
  EXPECT_EQ(leaf2["originators"], json::array({"10.0.2.1"}));
  EXPECT_EQ(leaf2["first_hops"],
            json::parse(R"([{"neighbor":"10.0.11.1","weight":40000000000},
                             {"neighbor":"10.0.12.1","weight":10000000000}])"))
      << leaf2.dump();
  EXPECT_EQ(leaf2["path_bandwidth"], 50'000'000'000ull);
  EXPECT_EQ(leaf2["inter_area"], false);
  // s2's loopback: its one path from l1, the 20G uplink.
  const json spine2 = route_from_capture(lab, "10.0.1.1", "10.0.12.1/32");
  EXPECT_EQ(spine2["first_hops"],
            json::parse(R"([{"neighbor":"10.0.12.1","weight":20000000000}])"))
      << spine2.dump();
}

}  // namespace
}  // namespace arfabric::cli
