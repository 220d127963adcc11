#include "proto/bgp/session_config.h"

#include <algorithm>
#include <string>

#include "wire/bgp/open.h"

namespace arfabric::proto::bgp {
namespace {

std::unexpected<SessionConfigError> fail(std::string field,
                                         std::string reason) {
  return std::unexpected(
      SessionConfigError{std::move(field), std::move(reason)});
}

std::string indexed(const char* name, std::size_t i, const char* member) {
  return std::string(name) + "[" + std::to_string(i) + "]" + member;
}

bool supported_family(wire::bgp::AfiSafi f) {
  return f.safi == wire::bgp::kSafiUnicast &&
         (f.afi == wire::bgp::kAfiIpv4 || f.afi == wire::bgp::kAfiIpv6);
}

}  // namespace

std::expected<void, SessionConfigError> validate(const SessionConfig& c) {
  if (c.local_as == 0 || c.local_as == wire::bgp::kAsTrans)
    return fail("local_as", "must not be 0 or AS_TRANS (23456)");
  if (c.remote_as == 0 || c.remote_as == wire::bgp::kAsTrans)
    return fail("remote_as", "must not be 0 or AS_TRANS (23456)");
  if (c.router_id == wire::Ipv4Address{})
    return fail("router_id", "BGP Identifier 0.0.0.0 is not allowed");
  if (c.hold_time_s == 1 || c.hold_time_s == 2)
    return fail("hold_time_s", "must be 0 or at least 3 seconds");
  if (c.connect_retry_time <= Time{})
    return fail("connect_retry_time", "must be positive");
  if (c.idle_hold_time < Time{})
    return fail("idle_hold_time", "must not be negative");
  if (c.families.empty())
    return fail("families", "at least one AFI/SAFI is needed");
  for (std::size_t i = 0; i < c.families.size(); ++i) {
    if (!supported_family(c.families[i])) {
      return fail(indexed("families", i, ""),
                  "only IPv4 unicast (1/1) and IPv6 unicast (2/1)");
    }
    if (std::find(c.families.begin(), c.families.begin() + i, c.families[i]) !=
        c.families.begin() + i) {
      return fail(indexed("families", i, ""), "listed twice");
    }
  }
  for (std::size_t i = 0; i < c.add_path.size(); ++i) {
    const auto& e = c.add_path[i];
    if (e.send_receive < 1 || e.send_receive > 3) {
      return fail(indexed("add_path", i, ".send_receive"),
                  "must be 1 (receive), 2 (send) or 3 (both)");
    }
    if (std::find(c.families.begin(), c.families.end(), e.family) ==
        c.families.end()) {
      return fail(indexed("add_path", i, ".family"), "not in families");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (c.add_path[j].family == e.family)
        return fail(indexed("add_path", i, ".family"), "listed twice");
    }
  }
  return {};
}

}  // namespace arfabric::proto::bgp
