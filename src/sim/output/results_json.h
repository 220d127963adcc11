// results.json of `arfabric sim --out`: the scenario and, per mode, every
// field of its ModeResult, as documented field by field in docs/OUTPUT.md
// and as a JSON Schema in docs/results.schema.json.
//
// The text depends only on the scenario and the results (no wall-clock
// time, host or path), so that the same scenario and seed give the same
// bytes: the determinism and golden tests compare it byte for byte.
// Times are given twice: integer picoseconds (`<name>_ps`, exact) and
// seconds (`<name>_s`, for reading); a time that did not happen (an
// unfinished run's completion, no convergence) is null in both.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/runner.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim::output {

// A mode that could not run, and why (run_mode's error).
struct ModeNotRun {
  Mode mode = Mode::ecmp;
  std::string reason;
};

inline constexpr int kResultsFormatVersion = 1;

// The JSON text, pretty-printed with two-space indents and a final
// newline. Never fails.
std::string results_json(const Scenario& scenario,
                         const std::vector<ModeResult>& results,
                         const std::vector<ModeNotRun>& not_run = {});

}  // namespace arfabric::sim::output
