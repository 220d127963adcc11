// arfabric bgpd against real peers (issue 6 "Interop tests"): FRR bgpd and
// GoBGP gobgpd, each in its own network namespace, between two arfabric
// daemons:
//
//   ns a: arfabric AS 65001 --veth-- ns x: FRR or GoBGP --veth-- ns c: arfabric
//   AS 65003
//         10.0.1.1  fd00:1::1          10.0.1.2 | 10.0.2.2        10.0.2.1
//         fd00:2::1
//
// Checked: sessions reach Established on both sides with 4-octet AS, IPv4
// and IPv6 unicast and route refresh negotiated; routes flow both ways in
// both families; the Path Bandwidth EC that a attaches reaches c through
// the third-party hop byte for byte; FRR's RFC 10005 link-bandwidth EC is
// decoded by us; SIGTERM sends a Cease NOTIFICATION the peer reports.
// Missing peer binaries fail the test (require()).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "daemon/netns_harness.h"

namespace arfabric::testing {
namespace {

using nlohmann::json;

const std::string kFrrBgpd = "/usr/lib/frr/bgpd";
const std::string kFrrZebra = "/usr/lib/frr/zebra";
const std::string kVtysh = "/usr/bin/vtysh";
const std::string kGobgpd = "/usr/bin/gobgpd";
const std::string kGobgp = "/usr/bin/gobgp";

// What a originates: the maximum Path Bandwidth (binary16 65504 GB/s =
// 0x7bff) under its router ID 10.0.0.1, type 0x01 transitive, sub-type
// 0xaa (docs/PROTOCOLS.md).
const std::string kPathBandwidthOfA = "01aa0a0000017bff";

std::string arfabric_config(const std::string& asn, const std::string& id,
                            const std::string& socket,
                            const std::string& prefixes,
                            const std::string& peer_address,
                            const std::string& peer_asn,
                            const std::string& local, const std::string& v6,
                            const std::string& interface) {
  return "asn: " + asn + "\nrouter_id: " + id +
         "\nlisten: {address: 0.0.0.0, port: 179}\ncontrol_socket: " + socket +
         "\nlog_level: debug\nprefixes: " + prefixes +
         "\ntimers: {hold: 3, connect_retry: 1, idle_hold: 0}\n"
         "fib: {install: false}\n"
         "peers:\n  - name: mid\n    address: " +
         peer_address + "\n    asn: " + peer_asn +
         "\n    local_address: " + local + "\n    next_hop_ipv6: \"" + v6 +
         "\"\n    interface: " + interface +
         "\n    link_bandwidth: 100G\n    role: spine\n";
}

class Interop : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = lab_.add_namespace("a");
    x_ = lab_.add_namespace("x");
    c_ = lab_.add_namespace("c");
    auto l1 = lab_.link(a_, "10.0.1.1/30", x_, "10.0.1.2/30", "fd00:1::1/64",
                        "fd00:1::2/64");
    auto l2 = lab_.link(c_, "10.0.2.1/30", x_, "10.0.2.2/30", "fd00:2::1/64",
                        "fd00:2::2/64");
    a_socket_ = (lab_.dir() / "a.sock").string();
    c_socket_ = (lab_.dir() / "c.sock").string();
    const auto a_conf = lab_.write(
        "a.yaml",
        arfabric_config("65001", "10.0.0.1", a_socket_,
                        "[10.1.0.0/24, \"2001:db8:1::/48\"]", "10.0.1.2",
                        x_asn(), "10.0.1.1", "fd00:1::1", l1.first));
    const auto c_conf = lab_.write(
        "c.yaml", arfabric_config("65003", "10.0.0.3", c_socket_,
                                  "[10.3.0.0/24]", "10.0.2.2", x_asn(),
                                  "10.0.2.1", "fd00:2::1", l2.first));
    a_proc_ = lab_.start(a_, "arfabric-a",
                         {ARFABRIC_BINARY, "bgpd", "-c", a_conf.string()});
    c_proc_ = lab_.start(c_, "arfabric-c",
                         {ARFABRIC_BINARY, "bgpd", "-c", c_conf.string()});
  }

  virtual std::string x_asn() const = 0;

  // The daemon's neighbour "mid" once Established, else null.
  json established(const std::string& socket) {
    json n = bgpctl(socket, "neighbors");
    const json* mid = find_by(n, "name", "mid");
    if (mid && mid->value("state", "") == "Established") return *mid;
    return nullptr;
  }

  json rib_entry(const std::string& socket, const std::string& prefix) {
    json rib = bgpctl(socket, "rib");
    const json* e = find_by(rib, "prefix", prefix);
    return e ? *e : json();
  }

  void expect_capabilities(const json& mid) {
    ASSERT_TRUE(mid.contains("negotiated")) << mid.dump(2);
    const json& n = mid["negotiated"];
    EXPECT_TRUE(n["four_octet_as"].get<bool>()) << n.dump();
    EXPECT_TRUE(n["route_refresh"].get<bool>()) << n.dump();
    EXPECT_EQ(n["families"], json({"ipv4-unicast", "ipv6-unicast"}));
  }

  // c's path to a's prefix through the middle hop: a's Path Bandwidth EC,
  // unchanged.
  void expect_path_bandwidth_crossed() {
    json e;
    ASSERT_TRUE(eventually([&] {
      e = rib_entry(c_socket_, "10.1.0.0/24");
      return !e.is_null();
    })) << lab_.dump_logs();
    ASSERT_EQ(e["paths"].size(), 1u) << e.dump(2);
    const json& path = e["paths"][0];
    EXPECT_EQ(path.value("as_path", ""), x_asn() + " 65001");
    bool found = false;
    for (const json& ec : path["extended_communities"]) {
      if (ec.value("hex", "") == kPathBandwidthOfA) found = true;
    }
    EXPECT_TRUE(found) << path.dump(2);
    ASSERT_TRUE(path.contains("path_bandwidth")) << path.dump(2);
    EXPECT_EQ(path["path_bandwidth"]["router_id"], "10.0.0.1");
    EXPECT_EQ(path["path_bandwidth"]["gbytes_per_second"], 65504.0);
    EXPECT_TRUE(path["path_bandwidth"]["transitive"].get<bool>());
    // c weighs it: one path, installed.
    ASSERT_EQ(e["installed"].size(), 1u);
    EXPECT_EQ(e["installed"][0]["next_hop"], "10.0.2.2");
  }

  void expect_cease_on_sigterm(const std::function<bool()>& peer_saw_cease) {
    lab_.signal(a_proc_, SIGTERM);
    EXPECT_EQ(lab_.wait_exit(a_proc_, 10), 0) << lab_.dump_logs();
    EXPECT_TRUE(eventually(peer_saw_cease, 10)) << lab_.dump_logs();
    EXPECT_NE(lab_.log(a_proc_).find("bgpd: stopped"), std::string::npos);
  }

  NetnsLab lab_;
  std::string a_, x_, c_;
  std::string a_socket_, c_socket_;
  std::size_t a_proc_ = 0, c_proc_ = 0;
};

class FrrInterop : public Interop {
 protected:
  std::string x_asn() const override { return "65100"; }

  void SetUp() override {
    require(kFrrBgpd);
    require(kVtysh);
    ASSERT_FALSE(HasFailure());
    Interop::SetUp();
    vty_ = lab_.dir().string();
    // FRR attaches an RFC 10005 link-bandwidth EC (2500 Mbit/s) to its own
    // prefix; the IPv6 next hop is set explicitly because bgpd without
    // zebra (-Z) does not know its interface addresses.
    const auto conf = lab_.write("frr.conf", R"(hostname mid
log stdout debugging
route-map LB permit 10
 set extcommunity bandwidth 2500
exit
route-map V6A permit 10
 set ipv6 next-hop global fd00:1::2
exit
route-map V6C permit 10
 set ipv6 next-hop global fd00:2::2
exit
router bgp 65100
 bgp router-id 10.0.0.100
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 10.0.1.1 remote-as 65001
 neighbor 10.0.1.1 timers connect 1
 neighbor 10.0.2.1 remote-as 65003
 neighbor 10.0.2.1 timers connect 1
 address-family ipv4 unicast
  network 10.2.0.0/24 route-map LB
  neighbor 10.0.1.1 activate
  neighbor 10.0.2.1 activate
 exit-address-family
 address-family ipv6 unicast
  network 2001:db8:2::/48
  neighbor 10.0.1.1 activate
  neighbor 10.0.1.1 route-map V6A out
  neighbor 10.0.2.1 activate
  neighbor 10.0.2.1 route-map V6C out
 exit-address-family
exit
)");
    frr_ = lab_.start(
        x_, "frr",
        {kFrrBgpd, "-S", "-Z", "-p", "179", "-P", "0", "-f", conf.string(),
         "-i", (lab_.dir() / "frr.pid").string(), "--vty_socket", vty_, "-u",
         "root", "-g", "root", "--log", "stdout"});
  }

  json vtysh(const std::string& command) {
    auto [rc, out] =
        shell(kVtysh + " --vty_socket " + vty_ + " -c '" + command + "'");
    if (rc != 0) return nullptr;
    auto doc = json::parse(out, nullptr, false);
    return doc.is_discarded() ? json() : doc;
  }

  std::string vty_;
  std::size_t frr_ = 0;
};

TEST_F(FrrInterop, EstablishesExchangesRoutesAndCarriesPathBandwidth) {
  json mid;
  ASSERT_TRUE(eventually([&] {
    mid = established(a_socket_);
    return !mid.is_null() && !established(c_socket_).is_null();
  })) << lab_.dump_logs();
  expect_capabilities(mid);
  // FRR's side of the session to a.
  json n = vtysh("show bgp neighbors 10.0.1.1 json");
  ASSERT_TRUE(n.contains("10.0.1.1")) << n.dump(2);
  EXPECT_EQ(n["10.0.1.1"].value("bgpState", ""), "Established");
  const json& caps = n["10.0.1.1"]["neighborCapabilities"];
  EXPECT_EQ(caps.value("4byteAs", ""), "advertisedAndReceived") << caps.dump();
  // We advertise only the RFC 2918 code (2), not the pre-standard 128.
  EXPECT_EQ(caps.value("routeRefresh", "").rfind("advertisedAndReceived", 0),
            0u)
      << caps.dump();
  EXPECT_TRUE(caps.contains("multiprotocolExtensions")) << caps.dump();

  // a -> FRR, both families.
  ASSERT_TRUE(eventually([&] {
    json r = vtysh("show bgp ipv4 unicast 10.1.0.0/24 json");
    return r.contains("paths") && !r["paths"].empty();
  })) << lab_.dump_logs();
  ASSERT_TRUE(eventually([&] {
    json r = vtysh("show bgp ipv6 unicast 2001:db8:1::/48 json");
    return r.contains("paths") && !r["paths"].empty();
  })) << lab_.dump_logs();
  json r = vtysh("show bgp ipv4 unicast 10.1.0.0/24 json");
  EXPECT_EQ(r["paths"][0]["aspath"]["string"], "65001") << r.dump(2);
  // FRR shows an unknown transitive EC without its value; its presence on
  // FRR and its bytes at c (below) prove it crossed unchanged.
  EXPECT_TRUE(r["paths"][0].contains("extendedCommunity")) << r.dump(2);

  // FRR -> a, both families, with FRR's RFC 10005 link bandwidth decoded.
  json e;
  ASSERT_TRUE(eventually([&] {
    e = rib_entry(a_socket_, "10.2.0.0/24");
    return !e.is_null();
  })) << lab_.dump_logs();
  const json& path = e["paths"][0];
  ASSERT_TRUE(path.contains("link_bandwidth")) << path.dump(2);
  EXPECT_EQ(path["link_bandwidth"]["bytes_per_second"], 312500000.0);
  EXPECT_EQ(path["link_bandwidth"]["asn"], 65100);
  EXPECT_EQ(path.value("next_hop", ""), "10.0.1.2");
  // fib.install is false: bgpctl fib shows the RIB's installed set, not
  // programmed, with the kernel weight it would get.
  const json fib = bgpctl(a_socket_, "fib");
  const json* route = find_by(fib, "prefix", "10.2.0.0/24");
  ASSERT_NE(route, nullptr) << fib.dump(2);
  EXPECT_FALSE(route->value("programmed", true));
  ASSERT_EQ((*route)["members"].size(), 1u) << route->dump(2);
  EXPECT_EQ((*route)["members"][0].value("gateway", ""), "10.0.1.2");
  EXPECT_EQ((*route)["members"][0].value("kernel_weight", 0), 256);
  ASSERT_TRUE(eventually([&] {
    return !rib_entry(a_socket_, "2001:db8:2::/48").is_null();
  })) << lab_.dump_logs();
  EXPECT_EQ(rib_entry(a_socket_, "2001:db8:2::/48")["paths"][0]["next_hop"],
            "fd00:1::2");

  // a -> FRR -> c: the Path Bandwidth EC crossed the FRR hop unchanged.
  expect_path_bandwidth_crossed();
  // And c's prefix reached a the other way.
  ASSERT_TRUE(eventually([&] {
    return !rib_entry(a_socket_, "10.3.0.0/24").is_null();
  })) << lab_.dump_logs();

  // SIGTERM: a sends Cease, FRR records it.
  expect_cease_on_sigterm([&] {
    json n2 = vtysh("show bgp neighbors 10.0.1.1 json");
    if (!n2.contains("10.0.1.1")) return false;
    // FRR keeps the last NOTIFICATION's text in lastNotificationReason /
    // lastResetDueTo (field names vary between releases): look for it.
    const std::string text = n2["10.0.1.1"].dump();
    return n2["10.0.1.1"].value("bgpState", "") != "Established" &&
           text.find("Administrative Shutdown") != std::string::npos;
  });
}

class GobgpInterop : public Interop {
 protected:
  std::string x_asn() const override { return "65200"; }

  void SetUp() override {
    require(kGobgpd);
    require(kGobgp);
    ASSERT_FALSE(HasFailure());
    Interop::SetUp();
    std::string conf = R"([global.config]
  as = 65200
  router-id = "10.0.0.200"
  port = 179
  local-address-list = ["10.0.1.2", "10.0.2.2"]
)";
    for (const auto& [address, asn] :
         {std::pair{"10.0.1.1", "65001"}, std::pair{"10.0.2.1", "65003"}}) {
      conf += std::string("[[neighbors]]\n  [neighbors.config]\n") +
              "    neighbor-address = \"" + address + "\"\n" +
              "    peer-as = " + asn + "\n" +
              "  [neighbors.timers.config]\n    connect-retry = 1\n"
              "    hold-time = 9\n    keepalive-interval = 3\n"
              "  [[neighbors.afi-safis]]\n"
              "    [neighbors.afi-safis.config]\n"
              "      afi-safi-name = \"ipv4-unicast\"\n"
              "  [[neighbors.afi-safis]]\n"
              "    [neighbors.afi-safis.config]\n"
              "      afi-safi-name = \"ipv6-unicast\"\n";
    }
    const auto path = lab_.write("gobgp.toml", conf);
    config_ = path.string();
    start_gobgpd();
  }

  void start_gobgpd() {
    gobgpd_ = lab_.start(x_, "gobgpd",
                         {kGobgpd, "-f", config_, "--api-hosts",
                          "127.0.0.1:50051", "--pprof-disable"});
    ASSERT_TRUE(eventually(
        [&] {
          return lab_.exec(x_, kGobgp + " global rib add -a ipv4 10.2.0.0/24")
                     .first == 0;
        },
        15))
        << lab_.dump_logs();
  }

  json gobgp(const std::string& args) {
    auto [rc, out] = lab_.exec(x_, kGobgp + " " + args + " -j");
    if (rc != 0) return nullptr;
    auto doc = json::parse(out, nullptr, false);
    return doc.is_discarded() ? json() : doc;
  }

  // GoBGP's session state for a neighbour (6 = ESTABLISHED), -1 when it
  // cannot be read. `gobgp neighbor ADDR -j` answers one object.
  int session_state(const std::string& address) {
    json n = gobgp("neighbor " + address);
    if (n.is_array() && !n.empty()) n = n[0];
    if (!n.is_object() || !n.contains("state")) return -1;
    return n["state"].value("session_state", -1);
  }

  std::string config_;
  std::size_t gobgpd_ = 0;
};

TEST_F(GobgpInterop, EstablishesExchangesRoutesAndCarriesPathBandwidth) {
  json mid;
  ASSERT_TRUE(eventually([&] {
    mid = established(a_socket_);
    return !mid.is_null() && !established(c_socket_).is_null();
  })) << lab_.dump_logs();
  expect_capabilities(mid);
  // GoBGP's view of the session (session_state 6 = ESTABLISHED).
  EXPECT_EQ(session_state("10.0.1.1"), 6);

  // a -> GoBGP: the EC as GoBGP decodes it (IPv4-address-specific, type 1,
  // sub-type 0xaa, a's router ID, the binary16 value 0x7bff = 31743).
  json rib;
  ASSERT_TRUE(eventually([&] {
    rib = gobgp("global rib -a ipv4 10.1.0.0/24");
    return rib.is_object() && rib.contains("10.1.0.0/24");
  })) << lab_.dump_logs();
  bool ec_seen = false;
  for (const json& attr : rib["10.1.0.0/24"][0]["attrs"]) {
    if (attr.value("type", 0) != 16) continue;  // EXTENDED_COMMUNITIES
    for (const json& v : attr["value"]) {
      // GoBGP prints an IPv4-address-specific EC as "ADDRESS:LOCAL".
      if (v.value("type", -1) == 1 && v.value("subtype", -1) == 0xaa &&
          v.value("value", "") == "10.0.0.1:31743") {
        ec_seen = true;
      }
    }
  }
  EXPECT_TRUE(ec_seen) << rib.dump(2);

  // GoBGP -> a.
  ASSERT_TRUE(eventually([&] {
    return !rib_entry(a_socket_, "10.2.0.0/24").is_null();
  })) << lab_.dump_logs();
  EXPECT_EQ(rib_entry(a_socket_, "10.2.0.0/24")["paths"][0]["next_hop"],
            "10.0.1.2");
  // IPv6 from a reaches GoBGP.
  ASSERT_TRUE(eventually([&] {
    json r6 = gobgp("global rib -a ipv6");
    return r6.is_object() && r6.contains("2001:db8:1::/48");
  })) << lab_.dump_logs();

  // a -> GoBGP -> c, unchanged.
  expect_path_bandwidth_crossed();

  expect_cease_on_sigterm([&] {
    const int state = session_state("10.0.1.1");
    return state != 6 && state != -1;
  });
}

TEST_F(GobgpInterop, HoldTimerExpiresOnAFrozenPeerAndRestartsReestablish) {
  ASSERT_TRUE(eventually([&] { return !established(a_socket_).is_null(); }))
      << lab_.dump_logs();
  // A frozen GoBGP sends no KEEPALIVE: a's hold timer (3 s, negotiated
  // down from GoBGP's 9) expires and a sends NOTIFICATION 4/0.
  lab_.signal(gobgpd_, SIGSTOP);
  EXPECT_TRUE(eventually([&] { return established(a_socket_).is_null(); }, 6))
      << lab_.dump_logs();
  EXPECT_NE(lab_.log(a_proc_).find("hold timer expired"), std::string::npos)
      << lab_.log(a_proc_);
  lab_.signal(gobgpd_, SIGCONT);
  EXPECT_TRUE(eventually([&] { return !established(a_socket_).is_null(); }, 15))
      << lab_.dump_logs();
  // GoBGP killed and started again: a's session and GoBGP's route return.
  lab_.signal(gobgpd_, SIGKILL);
  lab_.wait_exit(gobgpd_, 5);
  EXPECT_TRUE(eventually([&] { return established(a_socket_).is_null(); }, 5));
  EXPECT_TRUE(eventually(
      [&] { return rib_entry(a_socket_, "10.2.0.0/24").is_null(); }, 5));
  start_gobgpd();
  EXPECT_TRUE(eventually(
      [&] {
        return !established(a_socket_).is_null() &&
               !rib_entry(a_socket_, "10.2.0.0/24").is_null();
      },
      15))
      << lab_.dump_logs();
  EXPECT_GE(established(a_socket_).value("established_transitions", 0u), 3u);
}

// The 3-stage fabric of issue 6 with a third-party spine: four arfabric
// leaves, spine s1 arfabric, spine s2 FRR (which knows nothing of FARE and
// passes the Path Bandwidth EC on unchanged). l1-s1 runs at half
// bandwidth (50G, the rest 100G), so the far leaf l4 weighs its two paths
// to l1's prefix 50G (via s1) : 100G (via FRR) = 128 : 256 in its kernel
// nexthop group. Lowering l4-s2 to 25G by SIGHUP turns that into 256 : 128
// within a second; taking l4-s1 down leaves the FRR path alone, bringing it
// up restores both. FRR runs with its zebra: while l4-s1 is down, l4 and l1
// reach each other through the FRR spine alone.
TEST(FrrSpineFabric, FarLeafKernelWeightsFollowFare) {
  ASSERT_TRUE(require(kFrrBgpd));
  ASSERT_TRUE(require(kFrrZebra));
  NetnsLab lab;
  std::map<std::string, std::string> ns;
  for (const char* n : {"l1", "l2", "l3", "l4", "s1", "s2"}) {
    ns[n] = lab.add_namespace(n);
  }
  // Leaf i: 10.1.i.1 toward s1 (10.1.i.2), 10.2.i.1 toward s2 (10.2.i.2).
  std::map<std::string, std::pair<std::string, std::string>> dev;
  for (int i = 1; i <= 4; ++i) {
    const std::string l = "l" + std::to_string(i), k = std::to_string(i);
    dev[l + "s1"] =
        lab.link(ns[l], "10.1." + k + ".1/30", ns["s1"], "10.1." + k + ".2/30");
    dev[l + "s2"] =
        lab.link(ns[l], "10.2." + k + ".1/30", ns["s2"], "10.2." + k + ".2/30");
  }
  auto peer = [](const std::string& name, const std::string& address,
                 const std::string& asn, const std::string& local,
                 const std::string& device, const std::string& bw,
                 const std::string& role) {
    return "  - {name: " + name + ", address: " + address + ", asn: " + asn +
           ", local_address: " + local + ", interface: " + device +
           ", link_bandwidth: " + bw + ", role: " + role + "}\n";
  };
  auto head = [&](const std::string& n, const std::string& asn,
                  const std::string& id, const std::string& role,
                  const std::string& prefixes) {
    return "asn: " + asn + "\nrouter_id: " + id + "\nrole: " + role +
           "\ncontrol_socket: " + (lab.dir() / (n + ".sock")).string() +
           "\nlog_level: debug\nprefixes: " + prefixes +
           "\ntimers: {hold: 9, connect_retry: 1, idle_hold: 0}\n"
           "interface_poll_ms: 200\npeers:\n";
  };
  auto leaf_config = [&](int i, const std::string& s2_bandwidth) {
    const std::string l = "l" + std::to_string(i), k = std::to_string(i);
    return head(l, std::to_string(65000 + i), "10.0.0." + k, "leaf",
                "[172.16." + k + ".0/24]") +
           peer("s1", "10.1." + k + ".2", "65100", "10.1." + k + ".1",
                dev[l + "s1"].first, i == 1 ? "50G" : "100G", "spine") +
           peer("s2", "10.2." + k + ".2", "65200", "10.2." + k + ".1",
                dev[l + "s2"].first, s2_bandwidth, "spine");
  };
  // An address inside each leaf's prefix, for traffic; spines forward.
  for (int i : {1, 4}) {
    const std::string k = std::to_string(i);
    const auto added =
        lab.exec(ns["l" + k], "ip addr add 172.16." + k + ".1/32 dev lo");
    ASSERT_EQ(added.first, 0) << added.second;
  }
  for (const char* s : {"s1", "s2"}) {
    lab.exec(ns[s], "sysctl -qw net.ipv4.ip_forward=1");
  }
  std::map<std::string, std::string> config;
  std::map<std::string, std::size_t> proc;
  for (int i = 1; i <= 4; ++i) {
    const std::string l = "l" + std::to_string(i);
    config[l] = lab.write(l + ".yaml", leaf_config(i, "100G")).string();
  }
  std::string s1 = head("s1", "65100", "10.0.0.101", "spine", "[]");
  std::string frr = R"(hostname s2
log stdout debugging
router bgp 65200
 bgp router-id 10.0.0.102
 no bgp ebgp-requires-policy
 timers bgp 3 9
)";
  for (int i = 1; i <= 4; ++i) {
    const std::string l = "l" + std::to_string(i), k = std::to_string(i);
    s1 += peer(l, "10.1." + k + ".1", std::to_string(65000 + i),
               "10.1." + k + ".2", dev[l + "s1"].second,
               i == 1 ? "50G" : "100G", "leaf");
    frr += " neighbor 10.2." + k + ".1 remote-as " + std::to_string(65000 + i) +
           "\n neighbor 10.2." + k + ".1 timers connect 1\n";
  }
  config["s1"] = lab.write("s1.yaml", s1).string();
  const auto frr_conf = lab.write("frr.conf", frr);
  // FRR with its zebra, so that the FRR spine programs its kernel and
  // forwards (scripts/setup puts root in FRR's vty group for zebra).
  const std::string zserv = (lab.dir() / "zserv.api").string();
  proc["zebra"] = lab.start(
      ns["s2"], "zebra",
      {kFrrZebra, "-z", zserv, "-P", "0", "-f",
       lab.write("zebra.conf", "hostname s2\n").string(), "-i",
       (lab.dir() / "zebra.pid").string(), "--vty_socket", lab.dir().string(),
       "-u", "root", "-g", "root", "--log", "stdout"});
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(zserv); }, 5))
      << lab.dump_logs();
  proc["s2"] = lab.start(ns["s2"], "frr",
                         {kFrrBgpd,       "-S",
                          "-z",           zserv,
                          "-p",           "179",
                          "-P",           "0",
                          "-f",           frr_conf.string(),
                          "-i",           (lab.dir() / "frr.pid").string(),
                          "--vty_socket", lab.dir().string(),
                          "-u",           "root",
                          "-g",           "root",
                          "--log",        "stdout"});
  for (const char* n : {"l1", "l2", "l3", "l4", "s1"}) {
    proc[n] = lab.start(ns[n], std::string("arfabric-") + n,
                        {ARFABRIC_BINARY, "bgpd", "-c", config[n]});
  }
  // l4's kernel weights toward l1's prefix, by gateway.
  auto weights = [&] {
    std::map<std::string, int> out;
    auto routes =
        json::parse(lab.exec(ns["l4"], "ip -j route show 172.16.1.0/24").second,
                    nullptr, false);
    auto nhs = json::parse(lab.exec(ns["l4"], "ip -j nexthop show").second,
                           nullptr, false);
    if (routes.is_discarded() || routes.empty() || nhs.is_discarded()) {
      return out;
    }
    std::map<unsigned, std::string> gateway;
    for (const json& nh : nhs) {
      if (nh.contains("gateway")) gateway[nh["id"]] = nh["gateway"];
    }
    for (const json& nh : nhs) {
      if (nh.value("id", 0u) != routes[0].value("nhid", 0u)) continue;
      for (const json& m : nh.value("group", json::array())) {
        out[gateway[m["id"]]] = m.value("weight", 1);
      }
    }
    return out;
  };
  std::map<std::string, int> w;
  ASSERT_TRUE(eventually(
      [&] {
        w = weights();
        return w.size() == 2 && w["10.1.4.2"] == 128 && w["10.2.4.2"] == 256;
      },
      30))
      << ::testing::PrintToString(w) << lab.dump_logs();
  // The path via FRR carries l1's EC unchanged (AS path 65200 65001).
  json rib = bgpctl((lab.dir() / "l4.sock").string(), "rib");
  const json* e = find_by(rib, "prefix", "172.16.1.0/24");
  ASSERT_NE(e, nullptr) << rib.dump(2);
  bool via_frr = false;
  for (const json& p : (*e)["paths"]) {
    if (p.value("as_path", "") != "65200 65001") continue;
    via_frr = true;
    EXPECT_EQ(p["path_bandwidth"]["router_id"], "10.0.0.1") << p.dump(2);
    EXPECT_EQ(p["path_bandwidth"]["gbytes_per_second"], 65504.0);
  }
  EXPECT_TRUE(via_frr) << e->dump(2);

  // l4-s2 lowered to 25G at run time: within a second the kernel follows.
  lab.write("l4.yaml", leaf_config(4, "25G"));
  lab.signal(proc["l4"], SIGHUP);
  ASSERT_TRUE(eventually(
      [&] {
        w = weights();
        return w.size() == 2 && w["10.1.4.2"] == 256 && w["10.2.4.2"] == 128;
      },
      1.0))
      << ::testing::PrintToString(w) << lab.dump_logs();

  // l4-s1 down: only the FRR path; up again: both.
  lab.exec(ns["l4"], "ip link set " + dev["l4s1"].first + " down");
  ASSERT_TRUE(eventually(
      [&] {
        w = weights();
        return w.size() == 1 && w.contains("10.2.4.2");
      },
      3))
      << ::testing::PrintToString(w) << lab.dump_logs();
  // Now traffic between l4's and l1's prefixes can only cross the FRR
  // spine, both ways (s1 lost its route to l4 with the link).
  auto ping = [&] {
    return lab.exec(ns["l4"], "ping -c1 -W1 -I 172.16.4.1 172.16.1.1").first ==
           0;
  };
  EXPECT_TRUE(eventually(ping, 5))
      << "s2:\n"
      << lab.exec(ns["s2"], "ip route").second << "l4:\n"
      << lab.exec(ns["l4"], "ip route").second << "l1:\n"
      << lab.exec(ns["l1"], "ip route").second << lab.dump_logs();
  // The kernel drops the nexthop with its device at once; the daemon also
  // stops the session (no hold-timer wait).
  const std::string l4_socket = (lab.dir() / "l4.sock").string();
  auto s1_state = [&] {
    const json all = bgpctl(l4_socket, "neighbors");
    const json* n = find_by(all, "name", "s1");
    return n ? n->value("state", "") : std::string();
  };
  EXPECT_TRUE(eventually([&] { return s1_state() == "Idle"; }, 3))
      << lab.dump_logs();
  lab.exec(ns["l4"], "ip link set " + dev["l4s1"].first + " up");
  ASSERT_TRUE(eventually([&] { return weights().size() == 2; }, 10))
      << lab.dump_logs();
  EXPECT_EQ(s1_state(), "Established");
}

// IPv6 link-local sessions with both real peers at once: arfabric's `a`
// peers with FRR (and its zebra) on one link and GoBGP on another, both at
// fe80::2, IPv6 unicast only, no global address on either link. Each
// session comes up (FRR's `neighbor ... interface`, GoBGP's zoned
// neighbor-address); a's kernel routes go through each peer's link-local
// address on that peer's link; and the routes a passes on, with its
// link-local NEXT_HOP, are accepted: FRR's zebra installs GoBGP's prefix
// through fe80::1 on its link.
TEST(LinkLocalInterop, FrrAndGobgpAtOneLinkLocalAddressOnTwoLinks) {
  ASSERT_TRUE(require(kFrrBgpd));
  ASSERT_TRUE(require(kFrrZebra));
  ASSERT_TRUE(require(kVtysh));
  ASSERT_TRUE(require(kGobgpd));
  ASSERT_TRUE(require(kGobgp));
  NetnsLab lab;
  const std::string a = lab.add_namespace("a");
  const std::string f = lab.add_namespace("f");
  const std::string g = lab.add_namespace("g");
  const auto af = lab.link(a, "", f, "", "fe80::1/64", "fe80::2/64");
  const auto ag = lab.link(a, "", g, "", "fe80::1/64", "fe80::2/64");
  const std::string a_socket = (lab.dir() / "a.sock").string();
  std::string conf =
      "asn: 65001\nrouter_id: 10.0.0.1\nlisten: {address: \"::\"}\n"
      "control_socket: " +
      a_socket +
      "\nlog_level: debug\nprefixes: [\"2001:db8:1::/48\"]\n"
      "timers: {hold: 9, connect_retry: 1, idle_hold: 0}\npeers:\n";
  for (const auto& [name, asn, dev] :
       {std::tuple{"frr", "65100", af.first}, {"gobgp", "65200", ag.first}}) {
    conf += std::string("  - {name: ") + name +
            ", address: \"fe80::2\", asn: " + asn +
            ", local_address: \"fe80::1\", interface: " + dev +
            ", link_bandwidth: 100G, role: spine, families: [ipv6]}\n";
  }
  const std::string frr_conf =
      "hostname f\nlog stdout debugging\n"
      "router bgp 65100\n"
      " bgp router-id 10.0.0.100\n"
      " no bgp ebgp-requires-policy\n"
      " no bgp network import-check\n"
      " no bgp default ipv4-unicast\n"
      " timers bgp 3 9\n"
      " neighbor fe80::1 remote-as 65001\n"
      " neighbor fe80::1 interface " +
      af.second +
      "\n neighbor fe80::1 timers connect 1\n"
      " address-family ipv6 unicast\n"
      "  network 2001:db8:2::/48\n"
      "  neighbor fe80::1 activate\n"
      " exit-address-family\nexit\n";
  const std::string gobgp_conf =
      "[global.config]\n  as = 65200\n  router-id = \"10.0.0.200\"\n"
      "  port = 179\n"
      "[[neighbors]]\n  [neighbors.config]\n"
      "    neighbor-address = \"fe80::1%" +
      ag.second +
      "\"\n    peer-as = 65001\n"
      // The link has a second link-local address of the kernel's making:
      // connect from fe80::2, where a expects GoBGP.
      "  [neighbors.transport.config]\n    local-address = \"fe80::2%" +
      ag.second +
      "\"\n"
      "  [neighbors.timers.config]\n    connect-retry = 1\n"
      "    hold-time = 9\n    keepalive-interval = 3\n"
      "  [[neighbors.afi-safis]]\n    [neighbors.afi-safis.config]\n"
      "      afi-safi-name = \"ipv6-unicast\"\n";
  const std::string zserv = (lab.dir() / "zserv.api").string();
  lab.start(
      f, "zebra",
      {kFrrZebra, "-z", zserv, "-P", "0", "-f",
       lab.write("zebra.conf", "hostname f\n").string(), "-i",
       (lab.dir() / "zebra.pid").string(), "--vty_socket", lab.dir().string(),
       "-u", "root", "-g", "root", "--log", "stdout"});
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(zserv); }, 5))
      << lab.dump_logs();
  lab.start(f, "frr", {kFrrBgpd,       "-S",
                       "-z",           zserv,
                       "-p",           "179",
                       "-P",           "0",
                       "-f",           lab.write("frr.conf", frr_conf).string(),
                       "-i",           (lab.dir() / "frr.pid").string(),
                       "--vty_socket", lab.dir().string(),
                       "-u",           "root",
                       "-g",           "root",
                       "--log",        "stdout"});
  lab.start(g, "gobgpd",
            {kGobgpd, "-f", lab.write("gobgp.toml", gobgp_conf).string(),
             "--api-hosts", "127.0.0.1:50051", "--pprof-disable"});
  ASSERT_TRUE(eventually(
      [&] {
        return lab.exec(g, kGobgp + " global rib add -a ipv6 2001:db8:3::/48")
                   .first == 0;
      },
      15))
      << lab.dump_logs();
  lab.start(
      a, "arfabric-a",
      {ARFABRIC_BINARY, "bgpd", "-c", lab.write("a.yaml", conf).string()});

  ASSERT_TRUE(eventually([&] {
    return peers_established(a_socket, {"frr", "gobgp"});
  })) << bgpctl(a_socket, "neighbors").dump(2)
      << lab.dump_logs();

  // a's kernel: each peer's prefix through its link-local address, on its
  // own link.
  for (const auto& [prefix, dev] : {std::pair{"2001:db8:2::/48", af.first},
                                    {"2001:db8:3::/48", ag.first}}) {
    EXPECT_TRUE(next_hops_become(lab, a, prefix, {"fe80::2 " + dev}));
  }
  // GoBGP has a's prefix and FRR's, passed on by a.
  json rib;
  EXPECT_TRUE(eventually([&] {
    auto [rc, out] = lab.exec(g, kGobgp + " global rib -a ipv6 -j");
    rib = json::parse(out, nullptr, false);
    return rc == 0 && rib.is_object() && rib.contains("2001:db8:1::/48") &&
           rib.contains("2001:db8:2::/48");
  })) << rib.dump(2)
      << lab.dump_logs();
  // FRR's zebra installed GoBGP's prefix through a's link-local NEXT_HOP.
  EXPECT_TRUE(
      next_hops_become(lab, f, "2001:db8:3::/48", {"fe80::1 " + af.second}))
      << shell(kVtysh + " --vty_socket " + lab.dir().string() +
               " -c 'show bgp ipv6 unicast'")
             .second;
}

}  // namespace
}  // namespace arfabric::testing
