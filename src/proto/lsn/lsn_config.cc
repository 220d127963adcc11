#include "proto/lsn/lsn_config.h"

#include <algorithm>
#include <string>
#include <utility>

namespace arfabric::proto::lsn {
namespace {

std::unexpected<ConfigError> fail(std::string field, std::string reason) {
  return std::unexpected(ConfigError{std::move(field), std::move(reason)});
}

std::string indexed(const char* name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

}  // namespace

std::expected<void, ConfigError> validate(const Config& c) {
  if (c.node_mac[0] & 0x01)
    return fail("node_mac", "a group (multicast) address cannot be a source");
  if (c.ports.empty()) return fail("ports", "no ports configured");
  std::vector<PortId> ids;
  ids.reserve(c.ports.size());
  for (std::size_t i = 0; i < c.ports.size(); ++i) {
    if (std::find(ids.begin(), ids.end(), c.ports[i].id) != ids.end()) {
      return fail(indexed("ports", i) + ".id",
                  "duplicate port " + std::to_string(c.ports[i].id));
    }
    ids.push_back(c.ports[i].id);
  }
  if (c.num_devices == 0 || c.num_devices > kMaxLsnNodes) {
    return fail("num_devices", std::to_string(c.num_devices) +
                                   " is outside 1..16384 (6-bit Dev-Range)");
  }
  std::vector<std::pair<NodeId, PortId>> seen;
  seen.reserve(c.attached.size());
  for (std::size_t i = 0; i < c.attached.size(); ++i) {
    const Attachment& a = c.attached[i];
    if (a.node >= c.num_devices) {
      return fail(indexed("attached", i) + ".node",
                  "node " + std::to_string(a.node) + " >= num_devices " +
                      std::to_string(c.num_devices));
    }
    if (std::find(ids.begin(), ids.end(), a.port) == ids.end()) {
      return fail(indexed("attached", i) + ".port",
                  "port " + std::to_string(a.port) + " is not in ports");
    }
    seen.emplace_back(a.node, a.port);
  }
  std::sort(seen.begin(), seen.end());
  if (auto dup = std::adjacent_find(seen.begin(), seen.end());
      dup != seen.end()) {
    for (std::size_t i = 0; i < c.attached.size(); ++i) {
      if (c.attached[i].node == dup->first &&
          c.attached[i].port == dup->second) {
        // Report the second occurrence: the first one is legitimate.
        for (std::size_t j = i + 1; j < c.attached.size(); ++j) {
          if (c.attached[j].node == dup->first &&
              c.attached[j].port == dup->second) {
            return fail(indexed("attached", j),
                        "node " + std::to_string(dup->first) + " on port " +
                            std::to_string(dup->second) + " listed twice");
          }
        }
      }
    }
  }
  if (c.period <= Time{}) return fail("period", "must be positive");
  const auto& rise = c.congestion.rise;
  const auto& fall = c.congestion.fall;
  for (std::size_t i = 0; i < 3; ++i) {
    if (rise[i] == 0 || (i > 0 && rise[i] <= rise[i - 1])) {
      return fail(indexed("congestion.rise", i),
                  "must be positive and above the previous level's");
    }
    if (fall[i] == 0 || fall[i] > rise[i] || (i > 0 && fall[i] < fall[i - 1])) {
      return fail(indexed("congestion.fall", i),
                  "must be in 1..rise[" + std::to_string(i) +
                      "] and not below the previous level's");
    }
  }
  if (!c.always_send_congestion && c.congestion_linger_periods == 0) {
    return fail("congestion_linger_periods",
                "must be at least 1 unless always_send_congestion");
  }
  return {};
}

}  // namespace arfabric::proto::lsn
