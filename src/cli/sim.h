// `arfabric sim`: runs a scenario (the embedded default, or a YAML file)
// through each mode and prints the summary table (issue 5, "Output").
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace arfabric::cli {

// SimOptions::memory_limit: no limit (--memory-limit none).
inline constexpr std::uint64_t kNoMemoryLimit = UINT64_MAX;

struct SimOptions {
  std::string scenario_path;       // empty: the embedded default
  std::vector<std::string> modes;  // empty: the scenario's modes
  std::string out_dir;             // --out: empty, no files
  // Modes simulated at once (each on its own thread); results do not
  // depend on it.
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // Draw the progress bar on `err` (set when stderr is a terminal), in at
  // most this many columns (the terminal's width).
  bool progress = false;
  std::size_t progress_columns = 80;
  // --timing: after the table, where each mode's wall time went.
  bool timing = false;
  // --seed: replaces the scenario's seed (e.g. to repeat a run over
  // several seeds without editing the file).
  std::optional<std::uint64_t> seed;
  // --congestion-control: replaces the hosts' (hosts.congestion_control),
  // e.g. to compare DCTCP with the IBCS-driven window on one scenario.
  std::string congestion_control;  // empty: the scenario's
  // --memory-limit, in bytes of the process's resident memory: past it,
  // the modes still running stop and the rest do not start, each row
  // saying so (cli/memory_guard.h). Unset: 90% of the memory free when
  // the command starts (what the process holds then, plus
  // sysdep::available_bytes). kNoMemoryLimit: none.
  std::optional<std::uint64_t> memory_limit;
  // How often the memory guard reads the process's memory.
  std::chrono::milliseconds memory_check_interval{100};
};

void add_sim_command(CLI::App& app, SimOptions& options);

// Returns the exit code: 0 when every requested mode ran, 1 on a scenario
// error (printed to `err` with file, line and key), an output error
// (--out: the directory or file, and why) or memory use that cannot be
// read for the memory limit, 2 when some mode could not run (its row
// says why, e.g. the memory limit; the others' files are still written).
// Memory that goes on growing past the limit after the modes were asked
// to stop (a set-up does not stop part way) ends the process at once
// with exit code 3 and a message on `err`, leaving --out's files
// unfinished (*.partial). Ctrl-C (SIGINT) or SIGTERM stops the modes
// running and starts no more, as the memory limit does: the rows and
// --out's files of the modes that finished are complete, the others say
// "not run: interrupted by SIGINT; ...", and the exit code is 130
// (SIGTERM: 143), as it is for a signal that came after every mode had
// finished (the results are then whole). A second signal ends the
// process at once. One run_sim at a time in a process: a second, while
// one runs, returns 1 (its signal watch is refused).
int run_sim(const SimOptions& options, std::ostream& out, std::ostream& err);

}  // namespace arfabric::cli
