// `arfabric bgpd -c CONFIG`: the BGP daemon in the foreground (issue 6), and
// `arfabric bgpctl`: its control-socket client (neighbors, rib, fib; human
// tables or --json).
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

namespace arfabric::cli {

struct BgpdOptions {
  std::string config_path;
  std::string pid_file;   // empty: none
  std::string log_level;  // empty: from the configuration
  bool check = false;     // only check the configuration
};

void add_bgpd_command(CLI::App& app, BgpdOptions& options);

// Exit code: 0 after a clean stop (SIGTERM/SIGINT) or a good --check (which
// prints the warnings the daemon would log at start, daemon::peer_warnings,
// on `err`), 1 on a configuration error (printed as file:line:column: key:
// message), 2 when the daemon cannot start (socket, pid file) or fails
// while running.
int run_bgpd(const BgpdOptions& options, std::ostream& out, std::ostream& err);

struct BgpctlOptions {
  std::string socket = "/run/arfabric-bgpd.sock";
  std::string what;  // neighbors | rib | fib | reload
  bool json = false;
  unsigned timeout_s = 10;  // for the connection and the whole answer
};

void add_bgpctl_command(CLI::App& app, BgpctlOptions& options);

// Exit code: 0 on an answer, 1 when the daemon answered with an error, 2
// when the socket cannot be reached, the request cannot be sent, or the
// answer does not come whole within the timeout (each says which). A
// reload prints what it reloaded, and its warnings on `err`.
int run_bgpctl(const BgpctlOptions& options, std::ostream& out,
               std::ostream& err);

}  // namespace arfabric::cli
