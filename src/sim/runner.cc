#include "sim/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "common/quantity.h"
#include "sim/arn_control.h"
#include "sim/bgp_control.h"
#include "sim/control_mux.h"
#include "sim/flows.h"
#include "sim/ibcs.h"
#include "sim/loss_of_signal.h"
#include "sim/lsn_control.h"
#include "sim/static_routes.h"

namespace arfabric::sim {

namespace {

// Network::create names a node or cable by its index ("nodes[6]",
// "cables[3].rate"); the scenario's author knows them by name.
std::string named_error(const Topology& topo, const NetworkError& e) {
  using Subject = NetworkError::Subject;
  std::string where = e.field;
  if (e.subject == Subject::node && e.index < topo.nodes.size()) {
    where = "node '" + topo.nodes[e.index].name + "'" + e.subfield;
  } else if (e.subject == Subject::cable && e.index < topo.links.size()) {
    const LinkSpec& l = topo.links[e.index];
    where = "link [" + topo.nodes[l.a].name + ", " + topo.nodes[l.b].name +
            "]" + e.subfield;
  }
  return where + ": " + e.reason;
}

proto::fare::Role fare_role(NodeRole r) {
  switch (r) {
    case NodeRole::spine:
      return proto::fare::Role::spine;
    case NodeRole::super_spine:
      return proto::fare::Role::super_spine;
    default:
      return proto::fare::Role::leaf;
  }
}

proto::fib::SelectMode select_mode(PathSelection p) {
  switch (p) {
    case PathSelection::per_packet:
      return proto::fib::SelectMode::per_packet;
    case PathSelection::flowlet:
      return proto::fib::SelectMode::flowlet;
    case PathSelection::per_flow:
      break;
  }
  return proto::fib::SelectMode::per_flow;
}

// A collective over a ring of participants: in each of `steps` steps every
// participant sends `chunk` bytes to its successor, and starts step k + 1
// once its predecessor's step-k chunk has arrived (ring all-reduce:
// 2(N-1) steps of S/N; all-gather: N-1 steps).
struct Ring {
  std::vector<NodeIndex> members;
  std::uint64_t chunk = 0;
  std::uint32_t steps = 0;
  std::vector<std::uint32_t> received;  // steps received, per member
  std::vector<std::uint32_t> sent;      // steps started, per member
  std::uint32_t finished_members = 0;
};

// A Poisson workload's flow: when it starts, between which hosts, how big.
struct Arrival {
  Time at{};
  NodeIndex from = 0, to = 0;
  std::uint64_t bytes = 0;
};

constexpr std::int32_t kBackgroundTag = -1;
constexpr std::int32_t kPoissonTag = -2;
constexpr std::int32_t kAllToAllTag = -3;

// What a flow is part of: a ring's step from `member`, a Poisson workload
// (kPoissonTag), the all-to-all workload numbered `member`
// (kAllToAllTag), or no workload (kBackgroundTag: an incast's flow, which
// no workload's completion waits for).
struct FlowTag {
  std::int32_t ring = kBackgroundTag;
  std::uint32_t member = 0;
};

// Each participant starts flows as a Poisson process of rate load * (its
// link rate) / (8 * mean flow size), from `start` for `duration` or until
// `stop_at`, to a uniformly chosen other participant, sizes drawn from the
// CDF. The random stream depends only on the scenario seed and the
// workload's index, so every mode sees the same flows.
void add_poisson_arrivals(const Scenario& scenario, std::size_t index, Time t0,
                          std::vector<Arrival>& out) {
  const WorkloadSpec& w = scenario.workloads[index];
  const std::size_t n = w.participants.size();
  const double mean = w.flow_size_cdf.mean_bytes();
  if (n < 2 || w.load <= 0 || mean <= 0) return;
  const Topology& topo = scenario.topology;
  std::vector<BitsPerSecond> host_rate(topo.nodes.size(), 0);
  for (const LinkSpec& l : topo.links) {
    host_rate[l.a] = std::max(host_rate[l.a], l.rate);
    host_rate[l.b] = std::max(host_rate[l.b], l.rate);
  }
  std::mt19937_64 rng(scenario.seed * 0x9e3779b97f4a7c15ULL + index);
  auto uniform = [&] {  // [0, 1), the same on every platform
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
  };
  const Time end = poisson_arrivals_end(w, scenario.stop_at);
  for (std::size_t i = 0; i < n; ++i) {
    const double per_second =
        w.load * static_cast<double>(host_rate[w.participants[i]]) / (8 * mean);
    if (per_second <= 0) continue;
    double t = w.start.seconds();
    while (true) {
      t += -std::log1p(-uniform()) / per_second;
      const Time at = ps(static_cast<std::int64_t>(t * 1e12));
      if (at >= end) break;
      std::size_t j = static_cast<std::size_t>(uniform() * (n - 1));
      if (j >= i) ++j;  // any participant but itself
      out.push_back({t0 + at, w.participants[i], w.participants[j],
                     w.flow_size_cdf.sample(uniform())});
    }
  }
}

}  // namespace

// Everything one run is made of and the workloads' progress. The network
// and the engines hold pointers into it, so it stays where create() put it.
struct ModeRun::State {
  using Clock = std::chrono::steady_clock;

  State(const Scenario& s, Mode m, const RunOptions& o)
      : scenario(s), topo(scenario.topology), mode(m), options(o) {}

  // Adds the wall time since the last call to `phase` (when timing).
  void end_phase(double RunTiming::*phase) {
    const Clock::time_point now = Clock::now();
    if (options.timing != nullptr) {
      options.timing->*phase +=
          std::chrono::duration<double>(now - phase_start).count();
    }
    phase_start = now;
  }

  // RunOptions::stop is set.
  bool stop_requested() const {
    return options.stop != nullptr &&
           options.stop->load(std::memory_order_relaxed);
  }
  std::expected<void, std::string> build();
  // Errors: stop_requested() (the message says when), or BGP not
  // converged by RunOptions::warm_up_limit (it says how far BGP got).
  std::expected<void, std::string> warm_up();
  std::expected<void, std::string> start();
  void dispatch(const Event& e);
  RunTotals totals() const;
  void take_sample(Time at);
  // Starts a workload's flow of `bytes`, tagged `t`, and counts its bytes
  // as the job's (workload_bytes).
  FlowId start_workload_flow(NodeIndex from, NodeIndex to, std::uint64_t bytes,
                             Time now, FlowTag t);
  void ring_send(std::size_t r, std::uint32_t m, Time now);
  void flow_complete(FlowId f, Time now);
  // A workload completed `at` (after the warm-up, now): the run's
  // completion is the latest (Time::max() until the first).
  void completed_at(Time at) {
    result.completion =
        result.completion == Time::max() ? at : std::max(result.completion, at);
  }
  void start_workload(std::size_t i, Time now);
  void apply_event(const EventSpec& ev, Time now);
  bool done() const;
  // Runs to `limit` (absolute, at most `stop`), or until stop_requested();
  // true when the run is over.
  bool run(Time limit);
  // Fills `result` from the run as it stands at `end` (absolute, at or
  // after the last event handled), once: it takes the samples up to
  // `end`.
  void measure(Time end);

  const Scenario scenario;  // a copy: the run does not depend on the caller's
  const Topology& topo;
  Mode mode;
  RunOptions options;
  Clock::time_point phase_start = Clock::now();

  EventQueue events;
  PacketPool pool;
  std::optional<Network> net;
  std::vector<proto::NodeId> leaf_id;
  ControlMux mux;
  std::unique_ptr<BgpControl> bgp_control;
  BgpControl* bgp = nullptr;  // null with static routes
  std::optional<LossOfSignal> loss_of_signal;
  std::unique_ptr<LsnControl> lsn;
  std::unique_ptr<ArnControl> arn;
  std::optional<Flows> flows;
  std::unique_ptr<IbcsSwitches> ibcs;

  ModeResult result;
  Time t0{};  // end of the warm-up
  Time stop{};

  // Workloads.
  std::vector<std::unique_ptr<Ring>> rings;
  std::uint32_t pending_workloads = 0;
  std::vector<FlowTag> tags;
  std::vector<std::uint32_t> open_a2a;  // by workload: its flows running
  // The bytes of every workload flow started: once the workloads have
  // completed, the payload the job delivered (an incast's flows, which
  // are no workload's, are not counted, before or during the job).
  std::uint64_t workload_bytes = 0;
  // When the last batch of things handled began (the queue's own last
  // event may be later: events.now()).
  Time handled_until{};
  // Poisson flows, generated up front in time order; and their FCTs.
  std::vector<Arrival> arrivals;
  std::size_t next_arrival = 0, open_poisson = 0;
  std::vector<Time> poisson_fct;
  std::vector<Time> flow_started;
  // The ring each ring/all-gather workload drives, by workload index.
  std::vector<std::size_t> ring_of_workload;
  std::vector<std::pair<Time, std::size_t>> workload_starts;
  std::size_t next_workload = 0, next_event = 0;
  // The job starts with the first workload that has something to send
  // (a Poisson workload with its first arrival), since the warm-up's end;
  // Time::max() when none has.
  Time job_start = Time::max();

  // Convergence is timed from the first failure (the issue: "failure ->
  // last affected ingress stops using the path"), or, in a scenario
  // without one, from the first degradation (FARE's new weights).
  EventKind starts_convergence = EventKind::link_down;
  Time first_change = Time::max();
  Time fib_before_change{};

  std::optional<TimeSeriesRecorder> series;
  std::uint64_t hops_before_loop = 0;
  std::uint64_t loop_events = 0;
};

std::expected<void, std::string> ModeRun::State::build() {
  const SwitchParams& sp = scenario.switches;
  // The parser checks these for the file's modes; -m may add a mode to a
  // scenario whose own modes do not include it.
  if (auto why = mode_problem(scenario, mode))
    return std::unexpected(std::move(*why));
  NetworkSpec spec;
  for (const NodeSpec& n : topo.nodes) {
    spec.nodes.push_back(
        {n.role == NodeRole::host,
         n.lsn_node_id == kNoLsnId ? 0 : proto::NodeId{n.lsn_node_id}});
  }
  for (const LinkSpec& l : topo.links) {
    spec.cables.push_back({l.a, l.b, l.rate, l.delay, l.drop_probability});
  }
  spec.buffer_bytes = static_cast<std::uint32_t>(sp.buffer_bytes_per_port);
  spec.ecn_threshold_bytes = static_cast<std::uint32_t>(sp.ecn_threshold_bytes);
  spec.select_mode = select_mode(sp.path_selection);
  spec.fib.table_size = 256;
  spec.fib.flowlet_gap = sp.flowlet_gap;
  // Only flowlet mode reads the flowlet table: elsewhere one slot, not
  // 4096 x 32 bytes per switch (270 MB in a 2,064-switch fabric).
  spec.fib.flowlet_table_size =
      sp.path_selection == PathSelection::flowlet ? 4096 : 1;
  spec.seed = scenario.seed;
  spec.prefetch_depth = options.prefetch_depth;

  auto created = Network::create(spec, events, pool);
  if (!created) return std::unexpected(named_error(topo, created.error()));
  net.emplace(std::move(*created));
  if (stop_requested()) return std::unexpected("stopped during the set-up");

  leaf_id.assign(topo.nodes.size(), kNotLeaf);
  for (NodeIndex i = 0; i < topo.nodes.size(); ++i) {
    const NodeSpec& n = topo.nodes[i];
    if (n.role != NodeRole::host && n.lsn_node_id != kNoLsnId) {
      leaf_id[i] = n.lsn_node_id;
    }
  }
  mux.set_pool(pool);
  net->set_control_handler(&mux);

  // Routing: BGP (null with static routes, programmed now).
  if (sp.routing == Routing::bgp) {
    std::vector<BgpSwitch> switches;
    for (NodeIndex i = 0; i < topo.nodes.size(); ++i) {
      const NodeSpec& n = topo.nodes[i];
      if (n.role == NodeRole::host) continue;
      const bool edge = n.lsn_node_id != kNoLsnId;
      switches.push_back({i, n.asn, n.router_id, fare_role(n.role), edge,
                          edge ? proto::NodeId{n.lsn_node_id} : 0});
    }
    BgpControlConfig bc;
    bc.fare = uses_fare(mode);
    bc.update_processing = sp.bgp_update_processing;
    bc.fib_programming = sp.fib_programming_delay;
    bc.mrai = sp.bgp_mrai;
    bc.failure_detection = sp.failure_detection_delay;
    auto control = BgpControl::create(*net, events, pool, switches, bc);
    if (!control) return std::unexpected(control.error().to_string());
    bgp_control = std::move(*control);
    mux.set(ControlProtocol::bgp, bgp_control.get());
    bgp_control->set_tap(options.tap);
  } else {
    program_static_routes(*net, leaf_id, Time{}, options.stop,
                          options.routes_progress);
  }
  bgp = bgp_control.get();
  if (stop_requested()) return std::unexpected("stopped during the set-up");

  // Hardware: loss of signal (fast failover in every mode), LSN, ARN.
  loss_of_signal.emplace(*net, events, sp.failure_detection_delay,
                         /*fast_failover=*/true);
  if (uses_lsn(mode)) {
    LsnControlConfig lc;
    lc.processing = sp.hw_notification_delay;
    lc.period = sp.lsn_period;
    lc.congestion_sample = sp.lsn_congestion_sample;
    for (int k = 0; k < 3; ++k) {
      lc.congestion.rise[k] = sp.lsn_congestion_rise[k];
      lc.congestion.fall[k] = sp.lsn_congestion_fall[k];
    }
    auto created_lsn = LsnControl::create(*net, events, pool, leaf_id, lc);
    if (!created_lsn) return std::unexpected(created_lsn.error().to_string());
    lsn = std::move(*created_lsn);
    lsn->set_tap(options.tap);
    mux.set(ControlProtocol::lsn, lsn.get());
    loss_of_signal->add_observer(*lsn);
  }

  transport::TransportConfig tc;
  tc.mss_bytes = scenario.hosts.mss_bytes;
  tc.header_bytes = scenario.hosts.header_bytes;
  tc.initial_window_packets = scenario.hosts.initial_window_packets;
  tc.max_window_packets =
      std::max<std::uint32_t>(tc.max_window_packets, tc.initial_window_packets);
  tc.min_rto = scenario.hosts.min_rto;
  tc.dctcp_g = scenario.hosts.dctcp_g;
  tc.dupack_threshold = scenario.hosts.dupack_threshold;
  if (scenario.hosts.congestion_control == HostCongestionControl::ibcs) {
    if (!sp.ibcs) {
      return std::unexpected(
          "hosts.congestion_control: ibcs needs switches.ibcs (the signal "
          "it reacts to)");
    }
    tc.cc = transport::CongestionControl::ibcs;
    tc.ibcs_target = scenario.hosts.ibcs_target;
    tc.ibcs_max_signal = ibcs_signal_is_max(sp.ibcs->signal);
    tc.ibcs_beta = scenario.hosts.ibcs_beta;
    tc.ibcs_max_decrease = scenario.hosts.ibcs_max_decrease;
  }
  if (auto ok = transport::validate(tc); !ok) {
    return std::unexpected("hosts." + ok.error().to_string());
  }
  flows.emplace(*net, events, pool, tc);
  net->set_host_handler(&*flows);

  // IBCS: the same in every mode (it is not a routing mechanism).
  if (sp.ibcs) {
    auto created_ibcs = IbcsSwitches::create(*net, *sp.ibcs);
    if (!created_ibcs) return std::unexpected(created_ibcs.error());
    ibcs = std::move(*created_ibcs);
    net->set_header_processor(ibcs.get());
    flows->originate_signal(ibcs->uninitialized());
  }
  return {};
}

void ModeRun::State::dispatch(const Event& e) {
  switch (e.type) {
    case EventType::link_arrival:
      net->on_event(e);
      break;
    case EventType::flow_timer:
      flows->on_event(e);
      break;
    case EventType::control:
      bgp->on_event(e);
      break;
    case EventType::port_state:
      loss_of_signal->on_event(e);
      break;
    case EventType::lsn:
      lsn->on_event(e);
      break;
    case EventType::arn:
      arn->on_event(e);
      break;
  }
}

// BGP sessions and routes, until every session is up and BGP is quiet:
// nothing in flight (the last FIB change programmed), no UPDATE held back
// by MRAI; an error if that takes longer than the warm-up limit.
std::expected<void, std::string> ModeRun::State::warm_up() {
  if (bgp == nullptr) return {};
  bgp->start(Time{});
  for (Time step = ms(1);; t0 += step) {
    while (!events.empty() && events.top().at <= t0) {
      if (stop_requested()) {
        return std::unexpected("stopped during the BGP warm-up at " +
                               format_time_rounded(events.now()));
      }
      dispatch(events.pop());
    }
    const bool established = bgp->all_established();
    if (options.warm_up_progress) {
      options.warm_up_progress(WarmUpProgress{t0, bgp->counters().messages,
                                              bgp->counters().fib_updates,
                                              established});
    }
    if (established && bgp->quiet()) return {};
    if (t0 >= options.warm_up_limit) {
      const BgpControl::Sessions sessions = bgp->sessions();
      // The warm-up ends when the last route is programmed, a programming
      // delay after the last UPDATE: a delay near the limit cannot fit,
      // whatever the fabric.
      const Time programming = scenario.switches.fib_programming_delay;
      const std::string too_slow =
          programming * 2 >= options.warm_up_limit
              ? "; switches.bgp.fib_programming is " +
                    format_time(programming) +
                    ", and the warm-up waits for the last route to be "
                    "programmed"
              : "";
      return std::unexpected(
          "BGP did not converge in the warm-up's " + format_time_rounded(t0) +
          " of simulated time: " + std::to_string(sessions.established) +
          " of " + std::to_string(sessions.total) +
          " session ends established, " +
          (bgp->in_flight() ? "messages still in flight"
           : bgp->held_back()
               ? "updates held back by MRAI (switches.bgp.mrai "
                 "is " +
                     format_time(scenario.switches.bgp_mrai) + ")"
               : "nothing in flight") +
          (bgp->counters().fib_updates == 0
               ? ", no route programmed yet"
               : ", the last FIB change at " +
                     format_time_rounded(bgp->last_fib_change())) +
          too_slow);
    }
  }
}

std::expected<void, std::string> ModeRun::State::start() {
  const SwitchParams& sp = scenario.switches;
  result.mode = mode;
  result.warm_up = t0;
  // The time series counts from here: LSN's first frames, sent at t0, are
  // in its first row.
  const RunTotals before_start = totals();

  if (lsn) lsn->start(t0);
  if (uses_arn(mode)) {
    ArnControlConfig ac;
    ac.processing = sp.hw_notification_delay;
    ac.queue_high_bytes = sp.arn_queue_high_bytes;
    ac.queue_low_bytes = sp.arn_queue_low_bytes;
    ac.util_high = sp.arn_util_high;
    ac.util_low = sp.arn_util_low;
    ac.repeat_interval = sp.arn_repeat_interval;
    ac.hold_time = sp.arn_hold_time;
    ac.link_share = sp.arn_link_share;
    auto created_arn = ArnControl::create(*net, events, pool, leaf_id, ac, t0);
    if (!created_arn) return std::unexpected(created_arn.error().to_string());
    arn = std::move(*created_arn);
    arn->set_tap(options.tap);
    mux.set(ControlProtocol::arn, arn.get());
    loss_of_signal->add_observer(*arn);
  }

  ring_of_workload.assign(scenario.workloads.size(), 0);
  open_a2a.assign(scenario.workloads.size(), 0);
  for (std::size_t wi = 0; wi < scenario.workloads.size(); ++wi) {
    const WorkloadSpec& w = scenario.workloads[wi];
    const std::size_t n = w.participants.size();
    switch (w.kind) {
      case WorkloadKind::ring_allreduce:
      case WorkloadKind::all_gather: {
        if (n < 2) break;
        auto ring = std::make_unique<Ring>();
        ring->members = w.participants;
        ring->chunk = std::max<std::uint64_t>(1, w.bytes / n);
        ring->steps = static_cast<std::uint32_t>(
            w.kind == WorkloadKind::ring_allreduce ? 2 * (n - 1) : n - 1);
        ring->received.assign(n, 0);
        ring->sent.assign(n, 0);
        ring_of_workload[wi] = rings.size();
        rings.push_back(std::move(ring));
        ++pending_workloads;
        break;
      }
      case WorkloadKind::all_to_all:
        if (n < 2) break;
        ++pending_workloads;
        break;
      case WorkloadKind::poisson: {
        // Its first arrival starts it: none, nothing to send.
        const std::size_t before = arrivals.size();
        add_poisson_arrivals(scenario, wi, t0, arrivals);
        for (std::size_t a = before; a < arrivals.size(); ++a)
          job_start = std::min(job_start, arrivals[a].at - t0);
        continue;
      }
    }
    if (n >= 2) job_start = std::min(job_start, w.start);
  }
  // All Poisson workloads finish together: when every flow has arrived
  // and completed.
  std::stable_sort(
      arrivals.begin(), arrivals.end(),
      [](const Arrival& x, const Arrival& y) { return x.at < y.at; });
  if (!arrivals.empty()) ++pending_workloads;

  const bool has_failure = std::any_of(
      scenario.events.begin(), scenario.events.end(),
      [](const EventSpec& e) { return e.kind == EventKind::link_down; });
  starts_convergence = has_failure ? EventKind::link_down : EventKind::degrade;
  stop = t0 + scenario.stop_at;

  result.sample_interval = options.sample_interval > Time{}
                               ? options.sample_interval
                               : default_sample_interval(scenario);
  series.emplace(scenario, t0, result.sample_interval, before_start);

  flows->on_complete([this](FlowId f, Time now) { flow_complete(f, now); });
  for (std::size_t i = 0; i < scenario.workloads.size(); ++i) {
    workload_starts.emplace_back(t0 + scenario.workloads[i].start, i);
  }
  std::sort(workload_starts.begin(), workload_starts.end());
  hops_before_loop = net->counters().packet_hops;
  return {};
}

// Cumulative counters, read at each interval boundary of the time series.
RunTotals ModeRun::State::totals() const {
  RunTotals t;
  t.payload_bytes = flows->payload_delivered();
  t.dropped = net->counters().dropped;
  if (bgp != nullptr) {
    t.control_messages = bgp->counters().messages;
    t.control_bytes = bgp->counters().bytes;
  }
  if (lsn) {
    t.control_messages += lsn->counters().frames;
    t.control_bytes += lsn->counters().bytes;
  }
  if (arn) {
    t.control_messages += arn->counters().messages;
    t.control_bytes += arn->counters().bytes;
  }
  t.packets_in_flight = pool.in_use();
  return t;
}

void ModeRun::State::take_sample(Time at) {
  series->sample(at, totals());
  if (options.progress) options.progress(series->progress());
}

FlowId ModeRun::State::start_workload_flow(NodeIndex from, NodeIndex to,
                                           std::uint64_t bytes, Time now,
                                           FlowTag t) {
  const FlowId f = flows->start(from, to, bytes, now);
  if (tags.size() <= f) tags.resize(f + 1);
  tags[f] = t;
  workload_bytes += bytes;
  return f;
}

void ModeRun::State::ring_send(std::size_t r, std::uint32_t m, Time now) {
  Ring& ring = *rings[r];
  const NodeIndex from = ring.members[m];
  const NodeIndex to = ring.members[(m + 1) % ring.members.size()];
  ++ring.sent[m];
  start_workload_flow(from, to, ring.chunk, now,
                      {static_cast<std::int32_t>(r), m});
}

void ModeRun::State::flow_complete(FlowId f, Time now) {
  const FlowTag tag = f < tags.size() ? tags[f] : FlowTag{};
  switch (tag.ring) {
    case kBackgroundTag:
      return;
    case kPoissonTag:
      poisson_fct.push_back(now - flow_started[f]);
      if (--open_poisson == 0 && next_arrival == arrivals.size()) {
        --pending_workloads;
        completed_at(now - t0);
      }
      return;
    case kAllToAllTag:
      if (--open_a2a[tag.member] == 0) {
        --pending_workloads;
        completed_at(now - t0);
      }
      return;
  }
  Ring& ring = *rings[static_cast<std::size_t>(tag.ring)];
  const std::uint32_t to = (tag.member + 1) % ring.members.size();
  ++ring.received[to];
  if (ring.received[to] == ring.steps) {
    if (++ring.finished_members == ring.members.size()) {
      --pending_workloads;
      completed_at(now - t0);
    }
  }
  // The receiver forwards the next chunk once it has this one.
  if (ring.sent[to] < ring.steps && ring.sent[to] <= ring.received[to]) {
    ring_send(static_cast<std::size_t>(tag.ring), to, now);
  }
}

void ModeRun::State::start_workload(std::size_t i, Time now) {
  const WorkloadSpec& w = scenario.workloads[i];
  if (w.kind == WorkloadKind::poisson) return;  // flows come as arrivals
  // Nothing to send, and not counted as pending (start()).
  if (w.participants.size() < 2) return;
  if (w.kind == WorkloadKind::all_to_all) {
    // `bytes` from every participant to every other (docs/SCENARIO.md).
    for (NodeIndex a : w.participants) {
      for (NodeIndex b : w.participants) {
        if (a == b) continue;
        ++open_a2a[i];
        start_workload_flow(a, b, w.bytes, now,
                            {kAllToAllTag, static_cast<std::uint32_t>(i)});
      }
    }
    return;
  }
  const std::size_t r = ring_of_workload[i];
  for (std::uint32_t m = 0; m < rings[r]->members.size(); ++m) {
    ring_send(r, m, now);
  }
}

void ModeRun::State::apply_event(const EventSpec& ev, Time now) {
  const LinkSpec& l = topo.links[ev.link];
  switch (ev.kind) {
    case EventKind::link_down:
      net->set_cable_up(ev.link, false);
      if (bgp != nullptr) bgp->cable_down(ev.link, now);
      loss_of_signal->cable_changed(ev.link, false, now);
      break;
    case EventKind::link_up:
      net->set_cable_up(ev.link, true);
      if (bgp != nullptr) bgp->cable_up(ev.link, now);
      loss_of_signal->cable_changed(ev.link, true, now);
      break;
    case EventKind::degrade: {
      const BitsPerSecond rate =
          ev.new_rate != 0 ? ev.new_rate
                           : static_cast<BitsPerSecond>(
                                 static_cast<double>(l.rate) * ev.fraction);
      net->set_cable_rate(ev.link, rate, now);
      if (bgp != nullptr) bgp->cable_rate(ev.link, rate, now);
      if (arn != nullptr) arn->cable_rate(ev.link, rate, now);
      break;
    }
    case EventKind::incast:
      for (NodeIndex s : ev.senders) {
        if (s == ev.receiver) continue;
        const std::optional<std::uint64_t> hash =
            net->flow_hash_across(s, ev.receiver, ev.link);
        ++result.incast_flows;
        if (hash) ++result.incast_steered;
        flows->start(s, ev.receiver, ev.bytes, now, hash.value_or(0));
      }
      break;
  }
  if (ev.kind == starts_convergence && first_change == Time::max()) {
    first_change = now;
    if (bgp != nullptr) fib_before_change = bgp->last_fib_change();
  }
}

// Workloads finished, every event applied, and the control plane quiet
// (so the convergence after the last event is seen).
bool ModeRun::State::done() const {
  return pending_workloads == 0 && next_workload == workload_starts.size() &&
         next_event == scenario.events.size() && flows->active() == 0 &&
         (bgp == nullptr || bgp->quiet());
}

bool ModeRun::State::run(Time limit) {
  bool over = false;
  while (true) {
    // The next time something outside the queue is due.
    Time other = Time::max();
    if (next_workload < workload_starts.size()) {
      other = std::min(other, workload_starts[next_workload].first);
    }
    if (next_event < scenario.events.size()) {
      other = std::min(other, t0 + scenario.events[next_event].at);
    }
    if (next_arrival < arrivals.size()) {
      other = std::min(other, arrivals[next_arrival].at);
    }
    const Time next =
        std::min(events.empty() ? Time::max() : events.top().at, other);
    if (next > stop || next == Time::max() || done()) {
      over = true;
      break;
    }
    if (next > limit || stop_requested()) break;
    // The state just before anything at `next` happens.
    while (series->next_at() <= next) take_sample(series->next_at());
    // Something happens at `next`, in the queue or outside it (a degrade
    // in ecmp queues nothing): the run has reached it (and, in the queue,
    // events.now()).
    handled_until = next;
    if (next_arrival < arrivals.size() && arrivals[next_arrival].at == next) {
      const Arrival& a = arrivals[next_arrival++];
      const FlowId f =
          start_workload_flow(a.from, a.to, a.bytes, next, {kPoissonTag, 0});
      if (flow_started.size() <= f) flow_started.resize(f + 1);
      flow_started[f] = next;
      ++open_poisson;
      continue;
    }
    if (next_workload < workload_starts.size() &&
        workload_starts[next_workload].first == next) {
      start_workload(workload_starts[next_workload].second, next);
      ++next_workload;
      continue;
    }
    if (next_event < scenario.events.size() &&
        t0 + scenario.events[next_event].at == next) {
      apply_event(scenario.events[next_event], next);
      ++next_event;
      continue;
    }
    // Queue events: this one, and every one after it due before anything
    // else (a sample included) and no later than `limit`, with no other
    // check than the end of the run's, until one is not. One bound for
    // both (a `limit` below `before` is below Time::max(), so adding 1 ps
    // cannot overflow).
    Time before = std::min(other, series->next_at());
    if (limit < before) before = limit + ps(1);
    do {
      dispatch(events.pop());
      ++loop_events;
    } while (!events.empty() && events.top().at < before && !done());
  }
  return over;
}

void ModeRun::State::measure(Time end) {
  result.finished = pending_workloads == 0;
  if (options.timing != nullptr) {
    options.timing->packet_hops =
        net->counters().packet_hops - hops_before_loop;
    options.timing->queue_events = loop_events;
  }
  if (!result.finished) {
    result.completion = Time::max();
  } else if (result.completion == Time::max()) {
    result.completion = Time{};  // no workload had anything to send
  }
  // A job that starts late (after BGP has carried a degradation, say) is
  // timed from its start.
  if (result.finished) {
    result.job_time =
        result.completion > job_start ? result.completion - job_start : Time{};
  }
  result.simulated = end - t0;
  while (series->next_at() <= end) take_sample(series->next_at());
  take_sample(end);  // the last, partial interval
  result.samples = series->take();
  result.payload_bytes = flows->payload_delivered();
  result.retransmissions = flows->sender_totals().retransmissions;
  if (!result.finished) {
    for (FlowId f = 0; f < flows->size(); ++f) {
      const transport::Receiver* receiver = flows->receiver(f);
      // Complete, or an incast's (no workload waits for it).
      if (receiver == nullptr || f >= tags.size() ||
          tags[f].ring == kBackgroundTag)
        continue;
      ++result.open_flows;
      const FlowStats& s = flows->stats(f);
      if (result.oldest_open_flow &&
          result.oldest_open_flow->started <= s.started - t0)
        continue;
      result.oldest_open_flow =
          ModeResult::OpenFlow{s.source, s.destination, s.bytes,
                               receiver->bytes_delivered(), s.started - t0};
    }
  }
  // The job's payload (its workloads' bytes, every one delivered) over
  // the job's time; all the payload delivered over the whole run when
  // unfinished, or when no workload sent anything (an incast alone).
  const bool by_completion = result.finished && result.job_time > Time{};
  const Time span = by_completion ? result.job_time : result.simulated;
  const std::uint64_t payload =
      by_completion ? workload_bytes : result.payload_bytes;
  if (span > Time{}) {
    result.goodput_gbps =
        static_cast<double>(payload) * 8 / span.seconds() / 1e9;
  }
  if (!poisson_fct.empty()) {
    std::sort(poisson_fct.begin(), poisson_fct.end());
    result.flows_completed = poisson_fct.size();
    std::int64_t sum = 0;
    for (Time t : poisson_fct) sum += t.ps();
    result.fct_mean = ps(sum / static_cast<std::int64_t>(poisson_fct.size()));
    // Nearest rank: the smallest FCT at or above 99 % of the flows.
    const std::size_t rank = (poisson_fct.size() * 99 + 99) / 100;
    result.fct_p99 = poisson_fct[rank - 1];
  }
  const NetworkCounters& counters = net->counters();
  result.dropped = counters.dropped;
  result.packet_hops = counters.packet_hops;
  result.injected = counters.injected;
  result.delivered = counters.delivered + counters.control_delivered;
  result.in_flight = pool.in_use();
  result.bgp_settled = bgp == nullptr || bgp->quiet();
  if (bgp != nullptr && first_change != Time::max() &&
      bgp->last_fib_change() != fib_before_change &&
      bgp->last_fib_change() >= first_change) {
    result.bgp_convergence = bgp->last_fib_change() - first_change;
  }
  double max_bytes = 0, sum = 0;
  std::size_t used = 0;
  for (std::size_t c = 0; c < net->cable_count(); ++c) {
    if (topo.is_host_link(c)) continue;
    for (LinkIndex l : net->cable_links(c)) {
      const LinkCounters lc = net->link(l).counters();
      const double b = static_cast<double>(lc.bytes - lc.control_bytes);
      if (b == 0) continue;
      max_bytes = std::max(max_bytes, b);
      sum += b;
      ++used;
    }
  }
  if (used > 0) result.utilisation_imbalance = max_bytes / (sum / used);
  if (bgp != nullptr) {
    result.control_messages = bgp->counters().messages;
    result.control_bytes = bgp->counters().bytes;
  }
  Time last_veto = Time::max();
  auto note_veto = [&](Time t) {
    if (t == Time::max() || first_change == Time::max() || t < first_change) {
      return;
    }
    last_veto = last_veto == Time::max() ? t : std::max(last_veto, t);
  };
  if (lsn) {
    result.lsn_frames = lsn->counters().frames;
    result.lsn_bytes = lsn->counters().bytes;
    note_veto(lsn->counters().last_veto);
  }
  if (arn) {
    const ArnControlCounters c = arn->counters();
    result.arn_messages = c.messages;
    result.arn_bytes = c.bytes;
    result.arn = ModeResult::ArnSending{c.detections, c.suppressed, c.waited,
                                        c.rate_limited};
    note_veto(c.last_veto);
  }
  if (last_veto != Time::max()) {
    result.hw_convergence = last_veto - first_change;
  }
  if (ibcs) {
    result.ibcs.enabled = true;
    result.ibcs.signal = scenario.switches.ibcs->signal;
    result.ibcs.switches = ibcs->counters();
    result.ibcs.delivered = flows->signals();
  }
}

ModeRun::ModeRun(std::unique_ptr<State> state) : state_(std::move(state)) {}
ModeRun::~ModeRun() = default;

std::expected<std::unique_ptr<ModeRun>, std::string> ModeRun::create(
    const Scenario& scenario, Mode mode, const RunOptions& options) {
  auto state = std::make_unique<State>(scenario, mode, options);
  if (auto built = state->build(); !built) {
    return std::unexpected(built.error());
  }
  state->end_phase(&RunTiming::setup);
  if (auto warmed = state->warm_up(); !warmed) {
    return std::unexpected(warmed.error());
  }
  state->end_phase(&RunTiming::warm_up);
  if (auto started = state->start(); !started) {
    return std::unexpected(started.error());
  }
  if (options.progress) options.progress(0);  // the workload starts
  state->end_phase(&RunTiming::start);
  std::unique_ptr<ModeRun> run(new ModeRun(std::move(state)));
  run->reached_ = run->state_->t0;
  return run;
}

bool ModeRun::run_until(Time until) {
  State& s = *state_;
  if (over_ || stopped_ || finished_ || until < reached_ - s.t0) return over_;
  s.phase_start = State::Clock::now();  // not the caller's time between steps
  const Time limit = until >= s.stop - s.t0 ? s.stop : s.t0 + until;
  over_ = s.run(limit);
  stopped_ = !over_ && s.stop_requested();
  if (over_ && (s.pending_workloads != 0 || s.flows->active() != 0)) {
    // Cut at stop_at (a workload unfinished, or an incast's flows): nothing
    // happens between the last event and stop_at (or nothing was left to
    // happen), so the run simulated up to stop_at.
    reached_ = s.stop;
  } else if (over_ || stopped_) {
    // The last thing handled, a queue event or not; it may precede the
    // workloads' start.
    reached_ = std::max({s.events.now(), s.handled_until, s.t0});
  } else {
    reached_ = limit;
  }
  s.end_phase(&RunTiming::events);
  return over_;
}

Time ModeRun::now() const { return reached_ - state_->t0; }

ModeResult ModeRun::finish() {
  if (!finished_) {
    state_->measure(reached_);
    finished_ = true;
  }
  return state_->result;
}

const Network& ModeRun::network() const { return *state_->net; }
const PacketPool& ModeRun::pool() const { return state_->pool; }

std::expected<ModeResult, std::string> run_mode(const Scenario& scenario,
                                                Mode mode,
                                                const RunOptions& options) {
  auto run = ModeRun::create(scenario, mode, options);
  if (!run) return std::unexpected(run.error());
  (*run)->run_until(Time::max());
  if ((*run)->stopped()) {
    return std::unexpected("stopped during the workload at " +
                           format_time_rounded((*run)->now()));
  }
  return (*run)->finish();
}

}  // namespace arfabric::sim
