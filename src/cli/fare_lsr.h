// `arfabric fare-lsr`: FARE over IS-IS or OSPFv2 from a capture. Reads a
// pcap or pcapng file (what `tcpdump` or `dumpcap` saves on a router's
// interfaces; IS-IS needs Ethernet frames) and prints the routes one router
// computes from the link-state database in it with
// proto::fare::compute_routes (draft-xu-lsr-fare-04 §4, §5): per prefix,
// its first hops and their weights, and the Path Bandwidth to leak. One
// JSON object per route, ordered by prefix.
//
// Which protocol is read follows from --self: a system ID
// (0000.0000.0001) reads the IS-IS LSPs of one level (--level), a router
// ID (10.0.0.1) the OSPFv2 LSAs of one area (--area) from the Link State
// Updates of the capture.
//   - IS-IS: the newest of each LSP (the highest sequence number, at an
//     equal one a purge; a valid checksum, or a purge's 0); those purged
//     or whose lifetime ran out before the capture's last frame are gone.
//   - OSPFv2: the newest of each LSA in capture time by RFC 2328 §13.1
//     (signed sequence number, then checksum, then MaxAge; of two copies
//     of one instance the one that lives longer), with a valid checksum
//     in a packet with a valid checksum; a flushed or aged-out instance
//     gives way to one originated since (RFC 2328 §14: a restarted router
//     begins its sequence again), not to copies flooded before it went;
//     those at MaxAge or whose age reached it before the capture's last
//     frame are gone. Frames may be Ethernet (802.1Q/802.1ad tags
//     stepped over), raw IP or Linux cooked (`tcpdump -i any`); IP
//     fragments are not reassembled. What the area's LSAs hold that the
//     database cannot use (LANs, external routes, ...) is said, by kind,
//     with the first LSA of each.
// What is skipped is counted on `err` (bad checksums, pseudonodes, IP
// fragments, frames of other link types, what does not decode, with the
// first error: its offset counts from the IS-IS LLC header, the OSPF
// packet header, or for an IP header that does not decode the IP header).
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <optional>
#include <string>

namespace arfabric::cli {

struct FareLsrOptions {
  std::string pcap_path;
  std::string self;  // system ID "0000.0000.0001" or router ID "10.0.0.1"
  std::optional<int> level;         // IS-IS only; 2 when not given
  std::optional<std::string> area;  // OSPFv2 only; "0.0.0.0" when not given
  bool pretty = false;
};

void add_fare_lsr_command(CLI::App& app, FareLsrOptions& options);

// 0: routes printed (perhaps none); 1: a bad option, the file cannot be
// read, it holds no usable LSP of the level or LSA of the area, the router
// is not among them, or they do not make a database (each says which, on
// `err`).
int run_fare_lsr(const FareLsrOptions& options, std::ostream& out,
                 std::ostream& err);

}  // namespace arfabric::cli
