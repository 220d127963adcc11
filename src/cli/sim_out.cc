#include "cli/sim_out.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include "sim/output/goodput_svg.h"
#include "sim/output/timeseries_csv.h"

namespace arfabric::cli {

namespace fs = std::filesystem;

struct SimOutput::Capture {
  std::string name;
  fs::path partial, final_path;
  std::optional<sysdep::PcapWriter> writer;
  std::unique_ptr<sim::output::ControlFrameTap> tap;
};

namespace {

std::string reason(const std::error_code& ec) { return ec.message(); }

// The files write_results writes, besides the captures.
constexpr const char* kResultFiles[] = {"results.json", "timeseries.csv",
                                        "goodput.svg"};

fs::path partial_path(const fs::path& dir, const std::string& name) {
  return dir / (name + ".partial");
}

// A mode's capture: "control-fare+lsn.pcap".
std::string capture_name(sim::Mode mode) {
  return "control-" + std::string(sim::mode_name(mode)) + ".pcap";
}

// Writes `text` to `partial`; nothing stays behind on failure. Errors
// name `partial`.
std::expected<void, std::string> write_partial(const fs::path& partial,
                                               const std::string& text) {
  std::ofstream f(partial, std::ios::binary | std::ios::trunc);
  if (!f) {
    return std::unexpected("cannot write " + partial.string() + ": " +
                           std::strerror(errno));
  }
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.flush();
  if (!f) {
    const std::string why = std::strerror(errno);
    f.close();
    std::error_code ignored;
    fs::remove(partial, ignored);
    return std::unexpected("cannot write " + partial.string() + ": " + why);
  }
  return {};
}

// Renames a complete `partial` to `final_path`, or removes it. Errors
// name `final_path`.
std::expected<void, std::string> rename_into_place(const fs::path& partial,
                                                   const fs::path& final_path) {
  std::error_code ec;
  fs::rename(partial, final_path, ec);
  if (!ec) return {};
  std::error_code ignored;
  fs::remove(partial, ignored);
  return std::unexpected("cannot write " + final_path.string() + ": " +
                         reason(ec));
}

// Why the run could not write `p` when it ends: something other than a
// file (a directory) has its name. Nothing when `p` is free or a file.
std::optional<std::string> taken_by_other_than_a_file(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec) || fs::is_regular_file(p, ec)) return std::nullopt;
  return "cannot write " + p.string() + ": it exists and is not a file";
}

}  // namespace

std::expected<SimOutput, std::string> SimOutput::open(const fs::path& dir) {
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    return std::unexpected("cannot write output to " + dir.string() +
                           ": exists and is not a directory");
  }
  if (!fs::exists(status)) {
    fs::create_directories(dir, ec);
    if (ec) {
      return std::unexpected("cannot create output directory " + dir.string() +
                             ": " + reason(ec));
    }
  }
  // Permissions and read-only mounts, checked before a long run rather
  // than after it; access() leaves nothing behind.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return std::unexpected("cannot write output to " + dir.string() + ": " +
                           std::strerror(errno));
  }
  // Something other than a file in the place of a result file, or of the
  // partial file it is written to first, would fail the run at its end:
  // say so now.
  for (const char* name : kResultFiles) {
    for (const fs::path& p : {dir / name, partial_path(dir, name)}) {
      if (auto why = taken_by_other_than_a_file(p))
        return std::unexpected(*why);
    }
  }
  SimOutput out;
  out.dir_ = dir;
  return out;
}

void remove_partial_files(const fs::path& dir) {
  std::error_code ignored;
  for (const char* name : kResultFiles)
    fs::remove(partial_path(dir, name), ignored);
  for (const sim::Mode mode : sim::kAllModes)
    fs::remove(partial_path(dir, capture_name(mode)), ignored);
}

SimOutput::~SimOutput() {
  // Captures still open (a run that ended early) and complete ones that
  // no results followed.
  for (auto& [mode, c] : captures_) {
    c->writer.reset();  // closes the file
    std::error_code ignored;
    fs::remove(c->partial, ignored);
  }
  discard_pending();
}

void SimOutput::discard_pending() {
  for (const std::string& name : pending_) {
    std::error_code ignored;
    fs::remove(partial_path(dir_, name), ignored);
  }
  pending_.clear();
}

std::expected<sim::ControlTap*, std::string> SimOutput::begin_mode(
    sim::Mode mode) {
  if (captures_.contains(mode)) {
    return std::unexpected("mode " + std::string(sim::mode_name(mode)) +
                           " is already being captured");
  }
  auto c = std::make_shared<Capture>();
  c->name = capture_name(mode);
  c->final_path = dir_ / c->name;
  c->partial = partial_path(dir_, c->name);
  // Found now rather than when the mode has run: the capture could not
  // be renamed over it.
  if (auto why = taken_by_other_than_a_file(c->final_path)) {
    return std::unexpected(*why);
  }
  auto writer = sysdep::PcapWriter::open(c->partial.string());
  if (!writer) return std::unexpected(writer.error());  // names the path
  c->writer.emplace(std::move(*writer));
  Capture* raw = c.get();
  c->tap = std::make_unique<sim::output::ControlFrameTap>(
      [raw](Time at, ByteSpan frame) {
        // pcap keeps nanoseconds: simulated picoseconds are truncated.
        raw->writer->write(frame, static_cast<std::uint64_t>(at.ps() / 1000));
      });
  sim::ControlTap* tap = c->tap.get();
  captures_.emplace(mode, std::move(c));
  return tap;
}

std::expected<void, std::string> SimOutput::end_mode(sim::Mode mode,
                                                     bool keep) {
  const auto it = captures_.find(mode);
  if (it == captures_.end()) return {};
  std::shared_ptr<Capture> c = std::move(it->second);
  captures_.erase(it);
  if (auto flushed = c->writer->flush(); !flushed) {
    c->writer.reset();
    std::error_code ignored;
    fs::remove(c->partial, ignored);
    return flushed;
  }
  c->writer.reset();  // closes the file
  if (!keep) {
    std::error_code ignored;
    fs::remove(c->partial, ignored);
    return {};
  }
  pending_.push_back(c->name);  // renamed with the results
  return {};
}

std::expected<void, std::string> SimOutput::write_results(
    const sim::Scenario& scenario, const std::vector<sim::ModeResult>& results,
    const std::vector<sim::output::ModeNotRun>& not_run) {
  // In kResultFiles' order.
  const std::pair<const char*, std::string> files[] = {
      {kResultFiles[0], sim::output::results_json(scenario, results, not_run)},
      {kResultFiles[1], sim::output::timeseries_csv(results)},
      {kResultFiles[2], sim::output::goodput_svg(scenario, results)},
  };
  // All or nothing, as far as renames go: every file is complete under
  // its partial name before any replaces an earlier run's.
  for (const auto& [name, text] : files) {
    if (auto ok = write_partial(partial_path(dir_, name), text); !ok) {
      discard_pending();
      return ok;
    }
    pending_.push_back(name);
  }
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const std::string& name = pending_[i];
    if (auto ok = rename_into_place(partial_path(dir_, name), dir_ / name);
        !ok) {
      pending_.erase(pending_.begin(),
                     pending_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      discard_pending();
      return ok;
    }
    written_.push_back(name);
  }
  pending_.clear();
  // An earlier run's capture of a mode this run has none of would pass
  // for this run's.
  for (const sim::Mode mode : sim::kAllModes) {
    const std::string name = capture_name(mode);
    if (std::find(written_.begin(), written_.end(), name) != written_.end())
      continue;
    std::error_code ec;
    if (!fs::is_regular_file(dir_ / name, ec)) continue;
    fs::remove(dir_ / name, ec);
    if (ec) {
      return std::unexpected("cannot remove " + (dir_ / name).string() +
                             ", an earlier run's capture: " + reason(ec));
    }
  }
  return {};
}

}  // namespace arfabric::cli
