#include "proto/bgp/rib.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "common/hash.h"

namespace arfabric::proto::bgp {

namespace wb = wire::bgp;

Rib::Rib(RibConfig config) : config_(std::move(config)) {}

void Rib::set_peer(PeerId peer, const RibPeer& info) {
  if (peers_.size() <= peer) peers_.resize(peer + 1);
  peers_[peer] = info;
}

namespace {

// The address as two words (bits past the length are zero), mixed by
// mix64: linear probing needs every key bit to reach the top bits, or runs
// of sequential prefixes cluster.
std::uint64_t hash_of(const Destination& d) {
  std::uint64_t hi, lo;
  std::memcpy(&hi, d.address.data(), 8);
  std::memcpy(&lo, d.address.data() + 8, 8);
  return mix64(hi ^ (lo * 0x9e3779b97f4a7c15ull) ^
               ((std::uint64_t{d.afi} << 8 | d.length) << 48));
}

// 1..255 from the low bits (the slot comes from the high ones).
std::uint8_t tag_of(std::uint64_t h) {
  const auto t = static_cast<std::uint8_t>(h);
  return t == 0 ? 1 : t;
}

}  // namespace

Rib::Probe Rib::probe(const Destination& d) const {
  const std::uint64_t h = hash_of(d);
  const std::uint8_t tag = tag_of(h);
  const std::size_t mask = index_tags_.size() - 1;
  std::size_t i = static_cast<std::size_t>(h >> (64 - index_bits_));
  // Most probes stop at a tag (a byte array, few cache lines); an entry is
  // read only when its tag matches.
  for (;; i = (i + 1) & mask) {
    const std::uint8_t t = index_tags_[i];
    if (t == 0) return Probe{kNoEntry, i, tag};
    if (t == tag && entries_[index_[i] - 1].destination == d) {
      return Probe{index_[i] - 1, i, tag};
    }
  }
}

std::uint32_t Rib::lookup(const Destination& d) const {
  return index_tags_.empty() ? kNoEntry : probe(d).entry;
}

void Rib::index_grow() {
  index_bits_ = std::max(index_bits_ + 1, 4u);
  index_tags_.assign(std::size_t{1} << index_bits_, 0);
  index_.assign(std::size_t{1} << index_bits_, 0);
  // Rebuilt from the entries in storage order (sequential reads) rather
  // than from the old slots (a random read per entry).
  for (std::uint32_t e = 0; e < entries_.size(); ++e) {
    if (!entries_[e].in_use) continue;
    const Probe p = probe(entries_[e].destination);
    index_tags_[p.slot] = p.tag;
    index_[p.slot] = e + 1;
  }
}

void Rib::index_erase(const Destination& d) {
  if (index_tags_.empty()) return;
  const Probe p = probe(d);
  if (p.entry == kNoEntry) return;
  // Backward-shift deletion: move later members of the probe run into the
  // hole when their home does not lie cyclically in (hole, their slot], so
  // that lookups never need tombstones.
  const std::size_t mask = index_tags_.size() - 1;
  std::size_t hole = p.slot;
  for (std::size_t j = (hole + 1) & mask; index_tags_[j] != 0;
       j = (j + 1) & mask) {
    const std::size_t home = static_cast<std::size_t>(
        hash_of(entries_[index_[j] - 1].destination) >> (64 - index_bits_));
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      index_tags_[hole] = index_tags_[j];
      index_[hole] = index_[j];
      hole = j;
    }
  }
  index_tags_[hole] = 0;
  index_[hole] = 0;
  --index_count_;
}

std::uint32_t Rib::slot_for(const Destination& d) {
  // Grow first (load at most 1/2), so that the probe's free slot stays
  // valid for the insertion: one probe finds or places.
  if ((index_count_ + 1) * 2 > index_tags_.size()) index_grow();
  const Probe p = probe(d);
  if (p.entry != kNoEntry) return p.entry;
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  RibEntry& e = entries_[index];
  e = RibEntry{};
  e.destination = d;
  e.in_use = true;
  index_tags_[p.slot] = p.tag;
  index_[p.slot] = index + 1;
  ++index_count_;
  return index;
}

void Rib::release(std::uint32_t index) {
  index_erase(entries_[index].destination);
  entries_[index] = RibEntry{};
  free_.push_back(index);
}

void Rib::mark_dirty(std::uint32_t index) {
  if (entries_[index].dirty) return;
  entries_[index].dirty = true;
  dirty_.push_back(index);
}

void Rib::add_path(const Destination& d, Path path) {
  const std::uint32_t index = slot_for(d);
  RibEntry& e = entries_[index];
  auto it = std::find_if(e.paths.begin(), e.paths.end(), [&](const Path& p) {
    return p.peer == path.peer && p.path_id == path.path_id;
  });
  if (it != e.paths.end()) {
    *it = std::move(path);
  } else {
    if (path.peer != kLocalPeer) {
      if (peer_paths_.size() <= path.peer) peer_paths_.resize(path.peer + 1);
      ++peer_paths_[path.peer];
    }
    e.paths.push_back(std::move(path));
    ++path_count_;
  }
  mark_dirty(index);
}

void Rib::remove_path(const Destination& d, PeerId peer,
                      std::uint32_t path_id) {
  const std::uint32_t found = lookup(d);
  if (found == kNoEntry) return;
  RibEntry& e = entries_[found];
  auto it = std::find_if(e.paths.begin(), e.paths.end(), [&](const Path& p) {
    return p.peer == peer && p.path_id == path_id;
  });
  if (it == e.paths.end()) return;
  e.paths.erase(it);
  --path_count_;
  if (peer != kLocalPeer) --peer_paths_[peer];
  mark_dirty(found);
}

void Rib::flush_peer(PeerId peer, std::optional<std::uint16_t> afi) {
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    RibEntry& e = entries_[i];
    if (!e.in_use || (afi && e.destination.afi != *afi)) continue;
    const std::size_t removed =
        e.paths.erase_if([peer](const Path& p) { return p.peer == peer; });
    if (removed != 0) {
      path_count_ -= removed;
      if (peer != kLocalPeer) peer_paths_[peer] -= removed;
      mark_dirty(i);
    }
  }
}

void Rib::mark_peer_dirty(PeerId peer) {
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    const RibEntry& e = entries_[i];
    if (!e.in_use) continue;
    if (std::any_of(e.paths.begin(), e.paths.end(),
                    [peer](const Path& p) { return p.peer == peer; })) {
      mark_dirty(i);
    }
  }
}

void Rib::set_multihomed_leaves(const Destination& d, std::uint32_t leaves) {
  multihomed_[d] = leaves;
  if (const std::uint32_t i = lookup(d); i != kNoEntry) mark_dirty(i);
}

const RibEntry* Rib::find(const Destination& d) const {
  const std::uint32_t i = lookup(d);
  return i == kNoEntry ? nullptr : &entries_[i];
}

std::vector<DecisionChange> Rib::decide() {
  std::vector<DecisionChange> changes;
  // run_decision never marks entries dirty, so the list is stable.
  for (std::uint32_t index : dirty_) {
    entries_[index].dirty = false;
    DecisionChange c = run_decision(index);
    if (c.installed_changed || c.exported_changed) changes.push_back(c);
  }
  dirty_.clear();
  return changes;
}

bool Rib::better(const Path& a, const Path& b) const {
  // Locally originated routes win (they have no AS_PATH to compare).
  if ((a.peer == kLocalPeer) != (b.peer == kLocalPeer)) {
    return a.peer == kLocalPeer;
  }
  const RouteAttributes& x = *a.attributes;
  const RouteAttributes& y = *b.attributes;
  // RFC 4271 section 9.1.2.2 (a)-(c), plus the highest LOCAL_PREF of
  // section 9.1.1 (eBGP routes all get the same default).
  if (x.local_pref != y.local_pref) return x.local_pref > y.local_pref;
  if (x.as_path_length != y.as_path_length) {
    return x.as_path_length < y.as_path_length;
  }
  if (x.origin != y.origin) return x.origin < y.origin;
  if (config_.always_compare_med || x.neighbor_as == y.neighbor_as) {
    // A missing MED is the lowest value (RFC 4271 section 9.1.2.2 (c)).
    const std::uint32_t mx = x.med.value_or(0), my = y.med.value_or(0);
    if (mx != my) return mx < my;
  }
  // (d) eBGP over iBGP and (e) IGP cost do not apply: every peer is eBGP
  // and next hops are directly connected. (f) lowest BGP Identifier,
  // (g) lowest peer address.
  if (a.peer == kLocalPeer) return false;
  const RibPeer& pa = peers_[a.peer];
  const RibPeer& pb = peers_[b.peer];
  if (pa.remote_id != pb.remote_id) return pa.remote_id < pb.remote_id;
  if (pa.address_rank != pb.address_rank) {
    return pa.address_rank < pb.address_rank;
  }
  return a.path_id < b.path_id;
}

bool Rib::multipath_equal(const Path& best, const Path& other) const {
  if (best.peer == kLocalPeer || other.peer == kLocalPeer) return false;
  const RouteAttributes& x = *best.attributes;
  const RouteAttributes& y = *other.attributes;
  if (x.local_pref != y.local_pref || x.as_path_length != y.as_path_length ||
      x.origin != y.origin) {
    return false;
  }
  if ((config_.always_compare_med || x.neighbor_as == y.neighbor_as) &&
      x.med.value_or(0) != y.med.value_or(0)) {
    return false;
  }
  return config_.multipath_relax || x.neighbor_as == y.neighbor_as;
}

namespace {

std::vector<wb::PathAttribute>::iterator insert_position(
    std::vector<wb::PathAttribute>& attrs, std::uint8_t type) {
  return std::find_if(
      attrs.begin(), attrs.end(),
      [type](const wb::PathAttribute& a) { return a.type > type; });
}

// Prepends `asn` to the AS_PATH (RFC 4271 section 5.1.2 (b)): into the
// leading AS_SEQUENCE when it has room, else as a new segment.
void prepend_as(std::vector<wb::PathAttribute>& attrs, std::uint32_t asn) {
  for (wb::PathAttribute& a : attrs) {
    auto* path = std::get_if<wb::AsPath>(&a.value);
    if (a.type != wb::attr_type::kAsPath || !path) continue;
    auto& segs = path->segments;
    if (!segs.empty() && segs.front().type == wb::segment_type::kAsSequence &&
        segs.front().asns.size() < 255) {
      segs.front().asns.insert(segs.front().asns.begin(), asn);
    } else {
      segs.insert(segs.begin(),
                  wb::AsPathSegment{wb::segment_type::kAsSequence, {asn}});
    }
    return;
  }
  wb::AsPath path;
  path.segments.push_back({wb::segment_type::kAsSequence, {asn}});
  attrs.insert(insert_position(attrs, wb::attr_type::kAsPath),
               wb::make_attribute(wb::attr_type::kAsPath, std::move(path)));
}

}  // namespace

AttributesRef Rib::export_attributes(const Path& best,
                                     const fare::ExportResult& fare_export) {
  const RouteAttributes* source = best.attributes.get();
  if (memo_.result && memo_.source == source &&
      memo_.transitive == fare_export.transitive &&
      memo_.non_transitive == fare_export.non_transitive) {
    return memo_.result;
  }
  std::vector<wb::PathAttribute> attrs = source->attributes;
  const std::uint8_t sub_type = config_.fare.sub_type;
  if (best.peer != kLocalPeer) {
    wb::prepare_for_propagation(attrs);
    // MED and LOCAL_PREF are not sent to other ASes (RFC 4271 section
    // 5.1.4, 5.1.5).
    std::erase_if(attrs, [](const wb::PathAttribute& a) {
      return a.type == wb::attr_type::kMed ||
             a.type == wb::attr_type::kLocalPref;
    });
  }
  // Extended communities: non-transitive ones stop here unless we attach
  // them ourselves (RFC 4360 section 2); FARE's are replaced.
  std::vector<wb::ExtendedCommunity> ecs;
  for (const wb::PathAttribute& a : attrs) {
    if (const auto* v = std::get_if<wb::ExtendedCommunities>(&a.value)) {
      for (const wb::ExtendedCommunity& ec : v->values) {
        const bool is_fare =
            config_.fare_enabled &&
            wire::fare::decode_path_bandwidth(ec, sub_type).has_value();
        if (ec.transitive() && !is_fare) ecs.push_back(ec);
      }
    }
  }
  std::erase_if(attrs, [](const wb::PathAttribute& a) {
    return a.type == wb::attr_type::kExtendedCommunities;
  });
  if (fare_export.transitive) {
    ecs.push_back(wire::fare::encode(*fare_export.transitive, sub_type));
  }
  if (fare_export.non_transitive) {
    ecs.push_back(wire::fare::encode(*fare_export.non_transitive, sub_type));
  }
  if (!ecs.empty()) {
    attrs.insert(insert_position(attrs, wb::attr_type::kExtendedCommunities),
                 wb::make_attribute(wb::attr_type::kExtendedCommunities,
                                    wb::ExtendedCommunities{std::move(ecs)}));
  }
  if (!std::any_of(attrs.begin(), attrs.end(), [](const wb::PathAttribute& a) {
        return a.type == wb::attr_type::kOrigin;
      })) {
    attrs.insert(attrs.begin(),
                 wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}));
  }
  prepend_as(attrs, config_.local_as);
  AttributesRef result = make_route_attributes(std::move(attrs), {}, sub_type);
  memo_ = ExportMemo{source, fare_export.transitive, fare_export.non_transitive,
                     result};
  return result;
}

namespace {

bool same_export(const AttributesRef& a, const AttributesRef& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return a->attributes == b->attributes;
}

}  // namespace

DecisionChange Rib::run_decision(std::uint32_t index) {
  RibEntry& e = entries_[index];
  DecisionChange change{index, false, false};
  // Built in scratch (its vectors keep their capacity), then shared.
  std::vector<NextHopWeight>& installed = scratch_.installed;
  std::size_t installed_count = 0;
  AttributesRef exported;
  fare::FallbackReason reason = fare::FallbackReason::none;
  bool local_best = false;

  if (!e.paths.empty()) {
    // Best path first, then the multipath set in preference order. The
    // vectors are members so that a million decisions do not allocate.
    std::vector<const Path*>& order = scratch_.order;
    order.clear();
    for (const Path& p : e.paths) order.push_back(&p);
    std::sort(order.begin(), order.end(),
              [this](const Path* a, const Path* b) { return better(*a, *b); });
    const Path& best = *order.front();
    local_best = best.peer == kLocalPeer;
    std::vector<const Path*>& selected = scratch_.selected;
    selected.assign(1, &best);
    if (!local_best) {
      for (std::size_t i = 1;
           i < order.size() && selected.size() < config_.maximum_paths; ++i) {
        if (multipath_equal(best, *order[i])) selected.push_back(order[i]);
      }
    }
    fare::ExportResult fare_export;
    if (local_best) {
      if (config_.fare_enabled) fare_export = fare::originate(config_.fare);
    } else {
      std::vector<fare::Candidate>& candidates = scratch_.candidates;
      candidates.clear();
      for (const Path* p : selected) {
        const RibPeer& peer = peers_[p->peer];
        candidates.push_back(fare::Candidate{
            peer.link_bandwidth, peer.role, p->attributes->path_bandwidth,
            p->attributes->path_bandwidth_non_transitive});
      }
      fare::ImportResult& weights = scratch_.weights;
      weights.weighted = false;
      if (config_.fare_enabled) {
        std::uint32_t leaves = 1;
        if (!multihomed_.empty()) {
          auto mh = multihomed_.find(e.destination);
          if (mh != multihomed_.end()) leaves = mh->second;
        }
        fare::import_weights(config_.fare, candidates, leaves, weights);
        reason = weights.reason;
        fare_export = fare::readvertise(config_.fare, candidates, weights,
                                        config_.maximum_paths > 1);
      }
      installed_count = selected.size();
      if (installed.size() < installed_count) installed.resize(installed_count);
      for (std::size_t i = 0; i < selected.size(); ++i) {
        const BitsPerSecond w =
            config_.fare_enabled && weights.weighted ? weights.weights[i] : 1;
        NextHopWeight& h = installed[i];
        h.peer = selected[i]->peer;
        h.next_hop.assign(selected[i]->attributes->next_hop);
        h.weight = w;
      }
      // Deterministic order for the FIB: by peer, then next hop.
      std::sort(installed.begin(), installed.begin() + installed_count,
                [](const NextHopWeight& a, const NextHopWeight& b) {
                  return a.peer != b.peer ? a.peer < b.peer
                                          : a.next_hop < b.next_hop;
                });
    }
    exported = export_attributes(best, fare_export);
  }
  // A local route installs nothing, so switching between "no route" and
  // "local" is not a FIB change.
  const std::span<const NextHopWeight> now(installed.data(), installed_count);
  auto equal = [&now](const NextHopSet& set) {
    return std::equal(now.begin(), now.end(), set.begin(), set.end());
  };
  change.installed_changed = !equal(e.installed);
  if (change.installed_changed) {
    if (installed_count == 0) {
      e.installed = NextHopSet{};
    } else {
      if (!equal(installed_memo_)) {
        installed_memo_ =
            NextHopSet{std::vector<NextHopWeight>(now.begin(), now.end())};
      }
      e.installed = installed_memo_;
    }
  }
  change.exported_changed = !same_export(exported, e.exported);
  e.local_best = local_best;
  e.fare_reason = reason;
  // Keep the old object when equal so that Adj-RIB-Out grouping by pointer
  // stays stable.
  if (change.exported_changed) e.exported = std::move(exported);
  return change;
}

}  // namespace arfabric::proto::bgp
