#include "cli/sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/memory_guard.h"
#include "cli/progress_bar.h"
#include "cli/sim_out.h"
#include "cli/text_table.h"
#include "common/quantity.h"
#include "sim/runner.h"
#include "sim/scenario/scenario.h"
#include "sysdep/linux/interrupt.h"
#include "sysdep/linux/memory.h"

namespace arfabric::cli {
namespace {

// Numeric options are read in base 10 and whole: CLI11's own conversion
// (strtoull) takes 010 as octal and 0x10 as hex, and saturates at 2^64.
std::optional<std::uint64_t> parse_decimal(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || at != end) return std::nullopt;
  return value;
}

// The table's BGP convergence: '>' before it when BGP was still at work
// when the run stopped (ModeResult::bgp_settled), "pending" when it had
// changed no FIB yet.
std::string bgp_convergence_cell(const sim::ModeResult& r) {
  if (r.bgp_settled) return format_time_rounded(r.bgp_convergence);
  if (r.bgp_convergence == Time::max()) return "pending";
  return ">" + format_time_rounded(r.bgp_convergence);
}

// More threads than this is a typo, not a machine.
constexpr std::uint64_t kMaxJobs = 1024;

// What needs less memory, after a message about the memory limit.
std::string memory_advice(unsigned jobs) {
  return std::string(jobs > 1 ? "Fewer modes at once (-j 1), f" : "F") +
         "ewer modes (-m) or a smaller scenario need less.";
}

// The guard of this run's memory limit (SimOptions::memory_limit), or
// null with none; when it trips it sets `stop`. Should memory run away
// past it (a mode's set-up does not stop part way), the guard calls
// `on_runaway`.
// Errors: the process's memory, or the machine's free memory for the
// default limit, cannot be read.
std::expected<std::unique_ptr<MemoryGuard>, std::string> guard_memory(
    const SimOptions& options, MemoryGuard::Runaway on_runaway,
    std::atomic<bool>& stop) {
  if (options.memory_limit == kNoMemoryLimit) return nullptr;
  const std::chrono::milliseconds interval = options.memory_check_interval;
  if (options.memory_limit) {
    return MemoryGuard::start(*options.memory_limit, "--memory-limit", interval,
                              std::move(on_runaway), &stop);
  }
  const auto resident = sysdep::resident_bytes();
  if (!resident) return std::unexpected(resident.error());
  const auto available = sysdep::available_bytes();
  if (!available) return std::unexpected(available.error());
  const std::uint64_t room = *resident + *available;
  return MemoryGuard::start(
      room / 10 * 9,
      fmt::format("90% of the {} free at the start; --memory-limit sets "
                  "another",
                  format_bytes(room)),
      interval, std::move(on_runaway), &stop);
}

}  // namespace

void add_sim_command(CLI::App& app, SimOptions& options) {
  CLI::App* sim = app.add_subcommand(
      "sim",
      "Run a fabric scenario through the modes (ecmp, fare, fare+lsn, "
      "fare+arn, fare+lsn+arn) and print what each buys");
  sim->add_option("-s,--scenario", options.scenario_path,
                  "YAML scenario file (default: the embedded scenario)")
      ->check([](const std::string& file) -> std::string {
        return file.empty() ? "an empty path: name a scenario file, or leave "
                              "-s out for the embedded one"
                            : "";
      });
  sim->add_option("-m,--mode", options.modes,
                  "run only these modes (repeatable)");
  sim->add_option_function<std::string>(
         "-j,--jobs",
         [&options](const std::string& text) {
           const auto value = parse_decimal(text);
           if (!value || *value == 0 || *value > kMaxJobs) {
             throw CLI::ValidationError(
                 "--jobs", "'" + text + "' is not a thread count from 1 to " +
                               std::to_string(kMaxJobs));
           }
           options.jobs = static_cast<unsigned>(*value);
         },
         "modes run at once, one thread each (default: the number of cores)")
      ->type_name("N");
  sim->add_option("-o,--out", options.out_dir,
                  "write results.json, timeseries.csv, goodput.svg and "
                  "control-<mode>.pcap into this directory (created if "
                  "missing; docs/OUTPUT.md)")
      ->check([](const std::string& dir) -> std::string {
        return dir.empty() ? "an empty path: name a directory" : "";
      })
      ->type_name("DIR");
  // Read as the scenario file reads `seed:` (base 10, below 2^64).
  sim->add_option_function<std::string>(
         "--seed",
         [&options](const std::string& text) {
           const auto value = parse_decimal(text);
           if (!value) {
             throw CLI::ValidationError(
                 "--seed", "'" + text + "' is not a count below 2^64");
           }
           options.seed = *value;
         },
         "use this random seed instead of the scenario's (its `seed`); "
         "results.json records the one used")
      ->type_name("N");
  sim->add_option("--congestion-control", options.congestion_control,
                  "dctcp or ibcs: the hosts' congestion control instead of "
                  "the scenario's (hosts.congestion_control); ibcs needs "
                  "switches.ibcs and, unless the scenario chose ibcs "
                  "itself, takes the signal's default target")
      ->type_name("CC");
  sim->add_option_function<std::string>(
         "--memory-limit",
         [&options](const std::string& text) {
           if (text == "none") {
             options.memory_limit = kNoMemoryLimit;
             return;
           }
           const auto bytes = parse_size(text);
           if (!bytes || *bytes == 0) {
             throw CLI::ValidationError(
                 "--memory-limit",
                 "'" + text +
                     "' is not a size above 0 (e.g. 16GiB, 500MB) "
                     "or none" +
                     (bytes ? "" : ": " + bytes.error()));
           }
           options.memory_limit = *bytes;
         },
         "stop the modes (each row says so) when the process's resident "
         "memory passes this size, before the system runs out; 'none' for "
         "no limit (default: 90% of the memory free at the start)")
      ->type_name("SIZE");
  sim->add_flag("--timing", options.timing,
                "after the table, where each mode's wall time went: set-up, "
                "BGP warm-up, workload start, event loop (with its "
                "packet-hops per second and queue events per packet-hop), "
                "and the process's peak memory");
}

int run_sim(const SimOptions& options, std::ostream& out, std::ostream& err) {
  auto scenario = options.scenario_path.empty()
                      ? sim::default_scenario()
                      : sim::load_scenario_file(options.scenario_path);
  if (!scenario) {
    err << "arfabric sim: " << scenario.error().to_string() << "\n";
    return 1;
  }
  if (options.seed) scenario->seed = *options.seed;
  if (!options.congestion_control.empty()) {
    const auto cc =
        sim::parse_host_congestion_control(options.congestion_control);
    if (!cc) {
      std::string names;
      for (const auto& [name, value] : sim::kHostCongestionControls)
        names += (names.empty() ? "" : ", ") + std::string(name);
      err << "arfabric sim: --congestion-control: unknown '"
          << options.congestion_control << "' (" << names << ")\n";
      return 1;
    }
    if (auto ok = sim::set_congestion_control(*scenario, *cc); !ok) {
      err << "arfabric sim: --congestion-control: " << ok.error() << "\n";
      return 1;
    }
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
      // As a scenario's `modes:` does: a mode runs once, with one row,
      // one pcap and one entry in results.json.
      if (std::ranges::find(modes, *mode) != modes.end()) {
        err << "arfabric sim: mode '" << m << "' given twice (-m)\n";
        return 1;
      }
      modes.push_back(*mode);
    }
  }
  // The parser checks LSN's limits, ARN's link share and the
  // notifications' queue thresholds for the file's modes; a mode that -m adds
  // is checked here, so that the run is refused as the file would be (exit 1),
  // not run without it (exit 2).
  for (const sim::Mode mode : modes) {
    if (std::ranges::find(scenario->modes, mode) != scenario->modes.end())
      continue;
    if (const auto why = sim::mode_problem(*scenario, mode)) {
      err << "arfabric sim: -m " << sim::mode_name(mode) << ": "
          << (options.scenario_path.empty() ? "the default scenario"
                                            : options.scenario_path)
          << ": " << *why << "\n";
      return 1;
    }
  }
  const unsigned jobs = static_cast<unsigned>(
      std::min<std::size_t>(modes.size(), std::max(1u, options.jobs)));
  ProgressBar bar(err, options.progress);
  bar.set_columns(options.progress_columns);
  std::mutex bar_mutex;
  // Memory that grows on past the limit after the modes were told to
  // stop: exit before the system's OOM killer ends the process without a
  // word (SimOptions::memory_limit).
  // --out's partial files go too: no destructor runs.
  auto exit_now = [&err, &bar, &bar_mutex, jobs,
                   &options](const std::string& reason) {
    std::lock_guard lock(bar_mutex);
    bar.clear();
    err << "arfabric sim: " << reason
        << ": a mode's set-up, which does not stop part way, went on; "
           "exiting before the system kills the process. "
        << memory_advice(jobs) << "\n";
    err.flush();
    if (!options.out_dir.empty()) remove_partial_files(options.out_dir);
    std::_Exit(3);
  };
  // Set by the memory guard or by Ctrl-C / SIGTERM: the modes running
  // stop, the rest do not start, and what finished is still printed and
  // written.
  std::atomic<bool> stop_runs{false};
  // A reader that stops reading (`| head`) must not kill the run before
  // --out's files are written: writes to standard output fail instead,
  // and the end says so.
  std::signal(SIGPIPE, SIG_IGN);
  auto interrupt = sysdep::InterruptWatch::start(stop_runs);
  if (!interrupt) {
    err << "arfabric sim: " << interrupt.error() << "\n";
    return 1;
  }
  auto guard = guard_memory(options, exit_now, stop_runs);
  if (!guard) {
    err << "arfabric sim: " << guard.error()
        << " (--memory-limit none runs without a memory limit)\n";
    return 1;
  }
  const MemoryGuard* memory = guard->get();
  std::optional<SimOutput> output;
  if (!options.out_dir.empty()) {
    auto opened = SimOutput::open(options.out_dir);
    if (!opened) {
      err << "arfabric sim: " << opened.error() << "\n";
      return 1;
    }
    output.emplace(std::move(*opened));
  }
  // Open every mode's pcap first: a failure shows before any mode runs.
  std::vector<sim::RunOptions> runs(modes.size());
  for (sim::RunOptions& run : runs) run.stop = &stop_runs;
  // Why the runs were told to stop: "interrupted by SIGINT" or the memory
  // limit's reason, whichever set the flag first; or empty.
  const auto stop_reason = [&]() -> std::string {
    const bool memory_first =
        memory && memory->tripped() && memory->set_the_flag_first();
    if (std::string s = (*interrupt)->signal_name();
        !s.empty() && !memory_first) {
      return "interrupted by " + s;
    }
    if (memory && memory->tripped()) return memory->reason();
    return "";
  };
  for (std::size_t i = 0; i < modes.size(); ++i) {
    if (!output) continue;
    auto tap = output->begin_mode(modes[i]);
    if (!tap) {
      for (std::size_t k = 0; k < i; ++k)
        (void)output->end_mode(modes[k], false);
      err << "arfabric sim: " << tap.error() << "\n";
      return 1;
    }
    runs[i].tap = *tap;
  }

  // Modes are independent simulations: up to `jobs` run at once, each on
  // its own thread; rows are printed in mode order as they finish.
  // Per mode: its progress, and where its set-up's routes or its BGP
  // warm-up have got (empty once the workload starts).
  std::vector<double> fraction(modes.size(), 0.0);
  std::vector<std::string> preparing(modes.size());
  bar.set_label(modes.size() == 1 ? std::string(sim::mode_name(modes[0]))
                                  : std::to_string(modes.size()) + " modes");
  // With bar_mutex held: the bar at the modes' mean progress, with the
  // first mode still preparing as its note.
  auto redraw = [&] {
    double sum = 0;
    for (double x : fraction) sum += x;
    const auto first =
        std::find_if(preparing.begin(), preparing.end(),
                     [](const std::string& w) { return !w.empty(); });
    bar.set_note(first == preparing.end() ? "" : *first);
    bar.update(sum / static_cast<double>(fraction.size()));
  };
  // Mode i's note while it prepares; empty from the workload's start.
  auto set_preparing = [&](std::size_t i, std::string note) {
    std::lock_guard lock(bar_mutex);
    preparing[i] = std::move(note);
    redraw();
  };
  struct Outcome {
    std::expected<sim::ModeResult, std::string> result =
        std::unexpected(std::string());
    double wall = 0;
    sim::RunTiming timing;
  };
  std::vector<std::promise<Outcome>> promises(modes.size());
  std::vector<std::future<Outcome>> outcomes;
  for (auto& p : promises) outcomes.push_back(p.get_future());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> limited{false};      // a mode stopped at the memory limit
  std::atomic<bool> interrupted{false};  // a mode stopped by a signal
  auto worker = [&] {
    for (std::size_t i = next++; i < modes.size(); i = next++) {
      if (options.progress) {
        runs[i].warm_up_progress = [&, i](const sim::WarmUpProgress& w) {
          set_preparing(
              i, fmt::format("{} BGP warm-up {}: {} msgs, {} routes{}",
                             sim::mode_name(modes[i]),
                             format_time_rounded(w.simulated), w.messages,
                             w.fib_updates,
                             w.established ? "" : ", sessions opening"));
        };
        runs[i].routes_progress = [&, i](std::size_t done, std::size_t leaves) {
          set_preparing(i, fmt::format("{} set-up: routes to {}/{} leaves",
                                       sim::mode_name(modes[i]), done, leaves));
        };
        runs[i].progress = [&, i](double f) {
          std::lock_guard lock(bar_mutex);
          preparing[i].clear();
          fraction[i] = f;
          redraw();
        };
      }
      const auto started = std::chrono::steady_clock::now();
      Outcome o;
      runs[i].timing = &o.timing;
      // Stopped by a signal or the memory limit: says which, and counts
      // it for the message and exit code at the end.
      const auto stopped_because = [&](const std::string& what) {
        const std::string reason = stop_reason();
        (reason.starts_with("interrupted") ? interrupted : limited) = true;
        o.result = std::unexpected(reason + "; " + what);
      };
      if (stop_runs) {
        stopped_because("not started");
      } else {
        o.result = sim::run_mode(*scenario, modes[i], runs[i]);
        // The run's "stopped during ...", after why it was stopped.
        if (!o.result && stop_runs &&
            o.result.error().starts_with("stopped ")) {
          stopped_because(o.result.error());
        }
      }
      o.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             started)
                   .count();
      {
        std::lock_guard lock(bar_mutex);
        preparing[i].clear();
        fraction[i] = 1;
      }
      promises[i].set_value(std::move(o));
    }
  };
  std::vector<std::jthread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);

  std::vector<sim::ModeResult> results;
  std::vector<sim::RunTiming> timings;  // of the modes in `results`
  std::vector<sim::output::ModeNotRun> not_run;
  out << "scenario " << scenario->name << " (seed " << scenario->seed
      << "): " << scenario->topology.summary() << "\n";
  const std::vector<TextColumn> summary = {
      {"mode", 14},      {"job time", 12},  {"goodput", 10},
      {"drop:dead", 11}, {"drop:full", 11}, {"drop:route", 11},
      {"hw conv.", 11},  {"bgp conv.", 11}, {"imbalance", 10},
      {"bgp msgs", 9},   {"hw msgs", 9},    {"hw bytes", 11},
      {"wall", 8}};
  out << text_table_header(summary);
  out.flush();
  int code = 0;
  std::optional<std::string> output_error;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    const sim::Mode mode = modes[i];
    Outcome o = outcomes[i].get();
    {
      std::lock_guard lock(bar_mutex);
      bar.clear();
    }
    auto& r = o.result;
    if (output) {
      // After a failure no file is kept, but every capture is closed and
      // its partial file removed.
      if (auto ok = output->end_mode(mode, r.has_value() && !output_error);
          !ok && !output_error) {
        output_error = ok.error();
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
    const std::string cells[] = {
        std::string(sim::mode_name(mode)),
        r->finished ? format_time_rounded(r->job_time) : "unfinished",
        fmt::format("{:.1f} G", r->goodput_gbps),
        std::to_string(dropped(DropReason::link_down)),
        std::to_string(dropped(DropReason::queue_overflow)),
        std::to_string(dropped(DropReason::no_route)),
        format_time_rounded(r->hw_convergence),
        bgp_convergence_cell(*r),
        fmt::format("{:.2f}", r->utilisation_imbalance),
        std::to_string(r->control_messages),
        std::to_string(r->lsn_frames + r->arn_messages),
        std::to_string(r->lsn_bytes + r->arn_bytes),
        fmt::format("{:.1f} s", o.wall)};
    out << text_table_line(summary, cells);
    out.flush();
    results.push_back(std::move(*r));
    timings.push_back(o.timing);
  }
  threads.clear();  // joins
  if (limited) {
    err << "arfabric sim: stopped at the memory limit: " << memory->reason()
        << ". " << memory_advice(jobs) << "\n";
  }
  if (interrupted) {
    err << "arfabric sim: interrupted by " << (*interrupt)->signal_name()
        << ": the modes that finished are above"
        << (output ? " and in " + output->dir().string() : "")
        << "; the others say 'not run'\n";
  }
  // Every run is over: writing the results must not trip the runaway
  // exit, which would lose them.
  guard->reset();
  memory = nullptr;
  // Why a mode is unfinished, as far as the flows tell: how many are
  // open, and the oldest's hosts and progress.
  for (const sim::ModeResult& r : results) {
    if (r.finished || !r.oldest_open_flow) continue;
    const auto& o = *r.oldest_open_flow;
    const auto& nodes = scenario->topology.nodes;
    out << fmt::format(
        "{:<14}unfinished at {}: {} workload flows open; the oldest, {} -> "
        "{} from {}, had {} of its {} bytes\n",
        sim::mode_name(r.mode), format_time(scenario->stop_at), r.open_flows,
        nodes[o.source].name, nodes[o.destination].name,
        format_time_rounded(o.started), o.delivered, o.bytes);
  }
  // Routing loops and random link errors have no column: a line per mode
  // that had any; and BGP cut short, once.
  if (std::ranges::any_of(
          results, [](const sim::ModeResult& r) { return !r.bgp_settled; })) {
    out << "bgp conv. '>': BGP was still at work when the run stopped at "
        << format_time(scenario->stop_at)
        << "; a later stop_at shows where it ends\n";
  }
  for (const sim::ModeResult& r : results) {
    const std::uint64_t looped =
        r.dropped[static_cast<std::size_t>(sim::DropReason::ttl_expired)];
    if (looped > 0) {
      out << fmt::format(
          "{:<14}{} packets expired in routing loops (TTL {} used up)\n",
          sim::mode_name(r.mode), looped, sim::kInitialTtl);
    }
    const std::uint64_t errored =
        r.dropped[static_cast<std::size_t>(sim::DropReason::link_error)];
    if (errored > 0) {
      out << fmt::format(
          "{:<14}{} packets lost to link errors (drop_probability)\n",
          sim::mode_name(r.mode), errored);
    }
  }
  if (scenario->switches.ibcs && !results.empty()) {
    const std::vector<TextColumn> ibcs = {{"mode", 14},      {"rewritten", 12},
                                          {"unchanged", 12}, {"fail-open", 11},
                                          {"scrubbed", 11},  {"delivered", 12},
                                          {"mean", 8}};
    out << fmt::format(
        "IBCS, CSIG signal {} (0..31 at receivers; hosts' congestion "
        "control: {}):\n",
        sim::ibcs_signal_name(scenario->switches.ibcs->signal),
        sim::host_congestion_control_name(scenario->hosts.congestion_control));
    out << text_table_header(ibcs);
    for (const sim::ModeResult& r : results) {
      const auto& c = r.ibcs.switches;
      const auto& d = r.ibcs.delivered;
      const std::string cells[] = {
          std::string(sim::mode_name(r.mode)), std::to_string(c.rewritten),
          std::to_string(c.unchanged), std::to_string(c.fail_open),
          std::to_string(c.scrubbed), std::to_string(d.delivered),
          // As results.json's null: no signal was delivered.
          d.delivered
              ? fmt::format("{:.2f}", static_cast<double>(d.sum) / d.delivered)
              : "-"};
      out << text_table_line(ibcs, cells);
    }
  }
  if (options.timing && !results.empty()) {
    const std::vector<TextColumn> timing = {
        {"mode", 14},   {"set-up", 8},      {"warm-up", 9},
        {"start", 8},   {"event loop", 12}, {"packet-hops", 14},
        {"hops/s", 14}, {"events/hop", 12}};
    out << "wall time (s):\n" << text_table_header(timing);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const sim::RunTiming& t = timings[i];
      const std::string cells[] = {
          std::string(sim::mode_name(results[i].mode)),
          fmt::format("{:.2f}", t.setup),
          fmt::format("{:.2f}", t.warm_up),
          fmt::format("{:.2f}", t.start),
          fmt::format("{:.2f}", t.events),
          std::to_string(t.packet_hops),
          fmt::format("{:.2f} M",
                      t.events > 0
                          ? static_cast<double>(t.packet_hops) / t.events / 1e6
                          : 0.0),
          fmt::format("{:.2f}", t.packet_hops > 0
                                    ? static_cast<double>(t.queue_events) /
                                          static_cast<double>(t.packet_hops)
                                    : 0.0)};
      out << text_table_line(timing, cells);
    }
    out << "peak memory: " << format_bytes(sysdep::peak_resident_bytes())
        << " (resident, the whole process)\n";
  }
  if (output_error) {
    err << "arfabric sim: " << *output_error << "\n";
    return 1;
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
  // A closed pipe or a full disk behind standard output lost the table:
  // say so, and fail (the files, if any, are whole).
  out.flush();
  if (!out) {
    err << "arfabric sim: could not write the results to standard output"
        << (output ? " (the files in " + output->dir().string() + " are whole)"
                   : "")
        << "\n";
    if (code == 0) code = 1;
  }
  // A signal that came after the last mode's last check (or while the
  // files were written) stopped nothing, but was still a request to
  // stop: the results are whole, and the exit code says it came.
  const std::string signal = (*interrupt)->signal_name();
  if (!signal.empty() && !interrupted) {
    err << "arfabric sim: interrupted by " << signal
        << " after every mode had finished; the results are whole\n";
  }
  if (!signal.empty()) code = signal == "SIGTERM" ? 128 + 15 : 128 + 2;
  return code;
}

}  // namespace arfabric::cli
