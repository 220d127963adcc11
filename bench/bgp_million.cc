// bgp_million: the issue 6 daemon comparison's load generator and stopwatch.
//
// Opens two eBGP sessions to one daemon under test (any BGP implementation:
// arfabric bgpd, FRR bgpd, BIRD), both from this process:
//   - the receiver session, which counts the distinct IPv4 prefixes the
//     daemon advertises to it, and
//   - the feeder session, which sends N distinct IPv4 /24s (11.0.0.0/24,
//     11.0.1.0/24, ...) in packed UPDATEs: as many NLRI per UPDATE as fit in
//     4,096 bytes, one shared attribute set (ORIGIN IGP, AS_PATH = the
//     feeder's AS, NEXT_HOP = the feeder's address).
// It reports the seconds from t0 (the first UPDATE byte written) to t1 (the
// last of the N prefixes arrived at the receiver), and the daemon's peak
// resident set (VmHWM of /proc/PID/status, read after t1 while the daemon
// still runs). Everything BGP is encoded and decoded with src/wire.
//
// The daemon must be configured with both sessions passive (this tool
// connects, from the given local addresses), eBGP, no policy filtering and
// next-hop-self toward the receiver. UPDATEs are built before the clock
// starts; the tool's own work while timing is writing bytes and decoding the
// re-advertised UPDATEs (about 10 ns per prefix).
//
// Exit status 0 and one line
//   RESULT name=<name> prefixes=<N> seconds=<t1-t0> peak_rss_kb=<VmHWM>
// on success; 1 with a message naming the session and what went wrong
// (connect refused, NOTIFICATION received, session closed, timeout with the
// count reached so far).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "wire/bgp/message.h"

namespace {

using namespace arfabric;
namespace wb = arfabric::wire::bgp;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kFirstPrefix = 0x0b000000;  // 11.0.0.0

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "bgp_million: %s\n", message.c_str());
  std::exit(1);
}

std::optional<wire::Ipv4Address> parse_v4(const std::string& text) {
  in_addr a{};
  if (inet_pton(AF_INET, text.c_str(), &a) != 1) return std::nullopt;
  wire::Ipv4Address out;
  std::memcpy(out.data(), &a, 4);
  return out;
}

wb::Open open_for(std::uint32_t asn, const wire::Ipv4Address& id) {
  wb::Open o;
  o.my_as = asn > 0xffff ? wb::kAsTrans : static_cast<std::uint16_t>(asn);
  o.hold_time = 90;  // the daemons' own, lower, hold times win
  o.identifier = id;
  wb::OptionalParameter caps;
  caps.capabilities = {
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv4, wb::kSafiUnicast}}},
      {wb::capability_code::kRouteRefresh, wb::RouteRefreshCapability{}},
      {wb::capability_code::kFourOctetAs, wb::FourOctetAsCapability{asn}}};
  o.parameters.push_back(caps);
  return o;
}

Bytes encode(const wb::Message& m, const wb::SessionCodecOptions& options) {
  ByteWriter w;
  if (auto r = wb::serialize(m, options, w); !r) {
    fail("cannot encode a message: " + r.error().to_string());
  }
  return w.take();
}

wb::Prefix prefix_at(std::uint32_t i) {
  wb::Prefix p;
  p.length = 24;
  const std::uint32_t net = kFirstPrefix + (i << 8);
  p.address[0] = static_cast<std::uint8_t>(net >> 24);
  p.address[1] = static_cast<std::uint8_t>(net >> 16);
  p.address[2] = static_cast<std::uint8_t>(net >> 8);
  return p;
}

// The feed: `count` /24s, as many per UPDATE as fit in 4,096 bytes.
std::vector<Bytes> make_feed(std::uint32_t count, std::uint32_t feeder_as,
                             const wire::Ipv4Address& next_hop,
                             const wb::SessionCodecOptions& options) {
  wb::Update u;
  u.attributes = {
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(
          wb::attr_type::kAsPath,
          wb::AsPath{{{wb::segment_type::kAsSequence, {feeder_as}}}}),
      wb::make_attribute(wb::attr_type::kNextHop, wb::NextHop{next_hop})};
  // A /24 NLRI takes 4 bytes: length octet + 3 address octets.
  const std::size_t per_update =
      (options.max_message_length() - wb::encoded_size(u, options)) / 4;
  std::vector<Bytes> feed;
  for (std::uint32_t first = 0; first < count; first += per_update) {
    u.nlri.clear();
    const std::uint32_t end = static_cast<std::uint32_t>(
        std::min<std::size_t>(count, first + per_update));
    for (std::uint32_t i = first; i < end; ++i) u.nlri.push_back(prefix_at(i));
    feed.push_back(encode(u, options));
  }
  return feed;
}

// One BGP session over a non-blocking TCP socket.
struct Session {
  std::string name;
  int fd = -1;
  Bytes in;
  std::size_t in_offset = 0;
  Bytes out;
  std::size_t out_offset = 0;
  wb::Open local_open;
  std::optional<wb::Open> remote_open;
  wb::SessionCodecOptions codec;
  bool established = false;  // their OPEN and a KEEPALIVE arrived

  bool writing() const { return out_offset < out.size(); }
  void queue(const Bytes& message) {
    if (out_offset == out.size()) {
      out.clear();
      out_offset = 0;
    }
    out.insert(out.end(), message.begin(), message.end());
  }
  // Writes what the socket takes; false when the connection failed.
  void write_some() {
    while (out_offset < out.size()) {
      const ssize_t n = ::send(fd, out.data() + out_offset,
                               out.size() - out_offset, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        fail(name + " session: send: " + std::strerror(errno));
      }
      out_offset += static_cast<std::size_t>(n);
    }
  }
  // Reads what is there; calls on_update(update) for every UPDATE once
  // established. Fails on NOTIFICATION, close or a malformed message.
  template <typename OnUpdate>
  void read_some(OnUpdate&& on_update) {
    for (;;) {
      if (in_offset > 0 && in_offset == in.size()) {
        in.clear();
        in_offset = 0;
      }
      const std::size_t old = in.size();
      in.resize(old + 262144);
      const ssize_t n = ::recv(fd, in.data() + old, 262144, 0);
      in.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        fail(name + " session: recv: " + std::strerror(errno));
      }
      if (n == 0) fail(name + " session: closed by the daemon");
      parse(on_update);
    }
  }
  template <typename OnUpdate>
  void parse(OnUpdate&& on_update) {
    while (in.size() - in_offset >= 19) {
      const std::uint8_t* m = in.data() + in_offset;
      const std::size_t length = (std::size_t{m[16]} << 8) | m[17];
      if (length < 19) fail(name + " session: bad message length");
      if (in.size() - in_offset < length) return;
      const ByteSpan bytes(m, length);
      in_offset += length;
      const std::uint8_t type = m[18];
      if (type == 2 && established) {  // UPDATE: the hot path
        auto u = wb::parse_update(bytes, codec);
        if (!u) {
          fail(name + " session: bad UPDATE: " + u.error().to_string());
        }
        on_update(u->update);
        continue;
      }
      auto parsed = wb::parse_message(bytes, codec);
      if (!parsed) {
        fail(name + " session: bad message: " + parsed.error().to_string());
      }
      if (auto* o = std::get_if<wb::Open>(&parsed->message)) {
        remote_open = *o;
        codec = wb::negotiate(local_open, *o);
        queue(encode(wb::Keepalive{}, codec));
      } else if (std::holds_alternative<wb::Keepalive>(parsed->message)) {
        if (remote_open) established = true;
      } else if (auto* n = std::get_if<wb::Notification>(&parsed->message)) {
        fail(name + " session: NOTIFICATION " + std::to_string(n->code) + "/" +
             std::to_string(n->subcode) + " (" +
             std::string(wb::notification_code_name(n->code)) + ", " +
             std::string(wb::notification_subcode_name(n->code, n->subcode)) +
             ") from the daemon");
      }
    }
  }
};

int connect_to(const std::string& name, const wire::Ipv4Address& local,
               const wire::Ipv4Address& remote, std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail(name + " session: socket: " + std::strerror(errno));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  std::memcpy(&a.sin_addr, local.data(), 4);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    fail(name + " session: bind " + wire::format_ipv4(local) + ": " +
         std::strerror(errno));
  }
  sockaddr_in r{};
  r.sin_family = AF_INET;
  r.sin_port = htons(port);
  std::memcpy(&r.sin_addr, remote.data(), 4);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&r), sizeof r) != 0) {
    const int e = errno;
    ::close(fd);
    return -e;
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

// The daemon may still be starting: retry refused connections for a while.
int connect_retrying(const std::string& name, const wire::Ipv4Address& local,
                     const wire::Ipv4Address& remote, std::uint16_t port,
                     Clock::time_point deadline) {
  for (;;) {
    const int fd = connect_to(name, local, remote, port);
    if (fd >= 0) return fd;
    if (Clock::now() > deadline) {
      fail(name + " session: connect to " + wire::format_ipv4(remote) + ":" +
           std::to_string(port) + ": " + std::strerror(-fd));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::optional<long> peak_rss_kb(long pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      long kb = 0;
      status >> kb;
      return kb;
    }
    status.ignore(1 << 20, '\n');
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Feeds N IPv4 /24s to a BGP daemon over one session and times their "
      "re-advertisement to a second session."};
  std::string name = "daemon", daemon_text = "127.0.0.1";
  std::string feeder_text = "127.0.0.11", receiver_text = "127.0.0.12";
  std::uint16_t port = 179;
  std::uint32_t feeder_as = 65011, receiver_as = 65012;
  std::uint32_t prefixes = 1000000;
  long pid = 0;
  double timeout_s = 300, settle_s = 1;
  app.add_option("--name", name, "label of the result line");
  app.add_option("--daemon", daemon_text, "the daemon's address");
  app.add_option("--port", port, "the daemon's BGP port");
  app.add_option("--feeder", feeder_text, "local address of the feeder");
  app.add_option("--feeder-as", feeder_as, "ASN of the feeder");
  app.add_option("--receiver", receiver_text, "local address of the receiver");
  app.add_option("--receiver-as", receiver_as, "ASN of the receiver");
  app.add_option("--prefixes", prefixes, "how many /24s to feed")
      ->check(CLI::Range(1u, 1u << 24));
  app.add_option("--pid", pid, "the daemon's pid, for its peak RSS")
      ->required();
  app.add_option("--timeout", timeout_s,
                 "seconds from the first UPDATE until every prefix must "
                 "have arrived");
  app.add_option("--settle", settle_s,
                 "seconds to wait after both sessions are up before feeding");
  CLI11_PARSE(app, argc, argv);

  const auto daemon = parse_v4(daemon_text);
  const auto feeder_address = parse_v4(feeder_text);
  const auto receiver_address = parse_v4(receiver_text);
  if (!daemon || !feeder_address || !receiver_address) {
    fail("--daemon, --feeder and --receiver must be IPv4 addresses");
  }

  Session receiver, feeder;
  receiver.name = "receiver";
  feeder.name = "feeder";
  receiver.local_open = open_for(receiver_as, *receiver_address);
  feeder.local_open = open_for(feeder_as, *feeder_address);
  const auto connect_deadline = Clock::now() + std::chrono::seconds(30);
  receiver.fd = connect_retrying("receiver", *receiver_address, *daemon, port,
                                 connect_deadline);
  feeder.fd = connect_retrying("feeder", *feeder_address, *daemon, port,
                               connect_deadline);
  receiver.queue(encode(receiver.local_open, {}));
  feeder.queue(encode(feeder.local_open, {}));

  // Distinct prefixes seen by the receiver: a bit per /24 index.
  std::vector<bool> seen(prefixes, false);
  std::uint32_t distinct = 0;
  std::uint64_t received_updates = 0;
  Clock::time_point t1{};
  auto count = [&](const wb::Update& u) {
    ++received_updates;
    for (const wb::Prefix& p : u.nlri) {
      if (p.length != 24) continue;
      const std::uint32_t net = (std::uint32_t{p.address[0]} << 24) |
                                (std::uint32_t{p.address[1]} << 16) |
                                (std::uint32_t{p.address[2]} << 8);
      const std::uint32_t i = (net - kFirstPrefix) >> 8;
      if (net < kFirstPrefix || i >= prefixes || seen[i]) continue;
      seen[i] = true;
      if (++distinct == prefixes) t1 = Clock::now();
    }
  };
  auto ignore = [](const wb::Update&) {};

  std::vector<Bytes> feed;
  std::size_t next_feed = 0;
  std::optional<Clock::time_point> t0, ready_at;
  Clock::time_point last_keepalive = Clock::now();
  const auto session_deadline = Clock::now() + std::chrono::seconds(60);
  Bytes keepalive = encode(wb::Keepalive{}, {});
  while (distinct < prefixes) {
    const auto now = Clock::now();
    if (!t0 && now > session_deadline) {
      fail(std::string("sessions not established within 60 s (receiver ") +
           (receiver.established ? "up" : "down") + ", feeder " +
           (feeder.established ? "up" : "down") + ")");
    }
    if (t0 && now - *t0 > std::chrono::duration<double>(timeout_s)) {
      fail("timeout: " + std::to_string(distinct) + " of " +
           std::to_string(prefixes) + " prefixes arrived at the receiver " +
           std::to_string(timeout_s) + " s after the first UPDATE (" +
           std::to_string(received_updates) + " UPDATEs received)");
    }
    // KEEPALIVE every second: FRR's datacenter hold time is 9 s. On the
    // feeder it goes between two UPDATEs.
    if (now - last_keepalive > std::chrono::seconds(1)) {
      last_keepalive = now;
      if (receiver.established) receiver.queue(keepalive);
      if (feeder.established && !feeder.writing()) feeder.queue(keepalive);
    }
    if (!ready_at && receiver.established && feeder.established) {
      ready_at = now + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(settle_s));
      feed = make_feed(prefixes, feeder_as, *feeder_address, feeder.codec);
    }
    if (ready_at && now >= *ready_at && next_feed < feed.size() &&
        !feeder.writing()) {
      // Refill the feeder's buffer about 256 KB at a time.
      if (!t0) t0 = Clock::now();
      std::size_t queued = 0;
      while (next_feed < feed.size() && queued < 262144) {
        feeder.queue(feed[next_feed]);
        queued += feed[next_feed++].size();
      }
    }
    receiver.write_some();
    feeder.write_some();
    pollfd fds[2] = {
        {receiver.fd,
         static_cast<short>(POLLIN | (receiver.writing() ? POLLOUT : 0)), 0},
        {feeder.fd,
         static_cast<short>(
             POLLIN | (feeder.writing() || (ready_at && next_feed < feed.size())
                           ? POLLOUT
                           : 0)),
         0}};
    if (::poll(fds, 2, 50) < 0 && errno != EINTR) {
      fail(std::string("poll: ") + std::strerror(errno));
    }
    if (fds[0].revents) receiver.read_some(count);
    if (fds[1].revents) feeder.read_some(ignore);
  }
  const double seconds = std::chrono::duration<double>(t1 - *t0).count();
  const auto rss = peak_rss_kb(pid);
  if (!rss) fail("no VmHWM in /proc/" + std::to_string(pid) + "/status");
  std::printf("RESULT name=%s prefixes=%u seconds=%.3f peak_rss_kb=%ld\n",
              name.c_str(), prefixes, seconds, *rss);
  std::fflush(stdout);
  ::close(receiver.fd);
  ::close(feeder.fd);
  return 0;
}
