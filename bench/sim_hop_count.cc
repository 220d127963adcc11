// Runs a fixed number of events of the packet-hop benchmark's workload
// (bench/clos_loop.h) for counting rather than timing: under callgrind,
// bench/callgrind_hops.sh collects only inside run_events() and divides
// instructions and simulated cache misses by the packet hops this prints.
// Those counts are the same on every run, so two builds can be compared
// where the machine's timing noise (+-30 %) hides a 5 % change.
//   sim_hop_count LEAVES EVENTS [--non-blocking]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "clos_loop.h"

using arfabric::sim::bench::ClosLoop;
using arfabric::sim::bench::ClosShape;

// Not inlined: callgrind's --toggle-collect names it.
[[gnu::noinline]] void run_events(ClosLoop& loop, long events) {
  loop.run(events);
}

int main(int argc, char** argv) {
  CLI::App app{"Runs the packet-hop workload's events for counting"};
  std::uint32_t leaves = 0;
  long events = 0;
  bool non_blocking = false;
  app.add_option("LEAVES", leaves,
                 "leaves of the CLOS (dense: 8 hosts each, LEAVES / 2 spines)")
      ->required()
      ->check(CLI::Range(2, 4096));
  app.add_option("EVENTS", events, "events to run after the warm-up")
      ->required()
      ->check(CLI::Range(1L, 1L << 40));
  app.add_flag("--non-blocking", non_blocking,
               "LEAVES spines and LEAVES hosts per leaf instead");
  CLI11_PARSE(app, argc, argv);
  try {
    ClosLoop loop(non_blocking ? ClosShape::non_blocking(leaves)
                               : ClosShape::dense(leaves));
    const std::uint64_t hops0 = loop.network().counters().packet_hops;
    const std::uint64_t pushed0 = loop.events().pushed();
    run_events(loop, events);
    std::printf(
        "hosts %u packet_hops %llu events_pushed %llu\n", loop.hosts(),
        static_cast<unsigned long long>(loop.network().counters().packet_hops -
                                        hops0),
        static_cast<unsigned long long>(loop.events().pushed() - pushed0));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
  return 0;
}
