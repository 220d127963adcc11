// The output directory of `arfabric sim --out DIR` (docs/OUTPUT.md):
// results.json, timeseries.csv, goodput.svg and one control-<mode>.pcap
// per mode run.
//
// Nothing is left half-written under a final name: each file is written
// under "<name>.partial", and they are all renamed together once every one
// is complete (write_results), so that an earlier run's set is replaced
// whole or not at all; a failure names the file and the reason, and
// removes the partial files. The directory is checked (created if
// missing, writable, no directory where a file goes) before any mode
// runs, so that a long run does not end in an error about its output.
#pragma once

#include <expected>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/output/control_frames.h"
#include "sim/output/results_json.h"
#include "sim/runner.h"
#include "sysdep/linux/pcap_file.h"

namespace arfabric::cli {

class SimOutput {
 public:
  // Creates `dir` (and its parents) when missing. Errors: `dir` exists and
  // is not a directory, cannot be created, or is not writable, or one of
  // the result files' names, or their partial files', is taken by
  // something other than a file (a directory); the message names the path
  // and the reason.
  static std::expected<SimOutput, std::string> open(
      const std::filesystem::path& dir);
  // Removes the partial files of a run that did not write its results,
  // captures still open included.
  ~SimOutput();
  SimOutput(SimOutput&&) = default;
  SimOutput& operator=(SimOutput&&) = delete;

  // Starts control-<mode>.pcap and returns the tap to give run_mode (valid
  // until end_mode). Several modes may be open at once (they run in
  // parallel); each tap is used by one thread. Errors: the file cannot be
  // created, or its name is taken by something other than a file (path,
  // reason), or the mode is already open.
  std::expected<sim::ControlTap*, std::string> begin_mode(sim::Mode mode);
  // Completes the mode's pcap, which write_results renames into place
  // (`keep`), or removes it (the mode did not run). A mode that is not
  // open: nothing to do. Errors: writing the pcap failed (a full disk:
  // path, reason); it is removed.
  std::expected<void, std::string> end_mode(sim::Mode mode, bool keep);

  // Writes results.json, timeseries.csv and goodput.svg under their
  // partial names, then renames them and the kept pcaps into place, then
  // removes the control-<mode>.pcap of every mode this run wrote none for
  // (an earlier run's, which would pass for this run's; other files are
  // left alone). Errors: the first file that could not be written,
  // renamed or removed (path, reason). A file that cannot be written
  // leaves the earlier run's files as they were; a rename that fails
  // (rare: the directory changed under the run) leaves the files renamed
  // before it.
  std::expected<void, std::string> write_results(
      const sim::Scenario& scenario,
      const std::vector<sim::ModeResult>& results,
      const std::vector<sim::output::ModeNotRun>& not_run);

  const std::filesystem::path& dir() const { return dir_; }
  // Final names of the files written so far, in order.
  const std::vector<std::string>& written() const { return written_; }

 private:
  struct Capture;
  SimOutput() = default;
  std::filesystem::path dir_;
  std::vector<std::string> written_;
  // Complete under "<name>.partial", to be renamed by write_results.
  std::vector<std::string> pending_;
  std::map<sim::Mode, std::shared_ptr<Capture>> captures_;  // modes open
  void discard_pending();
};

// Removes every partial file a run writes in `dir` (of the results and of
// each mode's capture), ignoring errors: for an exit that cannot unwind
// (the memory guard's), which no SimOutput destructor will see.
void remove_partial_files(const std::filesystem::path& dir);

}  // namespace arfabric::cli
