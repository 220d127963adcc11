// libFuzzer target: a simulation scenario's YAML text
// (sim/scenario/scenario.h), parsed and validated, nothing simulated.
//
// An error must carry a message and a key (only YAML syntax errors, whose
// message starts with "YAML:", may have none); when it is about the input
// its file is the input's name and its line lies within the input. A
// flow_size_cdf error names the CDF's own file and line instead, with the
// workload's key and the reference's place in the message.
//
// A scenario that parses must keep the header's promises: modes not
// repeated, stop_at > 0; cables between two distinct existing nodes with a
// rate, unique node names, hosts attached only to edge switches, a
// connected fabric; workloads of at least 2 distinct hosts starting before
// stop_at (poisson: load in (0, 1], a valid CDF); events sorted by time,
// before stop_at, on the cable they name, degrades to a lower non-zero
// rate, incasts between hosts.
//
// Filesystem: a poisson workload's flow_size_cdf is a path that the parser
// opens read-only (absolute, or relative to the working directory and to
// data/workloads/ above it; the shipped CDFs are found when the target runs
// from the repository). The target itself writes nothing.
//
// Fabric size: counts such as `leaves: 999` legitimately ask for up to
// kMaxNodes nodes and kMaxLinks cables, whose construction takes seconds
// and gigabytes under ASan: a slow input, not a bug. Inputs whose
// topology counts bound the fabric above kMaxFabric (see fabric_bound())
// are skipped; explicit `edges` fabrics are bounded by the input's length.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sim/scenario/generators.h"
#include "sim/scenario/scenario.h"
#include "yaml_lines.h"

using namespace arfabric;
using namespace arfabric::sim;

namespace {

constexpr std::string_view kFile = "fuzz.yaml";
constexpr double kMaxFabric = 1e6;

// An upper bound on a generated fabric's cables: the product of the
// integer counts directly under `topology`, times the largest of them (a
// dragonfly's local links grow with routers_per_group squared). 0 when
// the input is not a YAML map with a topology map: parse_scenario rejects
// it before building anything.
double fabric_bound(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap()) return 0;
    const YAML::Node topology = root["topology"];
    if (!topology.IsMap()) return 0;
    double product = 1, largest = 1;
    for (const auto& kv : topology) {
      if (!kv.second.IsScalar()) continue;
      const std::string& s = kv.second.Scalar();
      std::uint64_t v = 0;
      const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
      if (r.ec != std::errc{} || r.ptr != s.data() + s.size() || v == 0)
        continue;
      product *= static_cast<double>(v);
      largest = std::max(largest, static_cast<double>(v));
    }
    return product * largest;
  } catch (const YAML::Exception&) {
    return 0;
  }
}

void check_error(const ScenarioError& e, std::string_view text) {
  if (e.message.empty()) __builtin_trap();
  if (e.file != kFile) {
    // A flow_size_cdf that did not parse: the CDF's file and line.
    if (!e.key.ends_with("flow_size_cdf")) __builtin_trap();
    if (e.message.find("(flow_size_cdf at fuzz.yaml:") == std::string::npos)
      __builtin_trap();
    return;
  }
  // Errors about the file as a whole have no key: YAML's own, a byte that
  // is not UTF-8, a character YAML does not allow raw, a second document.
  if (e.key.empty() && !e.message.starts_with("YAML:") &&
      !(e.message.starts_with("byte 0x") &&
        e.message.find("is not UTF-8") != std::string::npos) &&
      !e.message.starts_with("UTF-16 text") &&
      !(e.message.find(" is not allowed in YAML text") != std::string::npos &&
        (e.message.starts_with("control character U+") ||
         e.message.starts_with("non-character U+"))) &&
      !e.message.starts_with("a second YAML document")) {
    __builtin_trap();
  }
  if (e.line < 0 || e.line > yaml_line_count(text)) __builtin_trap();
  if (e.column < 0 || (e.line == 0 && e.column != 0)) __builtin_trap();
}

bool is_host(const Topology& t, NodeIndex n) {
  return n < t.nodes.size() && t.nodes[n].role == NodeRole::host;
}

void check_hosts(const Topology& t, const std::vector<NodeIndex>& hosts) {
  std::unordered_set<NodeIndex> seen;
  for (NodeIndex h : hosts)
    if (!is_host(t, h) || !seen.insert(h).second) __builtin_trap();
}

void check_cdf(const FlowSizeCdf& cdf) {
  const auto& p = cdf.points;
  if (p.size() < 2 || p.back().cumulative != 1.0) __builtin_trap();
  for (std::size_t i = 1; i < p.size(); ++i)
    if (p[i].bytes < p[i - 1].bytes || p[i].cumulative < p[i - 1].cumulative)
      __builtin_trap();
}

void check_scenario(const Scenario& s, std::string_view text) {
  if (s.file != kFile || s.stop_at <= Time{}) __builtin_trap();
  if (s.modes.empty()) __builtin_trap();
  for (std::size_t i = 0; i < s.modes.size(); ++i)
    if (std::find(s.modes.begin(), s.modes.begin() + i, s.modes[i]) !=
        s.modes.begin() + i)
      __builtin_trap();

  const Topology& t = s.topology;
  std::unordered_set<std::string> names;
  for (const NodeSpec& n : t.nodes)
    if (n.name.empty() || !names.insert(n.name).second) __builtin_trap();
  std::vector<std::uint32_t> host_links(t.nodes.size(), 0);
  for (const LinkSpec& l : t.links) {
    if (l.a >= t.nodes.size() || l.b >= t.nodes.size() || l.a == l.b)
      __builtin_trap();
    if (l.rate == 0) __builtin_trap();
    if (!(l.drop_probability >= 0 && l.drop_probability < 1)) __builtin_trap();
    for (auto [h, sw] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      if (t.nodes[h].role != NodeRole::host) continue;
      if (!is_edge_switch(t.nodes[sw].role)) __builtin_trap();
      ++host_links[h];
    }
  }
  for (NodeIndex i = 0; i < t.nodes.size(); ++i)
    if (t.nodes[i].role == NodeRole::host && host_links[i] == 0)
      __builtin_trap();
  if (!t.connected()) __builtin_trap();
  if (std::any_of(s.modes.begin(), s.modes.end(), uses_lsn) &&
      t.count(NodeRole::leaf) + t.count(NodeRole::dragonfly_router) >
          kMaxLsnNodes)
    __builtin_trap();
  if (s.hosts.mss_bytes + s.hosts.header_bytes >
      s.switches.buffer_bytes_per_port)
    __builtin_trap();

  for (const WorkloadSpec& w : s.workloads) {
    if (w.participants.size() < 2) __builtin_trap();
    check_hosts(t, w.participants);
    if (w.start >= s.stop_at) __builtin_trap();
    if (w.kind == WorkloadKind::poisson) {
      if (!(w.load > 0 && w.load <= 1) || w.duration <= Time{})
        __builtin_trap();
      check_cdf(w.flow_size_cdf);
    } else if (w.bytes == 0) {
      __builtin_trap();
    }
  }

  const int lines = yaml_line_count(text);
  for (std::size_t i = 0; i < s.events.size(); ++i) {
    const EventSpec& e = s.events[i];
    if (i > 0 && e.at < s.events[i - 1].at) __builtin_trap();
    if (e.at >= s.stop_at) __builtin_trap();
    if (e.line < 1 || e.line > lines) __builtin_trap();
    if (e.link >= t.links.size()) __builtin_trap();
    const LinkSpec& l = t.links[e.link];
    if (!((l.a == e.a && l.b == e.b) || (l.a == e.b && l.b == e.a)))
      __builtin_trap();
    if (e.kind == EventKind::degrade &&
        (e.new_rate == 0 || e.new_rate >= l.rate))
      __builtin_trap();
    if (e.kind == EventKind::incast) {
      if (e.senders.empty() || e.bytes == 0) __builtin_trap();
      if (!is_host(t, e.receiver)) __builtin_trap();
      check_hosts(t, e.senders);
      if (std::find(e.senders.begin(), e.senders.end(), e.receiver) !=
          e.senders.end())
        __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (fabric_bound(text) > kMaxFabric) return 0;
  auto s = parse_scenario(text, kFile);
  if (!s) {
    check_error(s.error(), text);
    return 0;
  }
  check_scenario(*s, text);
  return 0;
}
