// Vocabulary shared by the forwarding-plane engines (fib, lsn, arn, ibcs)
// and their hosts (simulator, Linux agent).
//
// Engines do not call each other: the LSN and ARN engines emit records
// (VetoChange, CongestionChange) that their host applies to the node's Fib.
// This keeps each engine testable alone and lets the simulator add the
// per-frame processing delay the drafts' hardware would have.
#pragma once

#include <array>
#include <cstdint>

namespace arfabric::proto {

// A port of this node. A next hop is the neighbour behind a port.
using PortId = std::uint16_t;
// A destination node: for LSN its Global Node ID (bit index,
// Dev-Range * 256 + bit), for routes the node behind a prefix.
using NodeId = std::uint32_t;
inline constexpr NodeId kMaxLsnNodes = 64 * 256;  // 6-bit Dev-Range

// Who vetoed a path. A member is excluded while any source vetoes it
// (draft-camarillo-rtgwg-lsn §3.2.3: routing AND notification).
enum class VetoSource : std::uint8_t { lsn = 0, arn = 1 };
inline constexpr std::size_t kVetoSources = 2;

// "The path through `port` toward `destination` is (no longer) vetoed."
struct VetoChange {
  PortId port = 0;
  NodeId destination = 0;
  VetoSource source = VetoSource::lsn;
  bool vetoed = false;
  bool operator==(const VetoChange&) const = default;
};

// Congestion seen on the path through `port` toward `destination`:
// 0 = not congested, 1..3 = increasing levels (LSN Msg-types 1..3, ARN
// Metric mapped onto the same scale). Congestion lowers a member's share;
// it never removes the member (docs/PROTOCOLS.md, FIB).
struct CongestionChange {
  PortId port = 0;
  NodeId destination = 0;
  VetoSource source = VetoSource::lsn;
  std::uint8_t level = 0;
  bool operator==(const CongestionChange&) const = default;
};

// The fields path selection hashes, read before any header mutation
// (draft-tian-ccwg-ibcs-datapath-processing, "Phase 2"). IPv4 addresses use
// the first 4 bytes.
struct FlowKey {
  std::array<std::uint8_t, 16> source{};
  std::array<std::uint8_t, 16> destination{};
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  std::uint8_t protocol = 0;
  bool operator==(const FlowKey&) const = default;
};

// Which FlowKey fields a FlowMatch compares: the bit values of the ARN
// 5-tuple Mask (draft-wh-rtgwg-adaptive-routing-arn §3.2.1), so a received
// Mask is used as is.
inline constexpr std::uint8_t kMatchProtocol = 0x10;
inline constexpr std::uint8_t kMatchSource = 0x08;
inline constexpr std::uint8_t kMatchDestination = 0x04;
inline constexpr std::uint8_t kMatchSourcePort = 0x02;
inline constexpr std::uint8_t kMatchDestinationPort = 0x01;
inline constexpr std::uint8_t kMatchAll = 0x1f;

// A flow (all fields significant) or an aggregate (some fields wildcards).
// Addresses compare all 16 bytes: an IPv4 key or match has zeros after
// the first 4, so it never equals an IPv6 address unless that address
// ends in 12 zero bytes (the deprecated IPv4-compatible ::a.b.c.d).
struct FlowMatch {
  std::uint8_t fields = 0;  // kMatch* bits; the others are wildcards
  FlowKey key{};            // wildcard fields are zero (normalise())

  bool matches(const FlowKey& k) const {
    return (!(fields & kMatchProtocol) || k.protocol == key.protocol) &&
           (!(fields & kMatchDestinationPort) ||
            k.destination_port == key.destination_port) &&
           (!(fields & kMatchSourcePort) || k.source_port == key.source_port) &&
           (!(fields & kMatchDestination) ||
            k.destination == key.destination) &&
           (!(fields & kMatchSource) || k.source == key.source);
  }
  // Zeroes the wildcard fields, so equal matches compare equal.
  FlowMatch& normalise() {
    if (!(fields & kMatchProtocol)) key.protocol = 0;
    if (!(fields & kMatchSource)) key.source = {};
    if (!(fields & kMatchDestination)) key.destination = {};
    if (!(fields & kMatchSourcePort)) key.source_port = 0;
    if (!(fields & kMatchDestinationPort)) key.destination_port = 0;
    return *this;
  }
  bool operator==(const FlowMatch&) const = default;
};

// A per-flow override (ARN flow-granular affected object, §3.1): for
// packets to `destination` whose FlowKey `match`es, the path through
// `port` is vetoed (failure) and/or has congestion `level` 0..3. The record
// gives the whole new state of the override keyed by (destination, match,
// port, source); vetoed = false and level = 0 removes it.
struct FlowOverrideChange {
  NodeId destination = 0;
  FlowMatch match{};
  PortId port = 0;
  VetoSource source = VetoSource::arn;
  bool vetoed = false;
  std::uint8_t level = 0;
  bool operator==(const FlowOverrideChange&) const = default;
};

}  // namespace arfabric::proto
