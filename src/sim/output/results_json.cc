#include "sim/output/results_json.h"

#include <nlohmann/json.hpp>

namespace arfabric::sim::output {

namespace {

// ordered_json keeps the documented field order: the file is read by
// people as well as by scripts.
using Json = nlohmann::ordered_json;

void put_time(Json& j, const std::string& name, Time t) {
  if (t == Time::max()) {
    j[name + "_ps"] = nullptr;
    j[name + "_s"] = nullptr;
    return;
  }
  j[name + "_ps"] = t.ps();
  // A division, unlike Time::seconds()'s multiplication by 1e-12, rounds
  // once: 50 us prints as 5e-05, not 4.9999999999999996e-05.
  j[name + "_s"] = static_cast<double>(t.ps()) / 1e12;
}

Json scenario_json(const Scenario& s) {
  Json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["summary"] = s.topology.summary();
  j["seed"] = s.seed;
  j["congestion_control"] =
      host_congestion_control_name(s.hosts.congestion_control);
  if (s.hosts.congestion_control == HostCongestionControl::ibcs) {
    j["ibcs_controller"] = {{"target", s.hosts.ibcs_target},
                            {"beta", s.hosts.ibcs_beta},
                            {"max_decrease", s.hosts.ibcs_max_decrease}};
  }
  put_time(j, "stop_at", s.stop_at);
  Json events = Json::array();
  for (const EventSpec& e : s.events) {
    Json ev;
    put_time(ev, "at", e.at);
    ev["kind"] = event_kind_name(e.kind);
    ev["link"] = {s.topology.nodes[e.a].name, s.topology.nodes[e.b].name};
    events.push_back(std::move(ev));
  }
  j["events"] = std::move(events);
  return j;
}

Json mode_json(const Scenario& s, const ModeResult& r) {
  Json j;
  j["mode"] = mode_name(r.mode);
  j["finished"] = r.finished;
  put_time(j, "completion", r.completion);
  put_time(j, "job_time", r.job_time);
  j["payload_bytes"] = r.payload_bytes;
  j["goodput_gbps"] = r.goodput_gbps;
  Json dropped = Json::object();
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.dropped.size(); ++i) {
    dropped[std::string(drop_reason_name(static_cast<DropReason>(i)))] =
        r.dropped[i];
    total += r.dropped[i];
  }
  j["dropped"] = std::move(dropped);
  j["dropped_total"] = total;
  j["retransmissions"] = r.retransmissions;
  j["open_flows"] = r.open_flows;
  if (const auto& o = r.oldest_open_flow) {
    Json open;
    open["source"] = s.topology.nodes[o->source].name;
    open["destination"] = s.topology.nodes[o->destination].name;
    open["bytes"] = o->bytes;
    open["delivered"] = o->delivered;
    put_time(open, "started", o->started);
    j["oldest_open_flow"] = std::move(open);
  } else {
    j["oldest_open_flow"] = nullptr;
  }
  j["flows_completed"] = r.flows_completed;
  put_time(j, "fct_mean", r.fct_mean);
  put_time(j, "fct_p99", r.fct_p99);
  put_time(j, "hw_convergence", r.hw_convergence);
  put_time(j, "bgp_convergence", r.bgp_convergence);
  j["bgp_settled"] = r.bgp_settled;
  j["utilisation_imbalance"] = r.utilisation_imbalance;
  j["control_messages"] = r.control_messages;
  j["control_bytes"] = r.control_bytes;
  j["lsn_frames"] = r.lsn_frames;
  j["lsn_bytes"] = r.lsn_bytes;
  j["arn_messages"] = r.arn_messages;
  j["arn_bytes"] = r.arn_bytes;
  if (r.arn) {
    j["arn"] = {{"detections", r.arn->detections},
                {"suppressed", r.arn->suppressed},
                {"waited", r.arn->waited},
                {"rate_limited", r.arn->rate_limited}};
  }
  if (r.incast_flows > 0) {
    j["incast"] = {{"flows", r.incast_flows}, {"steered", r.incast_steered}};
  }
  j["packet_hops"] = r.packet_hops;
  j["injected"] = r.injected;
  j["delivered"] = r.delivered;
  j["in_flight"] = r.in_flight;
  put_time(j, "warm_up", r.warm_up);
  put_time(j, "simulated", r.simulated);
  put_time(j, "sample_interval", r.sample_interval);
  j["samples"] = r.samples.size();
  if (r.ibcs.enabled) {
    const auto& c = r.ibcs.switches;
    const SignalStats& d = r.ibcs.delivered;
    Json ibcs;
    ibcs["signal"] = ibcs_signal_name(r.ibcs.signal);
    ibcs["rewritten"] = c.rewritten;
    ibcs["unchanged"] = c.unchanged;
    ibcs["fail_open"] = c.fail_open;
    ibcs["scrubbed"] = c.scrubbed;
    ibcs["delivered"] = d.delivered;
    if (d.delivered > 0) {
      ibcs["mean_delivered"] =
          static_cast<double>(d.sum) / static_cast<double>(d.delivered);
    } else {
      ibcs["mean_delivered"] = nullptr;
    }
    ibcs["histogram"] = d.histogram;
    j["ibcs"] = std::move(ibcs);
  }
  return j;
}

}  // namespace

std::string results_json(const Scenario& scenario,
                         const std::vector<ModeResult>& results,
                         const std::vector<ModeNotRun>& not_run) {
  Json j;
  j["format"] = "arfabric-sim-results";
  j["version"] = kResultsFormatVersion;
  j["scenario"] = scenario_json(scenario);
  Json modes = Json::array();
  for (const ModeResult& r : results) modes.push_back(mode_json(scenario, r));
  j["modes"] = std::move(modes);
  Json skipped = Json::array();
  for (const ModeNotRun& n : not_run) {
    skipped.push_back({{"mode", mode_name(n.mode)}, {"reason", n.reason}});
  }
  j["not_run"] = std::move(skipped);
  // replace: a scenario name that is not UTF-8 must not abort the run.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace arfabric::sim::output
