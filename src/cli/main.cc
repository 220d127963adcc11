#include "cli/main.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/bgpd.h"
#include "cli/decode.h"
#include "cli/fare_lsr.h"
#include "cli/sim.h"

namespace arfabric::cli {

int run(int argc, char** argv) {
  CLI::App app{"arfabric: adaptive routing for AI/ML data-center fabrics"};
  app.require_subcommand(1);
  DecodeOptions decode;
  add_decode_command(app, decode);
  SimOptions sim;
  add_sim_command(app, sim);
  BgpdOptions bgpd;
  add_bgpd_command(app, bgpd);
  BgpctlOptions bgpctl;
  add_bgpctl_command(app, bgpctl);
  FareLsrOptions fare_lsr;
  add_fare_lsr_command(app, fare_lsr);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a bad option or value prints CLI11's
    // message and exits 1, as a bad scenario or configuration does
    // (CLI11's own codes, 100 and up, are not ours to document).
    return app.exit(e) == 0 ? 0 : 1;
  }
  sim.progress = ::isatty(STDERR_FILENO) == 1;
  if (winsize size{}; sim.progress &&
                      ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 &&
                      size.ws_col > 0) {
    sim.progress_columns = size.ws_col;
  }
  if (app.got_subcommand("bgpd")) return run_bgpd(bgpd, std::cout, std::cerr);
  if (app.got_subcommand("bgpctl")) {
    return run_bgpctl(bgpctl, std::cout, std::cerr);
  }
  if (app.got_subcommand("decode"))
    return run_decode(decode, std::cin, std::cout);
  if (app.got_subcommand("sim")) return run_sim(sim, std::cout, std::cerr);
  if (app.got_subcommand("fare-lsr"))
    return run_fare_lsr(fare_lsr, std::cout, std::cerr);
  return 0;
}

}  // namespace arfabric::cli
