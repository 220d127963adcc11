#include "cli/sim.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>

#include "cli/progress_bar.h"
#include "cli/sim_out.h"
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
  sim->add_option("-o,--out", options.out_dir,
                  "write results.json, timeseries.csv, goodput.svg and "
                  "control-<mode>.pcap into this directory (created if "
                  "missing; docs/OUTPUT.md)");
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
  std::optional<SimOutput> output;
  if (!options.out_dir.empty()) {
    auto opened = SimOutput::open(options.out_dir);
    if (!opened) {
      err << "arfabric sim: " << opened.error() << "\n";
      return 1;
    }
    output.emplace(std::move(*opened));
  }
  ProgressBar bar(err, options.progress);
  std::vector<sim::ModeResult> results;
  std::vector<sim::output::ModeNotRun> not_run;
  out << "scenario " << scenario->name << ": " << scenario->topology.summary()
      << "\n";
  out << fmt::format(
      "{:<14}{:>12}{:>10}{:>11}{:>11}{:>11}{:>11}{:>11}{:>10}{:>9}{:>9}"
      "{:>8}\n",
      "mode", "completion", "goodput", "drop:dead", "drop:full", "drop:route",
      "hw conv.", "bgp conv.", "imbalance", "bgp msgs", "hw msgs", "wall");
  int code = 0;
  for (sim::Mode mode : modes) {
    sim::RunOptions run;
    if (output) {
      auto tap = output->begin_mode(mode);
      if (!tap) {
        err << "arfabric sim: " << tap.error() << "\n";
        return 1;
      }
      run.tap = *tap;
    }
    bar.set_label(std::string(sim::mode_name(mode)));
    run.progress = [&bar](double f) { bar.update(f); };
    const auto started = std::chrono::steady_clock::now();
    auto r = sim::run_mode(*scenario, mode, run);
    const double wall = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - started)
                            .count();
    bar.clear();
    if (output) {
      if (auto ok = output->end_mode(r.has_value()); !ok) {
        err << "arfabric sim: " << ok.error() << "\n";
        return 1;
      }
    }
    if (!r) {
      not_run.push_back({mode, r.error()});
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
    results.push_back(std::move(*r));
  }
  if (output) {
    if (auto ok = output->write_results(*scenario, results, not_run); !ok) {
      err << "arfabric sim: " << ok.error() << "\n";
      return 1;
    }
    out << "wrote " << output->dir().string() << ":";
    for (const std::string& f : output->written()) out << " " << f;
    out << "\n";
  }
  return code;
}

}  // namespace arfabric::cli
