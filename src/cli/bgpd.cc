#include "cli/bgpd.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include "daemon/bgpd.h"
#include "daemon/config.h"
#include "daemon/log.h"
#include "daemon/status.h"
#include "sysdep/linux/io.h"
#include "sysdep/linux/pid_file.h"

namespace arfabric::cli {

void add_bgpd_command(CLI::App& app, BgpdOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "bgpd", "run the FARE BGP daemon in the foreground (logs on stderr)");
  cmd->add_option("-c,--config", options.config_path,
                  "YAML configuration (see src/daemon/config.h)")
      ->required();
  cmd->add_option("--pid-file", options.pid_file,
                  "write the process id here; removed on exit");
  cmd->add_option("--log-level", options.log_level,
                  "error, warning, info or debug (overrides the file)");
  cmd->add_flag("--check", options.check, "check the configuration and exit");
}

int run_bgpd(const BgpdOptions& options, std::ostream& out, std::ostream& err) {
  auto config = daemon::load_config(options.config_path);
  if (!config) {
    err << "arfabric bgpd: " << config.error().to_string() << "\n";
    return 1;
  }
  if (!options.log_level.empty()) {
    bool known = false;
    for (auto level : {daemon::LogLevel::error, daemon::LogLevel::warning,
                       daemon::LogLevel::info, daemon::LogLevel::debug}) {
      if (daemon::log_level_name(level) == options.log_level) {
        config->log_level = level;
        config->log_level_fixed = true;
        known = true;
      }
    }
    if (!known) {
      err << "arfabric bgpd: --log-level: '" << options.log_level
          << "' is not error, warning, info or debug\n";
      return 1;
    }
  }
  if (options.check) {
    // What the daemon would warn of at start, without starting it.
    for (const std::string& w : daemon::peer_warnings(*config)) {
      err << "arfabric bgpd: warning: " << w << "\n";
    }
    out << options.config_path << ": OK, " << config->peers.size()
        << (config->peers.size() == 1 ? " peer\n" : " peers\n");
    return 0;
  }
  // Held (and removed at the end) before anything else is bound: a second
  // daemon given the same pid file stops here.
  std::optional<sysdep::PidFile> pid_file;
  if (!options.pid_file.empty()) {
    auto acquired = sysdep::PidFile::acquire(options.pid_file);
    if (!acquired) {
      err << "arfabric bgpd: pid file: " << acquired.error().to_string()
          << "\n";
      return 2;
    }
    pid_file.emplace(std::move(*acquired));
  }
  daemon::Logger log(err, config->log_level);
  auto bgpd = daemon::Bgpd::create(std::move(*config), log);
  if (!bgpd) {
    err << "arfabric bgpd: " << bgpd.error() << "\n";
    return 2;
  }
  const int rc = (*bgpd)->run();
  return rc == 0 ? 0 : 2;
}

void add_bgpctl_command(CLI::App& app, BgpctlOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "bgpctl", "query a running bgpd: neighbors, rib, fib, reload");
  cmd->add_option("what", options.what, "neighbors | rib | fib | reload")
      ->required()
      ->check(CLI::IsMember({"neighbors", "rib", "fib", "reload"}));
  cmd->add_option("-s,--socket", options.socket, "the daemon's control_socket");
  cmd->add_flag("--json", options.json, "print the daemon's JSON answer");
  cmd->add_option("--timeout", options.timeout_s,
                  "seconds to wait for the connection and the daemon's "
                  "whole answer")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
}

namespace {

// Prints the daemon's answer `doc` to `what`. Exit code 1 when it is an
// error (a failed reload). Throws nlohmann::json::exception on a field of
// an unexpected type.
int show_answer(const BgpctlOptions& options, const nlohmann::json& doc,
                std::ostream& out, std::ostream& err) {
  if (doc.is_object() && doc.contains("error") &&
      !doc["error"].get<std::string>().empty()) {
    err << "arfabric bgpctl: " << doc["error"].get<std::string>() << "\n";
    return 1;
  }
  if (options.json) {
    out << daemon::dump_json(doc, 2) << "\n";
  } else if (options.what == "neighbors") {
    out << daemon::render_neighbors(doc);
  } else if (options.what == "rib") {
    out << daemon::render_rib(doc);
  } else if (options.what == "fib") {
    out << daemon::render_fib(doc);
  } else {  // reload
    if (!doc.value("reloaded", false)) {
      err << "arfabric bgpctl: the daemon did not reload, and gave no "
             "reason\n";
      return 1;
    }
    out << "reloaded " << doc.value("file", std::string("the configuration"))
        << "\n";
    for (const auto& w : doc.value("warnings", nlohmann::json::array())) {
      err << "arfabric bgpctl: warning: " << w.get<std::string>() << "\n";
    }
  }
  return 0;
}

}  // namespace

int run_bgpctl(const BgpctlOptions& options, std::ostream& out,
               std::ostream& err) {
  // A daemon that hangs (or a socket that is not a bgpd's) must not hang
  // the client: the connection and the answer are awaited until a
  // deadline.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::seconds(options.timeout_s);
  auto fd = sysdep::unix_connect(options.socket, sec(options.timeout_s));
  if (!fd && fd.error().err == ETIMEDOUT) {
    err << "arfabric bgpctl: no connection to " << options.socket << " within "
        << options.timeout_s
        << " s (--timeout): the daemon accepts none (stopped or busy?)\n";
    return 2;
  }
  if (!fd) {
    err << "arfabric bgpctl: " << fd.error().to_string()
        << " (is bgpd running with control_socket set?)\n";
    return 2;
  }
  const std::string request = options.what + "\n";
  // MSG_NOSIGNAL: a daemon that closed the socket is an error message,
  // not a silent death by SIGPIPE.
  if (::send(fd->get(), request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    err << "arfabric bgpctl: cannot send the request to " << options.socket
        << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  std::string answer;
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd->get(), POLLIN, 0};
    const int ready =
        left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      err << "arfabric bgpctl: no whole answer from " << options.socket
          << " within " << options.timeout_s << " s (--timeout)\n";
      return 2;
    }
    const ssize_t n = ready < 0 ? -1 : ::read(fd->get(), buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      err << "arfabric bgpctl: cannot read the answer from " << options.socket
          << ": " << std::strerror(errno) << "\n";
      return 2;
    }
    if (n == 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  auto doc = nlohmann::json::parse(answer, nullptr, false);
  if (doc.is_discarded()) {
    err << "arfabric bgpctl: the answer from " << options.socket
        << (answer.empty() ? " is empty" : " is not JSON")
        << " (is it a bgpd's control_socket?)\n";
    return 2;
  }
  // A daemon of another version (or something else on the socket) may
  // answer with other types: an error that says so, not an abort.
  try {
    return show_answer(options, doc, out, err);
  } catch (const nlohmann::json::exception& e) {
    err << "arfabric bgpctl: the answer from " << options.socket
        << " is not what this bgpctl reads (" << e.what()
        << "); --json prints it as it is\n";
    return 2;
  }
}

}  // namespace arfabric::cli
