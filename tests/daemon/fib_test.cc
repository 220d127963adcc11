// The daemon's FIB: FARE weights scaled to kernel weights, and routes
// programmed as rtnetlink nexthop groups inside a network namespace the
// test creates (`ip -j nexthop show` is the independent reader). The
// kernel here has no dummy interfaces: veth pairs inside the namespace. Failure
// cases check that nothing is left half-programmed.
#include "daemon/fib.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>

#include <set>
#include <sstream>
#include <thread>

#include "daemon/netns_harness.h"
#include "proto/bgp/fabric_harness.h"

namespace arfabric::daemon {
namespace {

using arfabric::testing::NetnsLab;
using nlohmann::json;
namespace bgp = proto::bgp;

TEST(KernelWeights, ScaleTheLargestTo256AndKeepLivePathsAboveZero) {
  EXPECT_EQ(kernel_weights({gbps(100), gbps(50)}),
            (std::vector<std::uint16_t>{256, 128}));
  EXPECT_EQ(kernel_weights({gbps(400), gbps(100), gbps(300)}),
            (std::vector<std::uint16_t>{256, 64, 192}));
  EXPECT_EQ(kernel_weights({0, gbps(10)}),
            (std::vector<std::uint16_t>{0, 256}));
  EXPECT_EQ(kernel_weights({1, gbps(1000)}),
            (std::vector<std::uint16_t>{1, 256}));
  EXPECT_EQ(kernel_weights({0, 0}), (std::vector<std::uint16_t>{1, 1}));
  EXPECT_EQ(kernel_weights({1, 1, 1}),
            (std::vector<std::uint16_t>{256, 256, 256}));
}

// The gateway of an IPv6 next hop: the link-local address of a global +
// link-local pair (on the peer's link by RFC 2545, where the global one
// may be an unnumbered link's loopback address), the global one when the
// second half is not link-local, and a lone address as it is (the route
// always names the peer's device).
TEST(FibView, TheLinkLocalAddressOfAnIPv6PairIsTheGateway) {
  auto bytes = [](std::initializer_list<const char*> addresses) {
    Bytes out;
    for (const char* a : addresses) {
      const Bytes b = parse_ip(a).value().to_bytes();
      out.insert(out.end(), b.begin(), b.end());
    }
    return out;
  };
  const bgp::Destination d = bgp::testing::destination("2001:db8:9::/48");
  std::vector<bgp::NextHopWeight> hops = {
      {0, bgp::NextHopAddress(bytes({"2001:db8::2", "fe80::2"})), gbps(1)},
      {1, bgp::NextHopAddress(bytes({"::", "fe80::3"})), gbps(1)},
      {2, bgp::NextHopAddress(bytes({"fe80::4"})), gbps(1)},
      {3, bgp::NextHopAddress(bytes({"2001:db8::5"})), gbps(1)},
      // A second half that is not link-local is no gateway: the global.
      {4, bgp::NextHopAddress(bytes({"2001:db8::6", "::"})), gbps(1)},
      {5, bgp::NextHopAddress(bytes({"2001:db8::7", "2001:db8::8"})), gbps(1)}};
  const FibRoute view = fib_view(d, hops, {"e0", "e1", "e2", "e3", "e4", "e5"});
  ASSERT_EQ(view.members.size(), 6u);
  EXPECT_EQ(view.members[0].gateway, "fe80::2");
  EXPECT_EQ(view.members[1].gateway, "fe80::3");
  EXPECT_EQ(view.members[2].gateway, "fe80::4");
  EXPECT_EQ(view.members[3].gateway, "2001:db8::5");
  EXPECT_EQ(view.members[4].gateway, "2001:db8::6");
  EXPECT_EQ(view.members[5].gateway, "2001:db8::7");
  EXPECT_EQ(view.members[1].interface, "e1");
}

bgp::FibUpdate update(const std::string& prefix,
                      std::vector<std::pair<Bytes, BitsPerSecond>> hops) {
  bgp::FibUpdate u;
  u.destination = bgp::testing::destination(prefix);
  bgp::PeerId peer = 0;
  for (auto& [nh, w] : hops) u.next_hops.push_back({peer++, nh, w});
  return u;
}

class KernelFib : public ::testing::Test {
 protected:
  void SetUp() override {
    ns_ = lab_.add_namespace("f");
    for (const char* cmd :
         {"ip link add d0 type veth peer name d0p",
          "ip link add d1 type veth peer name d1p", "ip link set d0p up",
          "ip link set d1p up", "ip addr add 10.0.1.1/24 dev d0",
          "ip addr add 10.0.2.1/24 dev d1", "ip link set d0 up",
          "ip link set d1 up"}) {
      auto [rc, out] = lab_.exec(ns_, cmd);
      ASSERT_EQ(rc, 0) << cmd << ": " << out;
    }
  }

  // Runs `body` on a thread that entered the namespace: sockets it opens
  // (rtnetlink, if_nametoindex's) belong to the namespace.
  void in_namespace(const std::function<void()>& body) {
    std::thread t([&] {
      const int fd = ::open(("/var/run/netns/" + ns_).c_str(), O_RDONLY);
      ASSERT_GE(fd, 0);
      ASSERT_EQ(setns(fd, CLONE_NEWNET), 0);
      ::close(fd);
      body();
    });
    t.join();
  }

  json nexthops() {
    auto [rc, out] = lab_.exec(ns_, "ip -j nexthop show");
    EXPECT_EQ(rc, 0) << out;
    auto doc = json::parse(out, nullptr, false);
    return doc.is_discarded() ? json::array() : doc;
  }
  // The group's {member id: weight}, via the route's nhid.
  std::map<std::uint32_t, int> group_of(const std::string& prefix) {
    auto [rc, out] = lab_.exec(ns_, "ip -j route show " + prefix);
    auto routes = json::parse(out, nullptr, false);
    std::map<std::uint32_t, int> members;
    if (routes.is_discarded() || routes.empty()) return members;
    const auto nhid = routes[0].value("nhid", 0u);
    for (const json& nh : nexthops()) {
      if (nh.value("id", 0u) != nhid || !nh.contains("group")) continue;
      for (const json& m : nh["group"]) {
        members[m.value("id", 0u)] = m.value("weight", 1);
      }
    }
    return members;
  }
  std::string route_protocol(const std::string& prefix) {
    auto [rc, out] = lab_.exec(ns_, "ip -j route show " + prefix);
    auto routes = json::parse(out, nullptr, false);
    if (routes.is_discarded() || routes.empty()) return "";
    return routes[0].value("protocol", "");
  }

  NetnsLab lab_;
  std::string ns_;
};

const std::vector<std::string> kDevices = {"d0", "d1"};

TEST_F(KernelFib, ProgramsWeightedGroupsAndReplacesThemWithoutLeftovers) {
  in_namespace([&] {
    auto nl = sysdep::Rtnetlink::open();
    ASSERT_TRUE(nl) << nl.error().to_string();
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::debug);
    Fib fib(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186, 20);

    fib.apply(update("10.9.0.0/24",
                     {{{10, 0, 1, 2}, gbps(100)}, {{10, 0, 2, 2}, gbps(50)}}),
              kDevices);
    ASSERT_EQ(fib.routes().size(), 1u);
    EXPECT_TRUE(fib.routes()[0].programmed) << fib.routes()[0].error;
    auto g = group_of("10.9.0.0/24");
    std::vector<int> weights;
    for (auto& [id, w] : g) weights.push_back(w);
    std::sort(weights.begin(), weights.end());
    EXPECT_EQ(weights, (std::vector<int>{128, 256})) << nexthops().dump();
    EXPECT_EQ(nexthops().size(), 3u);  // two members and the group
    EXPECT_EQ(route_protocol("10.9.0.0/24"), "bgp");  // 186 = RTPROT_BGP

    // New weights: a new group, the old one gone; members are shared.
    fib.apply(update("10.9.0.0/24",
                     {{{10, 0, 1, 2}, gbps(100)}, {{10, 0, 2, 2}, gbps(100)}}),
              kDevices);
    weights.clear();
    for (auto& [id, w] : group_of("10.9.0.0/24")) weights.push_back(w);
    EXPECT_EQ(weights, (std::vector<int>{256, 256}));
    EXPECT_EQ(nexthops().size(), 3u) << nexthops().dump();

    // A second prefix over the same links shares the member objects.
    fib.apply(update("10.8.0.0/24", {{{10, 0, 1, 2}, gbps(10)}}), kDevices);
    EXPECT_EQ(nexthops().size(), 4u) << nexthops().dump();

    // A link at 0 b/s leaves the group.
    fib.apply(
        update("10.9.0.0/24", {{{10, 0, 1, 2}, 0}, {{10, 0, 2, 2}, gbps(100)}}),
        kDevices);
    EXPECT_EQ(group_of("10.9.0.0/24").size(), 1u);

    // Withdrawal removes route, group and the members nobody uses.
    fib.apply(update("10.9.0.0/24", {}), kDevices);
    auto [rc, out] = lab_.exec(ns_, "ip -j route show 10.9.0.0/24");
    EXPECT_EQ(out.find("10.9.0.0"), std::string::npos) << out;
    EXPECT_EQ(nexthops().size(), 2u) << nexthops().dump();

    fib.remove_all();
    EXPECT_TRUE(nexthops().empty()) << nexthops().dump();
    EXPECT_TRUE(fib.routes().empty());
  });
}

TEST_F(KernelFib, AFailedChangeKeepsThePreviousRouteAndCreatesNothing) {
  in_namespace([&] {
    auto nl = sysdep::Rtnetlink::open();
    ASSERT_TRUE(nl) << nl.error().to_string();
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::debug);
    Fib fib(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186, 20);
    fib.apply(update("10.9.0.0/24",
                     {{{10, 0, 1, 2}, gbps(100)}, {{10, 0, 2, 2}, gbps(50)}}),
              kDevices);
    const json before = nexthops();
    const auto group_before = group_of("10.9.0.0/24");
    ASSERT_EQ(before.size(), 3u);

    // The first member is new and valid, the second is not on any link
    // (the kernel refuses it): the first must not stay behind.
    fib.apply(update("10.9.0.0/24",
                     {{{10, 0, 1, 3}, gbps(100)}, {{10, 99, 0, 1}, gbps(100)}}),
              kDevices);
    EXPECT_EQ(nexthops(), before);
    EXPECT_EQ(group_of("10.9.0.0/24"), group_before);
    ASSERT_EQ(fib.routes().size(), 1u);
    EXPECT_FALSE(fib.routes()[0].error.empty());
    EXPECT_NE(log_text.str().find("previous route kept"), std::string::npos);

    // An unknown interface: the same.
    fib.apply(update("10.9.0.0/24", {{{10, 0, 1, 2}, gbps(1)}}),
              std::vector<std::string>{"nosuchdev"});
    EXPECT_EQ(nexthops(), before);
    EXPECT_EQ(group_of("10.9.0.0/24"), group_before);

    fib.remove_all();
    EXPECT_TRUE(nexthops().empty()) << nexthops().dump();
  });
}

TEST_F(KernelFib, RefreshRestoresWhatTheKernelDeletedWhenALinkWentDown) {
  in_namespace([&] {
    auto nl = sysdep::Rtnetlink::open();
    ASSERT_TRUE(nl) << nl.error().to_string();
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::debug);
    Fib fib(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186, 20);
    fib.apply(update("10.9.0.0/24",
                     {{{10, 0, 1, 2}, gbps(100)}, {{10, 0, 2, 2}, gbps(50)}}),
              kDevices);
    ASSERT_EQ(group_of("10.9.0.0/24").size(), 2u);
    // Down and up again: the kernel drops the member over d0 for good.
    lab_.exec(ns_, "ip link set d0 down");
    lab_.exec(ns_, "ip link set d0 up");
    EXPECT_EQ(group_of("10.9.0.0/24").size(), 1u) << nexthops().dump();
    fib.refresh("d0");
    std::vector<int> weights;
    for (auto& [id, w] : group_of("10.9.0.0/24")) weights.push_back(w);
    std::sort(weights.begin(), weights.end());
    EXPECT_EQ(weights, (std::vector<int>{128, 256})) << nexthops().dump();
    EXPECT_EQ(nexthops().size(), 3u) << nexthops().dump();
    fib.remove_all();
    EXPECT_TRUE(nexthops().empty()) << nexthops().dump();
    EXPECT_EQ(log_text.str().find("warning"), std::string::npos)
        << log_text.str();
  });
}

// Our routes have a metric of their own (20): a connected or static
// route to the same prefix (IPv4 metric 0) is neither replaced nor, when
// ours goes, deleted. It was replaced, and deleted at exit: a spine that
// advertised the link's own subnet cut the link to itself.
TEST_F(KernelFib, OtherProtocolsRoutesToTheSamePrefixStay) {
  auto [rc, out] =
      lab_.exec(ns_, "ip route add 10.9.0.0/24 via 10.0.2.2 proto static");
  ASSERT_EQ(rc, 0) << out;
  in_namespace([&] {
    auto nl = sysdep::Rtnetlink::open();
    ASSERT_TRUE(nl) << nl.error().to_string();
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::debug);
    Fib fib(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186, 20);
    for (const char* prefix : {"10.9.0.0/24", "10.0.1.0/24"}) {
      fib.apply(update(prefix, {{{10, 0, 1, 2}, gbps(100)}}), kDevices);
    }
    for (const auto& r : fib.routes()) EXPECT_TRUE(r.programmed) << r.error;
    auto [rc2, both] = lab_.exec(ns_, "ip -j route show 10.9.0.0/24");
    const json routes = json::parse(both, nullptr, false);
    ASSERT_FALSE(routes.is_discarded()) << both;
    std::set<std::pair<std::string, int>> seen;
    for (const json& r : routes)
      seen.insert({r.value("protocol", ""), r.value("metric", 0)});
    EXPECT_EQ(seen, (std::set<std::pair<std::string, int>>{{"static", 0},
                                                           {"bgp", 20}}))
        << both;
    fib.remove_all();
  });
  auto [rc3, left] = lab_.exec(ns_, "ip -j route show 10.9.0.0/24");
  EXPECT_NE(left.find("\"static\""), std::string::npos) << left;
  auto [rc4, connected] = lab_.exec(ns_, "ip -j route show 10.0.1.0/24");
  EXPECT_NE(connected.find("\"kernel\""), std::string::npos) << connected;
  EXPECT_EQ(connected.find("\"bgp\""), std::string::npos) << connected;
}

// What an earlier run left (killed, or remove_on_exit false) is swept at
// the next start: its nexthop objects of our protocol, and with them its
// routes. Others' nexthops stay. Left alone, their ids were taken over:
// withdrawn routes kept forwarding through a rewritten member.
TEST_F(KernelFib, TheNextStartSweepsWhatAnEarlierRunLeft) {
  auto [rc, out] =
      lab_.exec(ns_, "ip nexthop add id 7 via 10.0.2.2 dev d1 proto static");
  ASSERT_EQ(rc, 0) << out;
  in_namespace([&] {
    std::ostringstream log_text;
    Logger log(log_text, LogLevel::debug);
    {
      auto nl = sysdep::Rtnetlink::open();
      ASSERT_TRUE(nl) << nl.error().to_string();
      Fib earlier(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186,
                  20);
      earlier.apply(update("10.7.0.0/24", {{{10, 0, 1, 2}, gbps(100)},
                                           {{10, 0, 2, 2}, gbps(50)}}),
                    kDevices);
      earlier.apply(update("10.8.0.0/24", {{{10, 0, 1, 2}, gbps(100)}}),
                    kDevices);
    }  // gone without remove_all(), as a killed daemon
    EXPECT_EQ(nexthops().size(), 5u) << nexthops().dump();
    auto nl = sysdep::Rtnetlink::open();
    ASSERT_TRUE(nl) << nl.error().to_string();
    Fib next(log, std::make_unique<sysdep::Rtnetlink>(std::move(*nl)), 186, 20);
    EXPECT_GT(next.sweep(), 0u);  // members first may take their groups
    const json left = nexthops();
    ASSERT_EQ(left.size(), 1u) << left.dump();
    EXPECT_EQ(left[0].value("id", 0u), 7u);
    EXPECT_EQ(route_protocol("10.7.0.0/24"), "");
    EXPECT_EQ(route_protocol("10.8.0.0/24"), "");
    EXPECT_EQ(next.sweep(), 0u);
    EXPECT_EQ(log_text.str().find("warning"), std::string::npos)
        << log_text.str();
  });
}

}  // namespace
}  // namespace arfabric::daemon
