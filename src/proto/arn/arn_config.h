// Configuration of the ARN engine (draft-wh-rtgwg-adaptive-routing-arn-05
// §2, §3), and the conventions it fixes where the draft leaves things open:
//
// - Path ID (§3.1 "each ARN message should be configured with an
//   identifier (carried through parameters)"): (node_id << 16) | port, the
//   reporting node and its monitored port. With the 5-tuple it identifies
//   a condition: a receiver matches an elimination to its detection by
//   (Path ID, destination).
// - Affected object (§3.1), destination: one ARN per destination reached
//   through the monitored port, as a 5-tuple whose Mask has only the
//   Destination bit set (protocol, source and ports are wildcards), IPv4
//   or IPv6 (Opcode 1 or 2). The destination is an address inside that
//   node's prefix; receivers map it to a NodeId by longest-prefix match in
//   their `destinations` table (IPv4 and IPv6 prefixes, one fib::PrefixTable).
// - Affected object (§3.1 "identifiers of flows"), flow: a 5-tuple with
//   more Mask bits than Destination (a flow, or an aggregate when some
//   fields are wildcards), e.g. the top flows of a congested port given by
//   the host. It must carry the Destination (receivers find the group by
//   it). Receivers move only the matching traffic, through a per-flow
//   override of their Fib; such a condition is identified by (Path ID,
//   5-tuple).
// - Metric (§3.1 "degree of congestion"): severity s = max(queue /
//   queue_high, utilisation / util_high); Metric = min(255, floor(64 s)),
//   so the threshold is 64, twice it 128, three times 192. A failure
//   carries 255. CongestionChange level = clamp(Metric / 64, 1, 3).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "common/units.h"
#include "proto/config_error.h"
#include "proto/fib/forwarding_types.h"
#include "wire/arn/arn_message.h"
#include "wire/arn/arn_transport.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"

namespace arfabric::proto::arn {

// An IPv4 or IPv6 address. Converts implicitly from wire::Ipv4Address so
// that IPv4 configurations (the simulator's among them) read as before;
// IPv6 addresses are built with IpAddress::v6().
struct IpAddress {
  bool ipv6 = false;
  std::array<std::uint8_t, 16> bytes{};  // IPv4: the first 4, rest zero

  constexpr IpAddress() = default;
  // NOLINTNEXTLINE(google-explicit-constructor): see above.
  constexpr IpAddress(const wire::Ipv4Address& a) {
    for (std::size_t i = 0; i < a.size(); ++i) bytes[i] = a[i];
  }
  static constexpr IpAddress v6(const std::array<std::uint8_t, 16>& a) {
    IpAddress r;
    r.ipv6 = true;
    r.bytes = a;
    return r;
  }
  std::size_t size() const { return ipv6 ? 16 : 4; }
  bool operator==(const IpAddress&) const = default;
};

enum class Transport : std::uint8_t { udp, l2 };

// Hysteresis thresholds of one monitored port (§2.1 "exceeds the preset
// threshold ... falls back below"): congested when queue >= queue_high OR
// utilisation >= util_high; congestion eliminated only when queue <=
// queue_low AND utilisation <= util_low.
struct MonitoredPort {
  PortId port = 0;
  std::vector<IpAddress> affected{};  // one per destination behind it
  // Flow objects announced with every notification about this port (the
  // Destination Mask bit is required; wildcard fields are sent as zero).
  std::vector<wire::arn::FiveTuple> flows{};
  std::uint64_t queue_high_bytes = 256 * 1024;
  std::uint64_t queue_low_bytes = 64 * 1024;
  double util_high = 0.95;
  double util_low = 0.80;
};

// An upstream node to notify (§2.1 "unicast or multicast"): the port to
// send on and, for UDP, its address (unicast, or a multicast group the
// host replicates). For L2 the address is unused (l2_destination is).
struct Target {
  PortId port = 0;
  wire::Ipv4Address address{};
};

// Receiver's prefix table entry: addresses in prefix/length belong to node.
// Bits of `prefix` beyond `length` are ignored (an address of the node may
// be given with its prefix length).
struct Destination {
  IpAddress prefix{};
  std::uint8_t length = 32;
  NodeId node = 0;
};

struct ArnConfig {
  std::uint16_t node_id = 0;  // high half of our Path IDs
  std::uint16_t port_count = 1;
  wire::Ipv4Address router_address{};  // UDP source
  wire::MacAddress mac{};              // L2 source
  Transport transport = Transport::udp;
  wire::arn::UdpOptions udp;  // port 53456, DSCP 48 (CS6) by default
  wire::arn::L2Options l2;
  wire::MacAddress l2_destination = wire::arn::kDefaultGroupAddress;

  // Sending (§2.1).
  std::vector<MonitoredPort> monitored;
  std::vector<Target> targets;
  Time repeat_interval = us(100);        // re-send while the condition lasts
  std::uint8_t elimination_repeats = 3;  // eliminations sent when it ends
  std::uint32_t bucket_capacity = 16;    // per-target token bucket
  Time refill_interval = us(5);          // one token per interval
  // Per target: relayed messages (§2.2, propagation) that may wait for a
  // token; beyond it a relay is dropped, so that neighbours cannot grow
  // the queue without bound. 0: a relay without a token is dropped. The
  // node's own messages always wait: at most one per object and condition
  // (a newer message about a waiting object takes its place), those about
  // flows no longer listed aside (ArnEngine's overview).
  std::uint32_t max_waiting_relays = 1024;

  // Receiving (§2.2).
  std::vector<Destination> destinations;
  Time hold_time = us(500);        // revoke when no refresh for this long
  std::size_t max_entries = 1024;  // pre-sized table of received conditions
  bool propagate = true;           // re-send when we cannot reroute
};

// Errors: "port_count" 0; "monitored[i].port" >= port_count or repeated;
// "monitored[i].queue_low_bytes" > queue_high_bytes;
// "monitored[i].util_low" > util_high or negative; "targets[i].port" >=
// port_count; "monitored[i].flows[j].family" neither IPv4 nor IPv6,
// "monitored[i].flows[j].mask" over 5 bits or without the Destination bit;
// "repeat_interval", "refill_interval", "hold_time" not
// positive; "bucket_capacity" 0; "destinations[i].length" > 32 (IPv4) or
// > 128 (IPv6); "max_entries" 0. ArnEngine::create() also rejects
// "destinations[i].prefix" listed twice (same family, length and bits).
std::expected<void, ConfigError> validate(const ArnConfig& config);
// The flow-object checks of validate() for one 5-tuple; `at` prefixes the
// field name.
std::expected<void, ConfigError> validate_flow(const wire::arn::FiveTuple& flow,
                                               const std::string& at);

constexpr std::uint32_t path_id(std::uint16_t node, PortId port) {
  return std::uint32_t{node} << 16 | port;
}
constexpr std::uint16_t path_id_node(std::uint32_t id) {
  return static_cast<std::uint16_t>(id >> 16);
}

constexpr std::uint8_t kFailureMetric = 255;
constexpr std::uint8_t congestion_level(std::uint8_t metric) {
  const int level = metric / 64;
  return static_cast<std::uint8_t>(level < 1 ? 1 : level > 3 ? 3 : level);
}

}  // namespace arfabric::proto::arn
