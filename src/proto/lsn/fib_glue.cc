#include "proto/lsn/fib_glue.h"

namespace arfabric::proto::lsn {
namespace {

template <typename Outcome>
void count(FibApplyResult& r, Outcome&& outcome) {
  if (outcome) {
    ++r.applied;
    return;
  }
  if (++r.rejected == 1) r.first_error = std::move(outcome).error();
}

}  // namespace

FibApplyResult apply_to_fib(fib::Fib& fib, std::span<const VetoChange> vetoes,
                            std::span<const CongestionChange> congestion,
                            Time now) {
  FibApplyResult r;
  for (const VetoChange& v : vetoes) count(r, fib.apply(v, now));
  for (const CongestionChange& c : congestion) count(r, fib.apply(c));
  return r;
}

FibApplyResult apply_to_fib(fib::Fib& fib, Engine& engine, Time now) {
  FibApplyResult r = apply_to_fib(fib, engine.veto_changes(),
                                  engine.congestion_changes(), now);
  engine.clear_changes();
  return r;
}

std::optional<MultiHomedPath> multihomed_path(const Receiver& received,
                                              PortId port,
                                              std::span<const NodeId> devices,
                                              NodeId except) {
  std::optional<MultiHomedPath> path;
  for (NodeId device : devices) {
    if (device == except) continue;
    if (!path) path = MultiHomedPath{false, 0};
    if (!received.reachable(port, device)) continue;
    const std::uint8_t level = received.congestion_level(port, device);
    if (!path->reachable || level < path->level) path = {true, level};
  }
  return path;
}

}  // namespace arfabric::proto::lsn
