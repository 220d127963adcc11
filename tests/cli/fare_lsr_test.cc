#include "cli/fare_lsr.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "daemon/netns_harness.h"
#include "support/capture.h"
#include "support/isis_routers.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/isis/frame.h"
#include "wire/isis/lsp.h"

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
  w->flush();
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
            "arfabric fare-lsr: --self: '1.2' is not a system ID (three "
            "groups of four hex digits, 0000.0000.0001)\n");
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

// Real peers: FRR isisd in four namespaces (leaves l1, l2 under spines s1,
// s2, point-to-point, level 2, TE on so that each link carries its
// Maximum Bandwidth from zebra's link-params), captured on l1's two
// interfaces with dumpcap. l1's uplink to s2 is 20G, s2's downlink to l2
// 10G, the rest 40G; FRR sends no Path Bandwidth, so the links alone
// bound the paths.
TEST(FareLsrInterop, WeightsFromFrrIsisdLsps) {
  using testing::eventually;
  using testing::require;
  const std::string zebra = "/usr/lib/frr/zebra", isisd = "/usr/lib/frr/isisd",
                    vtysh = "/usr/bin/vtysh", dumpcap = "/usr/bin/dumpcap";
  for (const std::string& b : {zebra, isisd, vtysh, dumpcap})
    ASSERT_TRUE(require(b));
  testing::NetnsLab lab;
  const std::vector<std::string> names = {"l1", "l2", "s1", "s2"};
  const std::map<std::string, int> id = {
      {"l1", 1}, {"l2", 2}, {"s1", 11}, {"s2", 12}};
  std::map<std::string, std::string> ns;
  for (const std::string& n : names) ns[n] = lab.add_namespace(n);
  // Interfaces per router with their Maximum Bandwidth in bytes/s.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> ifs;
  int subnet = 0;
  auto cable = [&](const std::string& a, const std::string& b,
                   const std::string& ab, const std::string& ba) {
    const std::string net = "10.9." + std::to_string(subnet++) + ".";
    const auto [ia, ib] = lab.link(ns[a], net + "0/31", ns[b], net + "1/31");
    ifs[a].push_back({ia, ab});
    ifs[b].push_back({ib, ba});
  };
  cable("l1", "s1", "5e+09", "5e+09");
  cable("l1", "s2", "2.5e+09", "5e+09");
  cable("l2", "s1", "5e+09", "5e+09");
  cable("l2", "s2", "5e+09", "1.25e+09");
  const auto capture = lab.dir() / "l1.pcapng";
  std::vector<std::string> dump = {dumpcap, "-q", "-w", capture.string()};
  for (const auto& [i, bw] : ifs["l1"]) {
    dump.push_back("-i");
    dump.push_back(i);
  }
  const std::size_t dumper = lab.start(ns["l1"], "dumpcap", dump);
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(capture); }, 10))
      << lab.dump_logs();
  for (const std::string& n : names) {
    const std::string sid = "00" + std::to_string(100 + id.at(n)).substr(1);
    lab.exec(ns[n],
             "ip addr add 10.0." + std::to_string(id.at(n)) + ".1/24 dev lo");
    std::string iconf = "hostname " + n + "\n";
    for (const auto& [i, bw] : ifs[n]) {
      iconf += "interface " + i +
               "\n ip router isis f\n isis network point-to-point\n"
               " isis circuit-type level-2-only\n!\n";
    }
    iconf += "interface lo\n ip router isis f\n isis passive\n!\n";
    iconf += "router isis f\n net 49.0001.0000.0000." + sid +
             ".00\n is-type level-2-only\n metric-style wide\n"
             " lsp-gen-interval 1\n mpls-te on\n mpls-te router-address 10.0." +
             std::to_string(id.at(n)) + ".1\n!\n";
    const auto dir = lab.dir() / n;
    std::filesystem::create_directories(dir);
    const std::string zsock = (dir / "zserv.api").string();
    lab.start(ns[n], n + "-zebra",
              {zebra, "-z", zsock, "-P", "0", "-f",
               lab.write(n + "-zebra.conf", "hostname " + n + "\n").string(),
               "-i", (dir / "zebra.pid").string(), "--vty_socket", dir.string(),
               "-u", "root", "-g", "root", "--log", "stdout"});
    ASSERT_TRUE(eventually([&] { return std::filesystem::exists(zsock); }, 10))
        << lab.dump_logs();
    lab.start(
        ns[n], n + "-isisd",
        {isisd, "-z", zsock, "-f", lab.write(n + "-isisd.conf", iconf).string(),
         "-i", (dir / "isisd.pid").string(), "--vty_socket", dir.string(), "-u",
         "root", "-g", "root", "--log", "stdout"});
  }
  // The links' Maximum Bandwidth, given to zebra once the adjacencies are
  // up: FRR 8.4's isisd left some links without it when zebra's
  // configuration file already held them at start.
  auto vty = [&](const std::string& n, const std::string& commands) {
    return testing::shell(vtysh + " --vty_socket " + (lab.dir() / n).string() +
                          " " + commands);
  };
  for (const std::string& n : names) {
    ASSERT_TRUE(eventually(
        [&] {
          const std::string text = vty(n, "-c 'show isis neighbor'").second;
          std::size_t up = 0;
          for (std::size_t at = 0;
               (at = text.find(" Up ", at)) != std::string::npos; ++at)
            ++up;
          return up == 2;
        },
        30))
        << n << ": " << vty(n, "-c 'show isis neighbor'").second
        << lab.dump_logs();
    for (const auto& [i, bw] : ifs[n]) {
      const auto [rc, text] =
          vty(n, "-c 'configure terminal' -c 'interface " + i +
                     "' -c 'link-params' -c 'enable' -c 'max-bw " + bw + "'");
      ASSERT_EQ(rc, 0) << text;
    }
  }
  // l1 has every router's LSP with both links' bandwidths and l2's prefix.
  auto database = [&] {
    return testing::shell(vtysh + " --vty_socket " +
                          (lab.dir() / "l1").string() +
                          " -c 'show isis database detail'")
        .second;
  };
  const bool converged = eventually(
      [&] {
        const std::string db = database();
        std::size_t bandwidths = 0;
        for (std::size_t at = 0;
             (at = db.find("Maximum Bandwidth", at)) != std::string::npos; ++at)
          ++bandwidths;
        return bandwidths == 8 &&
               db.find("Extended IP Reachability: 10.0.2.0/24") !=
                   std::string::npos;
      },
      60);
  ASSERT_TRUE(converged) << database() << lab.dump_logs();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  lab.signal(dumper, SIGINT);
  ASSERT_EQ(lab.wait_exit(dumper), 0) << lab.dump_logs();

  FareLsrOptions o{.pcap_path = capture.string(), .self = "0000.0000.0001"};
  std::ostringstream out, err;
  ASSERT_EQ(run_fare_lsr(o, out, err), 0) << err.str();
  const std::vector<json> r = routes(out.str());
  const json* leaf2 = nullptr;
  for (const json& j : r)
    if (j["prefix"] == "10.0.2.0/24") leaf2 = &j;
  ASSERT_NE(leaf2, nullptr) << out.str();
  // 40G through s1; through s2 min(20G up, 10G down). FRR's binary32
  // 5e9 and 1.25e9 B/s are exact.
  EXPECT_EQ((*leaf2)["weighted"], true) << leaf2->dump();
  EXPECT_EQ((*leaf2)["originators"], json::array({"0000.0000.0002"}));
  EXPECT_EQ((*leaf2)["first_hops"],
            json::parse(R"([{"neighbor":"0000.0000.0011","weight":40000000000},
                             {"neighbor":"0000.0000.0012","weight":10000000000}])"))
      << leaf2->dump();
  EXPECT_EQ((*leaf2)["path_bandwidth"], 50'000'000'000ull);
}

}  // namespace
}  // namespace arfabric::cli
