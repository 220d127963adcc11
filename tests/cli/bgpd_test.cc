// `arfabric bgpd` and `arfabric bgpctl` around the control socket and the
// pid file: a reload says what it read and what it could not apply; a
// second daemon cannot take the first one's socket or pid file; a daemon
// that does not answer does not hang bgpctl. The daemon runs as a real
// process in a network namespace the test creates (no peers, no FIB).
#include "cli/bgpd.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/netns_harness.h"
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
TEST(Bgpctl, ASocketThatDoesNotAnswerTimesOut) {
  const fs::path socket =
      fs::temp_directory_path() /
      ("arfabric-bgpctl-" + std::to_string(::getpid()) + ".sock");
  auto listening = sysdep::unix_listen(socket.string());
  ASSERT_TRUE(listening) << listening.error().to_string();
  const Answer a = bgpctl(socket, "neighbors", 1);
  EXPECT_EQ(a.code, 2);
  EXPECT_EQ(a.err, "arfabric bgpctl: no whole answer from " + socket.string() +
                       " within 1 s (--timeout)\n");
  fs::remove(socket);
}

}  // namespace
}  // namespace arfabric::cli
