// YAML -> Scenario. Sections are read in a fixed order (modes before the
// topology, so the LSN node limit can be checked; the topology before
// workloads and events, which name its nodes). Every check that can fail
// does so with the file, line, column and key of the offending node.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "common/error.h"
#include "common/hex.h"
#include "common/quantity.h"
#include "common/strformat.h"
#include "common/text_file.h"
#include "common/utf8.h"
#include "common/yaml_documents.h"
#include "sim/scenario/generators.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"
#include "wire/bgp/open.h"

namespace arfabric::sim {
namespace {

using yaml_reader::as_rate;
using yaml_reader::as_size;
using yaml_reader::as_string;
using yaml_reader::as_time;
using yaml_reader::as_uint;
using yaml_reader::error_at;
using yaml_reader::Map;
using yaml_reader::Result;

constexpr std::uint32_t kMaxCount = 1'000'000;

std::string indexed(const std::string& key, std::size_t i) {
  return strformat("{}[{}]", key, i);
}

// ---------------------------------------------------------------- topology

// Per-class link defaults: short copper to hosts, longer fibre in the
// fabric, long fibre between dragonfly groups.
LinkClass host_link_default() { return {gbps(400), ns(100), 0}; }
LinkClass fabric_link_default() { return {gbps(400), ns(500), 0}; }
LinkClass global_link_default() { return {gbps(400), us(1), 0}; }

Result<LinkClass> read_link_class(const Map& parent, std::string_view key,
                                  LinkClass defaults) {
  const auto node = parent.get(key);
  if (!node) return defaults;
  const Map m = ARF_TRY(Map::open(parent.file(), *node, parent.key_path(key),
                                  {"rate", "delay", "drop_probability"}));
  ARF_TRY(m.read_rate("rate", defaults.rate));
  ARF_TRY(m.read_time("delay", defaults.delay));
  ARF_TRY(m.read_fraction("drop_probability", defaults.drop_probability));
  if (defaults.drop_probability >= 1)
    return std::unexpected(m.error("drop_probability", "must be below 1"));
  return defaults;
}

// Locates a generator's ParamError ("leaf_spine_link.rate") in the map.
ScenarioError param_error(const Map& m, const ParamError& e) {
  if (e.key.empty()) return error_at(m.file(), m.node(), m.path(), e.message);
  const std::string head = e.key.substr(0, e.key.find('.'));
  if (const auto v = m.get(head))
    return error_at(m.file(), *v, m.key_path(e.key), e.message);
  return m.error(e.key, e.message);
}

Result<Topology> read_clos3(const Map& m) {
  Clos3Params p;
  ARF_TRY(m.require_uint("spines", p.spines, 1, kMaxCount));
  ARF_TRY(m.require_uint("leaves", p.leaves, 1, kMaxCount));
  ARF_TRY(m.require_uint("hosts_per_leaf", p.hosts_per_leaf, 1, kMaxCount));
  p.host_link = ARF_TRY(read_link_class(m, "host_link", host_link_default()));
  p.leaf_spine_link =
      ARF_TRY(read_link_class(m, "leaf_spine_link", fabric_link_default()));
  if (const auto e = check(p)) return std::unexpected(param_error(m, *e));
  return make_clos3(p);
}

Result<Topology> read_clos5(const Map& m) {
  Clos5Params p;
  ARF_TRY(m.require_uint("pods", p.pods, 1, kMaxCount));
  ARF_TRY(m.require_uint("leaves_per_pod", p.leaves_per_pod, 1, kMaxCount));
  ARF_TRY(m.require_uint("spines_per_pod", p.spines_per_pod, 1, kMaxCount));
  ARF_TRY(m.require_uint("super_spines_per_plane", p.super_spines_per_plane, 1,
                         kMaxCount));
  ARF_TRY(m.require_uint("hosts_per_leaf", p.hosts_per_leaf, 1, kMaxCount));
  p.host_link = ARF_TRY(read_link_class(m, "host_link", host_link_default()));
  p.leaf_spine_link =
      ARF_TRY(read_link_class(m, "leaf_spine_link", fabric_link_default()));
  p.spine_super_spine_link = ARF_TRY(
      read_link_class(m, "spine_super_spine_link", fabric_link_default()));
  if (const auto e = check(p)) return std::unexpected(param_error(m, *e));
  return make_clos5(p);
}

Result<Topology> read_rail(const Map& m) {
  RailParams p;
  ARF_TRY(m.require_uint("servers", p.servers, 1, kMaxCount));
  ARF_TRY(m.read_uint("gpus_per_server", p.gpus_per_server, 1, 1024));
  ARF_TRY(m.require_uint("spines", p.spines, 1, kMaxCount));
  p.host_link = ARF_TRY(read_link_class(m, "host_link", host_link_default()));
  p.leaf_spine_link =
      ARF_TRY(read_link_class(m, "leaf_spine_link", fabric_link_default()));
  if (const auto e = check(p)) return std::unexpected(param_error(m, *e));
  return make_rail(p);
}

Result<Topology> read_dragonfly(const Map& m) {
  DragonflyParams p;
  ARF_TRY(m.require_uint("groups", p.groups, 2, kMaxCount));
  ARF_TRY(
      m.require_uint("routers_per_group", p.routers_per_group, 1, kMaxCount));
  ARF_TRY(m.require_uint("hosts_per_router", p.hosts_per_router, 1, kMaxCount));
  ARF_TRY(m.require_uint("global_links_per_router", p.global_links_per_router,
                         1, kMaxCount));
  p.host_link = ARF_TRY(read_link_class(m, "host_link", host_link_default()));
  p.local_link =
      ARF_TRY(read_link_class(m, "local_link", fabric_link_default()));
  p.global_link =
      ARF_TRY(read_link_class(m, "global_link", global_link_default()));
  if (const auto e = check(p)) return std::unexpected(param_error(m, *e));
  return make_dragonfly(p);
}

// A dotted quad "10.0.0.1" or an integer.
Result<std::uint32_t> read_router_id(std::string_view file, const YAML::Node& n,
                                     const std::string& key) {
  const std::string s = ARF_TRY(as_string(file, n, key));
  unsigned a = 0, b = 0, c = 0, d = 0;
  char tail = 0;
  if (std::sscanf(s.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) == 4 &&
      a < 256 && b < 256 && c < 256 && d < 256) {
    const std::uint32_t id = (a << 24) | (b << 16) | (c << 8) | d;
    if (id != 0) return id;
  }
  const auto v = as_uint(file, n, key, 1, 0xffffffff);
  if (v) return static_cast<std::uint32_t>(*v);
  return std::unexpected(
      error_at(file, n, key,
               strformat("router_id '{}': expected a non-zero dotted quad "
                         "(e.g. 10.0.0.1) or integer",
                         s)));
}

bool valid_name(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
           c == '_' || c == '-' || c == '/' || c == ':';
  });
}

// A link's two end names, written [a, b] or {a: x, b: y, ...}.
struct LinkEnds {
  std::string a, b;
  YAML::Node node;  // where to point errors
};

Result<LinkEnds> read_pair(std::string_view file, const YAML::Node& n,
                           const std::string& key) {
  if (!n.IsSequence() || n.size() != 2)
    return std::unexpected(error_at(
        file, n, key, "expected two node names, e.g. [spine0, leaf3]"));
  return LinkEnds{ARF_TRY(as_string(file, n[0], key)),
                  ARF_TRY(as_string(file, n[1], key)), n};
}

Result<Topology> read_edges(const Map& m) {
  Topology t;
  t.kind = "edges";
  bool allow_multihoming = false;
  ARF_TRY(m.read_bool("allow_multihoming", allow_multihoming));
  const LinkClass defaults =
      ARF_TRY(read_link_class(m, "default_link", fabric_link_default()));
  const std::string file(m.file());

  const YAML::Node nodes = ARF_TRY(m.require("nodes"));
  if (!nodes.IsSequence() || nodes.size() == 0)
    return std::unexpected(error_at(file, nodes, m.key_path("nodes"),
                                    "expected a non-empty list of nodes"));
  std::unordered_map<std::string, NodeIndex> by_name;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string key = indexed(m.key_path("nodes"), i);
    const Map n = ARF_TRY(Map::open(
        file, nodes[i], key,
        {"name", "role", "asn", "router_id", "pod", "plane", "group"}));
    NodeSpec spec;
    spec.name = ARF_TRY(
        as_string(file, ARF_TRY(n.require("name")), n.key_path("name")));
    if (!valid_name(spec.name))
      return std::unexpected(n.error(
          "name", strformat("node name '{}': use letters, digits and . _ "
                            "- / : only",
                            spec.name)));
    const std::string role = ARF_TRY(
        as_string(file, ARF_TRY(n.require("role")), n.key_path("role")));
    const auto parsed = parse_role(role);
    if (!parsed)
      return std::unexpected(
          n.error("role", strformat("unknown role '{}' (host, leaf, spine, "
                                    "super_spine, dragonfly_router)",
                                    role)));
    spec.role = *parsed;
    if (const auto v = n.get("asn")) {
      if (spec.role == NodeRole::host)
        return std::unexpected(n.error("asn", "hosts do not run BGP"));
      spec.asn = static_cast<std::uint32_t>(
          ARF_TRY(as_uint(file, *v, n.key_path("asn"), 1, 4294967294)));
      // RFC 6793 §2: AS_TRANS stands in for a 4-octet AS; no one has it.
      if (spec.asn == wire::bgp::kAsTrans)
        return std::unexpected(n.error(
            "asn", "23456 is AS_TRANS (RFC 6793), which no router may have"));
    }
    if (const auto v = n.get("router_id")) {
      if (spec.role == NodeRole::host)
        return std::unexpected(n.error("router_id", "hosts do not run BGP"));
      spec.router_id =
          ARF_TRY(read_router_id(file, *v, n.key_path("router_id")));
    }
    ARF_TRY(n.read_uint("pod", spec.pod, 0, kLeafAsnBase - kSpineAsnBase - 1));
    ARF_TRY(n.read_uint("plane", spec.plane, 0, kMaxCount));
    ARF_TRY(n.read_uint("group", spec.group, 0, kMaxCount));
    if (!by_name.emplace(spec.name, static_cast<NodeIndex>(i)).second)
      return std::unexpected(
          n.error("name", strformat("duplicate node name '{}'", spec.name)));
    t.nodes.push_back(std::move(spec));
  }

  const YAML::Node links = ARF_TRY(m.require("links"));
  if (!links.IsSequence())
    return std::unexpected(
        error_at(file, links, m.key_path("links"), "expected a list of links"));
  std::unordered_set<std::uint64_t> seen;
  std::vector<std::uint32_t> switches_of_host(t.nodes.size(), 0);
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string key = indexed(m.key_path("links"), i);
    LinkEnds ends;
    LinkClass c = defaults;
    if (links[i].IsMap()) {
      const Map l =
          ARF_TRY(Map::open(file, links[i], key,
                            {"a", "b", "rate", "delay", "drop_probability"}));
      ends.a =
          ARF_TRY(as_string(file, ARF_TRY(l.require("a")), l.key_path("a")));
      ends.b =
          ARF_TRY(as_string(file, ARF_TRY(l.require("b")), l.key_path("b")));
      ends.node = links[i];
      ARF_TRY(l.read_rate("rate", c.rate));
      ARF_TRY(l.read_time("delay", c.delay));
      ARF_TRY(l.read_fraction("drop_probability", c.drop_probability));
      if (c.drop_probability >= 1)
        return std::unexpected(l.error("drop_probability", "must be below 1"));
    } else {
      ends = ARF_TRY(read_pair(file, links[i], key));
    }
    NodeIndex ab[2];
    const std::string* names[2] = {&ends.a, &ends.b};
    for (int e = 0; e < 2; ++e) {
      const auto it = by_name.find(*names[e]);
      if (it == by_name.end())
        return std::unexpected(
            error_at(file, ends.node, key,
                     strformat("link to unknown node '{}'", *names[e])));
      ab[e] = it->second;
    }
    if (ab[0] == ab[1])
      return std::unexpected(error_at(
          file, ends.node, key, strformat("link from '{}' to itself", ends.a)));
    const std::uint64_t pair_key =
        (std::uint64_t{std::min(ab[0], ab[1])} << 32) | std::max(ab[0], ab[1]);
    if (!seen.insert(pair_key).second)
      return std::unexpected(
          error_at(file, ends.node, key,
                   strformat("duplicate link between '{}' and '{}' (parallel "
                             "cables are not supported: events name a link by "
                             "its ends)",
                             ends.a, ends.b)));
    const bool host_a = t.nodes[ab[0]].role == NodeRole::host;
    const bool host_b = t.nodes[ab[1]].role == NodeRole::host;
    if (host_a && host_b)
      return std::unexpected(error_at(
          file, ends.node, key,
          strformat("link between two hosts '{}' and '{}'", ends.a, ends.b)));
    if (host_a || host_b) {
      const NodeIndex h = host_a ? ab[0] : ab[1];
      const NodeIndex s = host_a ? ab[1] : ab[0];
      if (!is_edge_switch(t.nodes[s].role))
        return std::unexpected(
            error_at(file, ends.node, key,
                     strformat("host '{}' attached to {} '{}': hosts attach to "
                               "leaves or dragonfly routers",
                               t.nodes[h].name, role_name(t.nodes[s].role),
                               t.nodes[s].name)));
      if (++switches_of_host[h] > 1 && !allow_multihoming)
        return std::unexpected(
            error_at(file, ends.node, key,
                     strformat("host '{}' is attached to a second switch; set "
                               "allow_multihoming: true if intended",
                               t.nodes[h].name)));
    }
    if (c.rate == 0)
      return std::unexpected(
          error_at(file, ends.node, key, "rate must be > 0"));
    t.links.push_back(
        LinkSpec{ab[0], ab[1], c.rate, c.delay, c.drop_probability});
  }
  for (NodeIndex i = 0; i < t.nodes.size(); ++i)
    if (t.nodes[i].role == NodeRole::host && switches_of_host[i] == 0)
      return std::unexpected(
          error_at(file, nodes[i], indexed(m.key_path("nodes"), i),
                   strformat("host '{}' has no link", t.nodes[i].name)));
  if (!t.connected()) {
    const auto ports = t.ports();
    std::vector<bool> seen_node(t.nodes.size(), false);
    std::vector<NodeIndex> stack{0};
    seen_node[0] = true;
    while (!stack.empty()) {
      const NodeIndex n = stack.back();
      stack.pop_back();
      for (std::uint32_t l : ports[n])
        if (!seen_node[t.peer(l, n)]) {
          seen_node[t.peer(l, n)] = true;
          stack.push_back(t.peer(l, n));
        }
    }
    const auto lost = static_cast<std::size_t>(
        std::find(seen_node.begin(), seen_node.end(), false) -
        seen_node.begin());
    return std::unexpected(error_at(
        file, nodes[lost], indexed(m.key_path("nodes"), lost),
        strformat("the topology is not connected: '{}' cannot reach '{}'",
                  t.nodes[lost].name, t.nodes[0].name)));
  }
  assign_identifiers(t);
  // ASNs as BGP needs them (RFC 7938 §5.2): neighbouring switches differ
  // (no iBGP), and each leaf or dragonfly router has its own, or eBGP's
  // loop prevention drops the routes of a switch that shares it.
  const auto asn_error = [&](NodeIndex n, std::string message) {
    const YAML::Node at = nodes[n]["asn"] ? nodes[n]["asn"] : nodes[n];
    const std::string key = indexed(m.key_path("nodes"), n);
    return std::unexpected(error_at(
        file, at, nodes[n]["asn"] ? key + ".asn" : key, std::move(message)));
  };
  // Edge switches first, so that a spine in a leaf's AS names the leaf.
  std::unordered_map<std::uint32_t, NodeIndex> edge_asn;
  for (const bool edge : {true, false}) {
    for (NodeIndex i = 0; i < t.nodes.size(); ++i) {
      const NodeSpec& n = t.nodes[i];
      if (n.role == NodeRole::host || is_edge_switch(n.role) != edge) continue;
      const auto it = edge_asn.find(n.asn);
      if (it != edge_asn.end())
        return asn_error(
            i, strformat("AS {} of '{}' is also '{}''s: each leaf and "
                         "dragonfly router needs an AS of its own (RFC 7938)",
                         n.asn, n.name, t.nodes[it->second].name));
      if (edge) edge_asn.emplace(n.asn, i);
    }
  }
  for (const LinkSpec& l : t.links) {
    const NodeSpec& a = t.nodes[l.a];
    const NodeSpec& b = t.nodes[l.b];
    if (a.role == NodeRole::host || b.role == NodeRole::host) continue;
    if (a.asn == b.asn)
      return asn_error(
          nodes[l.b]["asn"] ? l.b : l.a,
          strformat("'{}' and '{}' are neighbours in the same AS {}: their "
                    "session would be iBGP, which is not modelled",
                    a.name, b.name, a.asn));
  }
  return t;
}

Result<Topology> read_topology(const Map& top) {
  const YAML::Node node = ARF_TRY(top.require("topology"));
  const std::string file(top.file());
  if (!node.IsMap())
    return std::unexpected(
        error_at(file, node, "topology", "expected a map with a 'kind' key"));
  const YAML::Node kind_node = node["kind"];
  if (!kind_node)
    return std::unexpected(error_at(file, node, "topology.kind",
                                    "missing required key (clos3, clos5, "
                                    "rail, dragonfly or edges)"));
  const std::string kind = ARF_TRY(as_string(file, kind_node, "topology.kind"));
  if (kind == "clos3") {
    const Map m =
        ARF_TRY(Map::open(file, node, "topology",
                          {"kind", "spines", "leaves", "hosts_per_leaf",
                           "host_link", "leaf_spine_link"}));
    return read_clos3(m);
  }
  if (kind == "clos5") {
    const Map m = ARF_TRY(
        Map::open(file, node, "topology",
                  {"kind", "pods", "leaves_per_pod", "spines_per_pod",
                   "super_spines_per_plane", "hosts_per_leaf", "host_link",
                   "leaf_spine_link", "spine_super_spine_link"}));
    return read_clos5(m);
  }
  if (kind == "rail") {
    const Map m =
        ARF_TRY(Map::open(file, node, "topology",
                          {"kind", "servers", "gpus_per_server", "spines",
                           "host_link", "leaf_spine_link"}));
    return read_rail(m);
  }
  if (kind == "dragonfly") {
    const Map m = ARF_TRY(Map::open(
        file, node, "topology",
        {"kind", "groups", "routers_per_group", "hosts_per_router",
         "global_links_per_router", "host_link", "local_link", "global_link"}));
    return read_dragonfly(m);
  }
  if (kind == "edges") {
    const Map m = ARF_TRY(Map::open(
        file, node, "topology",
        {"kind", "allow_multihoming", "default_link", "nodes", "links"}));
    return read_edges(m);
  }
  std::string message = strformat(
      "unknown topology kind '{}' (clos3, clos5, rail, dragonfly, edges)",
      kind);
  return std::unexpected(
      error_at(file, kind_node, "topology.kind", std::move(message)));
}

// ---------------------------------------------------------------- params

// A key whose value is one of a fixed set of names; `out` keeps its default
// when the key is absent. Error: "unknown <what> '<value>' (<the names>)".
template <typename E, std::size_t N>
Result<void> read_choice(
    const Map& m, std::string_view key, std::string_view what,
    const std::array<std::pair<std::string_view, E>, N>& choices, E& out) {
  const auto v = m.get(key);
  if (!v) return {};
  const std::string s = ARF_TRY(as_string(m.file(), *v, m.key_path(key)));
  std::string names;
  for (const auto& [name, value] : choices) {
    if (name == s) {
      out = value;
      return {};
    }
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return std::unexpected(
      m.error(key, strformat("unknown {} '{}' ({})", what, s, names)));
}

// switches.ibcs: {signal, sample_interval, estimator, ewma_weight, window,
// max_age, bandwidth_step, delay_step, scrub_host_ingress}.
Result<IbcsParams> read_ibcs(std::string_view file, const YAML::Node& node) {
  IbcsParams p;
  const Map m = ARF_TRY(Map::open(
      file, node, "switches.ibcs",
      {"signal", "sample_interval", "estimator", "ewma_weight", "window",
       "max_age", "bandwidth_step", "delay_step", "scrub_host_ingress"}));
  ARF_TRY(read_choice(m, "signal", "CSIG signal",
                      std::array<std::pair<std::string_view, IbcsSignal>, 4>{
                          {{"abw", IbcsSignal::abw},
                           {"abw_c", IbcsSignal::abw_c},
                           {"delay", IbcsSignal::delay},
                           {"nqd", IbcsSignal::nqd}}},
                      p.signal));
  ARF_TRY(read_choice(m, "estimator", "estimator",
                      std::array<std::pair<std::string_view, IbcsEstimator>, 4>{
                          {{"ewma", IbcsEstimator::ewma},
                           {"window_mean", IbcsEstimator::window_mean},
                           {"window_min", IbcsEstimator::window_min},
                           {"window_max", IbcsEstimator::window_max}}},
                      p.estimator));
  ARF_TRY(m.read_time("sample_interval", p.sample_interval));
  ARF_TRY(m.read_fraction("ewma_weight", p.ewma_weight));
  ARF_TRY(m.read_time("window", p.window));
  ARF_TRY(m.read_time("max_age", p.max_age));
  ARF_TRY(m.read_rate("bandwidth_step", p.bandwidth_step));
  ARF_TRY(m.read_time("delay_step", p.delay_step));
  ARF_TRY(m.read_bool("scrub_host_ingress", p.scrub_host_ingress));
  if (p.ewma_weight <= 0)
    return std::unexpected(m.error("ewma_weight", "must be within (0, 1]"));
  // A setting the chosen estimator or signal never reads is a mistake
  // about which one runs, not a harmless extra.
  const bool ewma = p.estimator == IbcsEstimator::ewma;
  if (ewma && m.has("window"))
    return std::unexpected(m.error(
        "window", "only the window estimators read it (estimator: ewma)"));
  if (!ewma && m.has("ewma_weight"))
    return std::unexpected(
        m.error("ewma_weight", "only estimator: ewma reads it"));
  if (p.signal != IbcsSignal::abw && m.has("bandwidth_step"))
    return std::unexpected(
        m.error("bandwidth_step", "only signal: abw reads it"));
  if (p.signal != IbcsSignal::delay && m.has("delay_step"))
    return std::unexpected(
        m.error("delay_step", "only signal: delay reads it"));
  for (const auto& [key, t] :
       {std::pair{"sample_interval", p.sample_interval},
        std::pair{"window", p.window}, std::pair{"max_age", p.max_age},
        std::pair{"delay_step", p.delay_step}}) {
    if (t <= Time{}) return std::unexpected(m.error(key, "must be > 0"));
  }
  if (p.max_age < p.sample_interval)
    return std::unexpected(
        m.error("max_age",
                "must be at least sample_interval (else every L_Metric "
                "is stale and the SUF always fails open)"));
  return p;
}

Result<SwitchParams> read_switches(const Map& top) {
  SwitchParams p;
  const auto node = top.get("switches");
  if (!node) return p;
  const Map m = ARF_TRY(
      Map::open(top.file(), *node, "switches",
                {"buffer_per_port", "ecn_threshold", "path_selection",
                 "flowlet_gap", "failure_detection", "hw_notification_delay",
                 "routing", "bgp", "lsn", "arn", "ibcs"}));
  ARF_TRY(m.read_size("buffer_per_port", p.buffer_bytes_per_port));
  ARF_TRY(m.read_size("ecn_threshold", p.ecn_threshold_bytes));
  if (p.buffer_bytes_per_port == 0)
    return std::unexpected(m.error("buffer_per_port", "must be > 0"));
  default_queue_thresholds(p);
  if (p.ecn_threshold_bytes > p.buffer_bytes_per_port) {
    if (!m.has("ecn_threshold")) {
      return std::unexpected(
          m.error("buffer_per_port",
                  strformat("{} is below ecn_threshold's default of {}: set an "
                            "ecn_threshold no larger than the buffer",
                            format_size(p.buffer_bytes_per_port),
                            format_size(p.ecn_threshold_bytes))));
    }
    return std::unexpected(m.error(
        "ecn_threshold", strformat("{} must not exceed buffer_per_port ({})",
                                   format_size(p.ecn_threshold_bytes),
                                   format_size(p.buffer_bytes_per_port))));
  }
  ARF_TRY(read_choice(m, "path_selection", "path selection",
                      std::array<std::pair<std::string_view, PathSelection>, 3>{
                          {{"per_flow", PathSelection::per_flow},
                           {"per_packet", PathSelection::per_packet},
                           {"flowlet", PathSelection::flowlet}}},
                      p.path_selection));
  ARF_TRY(read_choice(
      m, "routing", "routing",
      std::array<std::pair<std::string_view, Routing>, 2>{
          {{"bgp", Routing::bgp}, {"static", Routing::static_ecmp}}},
      p.routing));
  ARF_TRY(m.read_time("flowlet_gap", p.flowlet_gap));
  if (p.flowlet_gap == Time{})
    return std::unexpected(m.error("flowlet_gap", "must be > 0"));
  ARF_TRY(m.read_time("failure_detection", p.failure_detection_delay));
  ARF_TRY(m.read_time("hw_notification_delay", p.hw_notification_delay));
  if (const auto v = m.get("bgp")) {
    const Map b =
        ARF_TRY(Map::open(m.file(), *v, "switches.bgp",
                          {"update_processing", "mrai", "fib_programming"}));
    ARF_TRY(b.read_time("update_processing", p.bgp_update_processing));
    ARF_TRY(b.read_time("mrai", p.bgp_mrai));
    ARF_TRY(b.read_time("fib_programming", p.fib_programming_delay));
  }
  if (const auto v = m.get("lsn")) {
    const Map l = ARF_TRY(Map::open(
        m.file(), *v, "switches.lsn",
        {"period", "congestion_sample", "congestion_rise", "congestion_fall"}));
    ARF_TRY(l.read_time("period", p.lsn_period));
    ARF_TRY(l.read_time("congestion_sample", p.lsn_congestion_sample));
    if (p.lsn_period == Time{})
      return std::unexpected(l.error("period", "must be > 0"));
    // Each sample is an event at every originating switch: a finer one
    // sees no queue change a packet could make (a 64-byte packet takes
    // 1.3 ns at 400G) and only slows the run down, without end at 1ps.
    if (p.lsn_congestion_sample != Time{} && p.lsn_congestion_sample < ns(1))
      return std::unexpected(
          l.error("congestion_sample", "must be at least 1ns (or 0s: never)"));
    for (const auto& [key, out] :
         {std::pair{std::string_view("congestion_rise"),
                    &p.lsn_congestion_rise},
          std::pair{std::string_view("congestion_fall"),
                    &p.lsn_congestion_fall}}) {
      const auto list = l.get(key);
      if (!list) continue;
      if (!list->IsSequence() || list->size() != 3)
        return std::unexpected(
            l.error(key, "expected a list of 3 sizes (levels 1, 2, 3)"));
      for (std::size_t i = 0; i < 3; ++i)
        (*out)[i] =
            ARF_TRY(as_size(m.file(), (*list)[i], indexed(l.key_path(key), i)));
    }
    if (l.has("congestion_rise") && !l.has("congestion_fall")) {
      for (std::size_t i = 0; i < 3; ++i)
        p.lsn_congestion_fall[i] =
            default_congestion_fall(p.lsn_congestion_rise[i]);
    }
    for (std::size_t i = 0; i < 3; ++i) {
      if (p.lsn_congestion_rise[i] == 0 ||
          (i > 0 && p.lsn_congestion_rise[i] <= p.lsn_congestion_rise[i - 1]))
        return std::unexpected(l.error(
            "congestion_rise", "must be non-zero and strictly increasing"));
      if (p.lsn_congestion_fall[i] == 0 ||
          p.lsn_congestion_fall[i] > p.lsn_congestion_rise[i])
        return std::unexpected(
            l.error("congestion_fall",
                    strformat("level {}: must be non-zero and at most the rise "
                              "threshold",
                              i + 1)));
      // The LSN engine's rule (lsn_config.h): a higher level never clears
      // at a deeper queue than a lower one.
      if (i > 0 && p.lsn_congestion_fall[i] < p.lsn_congestion_fall[i - 1])
        return std::unexpected(l.error(
            "congestion_fall",
            strformat("level {}'s fall is below level {}'s: falls must not "
                      "decrease",
                      i + 1, i)));
    }
  }
  if (const auto v = m.get("arn")) {
    const Map a =
        ARF_TRY(Map::open(m.file(), *v, "switches.arn",
                          {"queue_high", "queue_low", "util_high", "util_low",
                           "repeat_interval", "hold_time", "link_share"}));
    ARF_TRY(a.read_size("queue_high", p.arn_queue_high_bytes));
    if (a.has("queue_high"))
      p.arn_queue_low_bytes = default_arn_queue_low(p.arn_queue_high_bytes);
    ARF_TRY(a.read_size("queue_low", p.arn_queue_low_bytes));
    ARF_TRY(a.read_fraction("util_high", p.arn_util_high));
    ARF_TRY(a.read_fraction("util_low", p.arn_util_low));
    ARF_TRY(a.read_time("repeat_interval", p.arn_repeat_interval));
    ARF_TRY(a.read_time("hold_time", p.arn_hold_time));
    ARF_TRY(a.read_fraction("link_share", p.arn_link_share));
    if (p.arn_queue_low_bytes >= p.arn_queue_high_bytes)
      return std::unexpected(a.error("queue_low", "must be below queue_high"));
    if (p.arn_util_low >= p.arn_util_high)
      return std::unexpected(a.error("util_low", "must be below util_high"));
    if (p.arn_repeat_interval == Time{})
      return std::unexpected(a.error("repeat_interval", "must be > 0"));
    if (p.arn_hold_time <= p.arn_repeat_interval)
      return std::unexpected(
          a.error("hold_time", "must exceed repeat_interval"));
    if (p.arn_link_share <= 0)
      return std::unexpected(a.error("link_share", "must be within (0, 1]"));
  }
  if (const auto v = m.get("ibcs")) {
    p.ibcs = ARF_TRY(read_ibcs(m.file(), *v));
  }
  return p;
}

// hosts.congestion_control and its ibcs_* keys; `switches` is read first
// (the ibcs controller needs switches.ibcs, whose signal sets the
// target's range and default).
Result<void> read_congestion_control(const Map& m, const SwitchParams& switches,
                                     HostParams& p) {
  ARF_TRY(read_choice(m, "congestion_control", "congestion control",
                      kHostCongestionControls, p.congestion_control));
  if (p.congestion_control != HostCongestionControl::ibcs) {
    for (const std::string_view key :
         {"ibcs_target", "ibcs_beta", "ibcs_max_decrease"}) {
      if (m.has(key))
        return std::unexpected(
            m.error(key, "only with congestion_control: ibcs"));
    }
    return {};
  }
  if (!switches.ibcs)
    return std::unexpected(
        m.error("congestion_control",
                "ibcs needs switches.ibcs (the signal it reacts to)"));
  const IbcsSignal signal = switches.ibcs->signal;
  const bool max_signal = ibcs_signal_is_max(signal);
  p.ibcs_target = ibcs_default_target(signal);
  ARF_TRY(m.read_uint("ibcs_target", p.ibcs_target, 0, 31));
  // A target at the end the signal cannot pass would never be congested.
  if (max_signal && p.ibcs_target == 31)
    return std::unexpected(m.error(
        "ibcs_target",
        strformat("31 is the top of the MAX signal {}: nothing is above it "
                  "(use 0..30)",
                  ibcs_signal_name(signal))));
  if (!max_signal && p.ibcs_target == 0)
    return std::unexpected(m.error(
        "ibcs_target",
        strformat("0 is the bottom of the MIN signal {}: nothing is below it "
                  "(use 1..31)",
                  ibcs_signal_name(signal))));
  ARF_TRY(m.read_fraction("ibcs_beta", p.ibcs_beta));
  if (p.ibcs_beta <= 0)
    return std::unexpected(m.error("ibcs_beta", "must be in (0, 1]"));
  ARF_TRY(m.read_fraction("ibcs_max_decrease", p.ibcs_max_decrease));
  if (p.ibcs_max_decrease <= 0 || p.ibcs_max_decrease >= 1)
    return std::unexpected(m.error("ibcs_max_decrease", "must be in (0, 1)"));
  return {};
}

Result<HostParams> read_hosts(const Map& top, const SwitchParams& switches) {
  HostParams p;
  const auto node = top.get("hosts");
  if (!node) return p;
  const Map m = ARF_TRY(
      Map::open(top.file(), *node, "hosts",
                {"mss", "header_bytes", "ack_bytes", "initial_window",
                 "min_rto", "dctcp_g", "dupack_threshold", "congestion_control",
                 "ibcs_target", "ibcs_beta", "ibcs_max_decrease"}));
  std::uint64_t v = p.mss_bytes;
  ARF_TRY(m.read_size("mss", v));
  if (v < 64 || v > 65'536)
    return std::unexpected(m.error("mss", "must be 64 B .. 64 KiB"));
  p.mss_bytes = static_cast<std::uint32_t>(v);
  v = p.header_bytes;
  ARF_TRY(m.read_size("header_bytes", v));
  if (v > 1024)
    return std::unexpected(m.error("header_bytes", "must be at most 1024"));
  p.header_bytes = static_cast<std::uint32_t>(v);
  v = p.ack_bytes;
  ARF_TRY(m.read_size("ack_bytes", v));
  if (v == 0 || v > 1024)
    return std::unexpected(m.error("ack_bytes", "must be 1 .. 1024"));
  p.ack_bytes = static_cast<std::uint32_t>(v);
  ARF_TRY(
      m.read_uint("initial_window", p.initial_window_packets, 1, 1'000'000));
  ARF_TRY(m.read_time("min_rto", p.min_rto));
  if (p.min_rto == Time{})
    return std::unexpected(m.error("min_rto", "must be > 0"));
  ARF_TRY(m.read_fraction("dctcp_g", p.dctcp_g));
  if (p.dctcp_g <= 0)
    return std::unexpected(m.error("dctcp_g", "must be in (0, 1]"));
  ARF_TRY(m.read_uint("dupack_threshold", p.dupack_threshold, 1, 1'000'000));
  ARF_TRY(read_congestion_control(m, switches, p));
  return p;
}

Result<std::vector<Mode>> read_modes(const Map& top) {
  const auto node = top.get("modes");
  if (!node) return std::vector<Mode>(kAllModes.begin(), kAllModes.end());
  if (!node->IsSequence() || node->size() == 0)
    return std::unexpected(
        error_at(top.file(), *node, "modes",
                 "expected a non-empty list, e.g. [ecmp, fare, fare+lsn]"));
  std::vector<Mode> modes;
  for (std::size_t i = 0; i < node->size(); ++i) {
    const std::string key = indexed("modes", i);
    const std::string s = ARF_TRY(as_string(top.file(), (*node)[i], key));
    const auto m = parse_mode(s);
    if (!m)
      return std::unexpected(error_at(
          top.file(), (*node)[i], key,
          strformat("unknown mode '{}' (ecmp, fare, fare+lsn, fare+arn, "
                    "fare+lsn+arn)",
                    s)));
    if (std::find(modes.begin(), modes.end(), *m) != modes.end())
      return std::unexpected(error_at(top.file(), (*node)[i], key,
                                      strformat("mode '{}' repeated", s)));
    modes.push_back(*m);
  }
  return modes;
}

// --------------------------------------------------------------- workloads

struct NameIndex {
  std::unordered_map<std::string, NodeIndex> map;
  explicit NameIndex(const Topology& t) {
    for (NodeIndex i = 0; i < t.nodes.size(); ++i)
      map.emplace(t.nodes[i].name, i);
  }
  std::optional<NodeIndex> find(const std::string& name) const {
    const auto it = map.find(name);
    if (it == map.end()) return std::nullopt;
    return it->second;
  }
};

// A host by name. Errors: unknown node, or a node that is not a host.
Result<NodeIndex> read_host(std::string_view file, const YAML::Node& n,
                            const std::string& key, const Topology& t,
                            const NameIndex& names) {
  const std::string name = ARF_TRY(as_string(file, n, key));
  const auto i = names.find(name);
  if (!i)
    return std::unexpected(
        error_at(file, n, key, strformat("unknown host '{}'", name)));
  if (t.nodes[*i].role != NodeRole::host)
    return std::unexpected(error_at(file, n, key,
                                    strformat("'{}' is a {}, not a host", name,
                                              role_name(t.nodes[*i].role))));
  return *i;
}

// "all" or a list of distinct host names.
Result<std::vector<NodeIndex>> read_host_list(std::string_view file,
                                              const YAML::Node& n,
                                              const std::string& key,
                                              const Topology& t,
                                              const NameIndex& names) {
  if (n.IsScalar() && n.Scalar() == "all") return t.hosts();
  if (!n.IsSequence())
    return std::unexpected(
        error_at(file, n, key, "expected 'all' or a list of host names"));
  std::vector<NodeIndex> out;
  std::unordered_set<NodeIndex> seen;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const NodeIndex h =
        ARF_TRY(read_host(file, n[i], indexed(key, i), t, names));
    if (!seen.insert(h).second)
      return std::unexpected(
          error_at(file, n[i], indexed(key, i),
                   strformat("host '{}' listed twice", t.nodes[h].name)));
    out.push_back(h);
  }
  return out;
}

// Ring order "across_leaves": the k-th host of every switch in turn, so
// that consecutive ring members sit under different switches and every
// ring hop crosses the fabric (the switches in order of first appearance).
std::vector<NodeIndex> interleave_by_switch(const Topology& t,
                                            const std::vector<NodeIndex>& in) {
  std::unordered_map<NodeIndex, NodeIndex> switch_of;
  for (const LinkSpec& l : t.links) {
    if (t.nodes[l.a].role == NodeRole::host) switch_of.emplace(l.a, l.b);
    if (t.nodes[l.b].role == NodeRole::host) switch_of.emplace(l.b, l.a);
  }
  std::vector<NodeIndex> switches;
  std::unordered_map<NodeIndex, std::vector<NodeIndex>> members;
  for (NodeIndex h : in) {
    const NodeIndex sw = switch_of.at(h);
    auto& list = members[sw];
    if (list.empty()) switches.push_back(sw);
    list.push_back(h);
  }
  std::vector<NodeIndex> out;
  for (std::size_t k = 0; out.size() < in.size(); ++k)
    for (NodeIndex sw : switches)
      if (k < members[sw].size()) out.push_back(members[sw][k]);
  return out;
}

// Candidates for a relative CDF path, in the order they are tried.
std::vector<std::filesystem::path> cdf_candidates(const std::string& value,
                                                  std::string_view file) {
  namespace fs = std::filesystem;
  const fs::path p(value);
  if (p.is_absolute()) return {p};
  std::vector<fs::path> out;
  const fs::path dir = fs::path(file).parent_path();
  out.push_back(dir / p);
  const auto walk_up = [&](fs::path from) {
    std::error_code ec;
    from = fs::weakly_canonical(from.empty() ? fs::path(".") : from, ec);
    if (ec) return;
    for (fs::path d = from;; d = d.parent_path()) {
      out.push_back(d / "data" / "workloads" / p);
      if (d == d.parent_path()) break;
    }
  };
  walk_up(dir);
  std::error_code ec;
  walk_up(fs::current_path(ec));
  if (const char* env = std::getenv("ARFABRIC_DATA_DIR"))
    out.push_back(fs::path(env) / p);
  return out;
}

Result<void> read_cdf(const Map& w, WorkloadSpec& spec) {
  const YAML::Node node = ARF_TRY(w.require("flow_size_cdf"));
  const std::string key = w.key_path("flow_size_cdf");
  const std::string value = ARF_TRY(as_string(w.file(), node, key));
  std::string chosen, not_a_file;
  for (const auto& candidate : cdf_candidates(value, w.file())) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) {
      chosen = candidate.string();
      break;
    }
    if (not_a_file.empty() && std::filesystem::exists(candidate, ec))
      not_a_file = candidate.string();
  }
  if (chosen.empty() && !not_a_file.empty()) {
    std::error_code ec;
    const std::string what = std::filesystem::is_directory(not_a_file, ec)
                                 ? "a directory"
                                 : "not a regular file";
    return std::unexpected(error_at(
        w.file(), node, key,
        not_a_file == value ? strformat("flow-size CDF '{}' is {}", value, what)
                            : strformat("flow-size CDF '{}' is {} ({})", value,
                                        what, not_a_file)));
  }
  if (chosen.empty())
    return std::unexpected(error_at(
        w.file(), node, key,
        strformat("flow-size CDF '{}' not found (looked beside the "
                  "scenario file, in data/workloads/ above it and above "
                  "the working directory, and in $ARFABRIC_DATA_DIR)",
                  value)));
  auto cdf = load_flow_cdf(chosen);
  if (!cdf) {
    // The CDF's own file and line; the key and line of the reference say
    // which workload asked for it.
    const ScenarioError where = error_at(w.file(), node, key, "");
    return std::unexpected(
        ScenarioError{cdf.error().file, cdf.error().line, 0, key,
                      strformat("{} (flow_size_cdf at {}:{})",
                                cdf.error().message, where.file, where.line)});
  }
  spec.flow_size_cdf_path = chosen;
  spec.flow_size_cdf = std::move(*cdf);
  return {};
}

// Poisson flows are generated up front: refuse a CDF without bytes, and
// a workload of more flows than a run holds comfortably (tiny flows at a
// high load over a long time), before memory runs out. Flows arrive until
// the duration's end or stop_at, whichever is first.
constexpr std::uint64_t kMaxPoissonFlows = 10'000'000;
Result<void> check_poisson_size(const Map& w, const Topology& t,
                                const WorkloadSpec& spec, Time stop_at) {
  const double mean = spec.flow_size_cdf.mean_bytes();
  if (!(mean >= 1))
    return std::unexpected(w.error(
        "flow_size_cdf",
        strformat("the flow sizes' mean is {} bytes: a flow needs at least "
                  "one byte on average",
                  mean)));
  std::vector<BitsPerSecond> rate(t.nodes.size(), 0);
  for (const LinkSpec& l : t.links) {
    rate[l.a] = std::max(rate[l.a], l.rate);
    rate[l.b] = std::max(rate[l.b], l.rate);
  }
  double bits = 0;
  for (NodeIndex h : spec.participants) bits += static_cast<double>(rate[h]);
  const Time arriving = poisson_arrivals_end(spec, stop_at) - spec.start;
  const double flows = spec.load * bits * arriving.seconds() / (8 * mean);
  if (flows > static_cast<double>(kMaxPoissonFlows))
    return std::unexpected(w.error(
        "load",
        strformat("about {} flows (load x the hosts' link rates x {} of "
                  "arrivals / the mean flow size of {} bytes), more than "
                  "the {} a run holds: lower the load or the duration, or "
                  "use larger flows",
                  flows, format_time(arriving), mean, kMaxPoissonFlows)));
  return {};
}

Result<std::vector<WorkloadSpec>> read_workloads(const Map& top,
                                                 const Topology& t,
                                                 const NameIndex& names,
                                                 Time stop_at) {
  std::vector<WorkloadSpec> out;
  const auto node = top.get("workloads");
  if (!node) return out;
  if (!node->IsSequence())
    return std::unexpected(error_at(top.file(), *node, "workloads",
                                    "expected a list of workloads"));
  for (std::size_t i = 0; i < node->size(); ++i) {
    const YAML::Node item = (*node)[i];
    const std::string key = indexed("workloads", i);
    if (!item.IsMap() || !item["kind"])
      return std::unexpected(
          error_at(top.file(), item, key + ".kind",
                   "expected a map with a 'kind' (ring_allreduce, all_gather, "
                   "all_to_all, poisson)"));
    const std::string kind =
        ARF_TRY(as_string(top.file(), item["kind"], key + ".kind"));
    WorkloadSpec spec;
    std::vector<std::string_view> allowed = {"kind", "participants", "start"};
    if (kind == "ring_allreduce" || kind == "all_gather" ||
        kind == "all_to_all") {
      spec.kind = kind == "ring_allreduce" ? WorkloadKind::ring_allreduce
                  : kind == "all_gather"   ? WorkloadKind::all_gather
                                           : WorkloadKind::all_to_all;
      allowed.push_back("bytes");
      if (spec.kind != WorkloadKind::all_to_all) allowed.push_back("order");
    } else if (kind == "poisson") {
      spec.kind = WorkloadKind::poisson;
      allowed.insert(allowed.end(), {"load", "flow_size_cdf", "duration"});
    } else {
      return std::unexpected(
          error_at(top.file(), item["kind"], key + ".kind",
                   strformat("unknown workload kind '{}' (ring_allreduce, "
                             "all_gather, all_to_all, poisson)",
                             kind)));
    }
    const Map w = ARF_TRY(Map::open(top.file(), item, key, allowed));
    if (const auto p = w.get("participants")) {
      spec.participants = ARF_TRY(
          read_host_list(top.file(), *p, w.key_path("participants"), t, names));
    } else {
      spec.participants = t.hosts();
    }
    if (spec.participants.size() < 2)
      return std::unexpected(
          w.error("participants", "at least 2 hosts are needed"));
    if (const auto o = w.get("order")) {
      const std::string order =
          ARF_TRY(as_string(top.file(), *o, w.key_path("order")));
      if (order == "across_leaves") {
        spec.participants = interleave_by_switch(t, spec.participants);
      } else if (order != "listed") {
        return std::unexpected(
            w.error("order", strformat("unknown ring order '{}' (listed, "
                                       "across_leaves)",
                                       order)));
      }
    }
    ARF_TRY(w.read_time("start", spec.start));
    if (spec.start >= stop_at)
      return std::unexpected(w.error(
          "start", strformat("start {} is not before stop_at {}",
                             format_time(spec.start), format_time(stop_at))));
    if (spec.kind == WorkloadKind::poisson) {
      spec.load = ARF_TRY(yaml_reader::as_fraction(
          top.file(), ARF_TRY(w.require("load")), w.key_path("load")));
      if (spec.load <= 0)
        return std::unexpected(w.error("load", "must be in (0, 1]"));
      spec.duration = ARF_TRY(as_time(
          top.file(), ARF_TRY(w.require("duration")), w.key_path("duration")));
      if (spec.duration == Time{})
        return std::unexpected(w.error("duration", "must be > 0"));
      ARF_TRY(read_cdf(w, spec));
      ARF_TRY(check_poisson_size(w, t, spec, stop_at));
    } else {
      spec.bytes = ARF_TRY(as_size(top.file(), ARF_TRY(w.require("bytes")),
                                   w.key_path("bytes")));
      if (spec.bytes == 0)
        return std::unexpected(w.error("bytes", "must be > 0"));
    }
    out.push_back(std::move(spec));
  }
  return out;
}

// ------------------------------------------------------------------ events

// The first host attached to `sw`, if it is an edge switch with hosts.
std::optional<NodeIndex> first_host_of(const Topology& t, NodeIndex sw) {
  if (!is_edge_switch(t.nodes[sw].role)) return std::nullopt;
  for (const LinkSpec& l : t.links) {
    if (l.a == sw && t.nodes[l.b].role == NodeRole::host) return l.b;
    if (l.b == sw && t.nodes[l.a].role == NodeRole::host) return l.a;
  }
  return std::nullopt;
}

Result<std::vector<EventSpec>> read_events(const Map& top, const Topology& t,
                                           const NameIndex& names,
                                           Time stop_at) {
  std::vector<EventSpec> out;
  const auto node = top.get("events");
  if (!node) return out;
  const std::string file(top.file());
  if (!node->IsSequence())
    return std::unexpected(
        error_at(file, *node, "events", "expected a list of events"));
  std::vector<YAML::Node> link_nodes;  // by event in `out`: its `link`
  for (std::size_t i = 0; i < node->size(); ++i) {
    const YAML::Node item = (*node)[i];
    const std::string key = indexed("events", i);
    if (!item.IsMap() || !item["kind"])
      return std::unexpected(
          error_at(file, item, key + ".kind",
                   "expected a map with a 'kind' (link_down, link_up, degrade, "
                   "incast)"));
    const std::string kind =
        ARF_TRY(as_string(file, item["kind"], key + ".kind"));
    EventSpec e;
    std::vector<std::string_view> allowed = {"at", "kind", "link"};
    if (kind == "link_down") {
      e.kind = EventKind::link_down;
    } else if (kind == "link_up") {
      e.kind = EventKind::link_up;
    } else if (kind == "degrade") {
      e.kind = EventKind::degrade;
      allowed.insert(allowed.end(), {"fraction", "rate"});
    } else if (kind == "incast") {
      e.kind = EventKind::incast;
      allowed.insert(allowed.end(), {"senders", "receiver", "bytes"});
    } else {
      return std::unexpected(
          error_at(file, item["kind"], key + ".kind",
                   strformat("unknown event kind '{}' (link_down, link_up, "
                             "degrade, incast)",
                             kind)));
    }
    const Map m = ARF_TRY(Map::open(file, item, key, allowed));
    e.line = item.Mark().line + 1;
    e.index = i;
    e.at = ARF_TRY(as_time(file, ARF_TRY(m.require("at")), m.key_path("at")));
    if (e.at >= stop_at)
      return std::unexpected(
          m.error("at", strformat("event at {} is not before stop_at {}",
                                  format_time(e.at), format_time(stop_at))));
    const YAML::Node link_node = ARF_TRY(m.require("link"));
    const LinkEnds ends =
        ARF_TRY(read_pair(file, link_node, m.key_path("link")));
    const auto a = names.find(ends.a);
    const auto b = names.find(ends.b);
    for (const auto& [found, name] : {std::pair{a, ends.a}, {b, ends.b}})
      if (!found)
        return std::unexpected(
            error_at(file, link_node, m.key_path("link"),
                     strformat("event on link {}-{}: no node '{}'", ends.a,
                               ends.b, name)));
    const auto link = t.find_link(*a, *b);
    if (!link)
      return std::unexpected(error_at(
          file, link_node, m.key_path("link"),
          strformat("event at line {} on a missing link: no link between "
                    "'{}' and '{}'",
                    e.line, ends.a, ends.b)));
    e.a = *a;
    e.b = *b;
    e.link = *link;
    if (e.kind == EventKind::degrade) {
      const BitsPerSecond original = t.links[*link].rate;
      const bool has_fraction = m.has("fraction"), has_rate = m.has("rate");
      if (has_fraction == has_rate)
        return std::unexpected(error_at(
            file, item, key, "degrade needs exactly one of fraction or rate"));
      if (has_fraction) {
        ARF_TRY(m.read_fraction("fraction", e.fraction));
        if (e.fraction <= 0 || e.fraction > 1)
          return std::unexpected(
              m.error("fraction",
                      "must be in (0, 1] (1 restores the link's rate; "
                      "link_down takes it to 0)"));
        e.new_rate = static_cast<BitsPerSecond>(
            static_cast<long double>(original) * e.fraction);
      } else {
        ARF_TRY(m.read_rate("rate", e.new_rate));
        if (e.new_rate > original)
          return std::unexpected(m.error(
              "rate",
              strformat("{} is above the link's rate {}",
                        format_rate(e.new_rate), format_rate(original))));
        e.fraction =
            static_cast<double>(e.new_rate) / static_cast<double>(original);
      }
      if (e.new_rate == 0)
        return std::unexpected(
            error_at(file, item, key, "degraded rate rounds to 0"));
    }
    if (e.kind == EventKind::incast) {
      if (const auto r = m.get("receiver")) {
        e.receiver =
            ARF_TRY(read_host(file, *r, m.key_path("receiver"), t, names));
      } else {
        auto h = first_host_of(t, *b);
        if (!h) h = first_host_of(t, *a);
        if (!h)
          return std::unexpected(error_at(
              file, item, key,
              "neither end of the link attaches hosts: give 'receiver'"));
        e.receiver = *h;
      }
      const YAML::Node senders = ARF_TRY(m.require("senders"));
      e.senders = ARF_TRY(
          read_host_list(file, senders, m.key_path("senders"), t, names));
      std::erase(e.senders, e.receiver);
      if (e.senders.empty())
        return std::unexpected(m.error("senders",
                                       "no sender besides the "
                                       "receiver"));
      e.bytes = ARF_TRY(
          as_size(file, ARF_TRY(m.require("bytes")), m.key_path("bytes")));
      if (e.bytes == 0) return std::unexpected(m.error("bytes", "must be > 0"));
    }
    out.push_back(std::move(e));
    link_nodes.push_back(link_node);
  }
  std::vector<std::size_t> order(out.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::ranges::stable_sort(order, [&](std::size_t x, std::size_t y) {
    return out[x].at < out[y].at;
  });
  // In time order, a cable goes down only while up and comes up only
  // while down (a link_up of a cable that is up would have nothing to
  // bring back; degrade with fraction 1 restores a degraded rate).
  std::vector<bool> down(t.links.size(), false);
  for (std::size_t i : order) {
    const EventSpec& e = out[i];
    if (e.kind != EventKind::link_down && e.kind != EventKind::link_up) {
      continue;
    }
    const bool going_down = e.kind == EventKind::link_down;
    if (down[e.link] == going_down) {
      const std::string& a = t.nodes[e.a].name;
      const std::string& b = t.nodes[e.b].name;
      return std::unexpected(error_at(
          file, link_nodes[i], indexed("events", i) + ".link",
          going_down
              ? strformat("link_down at {} of {}-{}, which is down already "
                          "(no link_up since the last link_down)",
                          format_time(e.at), a, b)
              : strformat("link_up at {} of {}-{}, which is not down (a "
                          "link_up needs an earlier link_down; degrade with "
                          "fraction 1 restores a degraded rate)",
                          format_time(e.at), a, b)));
    }
    down[e.link] = going_down;
  }
  std::vector<EventSpec> sorted;
  sorted.reserve(out.size());
  for (std::size_t i : order) sorted.push_back(std::move(out[i]));
  return sorted;
}

// The one YAML document of the file. Errors: a byte that is not UTF-8 or
// a character YAML does not allow raw, such as NUL (its line and column,
// the column counting bytes), YAML's own, or a second document (at its
// first line).
Result<YAML::Node> load_document(std::string_view yaml_text,
                                 std::string_view file) {
  if (const std::size_t bad = first_non_utf8(yaml_text);
      bad != std::string_view::npos) {
    const TextPosition at = position_of(yaml_text, bad);
    return std::unexpected(ScenarioError{
        std::string(file), at.line, at.column, "",
        why_not_utf8(yaml_text, bad) + ": a scenario file is UTF-8 text"});
  }
  if (const std::size_t bad = first_non_yaml_printable(yaml_text);
      bad != std::string_view::npos) {
    const TextPosition at = position_of(yaml_text, bad);
    return std::unexpected(
        ScenarioError{std::string(file), at.line, at.column, "",
                      why_not_yaml_printable(yaml_text, bad)});
  }
  YAML::Node first;
  std::optional<YAML::Mark> second;
  try {
    first = load_first_document(yaml_text);
    // A document after the first that holds something (an empty one, as
    // a trailing '---' leaves, holds nothing to ignore).
    second = second_document(yaml_text);
  } catch (const YAML::Exception& e) {
    return std::unexpected(ScenarioError{std::string(file), e.mark.line + 1,
                                         e.mark.column + 1, "",
                                         strformat("YAML: {}", e.msg)});
  }
  if (second) {
    return std::unexpected(ScenarioError{
        std::string(file), second->line + 1, second->column + 1, "",
        "a second YAML document: a scenario file holds one (remove the "
        "'---' and what follows, or merge it into the first)"});
  }
  return first;
}

// The file's switches.<section>.<field> (its index'th item, for a list),
// if it gives it. Nodes are handles: one is never assigned to another,
// which would write into the file's tree, and an absent key is an invalid
// node, which only IsDefined() may ask.
std::optional<YAML::Node> given_switch_setting(
    const Map& top, const char* section, const char* field,
    std::optional<std::size_t> index = std::nullopt) {
  const auto switches = top.get("switches");
  if (!switches || !switches->IsMap()) return std::nullopt;
  const YAML::Node map = std::as_const(*switches)[section];
  if (!map.IsDefined() || !map.IsMap()) return std::nullopt;
  const YAML::Node value = map[field];
  if (!value.IsDefined()) return std::nullopt;
  if (!index) return value;
  const YAML::Node item = value[*index];
  if (!item.IsDefined()) return std::nullopt;
  return item;
}

// Congestion thresholds a full queue might never reach
// (unreachable_threshold): given ones are errors at their keys whatever
// the modes; the defaults, fractions of the buffer, only when the file's
// modes use them, at buffer_per_port (only a buffer of a few packets
// makes them too high). The runner asks again for a mode -m adds.
Result<void> check_thresholds_reached(const Map& top, const Scenario& s) {
  const auto switches = top.get("switches");
  for (const QueueThreshold& t : queue_thresholds(s.switches)) {
    const auto why = unreachable_threshold(s, t);
    if (!why) continue;
    if (const auto at = given_switch_setting(top, t.section, t.field, t.index))
      return std::unexpected(error_at(top.file(), *at, t.key(), *why));
    if (std::none_of(s.modes.begin(), s.modes.end(),
                     [&](Mode m) { return t.read_by(m); }))
      continue;
    const YAML::Node buffer = switches && switches->IsMap()
                                  ? std::as_const(*switches)["buffer_per_port"]
                                  : top.node();
    return std::unexpected(error_at(
        top.file(), buffer.IsDefined() ? buffer : top.node(),
        "switches.buffer_per_port",
        "the default " + *why + "; set " + t.key() + " or a larger buffer"));
  }
  return {};
}

// An error about a bound the slowest switch link sets, when the file does
// not give the setting: at the degrade event that slowed the link
// (`event_message`), else at `switches`, or at `topology`, whose links
// are too slow (`key`, `message`).
ScenarioError at_the_slowest_link(const Map& top, const EventSpec* degrade,
                                  const std::string& event_message,
                                  const std::string& key,
                                  const std::string& message) {
  const auto events = top.get("events");
  if (degrade && events && events->IsSequence() &&
      degrade->index < events->size()) {
    const std::size_t i = degrade->index;
    return error_at(top.file(), (*events)[i], indexed("events", i),
                    event_message);
  }
  const auto switches = top.get("switches");
  const auto topology = top.get("topology");
  return error_at(top.file(),
                  switches   ? *switches
                  : topology ? *topology
                             : top.node(),
                  key, message);
}

// lsn_period_problem's error, at the period's key; when the default is
// the one too short, at the degrade event that made it so, else at
// `switches`, or at `topology`, whose links are too slow for it.
ScenarioError lsn_period_error(const Map& top,
                               const LsnPeriodProblem& problem) {
  if (const auto period = given_switch_setting(top, "lsn", "period"))
    return error_at(top.file(), *period, "switches.lsn.period",
                    problem.message);
  return at_the_slowest_link(
      top, problem.degrade,
      "the default switches.lsn.period, " + problem.message,
      "switches.lsn.period", "the default " + problem.message);
}

// arn_link_problem's error, at link_share or hold_time, whichever the
// file sets (link_share first, unless no share would do); else at the
// degrade event that slowed the link, at `switches`, or at `topology`,
// whose links are too slow.
ScenarioError arn_link_error(const Map& top, const ArnLinkProblem& problem) {
  const auto share = given_switch_setting(top, "arn", "link_share");
  const auto hold = given_switch_setting(top, "arn", "hold_time");
  if (problem.share_helps && share)
    return error_at(top.file(), *share, "switches.arn.link_share",
                    problem.message);
  if (hold)
    return error_at(top.file(), *hold, "switches.arn.hold_time",
                    problem.message);
  const std::string message =
      std::string(share
                      ? "the default switches.arn.hold_time: "
                      : "the default switches.arn.link_share and hold_time: ") +
      problem.message;
  return at_the_slowest_link(top, problem.degrade, message, "switches.arn",
                             message);
}

Result<Scenario> parse(std::string_view yaml_text, std::string_view file) {
  const YAML::Node root = ARF_TRY(load_document(yaml_text, file));
  const Map top = ARF_TRY(
      Map::open(file, root, "",
                {"name", "description", "seed", "stop_at", "modes", "topology",
                 "switches", "hosts", "workloads", "events"}));
  Scenario s;
  s.file = std::string(file);
  s.name = std::filesystem::path(file).stem().string();
  ARF_TRY(top.read_string("name", s.name));
  ARF_TRY(top.read_string("description", s.description));
  // Both reach the terminal and the SVG: no escape sequences or bytes XML
  // cannot hold (YAML's "\x1b", "\0" and "\x9b" escapes make them, the
  // last a C1 control, U+009B, that terminals also read as an escape; and
  // yaml-cpp turns "\N" and "\_" into the bytes 0x85 and 0xA0, which are
  // not UTF-8). A description may run over several lines and hold tabs; a
  // name is one table cell.
  const auto plain_text = [&](const char* key, const std::string& text,
                              bool multi_line) -> Result<void> {
    if (const std::size_t bad = first_non_utf8(text);
        bad != std::string_view::npos) {
      return std::unexpected(top.error(
          key,
          strformat("byte 0x{} at position {} is not UTF-8 (yaml-cpp "
                    "decodes YAML's \\N and \\_ escapes so): write plain "
                    "text (a no-break space as itself)",
                    to_upper_hex(static_cast<std::uint8_t>(text[bad])), bad)));
    }
    const std::size_t bad = first_control_character(text, multi_line);
    if (bad == std::string_view::npos) return {};
    return std::unexpected(top.error(
        key, strformat("a {} at position {}: write plain text",
                       describe_character(code_point_at(text, bad)), bad)));
  };
  ARF_TRY(plain_text("name", s.name, false));
  ARF_TRY(plain_text("description", s.description, true));
  ARF_TRY(top.read_uint64("seed", s.seed));
  s.stop_at =
      ARF_TRY(as_time(file, ARF_TRY(top.require("stop_at")), "stop_at"));
  if (s.stop_at == Time{})
    return std::unexpected(top.error("stop_at", "must be > 0"));
  s.modes = ARF_TRY(read_modes(top));
  s.topology = ARF_TRY(read_topology(top));
  const bool lsn = std::any_of(s.modes.begin(), s.modes.end(), uses_lsn);
  if (lsn) {
    if (const auto why = lsn_edge_problem(s.topology))
      return std::unexpected(
          error_at(file, *top.get("topology"), "topology", *why));
  }
  s.switches = ARF_TRY(read_switches(top));
  s.hosts = ARF_TRY(read_hosts(top, s.switches));
  if (const std::uint64_t packet =
          std::uint64_t{s.hosts.mss_bytes} + s.hosts.header_bytes;
      packet > s.switches.buffer_bytes_per_port) {
    // At the buffer's key: the default holds any packet, so it was given.
    const auto switches = top.get("switches");
    const YAML::Node buffer = switches && switches->IsMap()
                                  ? std::as_const(*switches)["buffer_per_port"]
                                  : YAML::Node();
    return std::unexpected(
        error_at(top.file(), buffer.IsDefined() ? buffer : top.node(),
                 "switches.buffer_per_port",
                 strformat("{} is smaller than one packet ({}: hosts' mss plus "
                           "header_bytes)",
                           format_size(s.switches.buffer_bytes_per_port),
                           format_size(packet))));
  }
  ARF_TRY(check_thresholds_reached(top, s));
  const NameIndex names(s.topology);
  s.workloads = ARF_TRY(read_workloads(top, s.topology, names, s.stop_at));
  s.events = ARF_TRY(read_events(top, s.topology, names, s.stop_at));
  if (lsn) {
    if (const auto why = lsn_period_problem(s))
      return std::unexpected(lsn_period_error(top, *why));
  }
  if (std::any_of(s.modes.begin(), s.modes.end(), uses_arn)) {
    if (const auto why = arn_link_problem(s))
      return std::unexpected(arn_link_error(top, *why));
  }
  return s;
}

}  // namespace

std::string ScenarioError::to_string() const {
  std::string where = file;
  if (line > 0) where += strformat(":{}", line);
  if (line > 0 && column > 0) where += strformat(":{}", column);
  if (key.empty()) return strformat("{}: {}", where, message);
  return strformat("{}: {}: {}", where, key, message);
}

std::expected<Scenario, ScenarioError> parse_scenario(
    std::string_view yaml_text, std::string_view file_name) {
  return parse(yaml_text, file_name);
}

std::expected<Scenario, ScenarioError> load_scenario_file(
    const std::string& path) {
  auto text = read_file(path);
  if (!text) {
    return std::unexpected(ScenarioError{
        path, 0, 0, "", "cannot read the scenario file: " + text.error()});
  }
  return parse(*text, path);
}

}  // namespace arfabric::sim
