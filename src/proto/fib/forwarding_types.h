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

}  // namespace arfabric::proto
