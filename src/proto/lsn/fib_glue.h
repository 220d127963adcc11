// The host step between a node's LSN engine and its Fib
// (draft-camarillo-rtgwg-lsn-00 §3.2.3: "the path is removed from the
// forwarding table" -- the engine reports, the Fib removes and latches).
//
// The engine never calls the Fib (lsn_engine.h): keeping the two apart lets
// each be tested alone and lets the simulator delay the update by the
// hardware's processing time. This is the one place that turns the engine's
// records into Fib calls, so the simulator, the Linux agent and the tests
// apply them the same way:
//   - every VetoChange first, then every CongestionChange. A veto changes
//     the member set; congestion of a vetoed member is ignored by the Fib,
//     so this order avoids a rebuild for a weight that no longer counts.
//   - the recovery latch (a "reachable" record alone does not restore a
//     path, §4.2) is the Fib's: records are passed through unchanged.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "common/units.h"
#include "proto/fib/fib.h"
#include "proto/fib/forwarding_types.h"
#include "proto/lsn/lsn_engine.h"

namespace arfabric::proto::lsn {

struct FibApplyResult {
  std::size_t applied = 0;   // records the Fib accepted
  std::size_t rejected = 0;  // records the Fib refused
  // The first refusal, e.g. "veto.destination" when the Fib has fewer
  // destinations than the LSN fabric has devices (a configuration
  // mismatch the host should report once).
  std::optional<ConfigError> first_error;
  bool ok() const { return rejected == 0; }
};

// Applies the records to `fib` at time `now`. A refused record does not stop
// the others (a partial update would leave the Fib further from the
// engine's view than necessary). No allocation unless a record is refused.
FibApplyResult apply_to_fib(fib::Fib& fib, std::span<const VetoChange> vetoes,
                            std::span<const CongestionChange> congestion,
                            Time now);

// The engine's pending records (veto_changes(), congestion_changes()),
// applied as above, then cleared from the engine.
FibApplyResult apply_to_fib(fib::Fib& fib, Engine& engine, Time now);

// The path through a neighbour's port toward a destination no LSN bit
// names: a host multi-homed to several devices (draft-xu-idr-fare §4.1,
// server multi-homing), which the neighbour reaches through any of them.
// Reachable when the neighbour reports any of them reachable, at the
// lowest congestion level among those it reports reachable
// (docs/PROTOCOLS.md, LSN). `level` is 0 when not reachable.
struct MultiHomedPath {
  bool reachable = true;
  std::uint8_t level = 0;
  bool operator==(const MultiHomedPath&) const = default;
};

// The path through `port` toward a host on `devices`, as `received`
// reports them, leaving out `except` (the receiving switch, when it is one
// of them: a neighbour's bit for it says nothing about the host); nullopt
// when no device but `except` is given.
std::optional<MultiHomedPath> multihomed_path(const Receiver& received,
                                              PortId port,
                                              std::span<const NodeId> devices,
                                              NodeId except);

}  // namespace arfabric::proto::lsn
