// The speaker's routing table: Adj-RIB-In, Loc-RIB and the decision process
// with eBGP multipath and FARE weights (RFC 4271 section 9.1, RFC 7938
// section 6.3, draft-xu-idr-fare section 4).
//
// One entry per destination holds every path received for it (the union of
// the Adj-RIBs-In, as BIRD keeps them) plus the result of the last decision:
// the multipath set with its weights (what the FIB gets) and the attributes
// to export (what Adj-RIB-Out sends). Entries live in a vector addressed by a
// dense index so that per-peer Adj-RIB-Out state can be a bit per entry.
//
// Changes are made with add_path / remove_path / flush_peer, which only mark
// entries dirty; decide() runs the decision process on the dirty entries and
// reports which changed, so that one UPDATE of 1,000 prefixes costs one pass.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/units.h"
#include "proto/bgp/route.h"
#include "proto/fare/policy.h"

namespace arfabric::proto::bgp {

// What the table needs to know about a peer; the speaker keeps it current.
struct RibPeer {
  std::uint32_t remote_as = 0;
  std::uint32_t remote_id = 0;     // BGP Identifier, host order (tie-break)
  std::uint32_t address_rank = 0;  // lower wins the last tie-break
  fare::Role role = fare::Role::leaf;
  BitsPerSecond link_bandwidth = 0;
};

struct RibConfig {
  std::uint32_t local_as = 0;
  std::uint32_t maximum_paths = 64;  // 1 = single best path
  // RFC 7938 section 6.3: paths via different neighbouring ASes may share
  // the load (FRR "bgp bestpath as-path multipath-relax").
  bool multipath_relax = true;
  bool always_compare_med = false;
  bool fare_enabled = true;  // false: equal weights, ECs left as received
  fare::FareConfig fare;
};

// One member of the installed multipath set.
struct NextHopWeight {
  PeerId peer = kLocalPeer;
  Bytes next_hop;
  BitsPerSecond weight = 0;  // FARE path bandwidth, or 1 for equal weights
  bool operator==(const NextHopWeight&) const = default;
};

struct RibEntry {
  Destination destination;
  std::vector<Path> paths;  // unordered; at most one per (peer, path_id)
  // The last decision.
  std::vector<NextHopWeight> installed;  // empty: no route (or local only)
  bool local_best = false;               // an originated path won
  AttributesRef exported;                // nullptr: nothing to advertise
  fare::FallbackReason fare_reason = fare::FallbackReason::none;
  bool dirty = false;
  bool in_use = false;
};

struct DecisionChange {
  std::uint32_t index = 0;
  bool installed_changed = false;
  bool exported_changed = false;
};

class Rib {
 public:
  explicit Rib(RibConfig config);

  const RibConfig& config() const { return config_; }
  // Peers are addressed by PeerId = position; set before paths arrive and
  // whenever a peer's data change (then call mark_peer_dirty).
  void set_peer(PeerId peer, const RibPeer& info);
  const RibPeer& peer(PeerId id) const { return peers_[id]; }

  // Adds or replaces the path (peer, path_id) to `d`; marks it dirty.
  void add_path(const Destination& d, Path path);
  // Removes the path if present; marks the entry dirty when it was.
  void remove_path(const Destination& d, PeerId peer, std::uint32_t path_id);
  // Removes every path of `peer` (session down), optionally only of one
  // address family (RFC 7606 AFI/SAFI disable).
  void flush_peer(PeerId peer, std::optional<std::uint16_t> afi = {});
  // Re-runs the decision for every entry with a path from `peer` (its link
  // bandwidth or role changed).
  void mark_peer_dirty(PeerId peer);
  // Multi-homing (draft-xu-idr-fare section 4.1): the number of leaves `d`
  // is attached to, from configuration; 1 when not set.
  void set_multihomed_leaves(const Destination& d, std::uint32_t leaves);

  // Runs the decision process on every dirty entry, in the order they were
  // marked, and returns those whose installed set or export changed.
  std::vector<DecisionChange> decide();

  std::size_t size() const { return by_destination_.size(); }
  std::size_t path_count() const { return path_count_; }
  const RibEntry* find(const Destination& d) const;
  const RibEntry& entry(std::uint32_t index) const { return entries_[index]; }
  std::size_t capacity() const { return entries_.size(); }
  // Entry indices in use, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (std::uint32_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].in_use) f(i, entries_[i]);
    }
  }
  // Releases entries that have no path and nothing advertised; the speaker
  // calls it with a predicate saying whether any peer still holds the
  // entry's advertisement.
  template <typename StillAdvertised>
  void collect(std::uint32_t index, StillAdvertised&& still_advertised) {
    RibEntry& e = entries_[index];
    if (e.in_use && e.paths.empty() && !e.exported && !e.dirty &&
        !still_advertised(index)) {
      release(index);
    }
  }

 private:
  std::uint32_t slot_for(const Destination& d);
  void mark_dirty(std::uint32_t index);
  DecisionChange run_decision(std::uint32_t index);
  // True when `a` is preferred over `b` (RFC 4271 section 9.1.2.2).
  bool better(const Path& a, const Path& b) const;
  bool multipath_equal(const Path& best, const Path& other) const;
  AttributesRef export_attributes(const Path& best,
                                  const fare::ExportResult& fare_export);
  void release(std::uint32_t index);

  RibConfig config_;
  std::vector<RibPeer> peers_;
  std::vector<RibEntry> entries_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<Destination, std::uint32_t, DestinationHash>
      by_destination_;
  std::unordered_map<Destination, std::uint32_t, DestinationHash> multihomed_;
  std::vector<std::uint32_t> dirty_;
  std::size_t path_count_ = 0;
  // The last export computed: consecutive prefixes of one UPDATE usually
  // export the same attributes, and sharing the object lets Adj-RIB-Out
  // pack them into one UPDATE again.
  struct ExportMemo {
    const RouteAttributes* source = nullptr;
    std::optional<wire::fare::PathBandwidth> transitive, non_transitive;
    AttributesRef result;
  } memo_;
};

}  // namespace arfabric::proto::bgp
