#include "sim/time_series.h"

#include <algorithm>

namespace arfabric::sim {

Time default_sample_interval(const Scenario& scenario) {
  const std::int64_t target = scenario.stop_at.ps() / 1000;
  std::int64_t decade = us(1).ps();
  while (true) {
    for (std::int64_t m : {1, 2, 5}) {
      if (m * decade >= target) return ps(m * decade);
    }
    decade *= 10;
  }
}

std::uint64_t planned_payload_bytes(const Scenario& scenario) {
  std::uint64_t total = 0;
  for (const WorkloadSpec& w : scenario.workloads) {
    const std::uint64_t n = w.participants.size();
    if (n < 2) continue;
    // The same sizes as the runner's: a ring sends chunks of bytes / n,
    // 2(n - 1) steps for all-reduce and n - 1 for all-gather, from every
    // member; all-to-all sends bytes to every other participant.
    const std::uint64_t chunk = std::max<std::uint64_t>(1, w.bytes / n);
    switch (w.kind) {
      case WorkloadKind::ring_allreduce:
        total += chunk * 2 * (n - 1) * n;
        break;
      case WorkloadKind::all_gather:
        total += chunk * (n - 1) * n;
        break;
      case WorkloadKind::all_to_all:
        total += w.bytes * (n - 1) * n;
        break;
      case WorkloadKind::poisson:
        break;
    }
  }
  for (const EventSpec& e : scenario.events) {
    if (e.kind != EventKind::incast) continue;
    for (NodeIndex s : e.senders) {
      if (s != e.receiver) total += e.bytes;
    }
  }
  return total;
}

TimeSeriesRecorder::TimeSeriesRecorder(const Scenario& scenario, Time start,
                                       Time interval, const RunTotals& baseline)
    : start_(start),
      interval_(interval > Time{} ? interval : us(1)),
      last_(start),
      stop_at_(scenario.stop_at),
      planned_payload_(planned_payload_bytes(scenario)),
      previous_(baseline) {}

void TimeSeriesRecorder::sample(Time now, const RunTotals& totals) {
  // A sample at the last row's end again (the run's end, after the events
  // at that time: its last ones, at stop_at) adds them to that row.
  if (now < last_ || (now == last_ && samples_.empty())) return;
  const bool same_end = now == last_;
  if (!same_end) {
    TimeSample s;
    s.at = now - start_;
    s.duration = now - last_;
    samples_.push_back(s);
  }
  TimeSample& s = samples_.back();
  s.payload_bytes += totals.payload_bytes - previous_.payload_bytes;
  s.goodput_gbps =
      static_cast<double>(s.payload_bytes) * 8 / s.duration.seconds() / 1e9;
  for (std::size_t r = 0; r < kDropReasons; ++r) {
    s.dropped[r] += totals.dropped[r] - previous_.dropped[r];
  }
  s.control_messages += totals.control_messages - previous_.control_messages;
  s.control_bytes += totals.control_bytes - previous_.control_bytes;
  s.packets_in_flight = totals.packets_in_flight;
  previous_ = totals;
  last_ = now;
}

double TimeSeriesRecorder::progress() const {
  double p = 0;
  if (stop_at_ > Time{}) {
    p = (last_ - start_).seconds() / stop_at_.seconds();
  }
  if (planned_payload_ > 0) {
    p = std::max(p, static_cast<double>(previous_.payload_bytes) /
                        static_cast<double>(planned_payload_));
  }
  return std::clamp(p, 0.0, 1.0);
}

}  // namespace arfabric::sim
