// Test support for the daemon's interop tests: network namespaces joined by
// veth pairs, processes started inside them, and polling helpers.
//
// Names are unique per test process and test (pid + counter), so tests run
// in parallel (ctest -j2) without clashing; every namespace is deleted in
// the destructor (which also removes its veth ends), also when an ASSERT
// fails, and the first lab of a process clears what crashed test processes
// left behind. Processes started here are killed (SIGTERM, then SIGKILL) and
// reaped in the destructor; their output goes to a log file that
// dump_logs() prints when a test fails.
//
// Peer binaries (FRR bgpd, vtysh, gobgpd, gobgp) are required: require()
// fails the test loudly when one is missing (scripts/setup installs them).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace arfabric::testing {

// Runs a shell command, returns its exit status and stdout.
inline std::pair<int, std::string> shell(const std::string& command) {
  std::string out;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return {-1, ""};
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline bool require(const std::string& path) {
  const bool ok = access(path.c_str(), X_OK) == 0;
  EXPECT_TRUE(ok) << "required interop binary " << path
                  << " is missing: run scripts/setup (frr, gobgpd)";
  return ok;
}

// Polls `condition` every 100 ms until it holds or `seconds` pass.
inline bool eventually(const std::function<bool()>& condition,
                       double seconds = 30) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(int(seconds * 1000));
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return condition();
}

class NetnsLab {
 public:
  NetnsLab() {
    static int counter = 0;
    if (counter == 0) remove_stale();
    tag_ = std::to_string(getpid() % 100000) + "x" + std::to_string(counter);
    ns_prefix_ =
        "arf" + std::to_string(getpid()) + "x" + std::to_string(counter++);
    dir_ = std::filesystem::temp_directory_path() / ("arfabric-lab-" + tag_);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~NetnsLab() {
    for (auto it = procs_.rbegin(); it != procs_.rend(); ++it) stop(*it);
    for (const std::string& ns : namespaces_) shell("ip netns del " + ns);
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir_);
  }
  NetnsLab(const NetnsLab&) = delete;
  NetnsLab& operator=(const NetnsLab&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

  // A namespace with loopback up; returns its name.
  std::string add_namespace(const std::string& role) {
    const std::string ns = ns_prefix_ + role;
    shell("ip netns del " + ns);
    auto [rc, out] = shell("ip netns add " + ns);
    EXPECT_EQ(rc, 0) << out;
    namespaces_.push_back(ns);
    exec(ns, "ip link set lo up");
    return ns;
  }

  // A veth pair between `a` and `b`, with addresses (CIDR; "" for none) and
  // optional IPv6 addresses; returns the interface names {in a, in b}.
  std::pair<std::string, std::string> link(const std::string& a,
                                           const std::string& a_cidr,
                                           const std::string& b,
                                           const std::string& b_cidr,
                                           const std::string& a_v6 = "",
                                           const std::string& b_v6 = "") {
    const std::string ia = "v" + tag_ + "l" + std::to_string(links_) + "a";
    const std::string ib = "v" + tag_ + "l" + std::to_string(links_) + "b";
    ++links_;
    EXPECT_LE(ia.size(), 15u);
    auto [rc, out] = shell("ip link add " + ia + " netns " + a +
                           " type veth peer name " + ib + " netns " + b);
    EXPECT_EQ(rc, 0) << out;
    configure(a, ia, a_cidr, a_v6);
    configure(b, ib, b_cidr, b_v6);
    return {ia, ib};
  }

  std::pair<int, std::string> exec(const std::string& ns,
                                   const std::string& command) {
    return shell("ip netns exec " + ns + " " + command);
  }

  std::filesystem::path write(const std::string& name,
                              const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  // Starts argv inside `ns`; output to dir()/name.log. Returns an index.
  std::size_t start(const std::string& ns, const std::string& name,
                    std::vector<std::string> argv) {
    std::vector<std::string> full = {"ip", "netns", "exec", ns};
    full.insert(full.end(), argv.begin(), argv.end());
    const auto log = dir_ / (name + ".log");
    const pid_t pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<char*> args;
      for (auto& s : full) args.push_back(s.data());
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
    procs_.push_back(Proc{pid, name, log});
    return procs_.size() - 1;
  }

  pid_t pid(std::size_t index) const { return procs_[index].pid; }

  // Sends `sig` to the process (the one `ip netns exec` became).
  void signal(std::size_t index, int sig) { ::kill(procs_[index].pid, sig); }

  // Waits up to `seconds` for the process to exit; its exit code or -1.
  int wait_exit(std::size_t index, double seconds = 10) {
    Proc& p = procs_[index];
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(int(seconds * 1000));
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(p.pid, &status, WNOHANG) == p.pid) {
        p.pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }

  std::string log(std::size_t index) const {
    std::ifstream in(procs_[index].log);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Every process log, for failure messages.
  std::string dump_logs() const {
    std::string out;
    for (std::size_t i = 0; i < procs_.size(); ++i) {
      std::string text = log(i);
      if (text.size() > 6000) text = "..." + text.substr(text.size() - 6000);
      out += "---- " + procs_[i].name + " ----\n" + text + "\n";
    }
    return out;
  }

 private:
  struct Proc {
    pid_t pid;
    std::string name;
    std::filesystem::path log;
  };

  void configure(const std::string& ns, const std::string& dev,
                 const std::string& cidr, const std::string& v6) {
    if (!cidr.empty()) exec(ns, "ip addr add " + cidr + " dev " + dev);
    if (!v6.empty()) exec(ns, "ip addr add " + v6 + " dev " + dev + " nodad");
    exec(ns, "ip link set " + dev + " up");
  }

  void stop(Proc& p) {
    if (p.pid <= 0) return;
    ::kill(p.pid, SIGTERM);
    for (int i = 0; i < 40; ++i) {
      if (waitpid(p.pid, nullptr, WNOHANG) == p.pid) {
        p.pid = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(-p.pid, SIGKILL);
    ::kill(p.pid, SIGKILL);
    waitpid(p.pid, nullptr, 0);
    p.pid = -1;
  }

  // A test process that crashed (an ASan abort skips destructors) leaves
  // its namespaces and the daemons in them: namespaces are named
  // arf<pid>x..., so those of a process that no longer exists are cleared.
  static void remove_stale() {
    auto [rc, list] = shell("ip netns list");
    std::istringstream lines(list);
    std::string line;
    while (std::getline(lines, line)) {
      const std::string name = line.substr(0, line.find(' '));
      if (name.rfind("arf", 0) != 0) continue;
      const std::size_t x = name.find('x');
      if (x == std::string::npos || x == 3) continue;
      const std::string pid = name.substr(3, x - 3);
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      if (std::filesystem::exists("/proc/" + pid)) continue;
      auto [rc2, pids] = shell("ip netns pids " + name);
      std::istringstream each(pids);
      for (pid_t p; each >> p;) ::kill(p, SIGKILL);
      shell("ip netns del " + name);
    }
  }

  std::string tag_;        // short, for interface names (15 bytes at most)
  std::string ns_prefix_;  // arf<pid>x<n>
  std::filesystem::path dir_;
  std::vector<std::string> namespaces_;
  std::vector<Proc> procs_;
  int links_ = 0;
};

// The JSON answer of `arfabric bgpctl WHAT --json` for a daemon's socket;
// null when it cannot be reached yet.
inline nlohmann::json bgpctl(const std::string& socket,
                             const std::string& what) {
  auto [rc, out] = shell(std::string(ARFABRIC_BINARY) + " bgpctl " + what +
                         " --json -s " + socket);
  if (rc != 0) return nullptr;
  auto doc = nlohmann::json::parse(out, nullptr, false);
  return doc.is_discarded() ? nlohmann::json() : doc;
}

inline const nlohmann::json* find_by(const nlohmann::json& array,
                                     const std::string& key,
                                     const std::string& value) {
  if (!array.is_array()) return nullptr;
  for (const auto& e : array) {
    if (e.is_object() && e.value(key, "") == value) return &e;
  }
  return nullptr;
}

// Whether the daemon at `socket` has every peer in `names` Established.
inline bool peers_established(const std::string& socket,
                              const std::vector<std::string>& names) {
  const nlohmann::json all = bgpctl(socket, "neighbors");
  for (const std::string& name : names) {
    const nlohmann::json* p = find_by(all, "name", name);
    if (!p || p->value("state", "") != "Established") return false;
  }
  return true;
}

// The kernel next hops of the route to `prefix` in `ns` (a nexthop group,
// as arfabric bgpd and FRR's zebra program them, or a route's own
// gateway), each as "GATEWAY DEVICE"; empty when there is no such route.
inline std::set<std::string> kernel_next_hops(NetnsLab& lab,
                                              const std::string& ns,
                                              const std::string& prefix) {
  std::set<std::string> out;
  const std::string family =
      prefix.find(':') == std::string::npos ? "-4" : "-6";
  auto routes = nlohmann::json::parse(
      lab.exec(ns, "ip -j " + family + " route show " + prefix).second, nullptr,
      false);
  if (routes.is_discarded() || !routes.is_array() || routes.empty()) {
    return out;
  }
  const nlohmann::json& route = routes[0];
  if (route.contains("gateway")) {
    out.insert(route.value("gateway", "") + " " + route.value("dev", ""));
  }
  for (const auto& hop : route.value("nexthops", nlohmann::json::array())) {
    out.insert(hop.value("gateway", "") + " " + hop.value("dev", ""));
  }
  if (!route.contains("nhid")) return out;
  auto nhs = nlohmann::json::parse(lab.exec(ns, "ip -j nexthop show").second,
                                   nullptr, false);
  if (nhs.is_discarded() || !nhs.is_array()) return out;
  const unsigned id = route.value("nhid", 0u);
  std::map<unsigned, std::string> single;
  for (const auto& nh : nhs) {
    if (nh.contains("gateway")) {
      single[nh.value("id", 0u)] =
          nh.value("gateway", "") + " " + nh.value("dev", "");
    }
  }
  for (const auto& nh : nhs) {
    if (nh.value("id", 0u) != id) continue;
    if (single.contains(id)) out.insert(single[id]);
    for (const auto& m : nh.value("group", nlohmann::json::array())) {
      out.insert(single[m.value("id", 0u)]);
    }
  }
  return out;
}

// Whether the kernel next hops of `prefix` in `ns` become `expected`
// ("GATEWAY DEVICE" each) within `seconds`; if not, what they were, with
// the namespace's routes and the processes' logs.
inline ::testing::AssertionResult next_hops_become(
    NetnsLab& lab, const std::string& ns, const std::string& prefix,
    const std::set<std::string>& expected, double seconds = 10) {
  std::set<std::string> hops;
  if (eventually(
          [&] {
            hops = kernel_next_hops(lab, ns, prefix);
            return hops == expected;
          },
          seconds)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << prefix << " in " << ns << ": next hops "
         << ::testing::PrintToString(hops) << ", expected "
         << ::testing::PrintToString(expected) << "\n"
         << lab.exec(ns, "ip route").second
         << lab.exec(ns, "ip -6 route").second << lab.dump_logs();
}

}  // namespace arfabric::testing
