#include "cli/sim.h"

#include <fmt/format.h>

#include <chrono>

#include "sim/runner.h"
#include "sim/scenario/scenario.h"

namespace arfabric::cli {

void add_sim_command(CLI::App& app, SimOptions& options) {
  CLI::App* sim = app.add_subcommand(
      "sim",
      "Run a fabric scenario through the modes (ecmp, fare, fare+lsn, "
      "fare+arn, fare+lsn+arn) and print what each buys");
  sim->add_option("-s,--scenario", options.scenario_path,
                  "YAML scenario file (default: the embedded scenario)");
  sim->add_option("-m,--mode", options.modes,
                  "run only these modes (repeatable)");
}

namespace {

std::string format_time(Time t) {
  if (t == Time::max()) return "-";
  const double s = t.seconds();
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.1f} us", s * 1e6);
}

}  // namespace

int run_sim(const SimOptions& options, std::ostream& out, std::ostream& err) {
  auto scenario = options.scenario_path.empty()
                      ? sim::default_scenario()
                      : sim::load_scenario_file(options.scenario_path);
  if (!scenario) {
    err << "arfabric sim: " << scenario.error().to_string() << "\n";
    return 1;
  }
  std::vector<sim::Mode> modes = scenario->modes;
  if (!options.modes.empty()) {
    modes.clear();
    for (const std::string& m : options.modes) {
      auto mode = sim::parse_mode(m);
      if (!mode) {
        err << "arfabric sim: unknown mode '" << m
            << "' (ecmp, fare, fare+lsn, fare+arn, fare+lsn+arn)\n";
        return 1;
      }
      modes.push_back(*mode);
    }
  }
  out << "scenario " << scenario->name << ": " << scenario->topology.summary()
      << "\n";
  out << fmt::format(
      "{:<14}{:>12}{:>10}{:>11}{:>11}{:>11}{:>11}{:>11}{:>10}{:>9}{:>9}"
      "{:>8}\n",
      "mode", "completion", "goodput", "drop:dead", "drop:full", "drop:route",
      "hw conv.", "bgp conv.", "imbalance", "bgp msgs", "hw msgs", "wall");
  int code = 0;
  for (sim::Mode mode : modes) {
    const auto started = std::chrono::steady_clock::now();
    auto r = sim::run_mode(*scenario, mode);
    const double wall = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - started)
                            .count();
    if (!r) {
      out << fmt::format("{:<14}not run: {}\n", sim::mode_name(mode),
                         r.error());
      code = 2;
      continue;
    }
    using sim::DropReason;
    auto dropped = [&](DropReason d) {
      return r->dropped[static_cast<std::size_t>(d)];
    };
    out << fmt::format(
        "{:<14}{:>12}{:>8.1f} G{:>11}{:>11}{:>11}{:>11}{:>11}{:>10.2f}{:>9}"
        "{:>9}{:>6.1f} s\n",
        sim::mode_name(mode),
        r->finished ? format_time(r->completion) : "unfinished",
        r->goodput_gbps, dropped(DropReason::link_down),
        dropped(DropReason::queue_overflow), dropped(DropReason::no_route),
        format_time(r->hw_convergence), format_time(r->bgp_convergence),
        r->utilisation_imbalance, r->control_messages,
        r->lsn_frames + r->arn_messages, wall);
  }
  return code;
}

}  // namespace arfabric::cli
