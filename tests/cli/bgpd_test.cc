// `arfabric bgpd` and `arfabric bgpctl` around the control socket and the
// pid file: a reload says what it read and what it could not apply; a
// second daemon cannot take the first one's socket or pid file; a daemon
// that does not answer does not hang bgpctl. The daemon runs as a real
// process in a network namespace the test creates (no peers, no FIB).
#include "cli/bgpd.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "daemon/netns_harness.h"
#include "support/capture.h"
#include "sysdep/linux/io.h"

namespace arfabric::cli {
namespace {

namespace fs = std::filesystem;
using arfabric::testing::eventually;
using arfabric::testing::NetnsLab;

std::string config_text(const fs::path& socket, std::uint32_t asn) {
  return "asn: " + std::to_string(asn) +
         "\nrouter_id: 10.0.0.1\nlisten: {port: 0}\ncontrol_socket: " +
         socket.string() + "\nfib: {install: false}\n";
}

struct Answer {
  int code;
  std::string out, err;
};

Answer bgpctl(const fs::path& socket, const std::string& what,
              unsigned timeout_s = 10) {
  BgpctlOptions o;
  o.socket = socket.string();
  o.what = what;
  o.timeout_s = timeout_s;
  std::ostringstream out, err;
  const int code = run_bgpctl(o, out, err);
  return {code, out.str(), err.str()};
}

class BgpdControl : public ::testing::Test {
 protected:
  void SetUp() override {
    ns_ = lab_.add_namespace("a");
    socket_ = lab_.dir() / "a.sock";
    config_ = lab_.write("a.yaml", config_text(socket_, 65001));
    pid_file_ = lab_.dir() / "a.pid";
    daemon_ = lab_.start(ns_, "bgpd",
                         {ARFABRIC_BINARY, "bgpd", "-c", config_.string(),
                          "--pid-file", pid_file_.string()});
    ASSERT_TRUE(
        eventually([&] { return bgpctl(socket_, "neighbors").code == 0; }, 10))
        << lab_.dump_logs();
  }

  NetnsLab lab_;
  std::string ns_;
  fs::path socket_, config_, pid_file_;
  std::size_t daemon_ = 0;
};

// A reload names the file it read and prints the settings that need a
// restart as warnings; a reload that fails says why, exits 1, and the
// daemon logs it too.
TEST_F(BgpdControl, ReloadSaysWhatItReadAndWarnsOfWhatNeedsARestart) {
  lab_.write("a.yaml", config_text(socket_, 65002));
  Answer a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, "reloaded " + config_.string() + "\n");
  EXPECT_EQ(a.err,
            "arfabric bgpctl: warning: asn changed; it takes effect only "
            "after a restart\n");

  lab_.write("a.yaml", "asn: 65001\nrouter_id: 10.0.0.1\nrol: leaf\n");
  a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.out, "");
  EXPECT_NE(a.err.find("unknown key"), std::string::npos) << a.err;
  EXPECT_TRUE(eventually(
      [&] {
        return lab_.log(daemon_).find(
                   "reload failed, configuration "
                   "unchanged") != std::string::npos;
      },
      5))
      << lab_.dump_logs();
}

// The settings that need a restart are compared with what runs: a change
// is warned of at every reload until undone, and undoing it is silent.
// (The file's values used to replace the running ones in the comparison:
// an unchanged second reload was silent, undoing it warned, and
// fare.transitivity was not compared at all.)
TEST_F(BgpdControl, ReloadWarnsOfWhatDiffersFromWhatRuns) {
  const std::string base = config_text(socket_, 65001);
  lab_.write("a.yaml", base + "multipath: {maximum_paths: 8}\n");
  const std::string multipath =
      "arfabric bgpctl: warning: multipath changed; it takes effect only "
      "after a restart\n";
  for (int i = 0; i < 2; ++i) {
    Answer a = bgpctl(socket_, "reload");
    EXPECT_EQ(a.code, 0) << a.err;
    EXPECT_EQ(a.err, multipath) << "reload " << i;
  }
  lab_.write("a.yaml", base);
  Answer undone = bgpctl(socket_, "reload");
  EXPECT_EQ(undone.code, 0) << undone.err;
  EXPECT_EQ(undone.err, "");
  lab_.write("a.yaml", base + "fare: {transitivity: non-transitive}\n");
  Answer fare = bgpctl(socket_, "reload");
  EXPECT_EQ(fare.err,
            "arfabric bgpctl: warning: fare changed; it takes effect only "
            "after a restart\n");
}

// Idle control clients cannot hold the daemon's descriptors. With 32 of
// them allowed, 40 silent connections used to leave the daemon spinning
// on a control socket it could no longer accept from (at 60% CPU, no
// word logged) and bgpctl locked out until they left. Now what cannot be
// accepted is accepted on a spare descriptor and closed, with a warning,
// and idle clients are dropped after
// 10 s, after which bgpctl works again.
TEST(BgpdDescriptors, IdleClientsAreDroppedAndTheDaemonDoesNotSpin) {
  NetnsLab lab;
  const std::string ns = lab.add_namespace("d");
  const fs::path socket = lab.dir() / "d.sock";
  const fs::path config = lab.write("d.yaml", config_text(socket, 65001));
  const std::size_t daemon =
      lab.start(ns, "bgpd",
                {"/bin/sh", "-c",
                 std::string("ulimit -n 32 && exec ") + ARFABRIC_BINARY +
                     " bgpd -c " + config.string()});
  ASSERT_TRUE(
      eventually([&] { return bgpctl(socket, "neighbors").code == 0; }, 10))
      << lab.dump_logs();
  std::vector<sysdep::Fd> idle;
  for (int i = 0; i < 40; ++i) {
    if (auto fd = sysdep::unix_connect(socket.string(), ms(200)))
      idle.push_back(std::move(*fd));
  }
  ASSERT_GE(idle.size(), 30u);
  ASSERT_TRUE(eventually(
      [&] {
        return lab.log(daemon).find("out of file descriptors") !=
               std::string::npos;
      },
      5))
      << lab.dump_logs();
  // No spin: over a second with every descriptor taken the daemon uses
  // little CPU (it spun at 60%).
  const auto cpu_ticks = [&] {
    std::ifstream stat("/proc/" + std::to_string(lab.pid(daemon)) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    long ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
      if (i >= 14) ticks += std::stol(field);  // utime, stime
    return ticks;
  };
  const long before = cpu_ticks();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_LT(cpu_ticks() - before, 30) << "ticks of CPU in 1 s";
  // Dropped after 10 s: each held connection reads its end.
  ASSERT_TRUE(
      eventually([&] { return bgpctl(socket, "neighbors", 2).code == 0; }, 20))
      << lab.dump_logs();
  pollfd first{idle.front().get(), POLLIN, 0};
  ASSERT_EQ(::poll(&first, 1, 15'000), 1);
  char byte = 0;
  EXPECT_EQ(::read(idle.front().get(), &byte, 1), 0);
}

// The command line's --log-level outlives a reload: the file's debug
// level took over after SIGHUP.
TEST(BgpdLogLevel, TheCommandLinesLevelOutlivesAReload) {
  NetnsLab lab;
  const std::string ns = lab.add_namespace("l");
  const fs::path socket = lab.dir() / "l.sock";
  const fs::path config =
      lab.write("l.yaml", config_text(socket, 65001) + "log_level: debug\n");
  const std::size_t daemon = lab.start(
      ns, "bgpd",
      {ARFABRIC_BINARY, "bgpd", "-c", config.string(), "--log-level", "error"});
  ASSERT_TRUE(
      eventually([&] { return bgpctl(socket, "neighbors").code == 0; }, 10))
      << lab.dump_logs();
  for (int i = 0; i < 2; ++i) {
    Answer a = bgpctl(socket, "reload");
    EXPECT_EQ(a.code, 0) << a.err;
  }
  lab.write("l.yaml", config_text(socket, 65002) + "log_level: debug\n");
  EXPECT_EQ(bgpctl(socket, "reload").code, 0);  // warns: asn changed
  EXPECT_EQ(lab.log(daemon).find("warning "), std::string::npos)
      << lab.dump_logs();
  EXPECT_EQ(lab.log(daemon).find("info "), std::string::npos)
      << lab.dump_logs();
}

// A reload restarts a session only when its settings change, and says so:
// spelling out the hold time a peer inherits changes nothing.
TEST_F(BgpdControl, AReloadRestartsASessionOnlyWhenItsSettingsChange) {
  const std::string head = config_text(socket_, 65001) + "timers: {hold: 9}\n";
  const std::string peer =
      "peers:\n  - {name: s1, address: 10.9.9.2, asn: 65100, passive: true,\n"
      "     local_address: 10.9.9.1, link_bandwidth: 100G";
  lab_.write("a.yaml", head + peer + "}\n");
  Answer a = bgpctl(socket_, "reload");
  ASSERT_EQ(a.code, 0) << a.err;
  // The peer is new, no restart; but nothing listens for it.
  EXPECT_EQ(a.err,
            "arfabric bgpctl: warning: peer s1: cannot connect to us: nothing "
            "listens (listen.port 0); it is passive, so its session never "
            "comes up\n");

  lab_.write("a.yaml", head + peer + ", hold: 9}\n");
  a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, "");

  lab_.write("a.yaml", head + peer + ", hold: 30}\n");
  a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 0) << a.err;
  // Added again, it is named again.
  EXPECT_EQ(a.err,
            "arfabric bgpctl: warning: peer s1: its session settings changed; "
            "the session restarts\n"
            "arfabric bgpctl: warning: peer s1: cannot connect to us: nothing "
            "listens (listen.port 0); it is passive, so its session never "
            "comes up\n");
}

// A link-local peer moved to another interface is another neighbour (the
// same address on another link), so its session restarts; the reload says
// so, as it does when a peer's address changes under the same name.
TEST_F(BgpdControl, AReloadSaysWhenAPeerMovesToAnotherLinkOrAddress) {
  const std::string head = config_text(socket_, 65001) + "peers:\n";
  auto peer = [](const std::string& address, const std::string& local,
                 const std::string& interface) {
    return "  - {name: s1, address: \"" + address +
           "\", asn: 65100,\n"
           "     local_address: \"" +
           local + "\", interface: " + interface +
           ",\n     link_bandwidth: 100G, families: [ipv6]}\n";
  };
  lab_.write("a.yaml", head + peer("fe80::2", "fe80::1", "e1"));
  Answer a = bgpctl(socket_, "reload");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, "");
  const std::string restarts =
      "arfabric bgpctl: warning: peer s1: its address or link changed; the "
      "session restarts\n";
  lab_.write("a.yaml", head + peer("fe80::2", "fe80::1", "e2"));
  a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, restarts);
  lab_.write("a.yaml", head + peer("fd00::2", "fd00::1", "e2"));
  a = bgpctl(socket_, "reload");
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, restarts);
}

// --check prints the warnings the daemon would log at start, and still
// calls the configuration OK.
TEST(BgpdCheck, PrintsTheWarningsOfAValidConfiguration) {
  const fs::path path = testing::fresh_temp_path("check.yaml");
  std::ofstream(path) << "asn: 65001\nrouter_id: 10.0.0.1\npeers:\n"
                         "  - {name: p, address: \"fd00::2\", asn: 2,\n"
                         "     passive: true, link_bandwidth: 1G,\n"
                         "     local_address: \"fd00::1\", families: [ipv6]}\n";
  BgpdOptions o;
  o.config_path = path.string();
  o.check = true;
  std::ostringstream out, err;
  EXPECT_EQ(run_bgpd(o, out, err), 0);
  EXPECT_EQ(out.str(), path.string() + ": OK, 1 peer\n");
  EXPECT_EQ(err.str(),
            "arfabric bgpd: warning: peer p: cannot connect to us: the "
            "listening socket is IPv4 (set listen.address \"::\" for both); "
            "it is passive, so its session never comes up\n");
}

// A second daemon given the running one's control socket or pid file
// stops with an error, and leaves both to the first; the first removes
// them when it stops.
TEST_F(BgpdControl, ASecondDaemonCannotTakeTheSocketOrThePidFile) {
  std::string pid;
  std::ifstream(pid_file_) >> pid;
  EXPECT_EQ(pid, std::to_string(lab_.pid(daemon_)));

  const fs::path other_config =
      lab_.write("b.yaml", config_text(lab_.dir() / "b.sock", 65003));
  const std::size_t same_pid_file =
      lab_.start(ns_, "second-pid",
                 {ARFABRIC_BINARY, "bgpd", "-c", other_config.string(),
                  "--pid-file", pid_file_.string()});
  EXPECT_EQ(lab_.wait_exit(same_pid_file), 2);
  EXPECT_NE(lab_.log(same_pid_file).find("held by process " + pid),
            std::string::npos)
      << lab_.log(same_pid_file);

  const std::size_t same_socket = lab_.start(
      ns_, "second-socket", {ARFABRIC_BINARY, "bgpd", "-c", config_.string()});
  EXPECT_EQ(lab_.wait_exit(same_socket), 2);
  EXPECT_NE(lab_.log(same_socket).find("a running process serves it"),
            std::string::npos)
      << lab_.log(same_socket);

  EXPECT_EQ(bgpctl(socket_, "neighbors").code, 0);
  std::string still;
  std::ifstream(pid_file_) >> still;
  EXPECT_EQ(still, pid);

  lab_.signal(daemon_, SIGTERM);
  EXPECT_EQ(lab_.wait_exit(daemon_), 0) << lab_.dump_logs();
  EXPECT_FALSE(fs::exists(socket_));
  EXPECT_FALSE(fs::exists(pid_file_));
}

// A socket that accepts and never answers: bgpctl gives up at --timeout.
// So it does when the server accepts nothing and its backlog is full (a
// stopped daemon): connecting waits no longer than the timeout either.
TEST(Bgpctl, ASocketThatDoesNotAnswerTimesOut) {
  const fs::path socket = testing::fresh_temp_path("bgpctl-silent.sock");
  auto listening = sysdep::unix_listen(socket.string());
  ASSERT_TRUE(listening) << listening.error().to_string();
  Answer a = bgpctl(socket, "neighbors", 1);
  EXPECT_EQ(a.code, 2);
  EXPECT_EQ(a.err, "arfabric bgpctl: no whole answer from " + socket.string() +
                       " within 1 s (--timeout)\n");

  std::vector<sysdep::Fd> waiting;
  for (int i = 0; i < 64; ++i) {
    auto c = sysdep::unix_connect(socket.string(), Time{});
    if (!c) break;
    waiting.push_back(std::move(*c));
  }
  ASSERT_LT(waiting.size(), 64u) << "the backlog never filled";
  a = bgpctl(socket, "neighbors", 1);
  EXPECT_EQ(a.code, 2);
  EXPECT_EQ(a.err, "arfabric bgpctl: no connection to " + socket.string() +
                       " within 1 s (--timeout): the daemon accepts none "
                       "(stopped or busy?)\n");
  fs::remove(socket);
}

// Serves one bgpctl request on `socket` with `answer`, in a thread.
std::thread serve_once(const fs::path& socket, std::string answer) {
  auto listening = sysdep::unix_listen(socket.string());
  EXPECT_TRUE(listening) << listening.error().to_string();
  return std::thread([fd = std::move(*listening), answer] {
    pollfd p{fd.get(), POLLIN, 0};
    if (::poll(&p, 1, 5000) != 1) return;
    auto client = sysdep::unix_accept(fd.get());
    if (!client) return;
    char request[64];
    pollfd c{client->get(), POLLIN, 0};
    if (::poll(&c, 1, 5000) == 1) (void)::read(client->get(), request, 64);
    (void)::send(client->get(), answer.data(), answer.size(), MSG_NOSIGNAL);
  });
}

// An answer bgpctl does not expect (a daemon of another version, or not a
// bgpd) is an error naming the socket, not an abort; a reload that says
// it failed, without a reason, fails.
TEST(Bgpctl, AnswersOfUnexpectedShapesAreErrors) {
  const fs::path socket = testing::fresh_temp_path("bgpctl-odd.sock");
  std::thread server = serve_once(socket, R"({"reloaded": true, "file": 5})");
  Answer a = bgpctl(socket, "reload");
  server.join();
  EXPECT_EQ(a.code, 2);
  EXPECT_NE(a.err.find("is not what this bgpctl reads"), std::string::npos)
      << a.err;
  fs::remove(socket);

  server = serve_once(socket, R"({"reloaded": false, "error": ""})");
  a = bgpctl(socket, "reload");
  server.join();
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.out, "");
  EXPECT_NE(a.err.find("did not reload"), std::string::npos) << a.err;
  fs::remove(socket);

  // A daemon from before "received": PfxRcd is its prefixes_in.
  server = serve_once(
      socket, R"([{"name": "s1", "address": "10.0.1.2", "remote_as": 65100,)"
              R"( "state": "Established", "prefixes_in": 7, "advertised": 2,)"
              R"( "link_bandwidth": 400000000000}])");
  a = bgpctl(socket, "neighbors");
  server.join();
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("Established  7 "), std::string::npos) << a.out;
  fs::remove(socket);
}

}  // namespace
}  // namespace arfabric::cli
