// The time series of a run: after the warm-up, one sample per fixed
// interval of simulated time with what happened in that interval (payload
// delivered, drops by reason, control traffic) and the state at its end
// (packets in flight), so that users can plot goodput around each event.
//
// The recorder only differences cumulative counters that the runner reads
// at each interval boundary: nothing is added to the per-packet path.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/units.h"
#include "sim/network.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim {

inline constexpr std::size_t kDropReasons =
    static_cast<std::size_t>(DropReason::count_);

struct TimeSample {
  Time at{};        // end of the interval, relative to the end of warm-up
  Time duration{};  // the interval (the last one of a run may be shorter)
  std::uint64_t payload_bytes = 0;  // delivered to receivers in the interval
  double goodput_gbps = 0;          // payload_bytes * 8 / duration
  std::array<std::uint64_t, kDropReasons> dropped{};  // in the interval
  std::uint64_t control_messages = 0;   // control packets sent in it
  std::uint64_t control_bytes = 0;      // their bytes on the wire
  std::uint64_t packets_in_flight = 0;  // at `at`: data, ACKs and control
};

// Cumulative counters of a run, read at a sample boundary.
struct RunTotals {
  std::uint64_t payload_bytes = 0;
  std::array<std::uint64_t, kDropReasons> dropped{};
  std::uint64_t control_messages = 0, control_bytes = 0;
  std::uint64_t packets_in_flight = 0;
};

// stop_at / 1000 rounded up to 1, 2 or 5 times a power of ten, at least
// 1 us: about a thousand samples whatever the scenario's time scale.
Time default_sample_interval(const Scenario& scenario);

// Payload the scenario's workloads and incast events will deliver when
// they complete (ring chunks as the runner sizes them); 0 when unknown
// (Poisson workloads are open-ended and not counted).
std::uint64_t planned_payload_bytes(const Scenario& scenario);

class TimeSeriesRecorder {
 public:
  // Samples every `interval` (> 0) from `start` (the end of the warm-up,
  // absolute), with `baseline` the totals at `start`.
  TimeSeriesRecorder(const Scenario& scenario, Time start, Time interval,
                     const RunTotals& baseline);

  // Absolute time of the next interval boundary.
  Time next_at() const { return last_ + interval_; }
  // Records the interval from the previous sample to `now` (absolute,
  // normally next_at(); shorter at the end of the run). A row counts what
  // happened from its start up to, not including, its end, but the last:
  // `now` equal to the previous sample's adds what happened since to that
  // row (the run's events at its very end). Ignored when `now` is earlier,
  // or when there is no row yet.
  void sample(Time now, const RunTotals& totals);
  // The run's progress in [0, 1]: the larger of simulated time over
  // stop_at and planned payload delivered.
  double progress() const;

  const std::vector<TimeSample>& samples() const { return samples_; }
  std::vector<TimeSample> take() { return std::move(samples_); }

 private:
  Time start_, interval_, last_, stop_at_;
  std::uint64_t planned_payload_;
  RunTotals previous_;
  std::vector<TimeSample> samples_;
};

}  // namespace arfabric::sim
