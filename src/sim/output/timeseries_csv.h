// timeseries.csv of `arfabric sim --out`: one header line, then one row per
// (mode, sample) in run order, for spreadsheets, pandas or gnuplot. The
// columns are documented in docs/OUTPUT.md; times are microseconds after
// the warm-up with six decimals (exact picoseconds), so that the text, like
// results.json, depends only on the results.
#pragma once

#include <string>
#include <vector>

#include "sim/runner.h"

namespace arfabric::sim::output {

// The header line, without its newline.
std::string timeseries_csv_header();

// The whole file: header and rows, each line ending in "\n".
std::string timeseries_csv(const std::vector<ModeResult>& results);

}  // namespace arfabric::sim::output
