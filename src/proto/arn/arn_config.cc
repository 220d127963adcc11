#include "proto/arn/arn_config.h"

#include <string>

namespace arfabric::proto::arn {
namespace {

std::unexpected<ConfigError> bad(std::string field, std::string reason) {
  return std::unexpected(ConfigError{std::move(field), std::move(reason)});
}

}  // namespace

std::expected<void, ConfigError> validate_flow(const wire::arn::FiveTuple& f,
                                               const std::string& at) {
  if (f.family != wire::arn::AddressFamily::ipv4 &&
      f.family != wire::arn::AddressFamily::ipv6)
    return bad(at + ".family", "neither IPv4 nor IPv6");
  if (f.mask > wire::arn::kMaskAll) return bad(at + ".mask", "over 5 bits");
  if (!(f.mask & wire::arn::kMaskDestination))
    return bad(at + ".mask",
               "no Destination bit (receivers find the group by it)");
  return {};
}

std::expected<void, ConfigError> validate(const ArnConfig& c) {
  if (c.port_count == 0) return bad("port_count", "must be positive");
  for (std::size_t i = 0; i < c.monitored.size(); ++i) {
    const MonitoredPort& m = c.monitored[i];
    const std::string at = "monitored[" + std::to_string(i) + "]";
    if (m.port >= c.port_count) return bad(at + ".port", "beyond port_count");
    for (std::size_t j = 0; j < i; ++j)
      if (c.monitored[j].port == m.port)
        return bad(at + ".port", "monitored twice");
    if (m.queue_low_bytes > m.queue_high_bytes)
      return bad(at + ".queue_low_bytes", "above queue_high_bytes");
    if (!(m.util_low >= 0 && m.util_low <= m.util_high))
      return bad(at + ".util_low", "must be in [0, util_high]");
    for (std::size_t j = 0; j < m.flows.size(); ++j)
      if (auto ok = validate_flow(m.flows[j],
                                  at + ".flows[" + std::to_string(j) + "]");
          !ok)
        return ok;
  }
  for (std::size_t i = 0; i < c.targets.size(); ++i)
    if (c.targets[i].port >= c.port_count)
      return bad("targets[" + std::to_string(i) + "].port",
                 "beyond port_count");
  if (c.repeat_interval <= Time())
    return bad("repeat_interval", "must be positive");
  if (c.refill_interval <= Time())
    return bad("refill_interval", "must be positive");
  if (c.bucket_capacity == 0) return bad("bucket_capacity", "must be positive");
  if (c.hold_time <= Time()) return bad("hold_time", "must be positive");
  for (std::size_t i = 0; i < c.destinations.size(); ++i) {
    const Destination& d = c.destinations[i];
    const unsigned max = d.prefix.ipv6 ? 128 : 32;
    if (d.length > max)
      return bad("destinations[" + std::to_string(i) + "].length",
                 "over " + std::to_string(max) + " bits");
  }
  if (c.max_entries == 0) return bad("max_entries", "must be positive");
  return {};
}

}  // namespace arfabric::proto::arn
