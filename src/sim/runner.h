// Runs one scenario in one mode: builds the network and the BGP control
// plane from the scenario's topology, lets BGP converge (the warm-up, not
// counted), then starts the workloads and applies the timed events, and
// measures what issue 5's summary table reports. ModeRun does it step by
// step (run_until); run_mode in one call.
//
// Times in the result are relative to the end of the warm-up, which is
// where the scenario's own times start.
//
// Every mode, workload (ring_allreduce, all_gather, all_to_all, poisson)
// and event (link_down, link_up, degrade, incast) of the scenario schema.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "proto/ibcs/suf.h"
#include "sim/control_tap.h"
#include "sim/flows.h"
#include "sim/network.h"
#include "sim/scenario/scenario.h"
#include "sim/time_series.h"

namespace arfabric::sim {

// IBCS (when the scenario enables it): what the switches' Signal Update
// Functions did and what the receivers got.
struct IbcsResult {
  bool enabled = false;
  IbcsSignal signal = IbcsSignal::abw_c;
  proto::ibcs::Counters switches;  // summed over switches
  SignalStats delivered;
};

struct ModeResult {
  Mode mode = Mode::ecmp;
  bool finished = false;          // every workload completed before stop_at
  Time completion = Time::max();  // last workload's completion
  // From the start of the first workload with something to send (a
  // Poisson workload's first arrival) to the completion: what the job
  // took (Time::max() when unfinished; 0 with nothing to send).
  Time job_time = Time::max();
  std::uint64_t payload_bytes = 0;  // delivered to receivers
  // The workloads' payload / job_time (all payload / simulated when
  // unfinished).
  double goodput_gbps = 0;
  std::array<std::uint64_t, static_cast<std::size_t>(DropReason::count_)>
      dropped{};
  std::uint64_t retransmissions = 0;
  // Unfinished: the workloads' flows still open when the run stopped, and
  // the one open longest (what a user looks at first: a host cut off, a
  // link too slow for the control traffic).
  struct OpenFlow {
    NodeIndex source = 0, destination = 0;
    std::uint64_t bytes = 0, delivered = 0;
    Time started{};  // after the warm-up
  };
  std::uint64_t open_flows = 0;
  std::optional<OpenFlow> oldest_open_flow;
  // Poisson workloads: flows completed and their completion times.
  std::uint64_t flows_completed = 0;
  Time fct_mean = Time::max(), fct_p99 = Time::max();
  // After the first failure event (or, without one, the first
  // degradation): the last FIB change BGP made (BGP convergence), relative
  // to the event.
  Time bgp_convergence = Time::max();
  // BGP had nothing in flight or held back when the run ended. False when
  // stop_at cut it short: bgp_convergence is then only as far as the run
  // saw.
  bool bgp_settled = true;
  // Transport bytes (data and ACKs, on the wire) over switch-to-switch
  // links: max / mean over links that carried any (control packets left
  // out: LSN's frames cross every link, and would count links that carry
  // no data).
  double utilisation_imbalance = 0;
  // After the same event: the last veto an LSN or ARN notification set on
  // a routed path in some FIB (the last ingress that stopped using the path
  // in hardware), relative to the event.
  Time hw_convergence = Time::max();
  std::uint64_t control_messages = 0, control_bytes = 0;  // BGP
  std::uint64_t lsn_frames = 0, lsn_bytes = 0;
  std::uint64_t arn_messages = 0, arn_bytes = 0;
  // ARN modes: conditions the switches detected on their monitored ports,
  // those absorbed locally (every destination behind the port had another
  // port: no notification), messages that waited for a token, and relayed
  // messages dropped because too many relays waited for their target.
  struct ArnSending {
    std::uint64_t detections = 0, suppressed = 0, waited = 0, rate_limited = 0;
  };
  std::optional<ArnSending> arn;
  IbcsResult ibcs;
  // Incast events: flows started, and those steered across the named
  // cable (a sender's source port whose path crosses it, found when the
  // incast starts: Network::flow_hash_across).
  std::uint64_t incast_flows = 0, incast_steered = 0;
  std::uint64_t packet_hops = 0;
  // Conservation, over the whole run (warm-up included): every packet
  // injected was delivered (to a host or a switch CPU), dropped with a
  // reason, or is still in flight.
  std::uint64_t injected = 0, delivered = 0, in_flight = 0;
  Time warm_up{};  // simulated BGP convergence before the workload
  // simulated time after the warm-up: to the last event of a finished
  // run, to stop_at for an unfinished one (ModeRun::now())
  Time simulated{};
  // One sample per interval after the warm-up (sim/time_series.h), for the
  // plots of goodput around each event.
  Time sample_interval{};
  std::vector<TimeSample> samples;
};

// Where a run's wall-clock time went (not part of the results: it depends
// on the machine). Seconds.
struct RunTiming {
  double setup = 0;               // network, FIBs, BGP speakers
  double warm_up = 0;             // BGP converging before the workload
  double start = 0;               // LSN/ARN engines, IBCS, flows set up
  double events = 0;              // the event loop of the workload
  std::uint64_t packet_hops = 0;  // during the event loop
  // Queue events the event loop handled: link arrivals, transport timers,
  // control-plane and notification events (stale timers included).
  std::uint64_t queue_events = 0;
};

// How far a mode's BGP warm-up has got (RunOptions::warm_up_progress).
struct WarmUpProgress {
  Time simulated{};               // since the speakers started
  std::uint64_t messages = 0;     // BGP messages sent so far
  std::uint64_t fib_updates = 0;  // routes programmed so far
  bool established = false;       // every session is up
};

struct RunOptions {
  // Shown every control packet a switch sends (e.g. the pcap writer).
  ControlTap* tap = nullptr;
  // Time series resolution; Time{} picks default_sample_interval().
  Time sample_interval{};
  // Called with the run's progress in [0, 1]: 0 when the workload
  // starts (after any warm-up), then once per sample interval (simulated
  // time), e.g. for a progress bar.
  std::function<void(double fraction)> progress;
  // Called during the BGP warm-up (modes with BGP routing) at every
  // millisecond of simulated time from 0 until BGP is quiet (or
  // `warm_up_limit`): a large fabric's warm-up can take minutes of wall
  // time before `progress` is first called.
  std::function<void(const WarmUpProgress&)> warm_up_progress;
  // Called while static routes are programmed in the set-up, whenever
  // more leaves' routes are done, with the leaves done and the leaves in
  // all (program_static_routes): a wide fabric's routes take seconds.
  std::function<void(std::size_t done, std::size_t leaves)> routes_progress;
  // Simulated time BGP has to converge in before the workload (every
  // session up, nothing in flight); a warm-up that reaches it fails the
  // run (ModeRun::create).
  Time warm_up_limit = sec(30);
  // Filled with the run's wall-clock phases when set.
  RunTiming* timing = nullptr;
  // NetworkSpec::prefetch_depth (0: chosen by the fabric's size). Speed
  // only: the results are the same at every depth.
  std::uint8_t prefetch_depth = 0;
  // When set, another thread may set it to stop the run early (e.g. a
  // memory limit): it is read in the set-up (after the network and FIBs
  // are built, before each leaf's static routes, after the routing), at
  // every event of the BGP warm-up and at least once per sample interval
  // of the workload. A stopped run
  // makes ModeRun::create or run_mode fail with "stopped during ..."
  // (ModeRun::stopped() for a run stepped with run_until).
  const std::atomic<bool>* stop = nullptr;
};

// One scenario run in one mode, a step at a time: create() builds the
// network and the control plane and lets BGP converge; run_until() runs the
// workload and the events to a given time; finish() measures the run.
// run_mode() is the three in a row.
//
//   auto run = ModeRun::create(scenario, Mode::fare_lsn);
//   (*run)->run_until(us(500));  // look at network() here
//   (*run)->run_until(Time::max());
//   ModeResult r = (*run)->finish();
//
// Times given to and returned by it are relative to the end of the
// warm-up, as the scenario's are. The run keeps a copy of the scenario
// and of the options; what the options point to (tap, timing, what
// progress captures) must outlive the run.
class ModeRun {
 public:
  // Errors: a topology the network cannot be built from, a control-plane
  // or transport setting the engines refuse (the message names the
  // problem); BGP not converged by RunOptions::warm_up_limit ("BGP did
  // not converge ...", with how far it got); RunOptions::stop set before
  // the workload starts ("stopped during the set-up" or "stopped during
  // the BGP warm-up at <time>").
  static std::expected<std::unique_ptr<ModeRun>, std::string> create(
      const Scenario& scenario, Mode mode, const RunOptions& options = {});
  ~ModeRun();
  ModeRun(const ModeRun&) = delete;
  ModeRun& operator=(const ModeRun&) = delete;

  // Handles every event due at or before `until` (Time::max(): to the
  // end). Returns over(). Does nothing once the run is over, stopped or
  // finished, or for an `until` already reached.
  bool run_until(Time until);
  // RunOptions::stop was set during a run_until: the run went no further
  // than now(), and is not over.
  bool stopped() const { return stopped_; }
  // The run is over: every workload finished, every event applied and
  // the control plane quiet; or stop_at passed; or nothing is left to do.
  bool over() const { return over_; }
  // How far the run has got (ModeResult::simulated, once finished):
  // `until` of the last run_until that stopped before the end; once over
  // with every workload finished, or once stopped, the time of the last
  // queue event handled (which can be earlier than an `until` asked for
  // before); once over with a workload unfinished, stop_at (nothing
  // happens between the last event and stop_at).
  Time now() const;

  // Measures the run as it stands, over or not; the run goes no further.
  // Later calls return the same result.
  ModeResult finish();

  // What the run is made of, to look at between steps.
  const Network& network() const;
  const PacketPool& pool() const;

 private:
  struct State;
  explicit ModeRun(std::unique_ptr<State> state);

  std::unique_ptr<State> state_;
  bool over_ = false;
  bool stopped_ = false;
  bool finished_ = false;
  Time reached_{};  // absolute
};

// Runs the scenario in `mode` to the end: ModeRun's create, run_until
// (Time::max()) and finish.
// Errors: ModeRun::create's; RunOptions::stop set during the workload
// ("stopped during the workload at <time>").
std::expected<ModeResult, std::string> run_mode(const Scenario& scenario,
                                                Mode mode,
                                                const RunOptions& options = {});

}  // namespace arfabric::sim
