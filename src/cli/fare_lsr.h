// `arfabric fare-lsr`: FARE over IS-IS from a capture. Reads the IS-IS
// LSPs of one level from a pcap or pcapng file of Ethernet frames (what
// `tcpdump` or `dumpcap` saves on a router's interfaces), keeps the newest
// of each LSP (the highest sequence number, at an equal one a purge; a
// valid checksum, or a purge's 0), drops those purged or whose lifetime
// ran out before the capture's last frame, says how many it skipped (bad
// checksum, pseudonode, not decodable, with the first error), and prints
// the routes one router computes from them with
// proto::fare::compute_routes (draft-xu-lsr-fare-04 §4, §5): per prefix,
// its first hops and their weights, and the Path Bandwidth to leak. One
// JSON object per route, ordered by prefix.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>

namespace arfabric::cli {

struct FareLsrOptions {
  std::string pcap_path;
  std::string self;  // system ID, "0000.0000.0001"
  int level = 2;
  bool pretty = false;
};

void add_fare_lsr_command(CLI::App& app, FareLsrOptions& options);

// 0: routes printed (perhaps none); 1: the file cannot be read, it holds
// no usable LSP of the level, the router is not among them, or the LSPs
// do not make a database (each says which, on `err`).
int run_fare_lsr(const FareLsrOptions& options, std::ostream& out,
                 std::ostream& err);

}  // namespace arfabric::cli
