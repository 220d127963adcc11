#include "cli/bgpd.h"

#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "daemon/bgpd.h"
#include "daemon/config.h"
#include "daemon/log.h"
#include "daemon/status.h"
#include "sysdep/linux/io.h"

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
    out << options.config_path << ": OK, " << config->peers.size()
        << " peers\n";
    return 0;
  }
  daemon::Logger log(err, config->log_level);
  auto bgpd = daemon::Bgpd::create(std::move(*config), log);
  if (!bgpd) {
    err << "arfabric bgpd: " << bgpd.error() << "\n";
    return 2;
  }
  if (!options.pid_file.empty()) {
    std::ofstream pid(options.pid_file);
    if (!(pid << getpid() << "\n")) {
      err << "arfabric bgpd: cannot write pid file " << options.pid_file
          << "\n";
      return 2;
    }
  }
  const int rc = (*bgpd)->run();
  if (!options.pid_file.empty()) ::unlink(options.pid_file.c_str());
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
}

int run_bgpctl(const BgpctlOptions& options, std::ostream& out,
               std::ostream& err) {
  auto fd = sysdep::unix_connect(options.socket);
  if (!fd) {
    err << "arfabric bgpctl: " << fd.error().to_string()
        << " (is bgpd running with control_socket set?)\n";
    return 2;
  }
  const std::string request = options.what + "\n";
  if (::write(fd->get(), request.data(), request.size()) !=
      static_cast<ssize_t>(request.size())) {
    err << "arfabric bgpctl: cannot send the request\n";
    return 2;
  }
  std::string answer;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd->get(), buf, sizeof buf);
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  auto doc = nlohmann::json::parse(answer, nullptr, false);
  if (doc.is_discarded()) {
    err << "arfabric bgpctl: the daemon's answer is not JSON\n";
    return 2;
  }
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
  } else {
    out << daemon::dump_json(doc, 2) << "\n";
  }
  return 0;
}

}  // namespace arfabric::cli
