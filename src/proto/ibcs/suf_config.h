// Configuration of the IBCS Signal Update Function engine
// (draft-tian-ccwg-ibcs-datapath-processing-00 §4 "Topological Roles and
// Boundary Behaviors", §6 "Normative Evaluation Rules", §7.1).
//
// Roles are per port and per direction, because a host-facing port of a
// top-of-rack switch is both where traffic ENTERS the domain (Ingress Edge,
// §4.1) and where it LEAVES it (Egress Edge, §4.3):
//
//   untrusted_ingress  frames arriving here come from outside the domain:
//                      every recognised IBCS field is reset to its
//                      UNINITIALIZED value before anything else (§4.1).
//   egress_edge        frames leaving here exit the domain: each field is
//                      stripped or zeroed per binding (§4.3) unless
//                      `peering` is set, in which case the port behaves as
//                      a transit port and the field is kept.
//   neither            transit (§4.2): compare-and-replace only.
//
// One BindingRule per wire binding the node takes part in. Its L_Metric is
// kept per egress port (§5.3 "associated with that port").
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "proto/config_error.h"
#include "proto/ibcs/local_metric.h"
#include "wire/ibcs/operator.h"
#include "wire/ibcs/signal_field.h"

namespace arfabric::proto::ibcs {

// What an Egress Edge does to a field toward the outside (§4.3 "strip or
// zero-out"). strip removes the whole carriage (CSIG tag only: 4 bytes, the
// frame gets shorter); zero writes 0; uninitialize writes the signal's
// UNINITIALIZED value, which leaks nothing either and, for a MIN signal,
// does not tell an outside receiver "zero bandwidth".
enum class EdgeAction : std::uint8_t { strip, zero, uninitialize };

// Defaults (docs/PROTOCOLS.md, IBCS SUF): CSIG -> strip (an L2 tag the
// outside does not know; stripping restores the original frame); HPCC
// option -> zero (= UNINITIALIZED for a MAX signal; removing an IPv4
// option would move the payload and rewrite IHL and total length);
// UDP shim -> uninitialize (the shim belongs to the application's payload,
// so it must stay, and 0 Mb/s would be a false bottleneck).
constexpr EdgeAction default_edge_action(wire::ibcs::Binding b) {
  switch (b) {
    case wire::ibcs::Binding::csig_l2:
      return EdgeAction::strip;
    case wire::ibcs::Binding::hpcc_int:
      return EdgeAction::zero;
    case wire::ibcs::Binding::ipv4_udp:
      return EdgeAction::uninitialize;
  }
  return EdgeAction::zero;
}

struct BindingRule {
  wire::ibcs::Binding binding = wire::ibcs::Binding::csig_l2;
  // The signal this node measures for the binding (CSIG / UDP-shim signal
  // type). A field carrying another signal has no L_Metric here: the SUF
  // fails open on it. Edge scrub/strip/zero apply to every signal type.
  std::uint8_t signal_type = 0;
  // Extremum operator; nullopt = the located signal's own (binding
  // metadata: CSIG ABW MIN, delay MAX, HPCC MAX, ...).
  std::optional<wire::ibcs::ExtremumOp> op{};
  std::optional<EdgeAction> edge_action{};  // nullopt = default_edge_action
  LocalMetricConfig metric{};
};

struct PortConfig {
  bool untrusted_ingress = false;
  bool egress_edge = false;
  bool peering = false;
};

struct SufConfig {
  wire::ibcs::BindingConfig wire;  // TPID, option type, UDP port
  std::vector<BindingRule> rules;  // 1..3, one per binding
  std::vector<PortConfig> ports;   // indexed by PortId
};

inline constexpr std::size_t kMaxRules = 3;

// Errors: "rules" empty or more than 3; "rules[i].binding" repeated;
// "rules[i].edge_action" strip for a binding other than csig_l2;
// "rules[i].metric.<field>" from validate(LocalMetricConfig);
// "wire.csig_ethertype" when wire::ibcs::csig_tpid_problem() refuses it
// (a VLAN TPID, say: every binding's walk reads it); "ports" empty
// or more than 65536 entries; "ports[i].peering" without egress_edge.
std::expected<void, ConfigError> validate(const SufConfig& config);

}  // namespace arfabric::proto::ibcs
