// arfabric bgpd against a misbehaving peer (issue 6 "Robustness"): the test
// itself is the peer, speaking BGP over a real TCP connection from another
// network namespace with messages built by the wire codec, so it can send
// what FRR and GoBGP never would. RFC 7606 outcomes must keep the session
// up (treat-as-withdraw, attribute-discard); a malformed NLRI must reset it
// with the NOTIFICATION RFC 4271 section 6.3 names.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <thread>

#include "common/units.h"
#include "daemon/netns_harness.h"
#include "wire/bgp/message.h"
#include "wire/bgp/nlri.h"

namespace arfabric::testing {
namespace {

namespace wb = wire::bgp;
using nlohmann::json;

Bytes encode(const wb::Message& m) {
  wb::SessionCodecOptions o;
  o.four_octet_as = true;
  ByteWriter w;
  auto r = wb::serialize(m, o, w);
  EXPECT_TRUE(r) << r.error().to_string();
  return w.take();
}

wb::Update announce(const std::string& prefix,
                    std::vector<wb::PathAttribute> extra = {}) {
  wb::Update u;
  u.attributes = {
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(
          wb::attr_type::kAsPath,
          wb::AsPath{{{wb::segment_type::kAsSequence, {65002}}}}),
      wb::make_attribute(wb::attr_type::kNextHop, wb::NextHop{{10, 0, 1, 2}})};
  for (auto& a : extra) {
    std::erase_if(u.attributes,
                  [&](const wb::PathAttribute& b) { return b.type == a.type; });
    u.attributes.push_back(std::move(a));
  }
  u.nlri.push_back(*wb::prefix_from_string(prefix));
  return u;
}

wb::PathAttribute raw(std::uint8_t flags, std::uint8_t type, Bytes value) {
  return wb::PathAttribute{flags, type, wb::RawAttribute{std::move(value)}};
}

class ScriptedPeer : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = lab_.add_namespace("a");
    x_ = lab_.add_namespace("x");
    const auto devs = lab_.link(a_, "10.0.1.1/30", x_, "10.0.1.2/30");
    socket_ = (lab_.dir() / "a.sock").string();
    // The link bandwidth comes from the veth's speed (10G); routes go to
    // the kernel; idle_hold 0 accepts a reconnection at once.
    const auto conf = lab_.write(
        "a.yaml",
        "asn: 65001\nrouter_id: 10.0.0.1\ncontrol_socket: " + socket_ +
            "\nlog_level: info\nfib: {install: true}\n"
            "timers: {idle_hold: 0}\n"
            "peers:\n  - {name: script, address: 10.0.1.2, asn: 65002,\n"
            "     local_address: 10.0.1.1, interface: " +
            devs.first +
            ",\n     link_bandwidth: interface, passive: true,\n"
            "     families: [ipv4]}\n");
    // No ASan quarantine: freed memory returns at once, so RSS shows
    // leaks and growth rather than the quarantine filling up.
    proc_ = lab_.start(a_, "arfabric-a",
                       {"env", "ASAN_OPTIONS=quarantine_size_mb=0",
                        ARFABRIC_BINARY, "bgpd", "-c", conf.string()});
    ASSERT_TRUE(handshake(100)) << lab_.dump_logs();
    ASSERT_TRUE(eventually([&] { return state() == "Established"; }, 10))
        << lab_.dump_logs();
  }

  // Connects and exchanges OPEN and KEEPALIVE; retries (a refused or
  // reset connection) up to `attempts` times, 2 ms apart.
  bool handshake(int attempts) {
    for (int i = 0; i < attempts; ++i) {
      rx_.clear();
      if (connect() && open_session()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }

  // OPEN: hold time 0 (no keepalives needed), 4-octet AS, IPv4 unicast.
  bool open_session() {
    wb::Open o;
    o.my_as = 65002;
    o.hold_time = 0;
    o.identifier = {10, 0, 0, 2};
    wb::OptionalParameter caps;
    caps.capabilities = {
        {wb::capability_code::kMultiprotocol,
         wb::MultiprotocolCapability{{wb::kAfiIpv4, wb::kSafiUnicast}}},
        {wb::capability_code::kFourOctetAs, wb::FourOctetAsCapability{65002}}};
    o.parameters.push_back(caps);
    if (!send_ok(encode(o))) return false;
    const auto open = receive(2000);
    if (!open || !std::holds_alternative<wb::Open>(*open)) return false;
    // The speaker accepts our OPEN with a KEEPALIVE. A connection it
    // closes instead (Idle just after the previous one closed, or a
    // collision with a session not yet torn down: NOTIFICATION Cease)
    // is one to retry.
    const auto accepted = receive(2000, /*keepalives=*/true);
    if (!accepted || !std::holds_alternative<wb::Keepalive>(*accepted)) {
      return false;
    }
    return send_ok(encode(wb::Keepalive{}));
  }

  bool send_ok(const Bytes& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }

  std::uint64_t rss_kib() {
    std::ifstream in("/proc/" + std::to_string(lab_.pid(proc_)) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
    }
    return 0;
  }

  std::size_t kernel_routes() {
    auto [rc, out] = lab_.exec(a_, "ip route show proto 186");
    return static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
  }

  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
  }

  // Connects from namespace x: the socket is created by a thread that
  // entered it, and stays in it when used from this thread.
  bool connect() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    std::thread t([&] {
      const int ns = ::open(("/var/run/netns/" + x_).c_str(), O_RDONLY);
      if (ns < 0 || setns(ns, CLONE_NEWNET) != 0) return;
      ::close(ns);
      const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in local{}, remote{};
      local.sin_family = remote.sin_family = AF_INET;
      local.sin_addr.s_addr = htonl(0x0a000102);
      remote.sin_addr.s_addr = htonl(0x0a000101);
      remote.sin_port = htons(179);
      if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0 &&
          ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) ==
              0) {
        fd_ = fd;
      } else {
        ::close(fd);
      }
    });
    t.join();
    return fd_ >= 0;
  }

  void send(const Bytes& bytes) {
    ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
  }

  // The next message from the daemon (KEEPALIVEs skipped), or monostate
  // on a timeout or a closed connection.
  // The next message from the speaker, KEEPALIVEs skipped unless
  // `keepalives`; nullopt when none comes within `timeout_ms` or the
  // connection closes.
  std::optional<wb::Message> receive(int timeout_ms = 5000,
                                     bool keepalives = false) {
    for (;;) {
      wb::ParseOptions options;
      options.four_octet_as = true;
      if (!rx_.empty()) {
        auto m = wb::parse_message(rx_, options);
        if (m) {
          rx_.erase(rx_.begin(), rx_.begin() + m->length);
          if (!keepalives &&
              std::holds_alternative<wb::Keepalive>(m->message)) {
            continue;
          }
          return m->message;
        }
      }
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return std::nullopt;
      std::uint8_t buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) return std::nullopt;
      rx_.insert(rx_.end(), buf, buf + n);
    }
  }

  json neighbor() {
    json n = bgpctl(socket_, "neighbors");
    const json* p = find_by(n, "name", "script");
    return p ? *p : json();
  }
  std::string state() { return neighbor().value("state", ""); }
  bool in_rib(const std::string& prefix) {
    json rib = bgpctl(socket_, "rib");
    return find_by(rib, "prefix", prefix) != nullptr;
  }

  NetnsLab lab_;
  std::string a_, x_, socket_;
  std::size_t proc_ = 0;
  int fd_ = -1;
  Bytes rx_;
};

constexpr std::uint8_t kWellKnown = wb::attr_flag::kTransitive;
constexpr std::uint8_t kOptTrans =
    wb::attr_flag::kOptional | wb::attr_flag::kTransitive;

TEST_F(ScriptedPeer, Rfc7606ErrorsKeepTheSessionUpAndMalformedNlriResetsIt) {
  send(encode(announce("10.9.1.0/24")));
  ASSERT_TRUE(eventually([&] { return in_rib("10.9.1.0/24"); }, 5))
      << lab_.dump_logs();

  // RFC 7606 section 7.1: an ORIGIN of 7 is treat-as-withdraw.
  send(encode(announce("10.9.2.0/24", {raw(kWellKnown, 1, {7})})));
  // Section 7.14: a malformed EXTENDED_COMMUNITIES length withdraws the
  // route it came with, here the earlier 10.9.1.0/24.
  send(encode(announce("10.9.1.0/24", {raw(kOptTrans, 16, {0, 1, 2, 3, 4})})));
  // Section 7.6: a malformed ATOMIC_AGGREGATE is discarded, the route kept.
  send(encode(announce("10.9.3.0/24", {raw(kWellKnown, 6, {1})})));
  ASSERT_TRUE(eventually([&] { return in_rib("10.9.3.0/24"); }, 5))
      << lab_.dump_logs();
  EXPECT_FALSE(in_rib("10.9.2.0/24"));
  EXPECT_FALSE(in_rib("10.9.1.0/24"));
  json n = neighbor();
  EXPECT_EQ(n.value("state", ""), "Established");
  EXPECT_EQ(n.value("treat_as_withdraw", 0u), 2u) << n.dump();
  EXPECT_EQ(n.value("attributes_discarded", 0u), 1u) << n.dump();
  EXPECT_EQ(n.value("notifications_out", 0u), 0u) << n.dump();

  // A prefix length of 33 is not an IPv4 prefix: RFC 4271 section 6.3 /
  // RFC 7606 section 5.3 reset the session with 3/10 Invalid Network Field.
  Bytes bad = encode(announce("10.9.4.0/24"));
  ASSERT_EQ(bad[bad.size() - 4], 24);
  bad[bad.size() - 4] = 33;
  send(bad);
  auto m = receive();
  while (m && std::holds_alternative<wb::Update>(*m)) {
    m = receive();  // End-of-RIB
  }
  ASSERT_TRUE(m) << "no NOTIFICATION" << lab_.dump_logs();
  const auto* notification = std::get_if<wb::Notification>(&*m);
  ASSERT_NE(notification, nullptr) << lab_.dump_logs();
  EXPECT_EQ(notification->code, 3);
  EXPECT_EQ(notification->subcode, wb::subcode::kInvalidNetworkField);
  EXPECT_TRUE(eventually([&] { return state() != "Established"; }, 5));
  EXPECT_TRUE(eventually([&] { return !in_rib("10.9.3.0/24"); }, 5));
}

TEST_F(ScriptedPeer, LinkBandwidthComesFromTheInterfaceSpeed) {
  EXPECT_EQ(neighbor().value("link_bandwidth", 0ull), gbps(10));  // veth
}

// 1,000 session flaps, each carrying 20 routes into the kernel: memory stays
// flat and no kernel route or nexthop is left behind.
TEST_F(ScriptedPeer, ThousandFlapsLeaveMemoryFlatAndNoKernelRoutes) {
  wb::Update routes = announce("10.50.0.0/24");
  for (int i = 1; i < 20; ++i) {
    routes.nlri.push_back(
        *wb::prefix_from_string("10.50." + std::to_string(i) + ".0/24"));
  }
  const Bytes update = encode(routes);
  std::uint64_t rss_early = 0;
  for (int flap = 0; flap < 1000; ++flap) {
    if (flap > 0) {
      ASSERT_TRUE(handshake(200)) << "flap " << flap;
    }
    ASSERT_TRUE(send_ok(update));
    if (flap % 250 == 0) {
      // Now and then, the routes reach the kernel before the flap.
      ASSERT_TRUE(eventually([&] { return kernel_routes() == 20; }, 5))
          << "flap " << flap << lab_.dump_logs();
    }
    if (flap == 100) rss_early = rss_kib();
    ::close(fd_);
    fd_ = -1;
  }
  EXPECT_TRUE(eventually([&] { return state() != "Established"; }, 5));
  EXPECT_TRUE(eventually([&] { return kernel_routes() == 0; }, 5));
  auto [rc, nexthops] = lab_.exec(a_, "ip nexthop show");
  EXPECT_EQ(nexthops, "");
  EXPECT_GE(neighbor().value("established_transitions", 0u), 1000u);
  const std::uint64_t rss_late = rss_kib();
  ASSERT_GT(rss_early, 0u);
  // Flat: on average well under a kilobyte of growth per flap after
  // warm-up.
  EXPECT_LT(rss_late, rss_early + 1024)
      << rss_early << " -> " << rss_late << " KiB";
  std::cout << "RSS after 100 flaps " << rss_early << " KiB, after 1000 "
            << rss_late << " KiB\n";
}

}  // namespace
}  // namespace arfabric::testing
