// Runs a fixed number of events of the packet-hop benchmark's workload
// (bench/clos_loop.h) for counting rather than timing: under callgrind,
// bench/callgrind_hops.sh collects only inside run_events() and divides
// instructions and simulated cache misses by the packet hops this prints.
// Those counts are the same on every run, so two builds can be compared
// where the machine's timing noise (+-30 %) hides a 5 % change.
//   sim_hop_count LEAVES EVENTS
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <system_error>

#include "clos_loop.h"

using arfabric::sim::bench::ClosLoop;

// Not inlined: callgrind's --toggle-collect names it.
[[gnu::noinline]] void run_events(ClosLoop& loop, long events) {
  loop.run(events);
}

// The whole of `text` as a number, or -1.
long parse_count(const char* text) {
  long v = 0;
  const char* end = text + std::strlen(text);
  const auto [ptr, ec] = std::from_chars(text, end, v);
  return ec == std::errc() && ptr == end && end != text ? v : -1;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LEAVES EVENTS\n", argv[0]);
    return 2;
  }
  const long leaves = parse_count(argv[1]);
  const long events = parse_count(argv[2]);
  if (leaves < 2 || leaves > 4096) {
    std::fprintf(stderr, "%s: LEAVES '%s' is not a number within 2..4096\n",
                 argv[0], argv[1]);
    return 2;
  }
  if (events < 1) {
    std::fprintf(stderr, "%s: EVENTS '%s' is not a number above 0\n", argv[0],
                 argv[2]);
    return 2;
  }
  try {
    ClosLoop loop(static_cast<std::uint32_t>(leaves));
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
