#include "proto/ibcs/suf_config.h"

#include <string>

#include "common/hex.h"
#include "wire/ibcs/csig_tag.h"

namespace arfabric::proto::ibcs {

std::expected<void, ConfigError> validate(const SufConfig& config) {
  if (config.rules.empty() || config.rules.size() > kMaxRules)
    return std::unexpected(ConfigError{"rules", "need 1 to 3 binding rules"});
  for (std::size_t i = 0; i < config.rules.size(); ++i) {
    const BindingRule& r = config.rules[i];
    const std::string at = "rules[" + std::to_string(i) + "]";
    for (std::size_t j = 0; j < i; ++j) {
      if (config.rules[j].binding == r.binding)
        return std::unexpected(
            ConfigError{at + ".binding", "binding configured twice"});
    }
    if (r.edge_action == EdgeAction::strip &&
        r.binding != wire::ibcs::Binding::csig_l2)
      return std::unexpected(ConfigError{at + ".edge_action",
                                         "strip is only possible for csig_l2"});
    if (auto ok = validate(r.metric); !ok)
      return std::unexpected(
          ConfigError{at + ".metric." + ok.error().field, ok.error().reason});
  }
  // Every binding's walk steps over a CSIG tag, so the TPID matters
  // whatever the rules.
  if (const auto why =
          wire::ibcs::csig_tpid_problem(config.wire.csig_ethertype))
    return std::unexpected(ConfigError{
        "wire.csig_ethertype",
        to_hex16(config.wire.csig_ethertype) + " is " + *why +
            ": the CSIG tag needs a TPID no other frame starts with"});
  if (config.ports.empty() || config.ports.size() > 65536)
    return std::unexpected(ConfigError{"ports", "need 1 to 65536 ports"});
  for (std::size_t i = 0; i < config.ports.size(); ++i) {
    if (config.ports[i].peering && !config.ports[i].egress_edge)
      return std::unexpected(
          ConfigError{"ports[" + std::to_string(i) + "].peering",
                      "peering only applies to an egress edge port"});
  }
  return {};
}

}  // namespace arfabric::proto::ibcs
