// The speaker's routing table: Adj-RIB-In, Loc-RIB and the decision process
// with eBGP multipath and FARE weights (RFC 4271 section 9.1, RFC 7938
// section 6.3, draft-xu-idr-fare section 4).
//
// One entry per destination holds every path received for it (the union of
// the Adj-RIBs-In, as BIRD keeps them) plus the result of the last decision:
// the multipath set with its weights (what the FIB gets) and the attributes
// to export (what Adj-RIB-Out sends). Entries live in a deque addressed by a
// dense index so that per-peer Adj-RIB-Out state can be a bit per entry.
//
// Changes are made with add_path / remove_path / flush_peer, which only mark
// entries dirty; decide() runs the decision process on the dirty entries and
// reports which changed, so that one UPDATE of 1,000 prefixes costs one pass.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
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

// A next hop as the RIB installs it: 4 bytes (IPv4), 16 (IPv6) or 32
// (IPv6 global and link-local, RFC 2545 section 3), held in place so that
// copying a multipath set -- into every FibUpdate, for every decision that
// changes it -- allocates nothing.
class NextHopAddress {
 public:
  static constexpr std::size_t kCapacity = 32;

  NextHopAddress() = default;
  // Precondition: at most kCapacity bytes. The RIB's next hops come from
  // attributes the wire layer checked (RFC 7606 section 7.11: 4, 16 or 32
  // bytes for the families the RIB holds); anything longer is cut to
  // kCapacity (asserted in debug builds).
  NextHopAddress(ByteSpan bytes) { assign(bytes); }
  NextHopAddress(const Bytes& bytes) { assign(bytes); }
  NextHopAddress(std::initializer_list<std::uint8_t> bytes) {
    assign({bytes.begin(), bytes.size()});
  }
  void assign(ByteSpan bytes) {
    assert(bytes.size() <= kCapacity);
    size_ = static_cast<std::uint8_t>(std::min(bytes.size(), kCapacity));
    bytes_ = {};
    std::copy_n(bytes.begin(), size_, bytes_.begin());
  }

  const std::uint8_t* data() const { return bytes_.data(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const std::uint8_t* begin() const { return bytes_.data(); }
  const std::uint8_t* end() const { return bytes_.data() + size_; }
  std::uint8_t operator[](std::size_t i) const { return bytes_[i]; }
  operator ByteSpan() const { return {begin(), end()}; }
  Bytes to_bytes() const { return Bytes(begin(), end()); }

  // Bytes beyond size() are zero, so comparing all of them compares the
  // addresses; shorter first where one is a prefix of the other.
  friend bool operator==(const NextHopAddress&,
                         const NextHopAddress&) = default;
  friend bool operator<(const NextHopAddress& a, const NextHopAddress& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const NextHopAddress& a, const Bytes& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<std::uint8_t, kCapacity> bytes_{};
  std::uint8_t size_ = 0;
};

// One member of the installed multipath set.
struct NextHopWeight {
  PeerId peer = kLocalPeer;
  NextHopAddress next_hop;
  BitsPerSecond weight = 0;  // FARE path bandwidth, or 1 for equal weights
  bool operator==(const NextHopWeight&) const = default;
};

// An installed multipath set: immutable, and shared by every destination
// whose set is equal (all prefixes of one received UPDATE, usually), so an
// entry holds one 8-byte pointer instead of a vector and a copy of each next
// hop. Reads like a const std::vector<NextHopWeight> and converts to one.
// The count of holders is not atomic: a set never leaves its Rib, and a Rib
// is used by one thread.
class NextHopSet {
 public:
  NextHopSet() = default;
  explicit NextHopSet(std::vector<NextHopWeight> members)
      : node_(members.empty() ? nullptr : new Node{1, std::move(members)}) {}
  NextHopSet(const NextHopSet& o) : node_(o.node_) {
    if (node_) ++node_->holders;
  }
  NextHopSet(NextHopSet&& o) noexcept
      : node_(std::exchange(o.node_, nullptr)) {}
  NextHopSet& operator=(NextHopSet o) noexcept {
    std::swap(node_, o.node_);
    return *this;
  }
  ~NextHopSet() {
    if (node_ && --node_->holders == 0) delete node_;
  }

  const std::vector<NextHopWeight>& members() const {
    static const std::vector<NextHopWeight> kNone;
    return node_ ? node_->members : kNone;
  }
  operator const std::vector<NextHopWeight>&() const { return members(); }
  auto begin() const { return members().begin(); }
  auto end() const { return members().end(); }
  std::size_t size() const { return node_ ? node_->members.size() : 0; }
  bool empty() const { return !node_; }
  const NextHopWeight& operator[](std::size_t i) const {
    return node_->members[i];
  }
  bool operator==(const NextHopSet& o) const {
    return node_ == o.node_ || members() == o.members();
  }

 private:
  struct Node {
    std::size_t holders;
    std::vector<NextHopWeight> members;
  };
  Node* node_ = nullptr;
};

// The paths to one destination, in no particular order. Most destinations
// have one (a single peer announces them): it is kept inline, and only a
// second path moves them to a heap vector -- 24 bytes per destination
// instead of a vector and its heap block (56). Paths always carry
// attributes: with the inline slot's `attributes` nullptr, its two 32-bit
// integers (peer, path_id) hold the heap vector's address (0: no paths).
class PathList {
 public:
  PathList() { set_many(nullptr); }
  PathList(const PathList& o) : one_(o.one_) {
    if (const std::vector<Path>* m = o.many()) {
      set_many(new std::vector<Path>(*m));
    }
  }
  PathList(PathList&& o) noexcept : one_(std::move(o.one_)) {
    o.set_many(nullptr);
  }
  PathList& operator=(PathList o) noexcept {
    std::swap(one_, o.one_);
    return *this;
  }
  ~PathList() { delete many(); }

  Path* begin() { return many() ? many()->data() : &one_; }
  Path* end() { return begin() + size(); }
  const Path* begin() const { return many() ? many()->data() : &one_; }
  const Path* end() const { return begin() + size(); }
  std::size_t size() const {
    if (one_.attributes) return 1;
    const std::vector<Path>* m = many();
    return m ? m->size() : 0;
  }
  bool empty() const { return size() == 0; }
  const Path& operator[](std::size_t i) const { return begin()[i]; }

  void push_back(Path path) {
    std::vector<Path>* m = many();
    if (!m) {
      if (!one_.attributes) {
        one_ = std::move(path);
        return;
      }
      m = new std::vector<Path>();
      m->reserve(2);
      m->push_back(std::move(one_));
      set_many(m);
    }
    m->push_back(std::move(path));
  }
  // `at` must point into this list.
  void erase(const Path* at) {
    std::vector<Path>* m = many();
    if (!m) {
      set_many(nullptr);
      return;
    }
    m->erase(m->begin() + (at - m->data()));
    settle(m);
  }
  // Removes the paths matching `pred`; returns how many.
  template <typename Pred>
  std::size_t erase_if(Pred&& pred) {
    std::vector<Path>* m = many();
    if (!m) {
      if (!one_.attributes || !pred(std::as_const(one_))) return 0;
      set_many(nullptr);
      return 1;
    }
    const std::size_t n = std::erase_if(*m, pred);
    settle(m);
    return n;
  }

 private:
  std::vector<Path>* many() const {
    if (one_.attributes) return nullptr;
    return reinterpret_cast<std::vector<Path>*>(
        static_cast<std::uintptr_t>(one_.path_id) << 32 | one_.peer);
  }
  // Empties the inline slot and stores `m` (nullptr: no paths) in it.
  void set_many(std::vector<Path>* m) {
    static_assert(sizeof(std::uintptr_t) == 8);
    const auto bits = reinterpret_cast<std::uintptr_t>(m);
    one_.attributes.reset();
    one_.peer = static_cast<PeerId>(bits);
    one_.path_id = static_cast<std::uint32_t>(bits >> 32);
  }
  // Back inline when one path is left, nothing allocated when none is.
  void settle(std::vector<Path>* m) {
    if (m->size() > 1) return;
    Path last = m->empty() ? Path{} : std::move(m->front());
    delete m;
    set_many(nullptr);
    if (last.attributes) one_ = std::move(last);
  }
  Path one_;
};

struct RibEntry {
  Destination destination;  // 19 bytes: the flags below fill its padding
  bool local_best = false;  // the last decision: an originated path won
  fare::FallbackReason fare_reason = fare::FallbackReason::none;
  bool dirty = false;
  bool in_use = false;
  PathList paths;  // at most one per (peer, path_id)
  // The last decision.
  NextHopSet installed;    // empty: no route (or local only)
  AttributesRef exported;  // nullptr: nothing to advertise
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
  // `path.attributes` must not be nullptr (the decision reads them).
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

  std::size_t size() const { return index_count_; }
  std::size_t path_count() const { return path_count_; }
  // Paths held from `peer` now (what a neighbour summary calls prefixes
  // received); not counted for kLocalPeer.
  std::size_t path_count(PeerId peer) const {
    return peer < peer_paths_.size() ? peer_paths_[peer] : 0;
  }
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
  // Where `d` is in the index: its entry (or kNoEntry) and slot (or the
  // free slot that ends its probe run), and its tag. The index must not be
  // empty.
  struct Probe {
    std::uint32_t entry;
    std::size_t slot;
    std::uint8_t tag;
  };
  Probe probe(const Destination& d) const;
  // The index of the entry for `d`, or kNoEntry.
  std::uint32_t lookup(const Destination& d) const;
  void index_erase(const Destination& d);
  void index_grow();
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
  // A deque, not a vector: growing never copies the table, so a million
  // entries never exist twice at once (a vector's doubling was the peak of
  // the daemon's memory).
  std::deque<RibEntry> entries_;
  std::vector<std::uint32_t> free_;
  // Destination -> entry index: open addressing with linear probing; per
  // slot a 1-byte hash tag (0: empty) and the entry index + 1, the key
  // itself read from the entry. A node-based map cost ~60 bytes and a cache
  // miss per destination; this costs ~10 bytes (load at most 1/2).
  static constexpr std::uint32_t kNoEntry = 0xffffffff;
  std::vector<std::uint8_t> index_tags_;
  std::vector<std::uint32_t> index_;
  std::size_t index_count_ = 0;
  unsigned index_bits_ = 0;
  std::unordered_map<Destination, std::uint32_t, DestinationHash> multihomed_;
  std::vector<std::uint32_t> dirty_;
  std::size_t path_count_ = 0;
  std::vector<std::size_t> peer_paths_;  // path_count(peer)
  // The last export computed: consecutive prefixes of one UPDATE usually
  // export the same attributes, and sharing the object lets Adj-RIB-Out
  // pack them into one UPDATE again.
  struct ExportMemo {
    const RouteAttributes* source = nullptr;
    std::optional<wire::fare::PathBandwidth> transitive, non_transitive;
    AttributesRef result;
  } memo_;
  // run_decision's working vectors, kept for their capacity.
  struct DecisionScratch {
    std::vector<const Path*> order, selected;
    std::vector<fare::Candidate> candidates;
    fare::ImportResult weights;
    std::vector<NextHopWeight> installed;
  } scratch_;
  // The last installed set made: the next destination's is usually equal.
  NextHopSet installed_memo_;
};

}  // namespace arfabric::proto::bgp
