// arfabric bgpd end to end, arfabric on every node: a leaf-spine fabric in
// network namespaces (two leaves, two spines), the kernel FIB at the far
// leaf carrying FARE weights, SIGHUP reload (a changed link bandwidth moves
// the kernel weights, an added peer comes up, other sessions stay up),
// traffic between the leaves, a link going down and up again, the pid
// file, SIGTERM cleanup of kernel routes, and configuration errors
// reported by the CLI.
//
//          l1 (65001)                      10.1.0.0/24 at l1
//         /          \  100G each
//   s1 (65100)    s2 (65200)
//         \          /  s1-l2 100G, s2-l2 50G
//          l2 (65002)                      10.2.0.0/24 at l2
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <tuple>

#include "daemon/netns_harness.h"

namespace arfabric::testing {
namespace {

using nlohmann::json;

struct Node {
  std::string ns, name, socket, config_path;
  std::size_t proc = 0;
};

class Fabric : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* n : {"l1", "l2", "s1", "s2"}) {
      Node node;
      node.name = n;
      node.ns = lab_.add_namespace(n);
      node.socket = (lab_.dir() / (std::string(n) + ".sock")).string();
      nodes_[n] = node;
    }
    // Link k: 10.0.k.1 (leaf side) / 10.0.k.2 (spine side).
    devs_["l1-s1"] = lab_.link(nodes_["l1"].ns, "10.0.1.1/30", nodes_["s1"].ns,
                               "10.0.1.2/30");
    devs_["l1-s2"] = lab_.link(nodes_["l1"].ns, "10.0.2.1/30", nodes_["s2"].ns,
                               "10.0.2.2/30");
    devs_["l2-s1"] = lab_.link(nodes_["l2"].ns, "10.0.3.1/30", nodes_["s1"].ns,
                               "10.0.3.2/30");
    devs_["l2-s2"] = lab_.link(nodes_["l2"].ns, "10.0.4.1/30", nodes_["s2"].ns,
                               "10.0.4.2/30");
    // Hosts behind the leaves, and forwarding at the spines, so that
    // traffic can cross the fabric on the routes the daemons program.
    lab_.exec(nodes_["l1"].ns, "ip addr add 10.1.0.1/32 dev lo");
    lab_.exec(nodes_["l2"].ns, "ip addr add 10.2.0.1/32 dev lo");
    for (const char* s : {"s1", "s2"}) {
      lab_.exec(nodes_[s].ns, "sysctl -qw net.ipv4.ip_forward=1");
    }
    write_configs("50G");
    for (auto& [name, node] : nodes_) {
      node.proc =
          lab_.start(node.ns, "arfabric-" + name,
                     {ARFABRIC_BINARY, "bgpd", "-c", node.config_path,
                      "--pid-file", (lab_.dir() / (name + ".pid")).string()});
    }
  }

  std::string peer(const std::string& name, const std::string& address,
                   const std::string& asn, const std::string& local,
                   const std::string& dev, const std::string& bw,
                   const std::string& role) {
    return "  - {name: " + name + ", address: " + address + ", asn: " + asn +
           ", local_address: " + local + ", interface: " + dev +
           ", link_bandwidth: " + bw + ", role: " + role + "}\n";
  }

  std::string head(const std::string& asn, const std::string& id,
                   const std::string& role, const std::string& socket,
                   const std::string& prefixes) {
    return "asn: " + asn + "\nrouter_id: " + id + "\nrole: " + role +
           "\ncontrol_socket: " + socket +
           "\nlog_level: debug\nprefixes: " + prefixes +
           "\ntimers: {hold: 9, connect_retry: 1, idle_hold: 0}\n"
           "fib: {install: true, remove_on_exit: true}\n"
           "interface_poll_ms: 200\npeers:\n";
  }

  // s2-l2 at `s2_l2` on both ends.
  void write_configs(const std::string& s2_l2, bool l1_extra_peer = false) {
    auto& l1 = nodes_["l1"];
    std::string c1 =
        head("65001", "10.0.0.1", "leaf", l1.socket, "[10.1.0.0/24]") +
        peer("s1", "10.0.1.2", "65100", "10.0.1.1", devs_["l1-s1"].first,
             "100G", "spine");
    if (l1_extra_peer) {
      c1 += peer("s2", "10.0.2.2", "65200", "10.0.2.1", devs_["l1-s2"].first,
                 "100G", "spine");
    }
    auto& l2 = nodes_["l2"];
    std::string c2 =
        head("65002", "10.0.0.2", "leaf", l2.socket, "[10.2.0.0/24]") +
        peer("s1", "10.0.3.2", "65100", "10.0.3.1", devs_["l2-s1"].first,
             "100G", "spine") +
        peer("s2", "10.0.4.2", "65200", "10.0.4.1", devs_["l2-s2"].first, s2_l2,
             "spine");
    auto& s1 = nodes_["s1"];
    std::string c3 = head("65100", "10.0.0.101", "spine", s1.socket, "[]") +
                     peer("l1", "10.0.1.1", "65001", "10.0.1.2",
                          devs_["l1-s1"].second, "100G", "leaf") +
                     peer("l2", "10.0.3.1", "65002", "10.0.3.2",
                          devs_["l2-s1"].second, "100G", "leaf");
    auto& s2 = nodes_["s2"];
    std::string c4 = head("65200", "10.0.0.102", "spine", s2.socket, "[]") +
                     peer("l1", "10.0.2.1", "65001", "10.0.2.2",
                          devs_["l1-s2"].second, "100G", "leaf") +
                     peer("l2", "10.0.4.1", "65002", "10.0.4.2",
                          devs_["l2-s2"].second, s2_l2, "leaf");
    l1.config_path = lab_.write("l1.yaml", c1).string();
    l2.config_path = lab_.write("l2.yaml", c2).string();
    s1.config_path = lab_.write("s1.yaml", c3).string();
    s2.config_path = lab_.write("s2.yaml", c4).string();
  }

  // Kernel weights of the route to `prefix` in node `n`'s namespace, by
  // gateway.
  std::map<std::string, int> kernel_weights(const std::string& n,
                                            const std::string& prefix) {
    std::map<std::string, int> out;
    auto [rc, text] = lab_.exec(nodes_[n].ns, "ip -j route show " + prefix);
    auto routes = json::parse(text, nullptr, false);
    if (routes.is_discarded() || routes.empty()) return out;
    const auto nhid = routes[0].value("nhid", 0u);
    auto [rc2, text2] = lab_.exec(nodes_[n].ns, "ip -j nexthop show");
    auto nhs = json::parse(text2, nullptr, false);
    if (nhs.is_discarded()) return out;
    std::map<unsigned, std::string> gateway;
    for (const json& nh : nhs) {
      if (nh.contains("gateway")) {
        gateway[nh.value("id", 0u)] = nh.value("gateway", "");
      }
    }
    for (const json& nh : nhs) {
      if (nh.value("id", 0u) != nhid || !nh.contains("group")) continue;
      for (const json& m : nh["group"]) {
        out[gateway[m.value("id", 0u)]] = m.value("weight", 1);
      }
    }
    return out;
  }

  // Every node's routes and nexthops, for failure messages.
  std::string routes() {
    std::string out;
    for (auto& [name, node] : nodes_) {
      out += "---- " + name + " routes\n" +
             lab_.exec(node.ns, "ip route show").second +
             lab_.exec(node.ns, "ip nexthop show").second +
             lab_.exec(node.ns,
                       "sysctl net.ipv4.ip_forward "
                       "net.ipv4.conf.all.rp_filter")
                 .second;
    }
    out +=
        lab_.exec(nodes_["l1"].ns, "ping -c1 -W1 -I 10.1.0.1 10.2.0.1").second;
    return out;
  }

  json neighbor(const std::string& n, const std::string& peer_name) {
    json all = bgpctl(nodes_[n].socket, "neighbors");
    const json* p = find_by(all, "name", peer_name);
    return p ? *p : json();
  }

  bool all_established(const std::string& n, std::size_t count) {
    json all = bgpctl(nodes_[n].socket, "neighbors");
    if (!all.is_array() || all.size() != count) return false;
    for (const json& p : all) {
      if (p.value("state", "") != "Established") return false;
    }
    return true;
  }

  NetnsLab lab_;
  std::map<std::string, Node> nodes_;
  std::map<std::string, std::pair<std::string, std::string>> devs_;
};

TEST_F(Fabric, FareWeightsReachTheKernelAndFollowAReload) {
  // l2 reaches 10.1.0.0/24 only via s1 at first: l1 has no s2 peer.
  ASSERT_TRUE(eventually([&] {
    return all_established("l2", 2) && all_established("s1", 2);
  })) << lab_.dump_logs();

  // SIGHUP at l1 adds the s2 session (s2 already knows l1); the s1
  // session stays up throughout.
  write_configs("50G", /*l1_extra_peer=*/true);
  lab_.signal(nodes_["l1"].proc, SIGHUP);
  const auto s1_before =
      neighbor("l1", "s1").value("established_transitions", 0u);
  ASSERT_TRUE(eventually([&] { return all_established("l1", 2); }))
      << lab_.dump_logs();
  EXPECT_EQ(neighbor("l1", "s1").value("established_transitions", 0u),
            s1_before);

  // At l1: two paths to 10.2.0.0/24, bottlenecks 100G (via s1) and 50G
  // (s2-l2): kernel weights 256 : 128.
  std::map<std::string, int> w;
  ASSERT_TRUE(eventually([&] {
    w = kernel_weights("l1", "10.2.0.0/24");
    return w.size() == 2 && w["10.0.1.2"] == 256 && w["10.0.2.2"] == 128;
  })) << ::testing::PrintToString(w)
      << lab_.dump_logs();
  // bgpctl shows the same group as programmed.
  json fib = bgpctl(nodes_["l1"].socket, "fib");
  const json* route = find_by(fib, "prefix", "10.2.0.0/24");
  ASSERT_NE(route, nullptr) << fib.dump(2);
  EXPECT_TRUE((*route)["programmed"].get<bool>());
  EXPECT_EQ((*route)["members"].size(), 2u);

  // s2-l2 back to 100G by reload on both ends: within a second the kernel
  // weights at l1 are equal, and the reload flapped no session (startup
  // may have: simultaneous opens resolve collisions by closing one).
  std::map<std::string, std::uint64_t> transitions;
  for (const char* n : {"l1", "l2", "s1", "s2"}) {
    for (const json& p : bgpctl(nodes_[n].socket, "neighbors")) {
      transitions[std::string(n) + "/" + p.value("name", "")] =
          p.value("established_transitions", 0u);
    }
  }
  EXPECT_EQ(transitions.size(), 8u);
  write_configs("100G", true);
  lab_.signal(nodes_["s2"].proc, SIGHUP);
  lab_.signal(nodes_["l2"].proc, SIGHUP);
  ASSERT_TRUE(eventually(
      [&] {
        w = kernel_weights("l1", "10.2.0.0/24");
        return w.size() == 2 && w["10.0.1.2"] == 256 && w["10.0.2.2"] == 256;
      },
      1.5))
      << ::testing::PrintToString(w) << lab_.dump_logs();
  for (const char* n : {"l1", "l2", "s1", "s2"}) {
    for (const json& p : bgpctl(nodes_[n].socket, "neighbors")) {
      const std::string key = std::string(n) + "/" + p.value("name", "");
      EXPECT_EQ(p.value("established_transitions", 0u), transitions[key])
          << key;
      EXPECT_EQ(p.value("state", ""), "Established") << key;
    }
  }

  // Traffic flows between the leaves' prefixes.
  auto ping = [&] {
    return lab_.exec(nodes_["l1"].ns, "ping -c1 -W1 -I 10.1.0.1 10.2.0.1")
               .first == 0;
  };
  EXPECT_TRUE(eventually(ping, 5)) << routes() << lab_.dump_logs();

  // The l2-s2 link goes down: both ends stop that session at once (no hold
  // timer wait), s2 withdraws, l1 keeps only the path via s1, traffic
  // still flows; back up, the session returns and so does the second path.
  const std::string l2_s2 = devs_["l2-s2"].first;
  lab_.exec(nodes_["l2"].ns, "ip link set " + l2_s2 + " down");
  ASSERT_TRUE(eventually(
      [&] {
        w = kernel_weights("l1", "10.2.0.0/24");
        return w.size() == 1 && w.contains("10.0.1.2");
      },
      3))
      << ::testing::PrintToString(w) << lab_.dump_logs();
  EXPECT_TRUE(eventually(ping, 3));
  lab_.exec(nodes_["l2"].ns, "ip link set " + l2_s2 + " up");
  ASSERT_TRUE(eventually(
      [&] {
        w = kernel_weights("l1", "10.2.0.0/24");
        return w.size() == 2;
      },
      10))
      << ::testing::PrintToString(w) << lab_.dump_logs();

  // SIGTERM at l1: clean exit, pid file and kernel routes gone.
  const auto pid_file = lab_.dir() / "l1.pid";
  EXPECT_TRUE(std::filesystem::exists(pid_file));
  lab_.signal(nodes_["l1"].proc, SIGTERM);
  EXPECT_EQ(lab_.wait_exit(nodes_["l1"].proc), 0) << lab_.dump_logs();
  EXPECT_FALSE(std::filesystem::exists(pid_file));
  auto [rc, routes] = lab_.exec(nodes_["l1"].ns, "ip route show proto 186");
  EXPECT_EQ(routes, "");
  auto [rc2, nhs] = lab_.exec(nodes_["l1"].ns, "ip nexthop show");
  EXPECT_EQ(nhs, "");
  // Its peers saw a NOTIFICATION, not a hold-timer expiry.
  ASSERT_TRUE(eventually(
      [&] { return neighbor("s1", "l1").value("state", "") != "Established"; },
      5));
  EXPECT_GE(neighbor("s1", "l1").value("notifications_in", 0u), 1u);
}

// fib.remove_on_exit false keeps the kernel's routes when the daemon
// stops (stopping the sessions had withdrawn and deleted them all the
// same), and the next start sweeps what was left before programming its
// own.
TEST_F(Fabric, RoutesKeptAtExitAreSweptAtTheNextStart) {
  ASSERT_TRUE(eventually([&] { return all_established("l1", 1); }))
      << lab_.dump_logs();
  auto& l1 = nodes_["l1"];
  std::ifstream in(l1.config_path);
  std::string config((std::istreambuf_iterator<char>(in)), {});
  const std::string remove = "remove_on_exit: true";
  ASSERT_NE(config.find(remove), std::string::npos) << config;
  config.replace(config.find(remove), remove.size(), "remove_on_exit: false");
  lab_.write("l1.yaml", config);
  lab_.signal(l1.proc, SIGHUP);
  ASSERT_TRUE(eventually([&] {
    return kernel_weights("l1", "10.2.0.0/24").size() == 1;
  })) << lab_.dump_logs();
  lab_.signal(l1.proc, SIGTERM);
  EXPECT_EQ(lab_.wait_exit(l1.proc), 0) << lab_.dump_logs();
  EXPECT_NE(lab_.log(l1.proc).find("leaving 1 routes in the kernel"),
            std::string::npos)
      << lab_.dump_logs();
  auto [rc, routes] = lab_.exec(l1.ns, "ip route show proto 186");
  EXPECT_NE(routes.find("10.2.0.0/24"), std::string::npos) << routes;

  l1.proc = lab_.start(l1.ns, "arfabric-l1-again",
                       {ARFABRIC_BINARY, "bgpd", "-c", l1.config_path});
  ASSERT_TRUE(eventually([&] {
    return lab_.log(l1.proc).find(
               "nexthop objects (and their routes) an "
               "earlier run left") != std::string::npos;
  })) << lab_.dump_logs();
  ASSERT_TRUE(eventually([&] {
    return kernel_weights("l1", "10.2.0.0/24").size() == 1;
  })) << lab_.dump_logs();
  // One group and one member: nothing of the earlier run's is left.
  auto [rc2, nhs] = lab_.exec(l1.ns, "ip -j nexthop show");
  const json all = json::parse(nhs, nullptr, false);
  ASSERT_FALSE(all.is_discarded()) << nhs;
  EXPECT_EQ(all.size(), 2u) << nhs;
}

// IPv6 link-local sessions, as unnumbered fabrics run BGP. The hub `a`
// peers with `b` and `c` at the same address, fe80::2, on two links (each
// interface is its own link), passively, so that each incoming connection
// is matched to its peer by the interface it arrived on. Routes carry
// link-local next hops, which the kernel takes with the peer's device, and
// traffic between b and c flows over them through a.
TEST(LinkLocalSessions, OneAddressOnTwoLinksIsTwoPeers) {
  NetnsLab lab;
  const std::string a = lab.add_namespace("a");
  const std::string b = lab.add_namespace("b");
  const std::string c = lab.add_namespace("c");
  const auto ab = lab.link(a, "", b, "", "fe80::1/64", "fe80::2/64");
  const auto ac = lab.link(a, "", c, "", "fe80::1/64", "fe80::2/64");
  lab.exec(a, "sysctl -qw net.ipv6.conf.all.forwarding=1");
  lab.exec(b, "ip addr add 2001:db8:b::1/128 dev lo");
  lab.exec(c, "ip addr add 2001:db8:c::1/128 dev lo");
  auto head = [&](const std::string& asn, const std::string& id,
                  const std::string& prefix) {
    return "asn: " + asn + "\nrouter_id: " + id +
           "\nlisten: {address: \"::\"}\ncontrol_socket: " +
           (lab.dir() / (id + ".sock")).string() +
           "\nlog_level: debug\nprefixes: [\"" + prefix +
           "\"]\ntimers: {hold: 9, connect_retry: 1, idle_hold: 0}\n"
           "peers:\n";
  };
  auto peer = [](const std::string& name, const std::string& address,
                 const std::string& asn, const std::string& local,
                 const std::string& dev, bool passive,
                 const std::string& global = "") {
    return "  - {name: " + name + ", address: \"" + address +
           "\", asn: " + asn + ", local_address: \"" + local +
           "\", interface: " + dev +
           (global.empty() ? "" : ", next_hop_ipv6: \"" + global + "\"") +
           ", link_bandwidth: 100G, families: [ipv6], passive: " +
           (passive ? "true" : "false") + "}\n";
  };
  // a's NEXT_HOP toward b is 32 bytes: its loopback address, which b has
  // no route to, and its link-local address, which b routes through.
  lab.exec(a, "ip addr add 2001:db8:a::1/128 dev lo");
  const std::string ca =
      head("65001", "10.0.0.1", "2001:db8:a::/48") +
      peer("b", "fe80::2", "65002", "fe80::1", ab.first, true,
           "2001:db8:a::1") +
      peer("c", "fe80::2", "65003", "fe80::1", ac.first, true);
  const std::string cb =
      head("65002", "10.0.0.2", "2001:db8:b::/48") +
      peer("a", "fe80::1", "65001", "fe80::2", ab.second, false);
  const std::string cc =
      head("65003", "10.0.0.3", "2001:db8:c::/48") +
      peer("a", "fe80::1", "65001", "fe80::2", ac.second, false);
  for (const auto& [ns, name, text] :
       {std::tuple{a, "a", ca}, {b, "b", cb}, {c, "c", cc}}) {
    lab.start(ns, std::string("arfabric-") + name,
              {ARFABRIC_BINARY, "bgpd", "-c",
               lab.write(std::string(name) + ".yaml", text).string()});
  }
  const std::string a_socket = (lab.dir() / "10.0.0.1.sock").string();
  const std::string b_socket = (lab.dir() / "10.0.0.2.sock").string();
  ASSERT_TRUE(eventually([&] {
    return peers_established(a_socket, {"b", "c"});
  })) << bgpctl(a_socket, "neighbors").dump(2)
      << lab.dump_logs();

  // At a, each prefix through the link it came over.
  for (const auto& [prefix, dev] : {std::pair{"2001:db8:b::/48", ab.first},
                                    {"2001:db8:c::/48", ac.first}}) {
    EXPECT_TRUE(next_hops_become(lab, a, prefix, {"fe80::2 " + dev}));
  }
  // At b, c's prefix through a's link-local address (of a global +
  // link-local NEXT_HOP).
  ASSERT_TRUE(
      next_hops_become(lab, b, "2001:db8:c::/48", {"fe80::1 " + ab.second}));
  // bgpctl shows both halves of that NEXT_HOP, and each peer's link.
  const json rib = bgpctl(b_socket, "rib");
  const json* entry = find_by(rib, "prefix", "2001:db8:c::/48");
  ASSERT_NE(entry, nullptr) << rib.dump(2);
  EXPECT_EQ((*entry)["paths"][0].value("next_hop", ""), "2001:db8:a::1");
  EXPECT_EQ((*entry)["paths"][0].value("next_hop_link_local", ""), "fe80::1");
  auto [listed, table] =
      shell(std::string(ARFABRIC_BINARY) + " bgpctl neighbors -s " + a_socket);
  EXPECT_NE(table.find("fe80::2%" + ab.first), std::string::npos) << table;
  EXPECT_NE(table.find("fe80::2%" + ac.first), std::string::npos) << table;
  EXPECT_TRUE(eventually(
      [&] {
        return lab.exec(b, "ping -6 -c1 -W1 -I 2001:db8:b::1 2001:db8:c::1")
                   .first == 0;
      },
      5))
      << lab.exec(b, "ip -6 route").second << lab.exec(c, "ip -6 route").second
      << lab.dump_logs();

  // A reload tells the two fe80::2 peers apart too: unchanged, neither
  // session restarts.
  std::map<std::string, std::uint64_t> transitions;
  for (const json& p : bgpctl(a_socket, "neighbors")) {
    transitions[p.value("name", "")] = p.value("established_transitions", 0u);
  }
  ASSERT_EQ(transitions.size(), 2u);
  auto [rc, out] =
      shell(std::string(ARFABRIC_BINARY) + " bgpctl reload -s " + a_socket);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out.find("restart"), std::string::npos) << out;
  for (const json& p : bgpctl(a_socket, "neighbors")) {
    const std::string name = p.value("name", "");
    EXPECT_EQ(p.value("state", ""), "Established") << name;
    EXPECT_EQ(p.value("established_transitions", 0u), transitions[name])
        << name;
  }
}

// Listening on "::" takes IPv4 peers' connections too, even where the
// namespace's net.ipv6.bindv6only says IPv6 sockets are IPv6 only: `a`
// waits (passive) for b over IPv4. And what cannot work is named at
// start: b listens on 0.0.0.0 and has a passive IPv6 peer, whose session
// can never come up, and which offers IPv4 (the default families) without
// an IPv4 next hop to send it routes with.
TEST(Listening, OnTheUnspecifiedIPv6AddressTakesIPv4ConnectionsToo) {
  NetnsLab lab;
  const std::string a = lab.add_namespace("a");
  const std::string b = lab.add_namespace("b");
  lab.link(a, "10.0.9.1/30", b, "10.0.9.2/30");
  lab.exec(a, "sysctl -qw net.ipv6.bindv6only=1");
  const std::string a_socket = (lab.dir() / "a.sock").string();
  const std::string ca =
      "asn: 65001\nrouter_id: 10.0.0.1\nlisten: {address: \"::\"}\n"
      "control_socket: " +
      a_socket +
      "\nfib: {install: false}\npeers:\n"
      "  - {name: b, address: 10.0.9.2, asn: 65002, passive: true,\n"
      "     local_address: 10.0.9.1, link_bandwidth: 100G}\n";
  const std::string cb =
      "asn: 65002\nrouter_id: 10.0.0.2\nfib: {install: false}\n"
      "timers: {connect_retry: 1}\npeers:\n"
      "  - {name: a, address: 10.0.9.1, asn: 65001, local_address: 10.0.9.2,\n"
      "     link_bandwidth: 100G}\n"
      "  - {name: far, address: \"fd00::9\", asn: 65009, passive: true,\n"
      "     next_hop_ipv6: \"fd00::1\", link_bandwidth: 100G}\n";
  const std::size_t pa = lab.start(
      a, "arfabric-a",
      {ARFABRIC_BINARY, "bgpd", "-c", lab.write("a.yaml", ca).string()});
  const std::size_t pb = lab.start(
      b, "arfabric-b",
      {ARFABRIC_BINARY, "bgpd", "-c", lab.write("b.yaml", cb).string()});
  EXPECT_TRUE(
      eventually([&] { return peers_established(a_socket, {"b"}); }, 15))
      << lab.dump_logs();
  for (const std::string warning :
       {"warning peer far: cannot connect to us: the listening socket is "
        "IPv4 (set listen.address \"::\" for both); it is passive, so its "
        "session never comes up",
        "warning peer far: IPv4 routes are not sent to it: an IPv6 peer's "
        "IPv4 NEXT_HOP is an IPv4 listen.address, and there is none"}) {
    EXPECT_TRUE(eventually(
        [&] { return lab.log(pb).find(warning) != std::string::npos; }, 5))
        << warning << "\n"
        << lab.dump_logs();
  }
  // Nothing to say of a's peer, nor of b's IPv4 peer without an IPv6 next
  // hop (an IPv4-only session).
  for (const char* said : {"cannot connect to us", "routes are not sent"}) {
    EXPECT_EQ(lab.log(pa).find(said), std::string::npos) << lab.dump_logs();
  }
  EXPECT_EQ(lab.log(pb).find("peer a: IPv6 routes are not sent"),
            std::string::npos)
      << lab.dump_logs();
}

TEST(BgpdCli, ConfigurationErrorsNameFileLineAndKey) {
  NetnsLab lab;
  const auto path = lab.write("bad.yaml",
                              "asn: 65001\nrouter_id: 10.0.0.1\npeers:\n"
                              "  - address: 10.0.0.2\n    asn: 65002\n"
                              "    link_bandwith: 10G\n");
  auto [rc, out] =
      shell(std::string(ARFABRIC_BINARY) + " bgpd -c " + path.string());
  EXPECT_EQ(rc, 1);
  EXPECT_NE(out.find("bad.yaml:6:5: peers[0].link_bandwith: unknown key "
                     "(did you mean 'link_bandwidth'?)"),
            std::string::npos)
      << out;
  auto [rc2, out2] =
      shell(std::string(ARFABRIC_BINARY) + " bgpctl neighbors -s " +
            (lab.dir() / "none.sock").string());
  EXPECT_EQ(rc2, 2);
  EXPECT_NE(out2.find("is bgpd running"), std::string::npos) << out2;
}

}  // namespace
}  // namespace arfabric::testing
