// Configuration of the FARE path-bandwidth policy (draft-xu-idr-fare-04 §3,
// §4.1, §4.2; interpretations in docs/protocols/fare.md).
//
// A node's role decides which rule applies: a leaf originates with the
// maximum value (§4.1) and applies the multi-homing rule when it weighs
// routes from spines (§4.1 last paragraphs, §4.2); a spine updates the
// transitive community with min/sum (§4.1) and, for routes learned from
// super-spines, weighs by the non-transitive community (§4.2); a super-spine
// passes the transitive community unchanged and may attach a non-transitive
// one (§4.2). Roles come from configuration, never from the wire.
#pragma once

#include <cstdint>
#include <expected>
#include <string_view>

#include "proto/config_error.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::proto::fare {

enum class Role : std::uint8_t { leaf, spine, super_spine };

// §4.1/§4.2: a leaf weighing routes toward a prefix multi-homed to N leaves
// either divides the received Path Bandwidth by N or multiplies the link
// bandwidth by N before taking the minimum. Both give the same ratios when
// every link is below the path value; they differ when a link is the
// bottleneck (docs/protocols/fare.md).
enum class MultihomingRule : std::uint8_t {
  divide_path_bandwidth,
  multiply_link_bandwidth
};

struct FareConfig {
  Role role = Role::leaf;
  std::uint32_t router_id = 0;  // Global Administrator of ECs we write (§3)
  std::uint8_t sub_type = wire::fare::kDefaultPathBandwidthSubType;
  MultihomingRule multihoming = MultihomingRule::divide_path_bandwidth;
  // §4.2 "COULD optionally attach another path bandwidth extended community
  // which is non-transitive": only read when role == super_spine.
  bool super_spine_attach_link_ec = true;
  // §4.2 "COULD optionally update the value of the transitive ... if the
  // latter is smaller": only allowed when role == spine.
  bool spine_lower_to_next_next_hop = false;
  // §3 "can be transitive or non-transitive": the type of the community
  // carried hop by hop (originated, read and re-written by every node).
  // true (the draft's examples): 0x01. false: 0x41, each node reading its
  // neighbour's and writing its own, for fabrics whose operators want the
  // community to stop at every AS boundary (RFC 4360 §2); only a 3-stage
  // fabric (leaf, spine), since the 5-stage rules of §4.2 give the
  // non-transitive community another meaning (a super-spine's link).
  bool path_bandwidth_transitive = true;
};

// Errors: "role" or "multihoming" not one of the enumerators; "router_id" 0
// (not a valid BGP Identifier, RFC 6286 §2.1, and the ECs we write name us);
// "sub_type" 0x02 or 0x03 (Route Target / Route Origin of the same
// IPv4-Address-Specific type, RFC 4360 §4/§5: decoding would mistake them
// for Path Bandwidth); "spine_lower_to_next_next_hop" set on a role other
// than spine (only a spine re-advertises routes learned from super-spines);
// "path_bandwidth_transitive" false with role super_spine or with
// spine_lower_to_next_next_hop (the §4.2 rules need the transitive
// community and a separate non-transitive one).
std::expected<void, ConfigError> validate(const FareConfig& config);

std::string_view role_name(Role role);
std::string_view multihoming_rule_name(MultihomingRule rule);

}  // namespace arfabric::proto::fare
