// goodput.svg of `arfabric sim --out`: goodput over simulated time after
// the warm-up, one polyline per mode (with a legend), axes with ticks and
// labels, and a dashed vertical line at each scenario event labelled with
// its kind and link -- what each mechanism buys around each event, at a
// glance. Hand-written SVG 1.1: no plotting library is needed to make it
// and any browser shows it.
//
// Each point is the goodput of one sample interval (sim/time_series.h),
// drawn at the middle of the interval.
#pragma once

#include <string>
#include <vector>

#include "sim/runner.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim::output {

// The SVG document. Never fails: no results, or no samples, give the axes
// alone.
std::string goodput_svg(const Scenario& scenario,
                        const std::vector<ModeResult>& results);

// 1, 2 or 5 times a power of ten, at least `raw` (> 0): tick spacing.
double nice_step(double raw);

}  // namespace arfabric::sim::output
