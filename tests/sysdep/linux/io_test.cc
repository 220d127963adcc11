#include "sysdep/linux/io.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <net/if.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "support/capture.h"

namespace arfabric::sysdep {
namespace {

namespace fs = std::filesystem;

// A control socket: a live one (another daemon's) is refused, a dead one
// (its daemon died) replaced, anything else left alone.
TEST(UnixListen, ReplacesOnlyASocketNobodyServes) {
  const fs::path path = testing::fresh_temp_path("sock");
  {
    auto first = unix_listen(path.string());
    ASSERT_TRUE(first) << first.error().to_string();
    auto second = unix_listen(path.string());
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().err, EADDRINUSE);
    EXPECT_NE(second.error().to_string().find("a running process serves it"),
              std::string::npos);
    EXPECT_TRUE(unix_connect(path.string()));  // still the first's
  }
  // The first closed without removing its file: a stale socket.
  ASSERT_TRUE(fs::is_socket(path));
  auto again = unix_listen(path.string());
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(unix_connect(path.string()));
  fs::remove(path);

  // A live socket of another type (a datagram server's, like /dev/log)
  // answers a stream connect with EPROTOTYPE: alive, and left alone.
  {
    Fd datagram(::socket(AF_UNIX, SOCK_DGRAM, 0));
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.c_str(), path.string().size() + 1);
    ASSERT_EQ(::bind(datagram.get(), reinterpret_cast<sockaddr*>(&a), sizeof a),
              0);
    auto over_datagram = unix_listen(path.string());
    ASSERT_FALSE(over_datagram);
    EXPECT_EQ(over_datagram.error().err, EADDRINUSE);
    EXPECT_TRUE(fs::is_socket(path));
  }
  fs::remove(path);

  std::ofstream(path) << "notes";
  auto over_a_file = unix_listen(path.string());
  ASSERT_FALSE(over_a_file);
  EXPECT_EQ(over_a_file.error().err, EEXIST);
  std::ifstream f(path);
  std::string kept;
  f >> kept;
  EXPECT_EQ(kept, "notes");
  fs::remove(path);
}

// A link-local address is shown with its interface, by name while one of
// that index exists.
TEST(InetAddress, ALinkLocalAddressShowsItsInterface) {
  InetAddress a;
  a.v6 = true;
  ASSERT_EQ(inet_pton(AF_INET6, "fe80::1", a.bytes.data()), 1);
  a.port = 179;
  EXPECT_EQ(a.to_string(), "[fe80::1]:179");
  a.scope_id = if_nametoindex("lo");
  ASSERT_NE(a.scope_id, 0u);
  EXPECT_EQ(a.to_string(), "[fe80::1%lo]:179");
  InetAddress unscoped = a;
  unscoped.scope_id = 0;
  EXPECT_FALSE(a.same_host(unscoped));  // another link, another host
  a.scope_id = 999999;
  EXPECT_EQ(a.to_string(), "[fe80::1%999999]:179");
}

// A refused connection names where it went, whether connect() fails at
// once or later, through connect_result().
TEST(TcpConnect, AFailedConnectNamesTheRemoteAddress) {
  // A port nothing listens on: bind one, learn its number, close it.
  InetAddress remote;
  remote.bytes = {127, 0, 0, 1};
  {
    auto listener = tcp_listen(remote);
    ASSERT_TRUE(listener) << listener.error().to_string();
    auto bound = local_address(listener->get());
    ASSERT_TRUE(bound);
    remote.port = bound->port;
  }
  const std::string named =
      "connect(127.0.0.1:" + std::to_string(remote.port) + ")";
  auto fd = tcp_connect(remote, std::nullopt);
  if (!fd) {
    EXPECT_EQ(fd.error().call, named);
    return;
  }
  pollfd p{fd->get(), POLLOUT, 0};
  ASSERT_EQ(::poll(&p, 1, 5000), 1);
  auto r = connect_result(fd->get(), remote);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().err, ECONNREFUSED);
  EXPECT_EQ(r.error().call, named);
}

}  // namespace
}  // namespace arfabric::sysdep
