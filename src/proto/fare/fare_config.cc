#include "proto/fare/fare_config.h"

namespace arfabric::proto::fare {

std::expected<void, ConfigError> validate(const FareConfig& config) {
  auto error = [](std::string field, std::string reason) {
    return std::unexpected(ConfigError{std::move(field), std::move(reason)});
  };
  if (config.role != Role::leaf && config.role != Role::spine &&
      config.role != Role::super_spine) {
    return error("role", "not leaf, spine or super_spine");
  }
  if (config.multihoming != MultihomingRule::divide_path_bandwidth &&
      config.multihoming != MultihomingRule::multiply_link_bandwidth) {
    return error("multihoming",
                 "not divide_path_bandwidth or multiply_link_bandwidth");
  }
  if (config.router_id == 0) {
    return error("router_id", "0 is not a valid BGP Identifier");
  }
  if (config.sub_type == 0x02 || config.sub_type == 0x03) {
    return error("sub_type",
                 "0x02/0x03 are Route Target/Route Origin (RFC 4360)");
  }
  if (config.spine_lower_to_next_next_hop && config.role != Role::spine) {
    return error("spine_lower_to_next_next_hop",
                 "only a spine re-advertises routes learned from "
                 "super-spines (draft §4.2)");
  }
  if (!config.path_bandwidth_transitive) {
    if (config.role == Role::super_spine) {
      return error("path_bandwidth_transitive",
                   "a non-transitive path community is for 3-stage fabrics: "
                   "a super-spine's non-transitive community is its link "
                   "(draft §4.2)");
    }
    if (config.spine_lower_to_next_next_hop) {
      return error("path_bandwidth_transitive",
                   "spine_lower_to_next_next_hop needs the transitive "
                   "community (draft §4.2)");
    }
  }
  return {};
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::leaf:
      return "leaf";
    case Role::spine:
      return "spine";
    case Role::super_spine:
      return "super_spine";
  }
  return "unknown";
}

std::string_view multihoming_rule_name(MultihomingRule rule) {
  switch (rule) {
    case MultihomingRule::divide_path_bandwidth:
      return "divide_path_bandwidth";
    case MultihomingRule::multiply_link_bandwidth:
      return "multiply_link_bandwidth";
  }
  return "unknown";
}

}  // namespace arfabric::proto::fare
