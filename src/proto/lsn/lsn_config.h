// Configuration of one node's LSN engine, draft-camarillo-rtgwg-lsn-00 §3.2.
//
// Everything the draft leaves to a controller or to the implementation is a
// field here, validated once (validate()) so the per-frame paths never check
// it again:
//   - Global Node IDs (§3.2.1 "outside the scope"): the fabric's device count
//     and, for an originating node, which IDs sit directly behind which port;
//   - which ports are trusted switch-to-switch links (§6: LSN is processed
//     only there and dropped unconditionally elsewhere);
//   - the origination period (§3.2.2 "periodically generated");
//   - the queue thresholds behind congestion levels 1..3 (§3.1 Msg-type,
//     "implementation specific"), with hysteresis;
//   - the TBD code points (wire::lsn::CodecOptions).
// Decisions and defaults are written down in docs/PROTOCOLS.md (LSN engine).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "common/units.h"
#include "proto/config_error.h"
#include "proto/fib/forwarding_types.h"
#include "wire/inet/ethernet.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {

// §6: LSN is accepted only on trusted switch-to-switch links; host-facing
// and external ports drop every LSN frame before it is parsed.
enum class PortRole : std::uint8_t { trusted, untrusted };

struct PortConfig {
  PortId id = 0;
  PortRole role = PortRole::trusted;
  // Link state before the host's first set_port_state(). It defaults to up
  // because a receiver latches a 0 (recovery needs the routing protocol),
  // so announcing "down" for a link that is in fact up would cost a
  // routing re-install.
  bool initially_up = true;
};

// "Global Node ID `node` is directly reachable through `port`" (§3.2.2).
// A spine lists each leaf and the port facing it. A node may be listed on
// several ports (parallel links): it is reachable while any is up.
struct Attachment {
  NodeId node = 0;
  PortId port = 0;
};

// Queue depth (bytes) -> congestion level 0..3 with hysteresis: the level
// rises to N when the depth reaches rise[N-1] and falls below N when the
// depth drops under fall[N-1]. Defaults are placeholders for a ~2 MiB
// per-port buffer; tune them to the switch model.
struct CongestionThresholds {
  std::array<std::uint64_t, 3> rise = {64 * 1024, 256 * 1024, 1024 * 1024};
  std::array<std::uint64_t, 3> fall = {32 * 1024, 128 * 1024, 512 * 1024};
};

inline constexpr Time kDefaultPeriod = us(100);

struct Config {
  wire::MacAddress node_mac{};  // source MAC of originated frames
  std::vector<PortConfig> ports;
  // Devices in the fabric: Global Node IDs are 0 .. num_devices-1, at most
  // 16,384 (Dev-Range is 6 bits). Frames are sent for Dev-Ranges
  // 0 .. ceil(num_devices / 256) - 1.
  std::uint32_t num_devices = 256;
  // Empty: this node originates nothing (a leaf, by default), unless
  // `transit` is set.
  std::vector<Attachment> attached;
  // Devices not in `attached` ("reachable through the device sending",
  // §3.1 Reachable-Devices-Bitmap). false: an originator's bits for them
  // are 1 and never change: it says nothing about them, and a 1 vetoes
  // nothing at the receiver. true: the node originates even with nothing
  // attached (a super-spine), and its host reports through
  // Originator::set_transit_reachable() whether its forwarding state
  // reaches each of them (1 until it says otherwise), so that a failure
  // several hops away reaches the ingress (§2 "limited visibility").
  bool transit = false;
  Time period = kDefaultPeriod;
  wire::lsn::CodecOptions codec{};
  CongestionThresholds congestion{};
  // Congestion frames (Msg-types 1..3) are re-sent periodically only while
  // some reachable node of their range is congested at that level, and for
  // `congestion_linger_periods` periods after it clears; every change is
  // sent at once regardless. true: re-send them every period, like Msg-type 0.
  bool always_send_congestion = false;
  std::uint32_t congestion_linger_periods = 3;
};

// Number of 256-device Dev-Ranges the fabric spans.
inline std::uint32_t range_count(std::uint32_t num_devices) {
  return (num_devices + wire::lsn::kDevicesPerRange - 1) /
         static_cast<std::uint32_t>(wire::lsn::kDevicesPerRange);
}

// Checks every field. Errors name the field:
//   node_mac: a group (multicast) address cannot be a source address;
//   ports: empty; ports[i].id: duplicate;
//   num_devices: 0 or > 16,384;
//   attached[i].node: >= num_devices; attached[i].port: not in ports;
//   attached[i]: the same (node, port) listed twice;
//   period: not positive;
//   congestion.rise[i]: zero or not strictly increasing;
//   congestion.fall[i]: zero, above rise[i], or decreasing;
//   congestion_linger_periods: zero while always_send_congestion is false
//     (a lost "cleared" frame would then never be repaired).
std::expected<void, ConfigError> validate(const Config& config);

}  // namespace arfabric::proto::lsn
