// The daemon's YAML configuration: a full file maps onto the engine's
// SpeakerConfig, and every kind of mistake is reported at its file, line
// and key.
#include "daemon/config.h"

#include <gtest/gtest.h>

namespace arfabric::daemon {
namespace {

constexpr const char* kGood = R"(asn: 65001
router_id: 10.0.0.1
role: spine
listen: {address: 10.0.0.1, port: 1179}
control_socket: /tmp/x.sock
prefixes: [10.1.0.0/24, "2001:db8:1::/48"]
multipath: {maximum_paths: 8}
fare: {sub_type: 0xab, multihoming: multiply,
       multihomed: [{prefix: 10.9.0.0/24, leaves: 2}]}
timers: {hold: 9, connect_retry: 2, mrai_ms: 5}
peers:
  - name: leaf1
    address: 10.0.1.2
    asn: 65101
    local_address: 10.0.1.1
    next_hop_ipv6: "fd00::1"
    link_bandwidth: 400G
    role: leaf
    hold: 30
  - address: "fd00:1::2"
    asn: 65102
    interface: eth2
    passive: true
    families: [ipv6]
)";

TEST(DaemonConfig, ReadsEveryKeyIntoTheEngineConfig) {
  auto c = parse_config(kGood, "good.yaml");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->asn, 65001u);
  EXPECT_EQ(c->role, proto::fare::Role::spine);
  EXPECT_EQ(c->listen_port, 1179);
  EXPECT_EQ(c->fib_metric, 20u);  // as zebra's BGP routes
  // A default route, and blocks beside the refused ones, originate.
  auto routable = parse_config(
      "asn: 65001\nrouter_id: 10.0.0.1\nprefixes: [0.0.0.0/0, 128.0.0.0/1, "
      "169.253.0.0/16, 223.255.255.0/24, \"::/0\", \"fe00::/9\", "
      "\"::2/128\"]\n",
      "routable.yaml");
  ASSERT_TRUE(routable) << routable.error().to_string();
  auto metric =
      parse_config(std::string(kGood) + "fib: {metric: 200}\n", "metric.yaml");
  ASSERT_TRUE(metric) << metric.error().to_string();
  EXPECT_EQ(metric->fib_metric, 200u);
  ASSERT_EQ(c->peers.size(), 2u);
  EXPECT_EQ(c->peers[1].name, "fd00:1::2");  // the address by default
  EXPECT_TRUE(c->peers[1].bandwidth_from_interface);
  EXPECT_FALSE(c->peers[1].ipv4);
  auto sc = speaker_config(*c, {gbps(400), gbps(100)});
  EXPECT_TRUE(proto::bgp::validate(sc));
  EXPECT_EQ(sc.rib.fare.sub_type, 0xab);
  EXPECT_EQ(sc.rib.fare.role, proto::fare::Role::spine);
  EXPECT_EQ(sc.rib.maximum_paths, 8u);
  ASSERT_EQ(sc.networks.size(), 2u);
  ASSERT_EQ(sc.multihomed.size(), 1u);
  EXPECT_EQ(sc.multihomed[0].second, 2u);
  const auto& p0 = sc.peers[0];
  EXPECT_EQ(p0.session.hold_time_s, 30);  // per-peer override
  EXPECT_EQ(p0.session.connect_retry_time, sec(2));
  EXPECT_EQ(p0.mrai, ms(5));
  EXPECT_EQ(p0.link_bandwidth, gbps(400));
  EXPECT_EQ(p0.next_hop_ipv4, (Bytes{10, 0, 1, 1}));
  EXPECT_EQ(p0.next_hop_ipv6.size(), 16u);
  EXPECT_EQ(p0.session.families.size(), 2u);
  const auto& p1 = sc.peers[1];
  EXPECT_TRUE(p1.session.passive);
  EXPECT_EQ(p1.session.hold_time_s, 9);
  EXPECT_EQ(p1.link_bandwidth, gbps(100));
  // No local_address: the listen address is the IPv4 next hop.
  EXPECT_EQ(p1.next_hop_ipv4, (Bytes{10, 0, 0, 1}));
}

struct BadCase {
  const char* name;
  std::string text;
  int line;
  std::string key;
  std::string message_part;
};

class DaemonConfigErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(DaemonConfigErrors, NameFileLineAndKey) {
  const BadCase& b = GetParam();
  auto c = parse_config(b.text, "bad.yaml");
  ASSERT_FALSE(c) << b.name;
  EXPECT_EQ(c.error().file, "bad.yaml");
  EXPECT_EQ(c.error().line, b.line) << c.error().to_string();
  EXPECT_EQ(c.error().key, b.key) << c.error().to_string();
  EXPECT_NE(c.error().message.find(b.message_part), std::string::npos)
      << c.error().to_string();
  EXPECT_EQ(
      c.error().to_string().rfind("bad.yaml:" + std::to_string(b.line), 0), 0u);
}

const std::string kHead = "asn: 65001\nrouter_id: 10.0.0.1\n";
const std::string kPeer =
    "peers:\n  - address: 10.0.1.2\n    asn: 65101\n"
    "    local_address: 10.0.1.1\n";

INSTANTIATE_TEST_SUITE_P(
    All, DaemonConfigErrors,
    ::testing::Values(
        BadCase{"typo", kHead + "rol: leaf\n", 3, "rol", "did you mean 'role'"},
        BadCase{"missing asn", "router_id: 1.2.3.4\n", 1, "asn",
                "missing required key"},
        // Metric 0 would replace connected and static IPv4 routes.
        BadCase{"fib metric 0", kHead + "fib: {metric: 0}\n", 3, "fib.metric",
                "0 is outside 1..4294967295"},
        BadCase{"as_trans", "asn: 23456\nrouter_id: 1.2.3.4\n", 1, "asn",
                "AS_TRANS"},
        BadCase{"router id zero", "asn: 1\nrouter_id: 0.0.0.0\n", 2,
                "router_id", "non-zero"},
        BadCase{"bad role", kHead + "role: core\n", 3, "role",
                "leaf, spine or super-spine"},
        BadCase{"bad rate", kHead + kPeer + "    link_bandwidth: 4X\n", 7,
                "peers[0].link_bandwidth",
                "rate '4X': expected a number with K/M/G/T suffix"},
        // Bytes, not read as bits (8x off): the scenario's rate parser.
        BadCase{"bytes per second",
                kHead + kPeer + "    link_bandwidth: 50GBps\n", 7,
                "peers[0].link_bandwidth", "B is bytes"},
        BadCase{"a bandwidth without its unit",
                kHead + kPeer + "    link_bandwidth: 400\n", 7,
                "peers[0].link_bandwidth", "'400' has no unit: write it as"},
        BadCase{"no bandwidth source", kHead + kPeer, 4,
                "peers[0].link_bandwidth", "missing"},
        BadCase{"bad address",
                kHead + "peers:\n  - address: 10.0.1.300\n    asn: 2\n", 4,
                "peers[0].address", "not an IPv4 or IPv6 address"},
        BadCase{"ibgp",
                kHead + "peers:\n  - address: 10.0.1.2\n    asn: 65001\n"
                        "    link_bandwidth: 1G\n    local_address: 1.1.1.1\n",
                5, "peers[0].asn", "iBGP"},
        BadCase{"hold 2", kHead + "timers: {hold: 2}\n", 3, "timers.hold",
                "at least 3"},
        BadCase{"no next hop",
                kHead + "peers:\n  - address: 10.0.1.2\n    asn: 2\n"
                        "    link_bandwidth: 1G\n",
                4, "peers[0].local_address", "NEXT_HOP"},
        BadCase{"duplicate peer",
                kHead + kPeer + "    link_bandwidth: 1G\n" +
                    "  - address: 10.0.1.2\n    asn: 3\n"
                    "    link_bandwidth: 1G\n",
                8, "peers[1].address", "same address"},
        BadCase{"host bits in a prefix",
                kHead + "prefixes: [10.1.0.0/24, 10.1.1.1/24]\n", 3,
                "prefixes[1]",
                "'10.1.1.1/24' has bits set past its length (did you mean "
                "10.1.1.0/24?)"},
        BadCase{"host bits in an IPv6 prefix",
                kHead + "prefixes: [\"2001:db8::1/64\"]\n", 3, "prefixes[0]",
                "did you mean 2001:db8::/64?"},
        BadCase{"a bit past a length that is not whole bytes",
                kHead + "fare: {multihomed: [{prefix: 10.1.16.0/19, "
                        "leaves: 2}]}\n",
                3, "fare.multihomed[0].prefix", "did you mean 10.1.0.0/19?"},
        BadCase{"duplicate prefix",
                kHead + "prefixes:\n  - 10.1.0.0/24\n  - 10.2.0.0/24\n"
                        "  - 10.1.0.0/24\n",
                6, "prefixes[2]", "the same prefix as prefixes[0]"},
        BadCase{"a multi-homed prefix twice",
                kHead + "fare:\n  multihomed:\n"
                        "    - {prefix: 10.9.0.0/24, leaves: 2}\n"
                        "    - {prefix: 10.9.0.0/24, leaves: 3}\n",
                6, "fare.multihomed[1].prefix",
                "the same prefix as fare.multihomed[0]"},
        BadCase{"UTF-16",
                "\xFF\xFE"
                "a",
                1, "(file)", "UTF-16 text"},
        BadCase{"not UTF-8",
                kHead + "role: l\xE9"
                        "af\n",
                3, "(file)", "not UTF-8"},
        BadCase{"a raw DEL",
                kHead + "role: le\x7f"
                        "af\n",
                3, "(file)",
                "control character U+007F is not allowed in YAML text"},
        BadCase{"a second document", kHead + "---\nrole: leaf\n", 4, "(yaml)",
                "a second YAML document"},
        BadCase{"sub-type 2 is a route target", kHead + "fare: {sub_type: 2}\n",
                3, "fare.sub_type", "Route Target"},
        BadCase{"transitivity", kHead + "fare: {transitivity: maybe}\n", 3,
                "fare.transitivity", "not transitive or non-transitive"},
        BadCase{"non-transitive super-spine",
                kHead + "role: super-spine\nfare:\n  transitivity: "
                        "non-transitive\n",
                5, "fare.transitivity", "3-stage"},
        BadCase{
            "a peer at the unspecified address",
            kHead +
                "peers:\n  - {address: 0.0.0.0, asn: 2, link_bandwidth: 1G}\n",
            4, "peers[0].address", "the unspecified address is no peer's"},
        BadCase{"a peer at the broadcast address",
                kHead + "peers:\n  - {address: 255.255.255.255, asn: 2, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].address", "the broadcast address"},
        BadCase{"a peer name with a newline",
                kHead + "peers:\n  - {name: \"a\\nfake log line\", "
                        "address: 10.0.1.2, asn: 2, local_address: 10.0.1.1, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].name", "without control characters"},
        BadCase{"an interface name too long",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "local_address: 10.0.1.1, interface: "
                        "abcdefghijklmnop, link_bandwidth: 1G}\n",
                4, "peers[0].interface",
                "'abcdefghijklmnop' is no Linux interface name"},
        BadCase{"an interface name with a slash",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "local_address: 10.0.1.1, interface: ../etc, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].interface", "no Linux interface name"},
        BadCase{"a control socket path too long",
                kHead + "control_socket: /" + std::string(120, 'x') + "\n", 3,
                "control_socket", "121 bytes: a socket path holds at most 107"},
        // Our end of a session, the NEXT_HOP the peer gets: an address
        // of one of our interfaces.
        BadCase{"an unspecified local_address",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "local_address: 0.0.0.0, link_bandwidth: 1G}\n",
                4, "peers[0].local_address",
                "the unspecified address: our end"},
        BadCase{"a multicast local_address",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "local_address: 224.0.0.1, link_bandwidth: 1G}\n",
                4, "peers[0].local_address", "a multicast address"},
        BadCase{"a broadcast local_address",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "local_address: 255.255.255.255, link_bandwidth: 1G}\n",
                4, "peers[0].local_address", "the broadcast address"},
        BadCase{"an unspecified next_hop_ipv6",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "next_hop_ipv6: \"::\", local_address: 10.0.1.1, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].next_hop_ipv6",
                "the unspecified address is no next hop"},
        BadCase{"a multicast next_hop_ipv6",
                kHead + "peers:\n  - {address: 10.0.1.2, asn: 2, "
                        "next_hop_ipv6: \"ff02::1\", local_address: 10.0.1.1, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].next_hop_ipv6", "a multicast address"},
        BadCase{"a multicast listen address",
                kHead + "listen: {address: 224.0.0.1}\n", 3, "listen.address",
                "a multicast address: listen on an address of ours"},
        BadCase{"a multicast prefix", kHead + "prefixes: [224.0.0.0/4]\n", 3,
                "prefixes[0]", "inside 224.0.0.0/4 (multicast): no route"},
        BadCase{"a loopback prefix",
                kHead + "prefixes: [10.1.0.0/24, 127.0.0.0/8]\n", 3,
                "prefixes[1]", "inside 127.0.0.0/8 (loopback)"},
        BadCase{"an IPv6 link-local prefix",
                kHead + "prefixes: [\"fe80::/64\"]\n", 3, "prefixes[0]",
                "inside fe80::/10 (link-local)"},
        BadCase{"an IPv6 multicast prefix",
                kHead + "prefixes: [\"ff00::/8\"]\n", 3, "prefixes[0]",
                "inside ff00::/8 (multicast)"},
        BadCase{"an IPv4-mapped prefix",
                kHead + "prefixes: [\"::ffff:10.0.0.0/120\"]\n", 3,
                "prefixes[0]", "IPv4-mapped: write the IPv4 prefix"},
        BadCase{"the IPv6 loopback", kHead + "prefixes: [\"::1/128\"]\n", 3,
                "prefixes[0]", "::1 (loopback)"},
        BadCase{"a peer at a multicast address",
                kHead + "peers:\n  - {address: 224.0.0.5, asn: 2, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].address", "a multicast address"},
        BadCase{"a peer at an IPv6 multicast address",
                kHead + "peers:\n  - {address: \"ff02::5\", asn: 2, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].address", "a multicast address"},
        BadCase{"an IPv4-mapped peer",
                kHead + "peers:\n  - {address: \"::ffff:10.0.1.2\", asn: 2, "
                        "link_bandwidth: 1G}\n",
                4, "peers[0].address",
                "write the peer's IPv4 address, 10.0.1.2"},
        BadCase{"a peer at our own local address",
                kHead + "peers:\n  - {address: 10.0.1.1, asn: 2,\n"
                        "     local_address: 10.0.1.1, link_bandwidth: 1G}\n",
                4, "peers[0].address", "our own local_address"},
        BadCase{"a peer at our listen address",
                kHead + "listen: {address: 10.0.0.9}\npeers:\n"
                        "  - {address: 10.0.0.9, asn: 2, link_bandwidth: 1G}\n",
                5, "peers[0].address", "our own listen address"},
        BadCase{"an empty peer name",
                kHead + kPeer + "    link_bandwidth: 1G\n    name: \"\"\n", 8,
                "peers[0].name", "must not be empty"},
        BadCase{"a peer name twice",
                kHead + kPeer + "    link_bandwidth: 1G\n    name: s1\n" +
                    "  - {address: 10.0.2.2, asn: 3, name: s1,\n"
                    "     local_address: 10.0.2.1, link_bandwidth: 1G}\n",
                9, "peers[1].name", "peer 's1' is named twice"},
        BadCase{"a peer hold of 1",
                kHead + kPeer + "    link_bandwidth: 1G\n    hold: 1\n", 8,
                "peers[0].hold", "must be 0 (no keepalives) or at least 3"},
        BadCase{"AS_TRANS as a peer's AS",
                kHead + "peers:\n  - address: 10.0.1.2\n    asn: 23456\n"
                        "    local_address: 10.0.1.1\n    link_bandwidth: 1G\n",
                5, "peers[0].asn", "AS_TRANS"},
        BadCase{"family",
                kHead + kPeer +
                    "    link_bandwidth: 1G\n"
                    "    families: [ipv4, mpls]\n",
                8, "peers[0].families[1]", "not ipv4 or ipv6"},
        BadCase{"a link-local peer without its interface",
                kHead + "peers:\n  - {address: \"fe80::2\", asn: 2,\n"
                        "     link_bandwidth: 1G}\n",
                4, "peers[0].address",
                "give the peer's interface (peers[0].interface)"},
        BadCase{"a link-local local_address without the interface",
                kHead + "peers:\n  - {address: \"fd00::2\", asn: 2,\n"
                        "     local_address: \"fe80::1\", link_bandwidth: "
                        "1G}\n",
                5, "peers[0].local_address", "a link-local address is one"},
        BadCase{"a zone in the address",
                kHead + "peers:\n  - {address: \"fe80::2%eth1\", asn: 2}\n", 4,
                "peers[0].address", "a zone such as %eth1 is not part of one"},
        BadCase{"a link-local next_hop_ipv6",
                kHead + "peers:\n  - {address: \"fd00::2\", asn: 2,\n"
                        "     next_hop_ipv6: \"fe80::1\"}\n",
                5, "peers[0].next_hop_ipv6", "the global next hop"},
        BadCase{"a link-local listen address",
                kHead + "listen: {address: \"fe80::1\"}\n", 3, "listen.address",
                "listen on \"::\" instead"},
        BadCase{"one link-local address twice on one interface",
                kHead + "peers:\n"
                        "  - {address: \"fe80::2\", asn: 2, interface: e1,\n"
                        "     local_address: \"fe80::1\", link_bandwidth: 1G}\n"
                        "  - {address: \"fe80::2\", asn: 3, interface: e1,\n"
                        "     local_address: \"fe80::1\", name: x,\n"
                        "     link_bandwidth: 1G}\n",
                6, "peers[1].address", "same address"},
        BadCase{"\"::\" is no IPv4 next hop",
                kHead + "listen: {address: \"::\"}\npeers:\n"
                        "  - {address: 10.0.1.2, asn: 2, link_bandwidth: 1G}\n",
                5, "peers[0].local_address", "our IPv4 address"},
        BadCase{"a link-local peer without local_address",
                kHead + "peers:\n  - {address: \"fe80::2\", asn: 2,\n"
                        "     interface: e1, link_bandwidth: 1G}\n",
                4, "peers[0].address", "needs local_address"},
        BadCase{"yaml syntax", kHead + "peers: [\n", 4, "(yaml)", ""},
        // Found by fuzz/daemon_config_fuzz: keys without a name gave an
        // error with an empty key.
        BadCase{"null key", ":\n", 1, "(top level)", "non-empty word"},
        BadCase{"empty key", kHead + "\"\": 1\n", 3, "(top level)",
                "non-empty word"},
        BadCase{"list as a key", kHead + "timers: {[a]: 1}\n", 3, "timers",
                "non-empty word"},
        // Found by fuzz/daemon_config_fuzz: inet_pton stopped at the NUL.
        BadCase{"NUL in an address",
                "asn: 65001\nrouter_id: \"10.0.0.1\\0junk\"\n", 2, "router_id",
                "not an IPv4 or IPv6 address"}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& ch : n) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return n;
    });

// A peer's hold: 0 is RFC 4271's "no keepalives", not "the global timer",
// which a peer without hold gets.
TEST(DaemonConfig, APeersHoldZeroMeansNoKeepalives) {
  auto c =
      parse_config(kHead + "timers: {hold: 30}\n" + kPeer +
                       "    link_bandwidth: 1G\n    hold: 0\n"
                       "  - {address: 10.0.2.2, asn: 3,\n"
                       "     local_address: 10.0.2.1, link_bandwidth: 1G}\n",
                   "hold.yaml");
  ASSERT_TRUE(c) << c.error().to_string();
  const auto sc = speaker_config(*c, {gbps(1), gbps(1)});
  EXPECT_EQ(sc.peers[0].session.hold_time_s, 0);
  EXPECT_EQ(sc.peers[1].session.hold_time_s, 30);
}

// Tools that join YAML files leave a '---' (or '...') at the end: an
// empty document after the configuration is nothing to refuse.
TEST(DaemonConfig, AnEmptyTrailingDocumentIsIgnored) {
  for (const char* tail : {"---\n", "...\n---\n# end\n", "---\n---\n"}) {
    auto c = parse_config(kHead + tail, "tail.yaml");
    ASSERT_TRUE(c) << tail << ": " << c.error().to_string();
    EXPECT_EQ(c->asn, 65001u);
  }
}

// Found by fuzz/daemon_config_fuzz: yaml-cpp's LoadAll never returns on
// this input. Parsing ends, with an error.
TEST(DaemonConfig, InputThatHangsYamlCppLoadAllEnds) {
  EXPECT_FALSE(parse_config(",ult", "hang.yaml"));
}

TEST(DaemonConfig, TransitivityChoosesThePathCommunityType) {
  EXPECT_TRUE(parse_config(kGood, "good.yaml")->fare.path_bandwidth_transitive);
  auto c =
      parse_config(kHead + "fare: {transitivity: non-transitive}\n", "nt.yaml");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_FALSE(c->fare.path_bandwidth_transitive);
  EXPECT_FALSE(speaker_config(*c, {}).rib.fare.path_bandwidth_transitive);
}

TEST(DaemonConfig, UnreadableFileIsAnError) {
  auto c = load_config("/nonexistent/bgpd.yaml");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().to_string(),
            "/nonexistent/bgpd.yaml: (file): cannot be read: No such file or "
            "directory");
}

// A link-local session: peers on different links may share the other
// end's link-local address (each interface is its own link), and the IPv6
// NEXT_HOP toward them carries the global next_hop_ipv6 and the link-local
// local_address (RFC 2545 section 3), or the link-local address alone.
TEST(DaemonConfig, LinkLocalPeersAreTiedToTheirInterfaces) {
  auto c = parse_config(
      kHead +
          "peers:\n"
          "  - {name: a, address: \"fe80::2\", asn: 2, interface: e1,\n"
          "     local_address: \"fe80::1\", next_hop_ipv6: \"2001:db8::1\",\n"
          "     link_bandwidth: 1G, families: [ipv6]}\n"
          "  - {name: b, address: \"fe80::2\", asn: 3, interface: e2,\n"
          "     local_address: \"fe80::1\", link_bandwidth: 1G,\n"
          "     families: [ipv6]}\n",
      "ll.yaml");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_TRUE(c->peers[0].address.link_local());
  // Unnamed, a link-local peer is named with its interface.
  auto unnamed =
      parse_config(kHead +
                       "peers:\n"
                       "  - {address: \"fe80::2\", asn: 2, interface: e1,\n"
                       "     local_address: \"fe80::1\", link_bandwidth: 1G}\n"
                       "  - {address: \"fe80::2\", asn: 3, interface: e2,\n"
                       "     local_address: \"fe80::1\", link_bandwidth: 1G}\n",
                   "unnamed.yaml");
  ASSERT_TRUE(unnamed) << unnamed.error().to_string();
  EXPECT_EQ(unnamed->peers[0].name, "fe80::2%e1");
  EXPECT_EQ(unnamed->peers[1].name, "fe80::2%e2");
  EXPECT_FALSE(parse_ip("fec0::1")->link_local());  // site-local, not fe80::/10
  EXPECT_TRUE(parse_ip("febf::1")->link_local());
  EXPECT_FALSE(parse_ip("10.0.0.1")->link_local());
  const auto sc = speaker_config(*c, {gbps(1), gbps(1)});
  ASSERT_EQ(sc.peers[0].next_hop_ipv6.size(), 32u);
  EXPECT_EQ(Bytes(sc.peers[0].next_hop_ipv6.begin(),
                  sc.peers[0].next_hop_ipv6.begin() + 16),
            parse_ip("2001:db8::1")->to_bytes());
  EXPECT_EQ(Bytes(sc.peers[0].next_hop_ipv6.begin() + 16,
                  sc.peers[0].next_hop_ipv6.end()),
            parse_ip("fe80::1")->to_bytes());
  EXPECT_EQ(sc.peers[1].next_hop_ipv6, parse_ip("fe80::1")->to_bytes());
  EXPECT_TRUE(proto::bgp::validate(sc))
      << proto::bgp::validate(sc).error().reason;
}

// What a valid configuration cannot do for a peer is said, and nothing is
// said of the usual sessions (the README's: IPv4 peers with local_address,
// IPv6 offered too without an IPv6 next hop).
TEST(DaemonConfig, PeerWarningsNameWhatCannotWork) {
  auto warnings = [](const std::string& listen, const std::string& peer) {
    auto c = parse_config(kHead + listen + "peers:\n  - {name: p, asn: 2, " +
                              "link_bandwidth: 1G, " + peer + "}\n",
                          "w.yaml");
    EXPECT_TRUE(c) << c.error().to_string();
    return c ? peer_warnings(c->peers[0], *c) : std::vector<std::string>{};
  };
  const std::string v4 = "address: 10.0.1.2, local_address: 10.0.1.1";
  EXPECT_EQ(warnings("", v4), std::vector<std::string>{});
  EXPECT_EQ(warnings("listen: {address: \"::\"}\n", v4),
            std::vector<std::string>{});
  EXPECT_EQ(warnings("listen: {port: 0}\n", v4), std::vector<std::string>{});
  EXPECT_EQ(warnings("listen: {port: 0}\n", v4 + ", passive: true"),
            std::vector<std::string>{
                "peer p: cannot connect to us: nothing listens (listen.port "
                "0); it is passive, so its session never comes up"});
  // It connects to our local_address, where nothing listens.
  EXPECT_EQ(warnings("listen: {address: 10.0.0.1}\n", v4),
            std::vector<std::string>{
                "peer p: cannot connect to us: it connects to our "
                "local_address 10.0.1.1, and we listen on 10.0.0.1 only; only "
                "our connections to it bring the session up"});
  EXPECT_EQ(warnings("listen: {address: \"fd00::1\"}\n", v4)[0],
            "peer p: cannot connect to us: the listening socket is IPv6 only "
            "(\"::\" takes both); only our connections to it bring the "
            "session up");
  // IPv6 offered alone, without an IPv6 next hop.
  EXPECT_EQ(warnings("", v4 + ", families: [ipv6]"),
            std::vector<std::string>{
                "peer p: IPv6 routes are not sent to it: give it "
                "next_hop_ipv6 or an IPv6 local_address"});
  // An IPv6 peer: an IPv4 socket, and IPv4 offered without an IPv4 next
  // hop.
  const auto v6 =
      warnings("", "address: \"fd00::2\", local_address: \"fd00::1\"");
  ASSERT_EQ(v6.size(), 2u);
  EXPECT_NE(v6[0].find("the listening socket is IPv4"), std::string::npos);
  EXPECT_NE(v6[1].find("IPv4 routes are not sent to it"), std::string::npos);
  EXPECT_EQ(warnings("listen: {address: \"::\"}\n",
                     "address: \"fe80::2\", local_address: \"fe80::1\", "
                     "interface: e1, families: [ipv6]"),
            std::vector<std::string>{});
}

TEST(DaemonConfig, ParsesAddresses) {
  EXPECT_EQ(parse_ip("10.0.0.1").value().to_string(), "10.0.0.1");
  EXPECT_TRUE(parse_ip("2001:db8::1").value().v6);
  EXPECT_FALSE(parse_ip("10.0.0.256"));
  EXPECT_FALSE(parse_ip(std::string_view("10.0.0.1\0junk", 13)));
  EXPECT_FALSE(parse_ip(std::string_view("fd00::1\0", 8)));
}

}  // namespace
}  // namespace arfabric::daemon
