#include "proto/bgp/speaker.h"

#include <algorithm>
#include <unordered_map>

#include "common/overloaded.h"
#include "wire/bgp/message.h"

namespace arfabric::proto::bgp {

namespace wb = wire::bgp;

namespace {

std::uint32_t to_host(const wire::Ipv4Address& a) {
  return (std::uint32_t{a[0]} << 24) | (std::uint32_t{a[1]} << 16) |
         (std::uint32_t{a[2]} << 8) | a[3];
}

// A bit per address family the RIB holds (PeerRuntime::export_afis).
std::uint8_t afi_bit(std::uint16_t afi) {
  if (afi == wire::bgp::kAfiIpv4) return 1;
  if (afi == wire::bgp::kAfiIpv6) return 2;
  return 0;
}

}  // namespace

std::expected<void, SpeakerConfigError> validate(const SpeakerConfig& c) {
  auto fail = [](std::string field, std::string reason) {
    return std::unexpected(
        SpeakerConfigError{std::move(field), std::move(reason)});
  };
  if (c.local_as == 0) return fail("local_as", "must be set (1..4294967295)");
  if (c.router_id == wire::Ipv4Address{}) {
    return fail("router_id", "must not be 0.0.0.0 (RFC 4271 section 4.2)");
  }
  if (c.rib.maximum_paths == 0) {
    return fail("rib.maximum_paths", "must be at least 1");
  }
  for (std::size_t i = 0; i < c.peers.size(); ++i) {
    const PeerConfig& p = c.peers[i];
    const std::string at = "peers[" + std::to_string(i) + "]";
    SessionConfig s = p.session;
    s.local_as = c.local_as;
    s.router_id = c.router_id;
    if (auto r = validate(s); !r) {
      return fail(at + ".session." + r.error().field, r.error().reason);
    }
    if (p.session.remote_as == c.local_as) {
      return fail(at + ".session.remote_as",
                  "iBGP peers are not supported: every peer must be in "
                  "another AS (RFC 7938 fabrics are eBGP only)");
    }
    if (!p.next_hop_ipv4.empty() && p.next_hop_ipv4.size() != 4) {
      return fail(at + ".next_hop_ipv4", "must be 4 bytes");
    }
    if (!p.next_hop_ipv6.empty() && p.next_hop_ipv6.size() != 16 &&
        p.next_hop_ipv6.size() != 32) {
      return fail(at + ".next_hop_ipv6",
                  "must be 16 bytes, or 32 (global and link-local)");
    }
    if (p.mrai < Time{}) return fail(at + ".mrai", "must not be negative");
  }
  for (std::size_t i = 0; i < c.networks.size(); ++i) {
    if (c.networks[i].length > c.networks[i].max_length()) {
      return fail("networks[" + std::to_string(i) + "]",
                  "prefix length beyond the address");
    }
  }
  for (std::size_t i = 0; i < c.multihomed.size(); ++i) {
    if (c.multihomed[i].second == 0) {
      return fail("multihomed[" + std::to_string(i) + "]",
                  "number of leaves must be at least 1");
    }
  }
  if (c.rib.fare_enabled) {
    fare::FareConfig f = c.rib.fare;
    f.router_id = to_host(c.router_id);  // the speaker fills it in
    if (auto r = fare::validate(f); !r) {
      return fail("rib.fare." + r.error().field, r.error().reason);
    }
  }
  return {};
}

namespace {

RibConfig rib_config_of(const SpeakerConfig& c) {
  RibConfig r = c.rib;
  r.local_as = c.local_as;
  r.fare.router_id = to_host(c.router_id);
  return r;
}

// RFC 6793 section 4.2.3: a 2-octet peer carries the true path in AS4_PATH;
// rebuild it: the leading ASNs that AS_PATH has beyond AS4_PATH's count,
// then AS4_PATH.
void merge_as4_path(std::vector<wb::PathAttribute>& attrs) {
  auto as4 = std::find_if(attrs.begin(), attrs.end(), [](const auto& a) {
    return a.type == wb::attr_type::kAs4Path;
  });
  if (as4 == attrs.end()) return;
  const auto* four = std::get_if<wb::AsPath>(&as4->value);
  auto as2 = std::find_if(attrs.begin(), attrs.end(), [](const auto& a) {
    return a.type == wb::attr_type::kAsPath;
  });
  auto* two =
      as2 == attrs.end() ? nullptr : std::get_if<wb::AsPath>(&as2->value);
  if (four && two) {
    auto count = [](const wb::AsPath& p) {
      std::size_t n = 0;
      for (const auto& s : p.segments) {
        n += s.type == wb::segment_type::kAsSet ? 1 : s.asns.size();
      }
      return n;
    };
    const std::size_t n2 = count(*two), n4 = count(*four);
    if (n2 >= n4) {
      std::vector<std::uint32_t> lead;
      for (const auto& s : two->segments) {
        if (s.type != wb::segment_type::kAsSequence) break;
        for (std::uint32_t asn : s.asns) {
          if (lead.size() == n2 - n4) break;
          lead.push_back(asn);
        }
      }
      wb::AsPath merged;
      if (!lead.empty()) {
        merged.segments.push_back({wb::segment_type::kAsSequence, lead});
      }
      merged.segments.insert(merged.segments.end(), four->segments.begin(),
                             four->segments.end());
      *two = std::move(merged);
    }
  }
  attrs.erase(std::find_if(attrs.begin(), attrs.end(), [](const auto& a) {
    return a.type == wb::attr_type::kAs4Path;
  }));
}

}  // namespace

Speaker::Speaker(SpeakerConfig config)
    : config_(std::move(config)), rib_(rib_config_of(config_)) {
  peers_.reserve(config_.peers.size());
  for (std::size_t i = 0; i < config_.peers.size(); ++i) {
    const PeerConfig& pc = config_.peers[i];
    SessionConfig s = pc.session;
    s.local_as = config_.local_as;
    s.router_id = config_.router_id;
    peers_.emplace_back(s);
    RibPeer rp;
    rp.remote_as = pc.session.remote_as;
    rp.role = pc.role;
    rp.link_bandwidth = pc.link_bandwidth;
    rp.address_rank = pc.address_rank;
    rib_.set_peer(static_cast<PeerId>(i), rp);
  }
  std::vector<wb::PathAttribute> local{
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(wb::attr_type::kAsPath, wb::AsPath{})};
  local_attributes_ =
      make_route_attributes(std::move(local), {}, config_.rib.fare.sub_type);
  for (const auto& [d, leaves] : config_.multihomed) {
    rib_.set_multihomed_leaves(d, leaves);
  }
  for (const Destination& d : config_.networks) {
    rib_.add_path(d, Path{kLocalPeer, 0, local_attributes_});
  }
}

void Speaker::start(Time now) {
  for (PeerId p = 0; p < peers_.size(); ++p) {
    if (peers_[p].removed) continue;
    peers_[p].session.start(now);
    drain_session(p);
  }
  settle(now);
}

void Speaker::start_peer(PeerId peer, Time now) {
  if (peers_[peer].removed) return;
  peers_[peer].session.start(now);
  drain_session(peer);
  settle(now);
}

void Speaker::stop_peer(PeerId peer, Time now) {
  peers_[peer].session.stop(now);
  drain_session(peer);
  settle(now);
}

void Speaker::stop(Time now) {
  for (PeerId p = 0; p < peers_.size(); ++p) {
    peers_[p].session.stop(now);
    drain_session(p);
  }
  settle(now);
}

void Speaker::on_connected(PeerId peer, ConnectionId connection,
                           Direction direction, Time now) {
  peers_[peer].session.on_connected(connection, direction, now);
  drain_session(peer);
  settle(now);
}

void Speaker::on_connect_failed(PeerId peer, Time now) {
  peers_[peer].session.on_connect_failed(now);
  drain_session(peer);
  settle(now);
}

void Speaker::on_bytes(PeerId peer, ConnectionId connection, ByteSpan data,
                       Time now) {
  peers_[peer].session.on_bytes(connection, data, now);
  drain_session(peer);
  settle(now);
}

void Speaker::on_closed(PeerId peer, ConnectionId connection, Time now) {
  peers_[peer].session.on_closed(connection, now);
  drain_session(peer);
  settle(now);
}

void Speaker::on_timer(Time now) {
  for (PeerId p = 0; p < peers_.size(); ++p) {
    if (peers_[p].session.next_deadline() <= now) {
      peers_[p].session.on_timer(now);
      drain_session(p);
    }
  }
  settle(now);
}

bool Speaker::exports_pending() const {
  return std::ranges::any_of(peers_, [](const PeerRuntime& p) {
    return p.established && (!p.pending.empty() || p.end_of_rib_due);
  });
}

Time Speaker::next_deadline() const {
  Time t = Time::max();
  for (const PeerRuntime& p : peers_) {
    t = std::min(t, p.session.next_deadline());
    if (p.established && (!p.pending.empty() || p.end_of_rib_due)) {
      t = std::min(t, p.last_flush + config_.peers[&p - peers_.data()].mrai);
    }
  }
  return t;
}

void Speaker::set_link_bandwidth(PeerId peer, BitsPerSecond bandwidth,
                                 Time now) {
  RibPeer rp = rib_.peer(peer);
  if (rp.link_bandwidth == bandwidth) return;
  rp.link_bandwidth = bandwidth;
  rib_.set_peer(peer, rp);
  config_.peers[peer].link_bandwidth = bandwidth;
  rib_.mark_peer_dirty(peer);
  settle(now);
}

std::expected<PeerId, SpeakerConfigError> Speaker::add_peer(PeerConfig peer,
                                                            Time now) {
  // Validated with the same rules as at construction, alone in a config.
  SpeakerConfig one;
  one.local_as = config_.local_as;
  one.router_id = config_.router_id;
  one.rib = config_.rib;
  one.peers.push_back(peer);
  if (auto r = validate(one); !r) {
    std::string field = r.error().field;
    if (field.starts_with("peers[0]")) field = "peer" + field.substr(8);
    return std::unexpected(SpeakerConfigError{field, r.error().reason});
  }
  const auto id = static_cast<PeerId>(peers_.size());
  SessionConfig s = peer.session;
  s.local_as = config_.local_as;
  s.router_id = config_.router_id;
  RibPeer rp;
  rp.remote_as = peer.session.remote_as;
  rp.role = peer.role;
  rp.link_bandwidth = peer.link_bandwidth;
  rp.address_rank = peer.address_rank;
  rib_.set_peer(id, rp);
  config_.peers.push_back(std::move(peer));
  peers_.emplace_back(s);
  peers_[id].session.start(now);
  drain_session(id);
  settle(now);
  return id;
}

void Speaker::remove_peer(PeerId peer, Time now) {
  if (peers_[peer].removed) return;
  peers_[peer].removed = true;
  peers_[peer].session.stop(now);
  drain_session(peer);
  settle(now);
}

void Speaker::originate(const Destination& d, Time now) {
  rib_.add_path(d, Path{kLocalPeer, 0, local_attributes_});
  settle(now);
}

void Speaker::withdraw_origin(const Destination& d, Time now) {
  rib_.remove_path(d, kLocalPeer, 0);
  settle(now);
}

SessionState Speaker::peer_state(PeerId peer) const {
  return peers_[peer].session.state();
}

std::size_t Speaker::advertised_count(PeerId peer) const {
  const auto& bits = peers_[peer].advertised;
  return static_cast<std::size_t>(std::count(bits.begin(), bits.end(), true));
}

void Speaker::drain_session(PeerId peer) {
  // Handling an output can make the session produce more (sending an
  // UPDATE yields SendBytes), so take the batch out first.
  std::vector<SessionOutput> batch;
  batch.swap(peers_[peer].session.outputs());
  for (SessionOutput& out : batch) {
    std::visit(
        Overloaded{
            [&](OpenConnection&) { outputs_.push_back(ConnectRequest{peer}); },
            [&](SendBytes& s) {
              outputs_.push_back(
                  SendRequest{peer, s.connection, std::move(s.bytes)});
            },
            [&](CloseConnection& c) {
              outputs_.push_back(CloseRequest{peer, c.connection});
            },
            [&](SessionUp& up) { on_session_up(peer, up.negotiated); },
            [&](SessionDown& down) { on_session_down(peer, down.reason); },
            [&](UpdateReceived& u) { apply_update(peer, u.update); },
            [&](RouteRefreshReceived& r) {
              // RFC 2918 section 4: re-advertise the Adj-RIB-Out. The
              // RFC 7313 BoRR / EoRR markers (subtypes 1, 2) ask nothing.
              if (r.subtype == 0) mark_all_pending(peers_[peer], r.family.afi);
            },
        },
        out);
  }
}

void Speaker::on_session_up(PeerId peer, const Negotiated& negotiated) {
  PeerRuntime& p = peers_[peer];
  p.established = true;
  ++p.counters.established_transitions;
  p.families = negotiated.families;
  p.export_afis = 0;
  const PeerConfig& pc = config_.peers[peer];
  for (const wb::AfiSafi& f : p.families) {
    const bool next_hop = f.afi == wb::kAfiIpv4   ? !pc.next_hop_ipv4.empty()
                          : f.afi == wb::kAfiIpv6 ? !pc.next_hop_ipv6.empty()
                                                  : true;
    if (next_hop) p.export_afis |= afi_bit(f.afi);
  }
  p.disabled_afis.clear();
  p.target.send = negotiated.send;
  p.target.next_hop_ipv4 = config_.peers[peer].next_hop_ipv4;
  p.target.next_hop_ipv6 = config_.peers[peer].next_hop_ipv6;
  RibPeer rp = rib_.peer(peer);
  rp.remote_id = to_host(negotiated.remote_id);
  rib_.set_peer(peer, rp);
  p.advertised.assign(rib_.capacity(), false);
  p.pending_mark.assign(rib_.capacity(), false);
  p.pending.clear();
  // The initial table, then End-of-RIB per family (RFC 4724 section 2).
  mark_all_pending(p, std::nullopt);
  p.end_of_rib_due = true;
  outputs_.push_back(PeerStatus{peer, true, {}});
}

void Speaker::on_session_down(PeerId peer, const std::string& reason) {
  PeerRuntime& p = peers_[peer];
  if (!p.established) return;
  p.established = false;
  p.advertised.clear();
  p.pending_mark.clear();
  p.pending.clear();
  p.end_of_rib_due = false;
  rib_.flush_peer(peer);
  outputs_.push_back(PeerStatus{peer, false, reason});
}

void Speaker::mark_pending(PeerRuntime& p, std::uint32_t index) {
  if (p.pending_mark.size() <= index) {
    p.pending_mark.resize(rib_.capacity(), false);
    p.advertised.resize(rib_.capacity(), false);
  }
  if (p.pending_mark[index]) return;
  p.pending_mark[index] = true;
  p.pending.push_back(index);
}

void Speaker::mark_all_pending(PeerRuntime& p,
                               std::optional<std::uint16_t> afi) {
  rib_.for_each([&](std::uint32_t index, const RibEntry& e) {
    if (e.exported && (!afi || e.destination.afi == *afi)) {
      mark_pending(p, index);
    }
  });
}

void Speaker::apply_update(PeerId peer, const wb::UpdateParseResult& result) {
  PeerRuntime& p = peers_[peer];
  PeerCounters& counters = p.counters;
  ++counters.updates_in;
  const wb::Update& update = result.update;
  if (is_end_of_rib(update)) {
    ++counters.end_of_rib_in;
    return;
  }
  // RFC 7606: apply the most severe outcome of the UPDATE's errors.
  bool withdraw_all = false;
  std::vector<std::uint8_t> discard;
  for (const wb::BgpError& e : result.attribute_errors) {
    switch (e.action) {
      case wb::Rfc7606Action::attribute_discard:
        discard.push_back(e.attribute_type);
        ++counters.attributes_discarded;
        break;
      case wb::Rfc7606Action::treat_as_withdraw:
        withdraw_all = true;
        break;
      case wb::Rfc7606Action::afi_safi_disable:
        // RFC 7606 section 5.3 / RFC 4760 section 7: stop using the family
        // from this peer; everything else in the UPDATE is suspect too.
        if (std::find(p.disabled_afis.begin(), p.disabled_afis.end(),
                      e.family.afi) == p.disabled_afis.end()) {
          p.disabled_afis.push_back(e.family.afi);
        }
        rib_.flush_peer(peer, e.family.afi);
        withdraw_all = true;
        break;
      case wb::Rfc7606Action::session_reset:
        break;  // the session never hands those over
    }
  }
  if (withdraw_all) ++counters.treat_as_withdraw;
  auto family_ok = [&](std::uint16_t afi) {
    const bool negotiated =
        std::any_of(p.families.begin(), p.families.end(),
                    [afi](const wb::AfiSafi& f) { return f.afi == afi; });
    return negotiated &&
           std::find(p.disabled_afis.begin(), p.disabled_afis.end(), afi) ==
               p.disabled_afis.end();
  };
  auto withdraw = [&](std::uint16_t afi, const std::vector<wb::Prefix>& v) {
    if (!family_ok(afi)) return;
    for (const wb::Prefix& prefix : v) {
      rib_.remove_path(destination_of(afi, prefix), peer,
                       prefix.path_id.value_or(0));
      ++counters.withdrawals_in;
    }
  };
  withdraw(wb::kAfiIpv4, update.withdrawn);
  const wb::MpReachNlri* reach = nullptr;
  for (const wb::PathAttribute& a : update.attributes) {
    if (const auto* un = std::get_if<wb::MpUnreachNlri>(&a.value)) {
      if (un->family.safi == wb::kSafiUnicast) {
        withdraw(un->family.afi, un->withdrawn);
      }
    } else if (const auto* r = std::get_if<wb::MpReachNlri>(&a.value)) {
      if (r->family.safi == wb::kSafiUnicast) reach = r;
    }
  }
  if (update.nlri.empty() && (!reach || reach->nlri.empty())) return;

  std::vector<wb::PathAttribute> attrs = update.attributes;
  if (!discard.empty()) {
    std::erase_if(attrs, [&](const wb::PathAttribute& a) {
      return std::find(discard.begin(), discard.end(), a.type) != discard.end();
    });
  }
  // RFC 7606 section 7.5 / RFC 4271 section 5.1.5: LOCAL_PREF from an
  // external peer is ignored, and every peer here is external.
  std::erase_if(attrs, [](const wb::PathAttribute& a) {
    return a.type == wb::attr_type::kLocalPref;
  });
  if (!p.target.send.four_octet_as) merge_as4_path(attrs);
  Bytes v4_next_hop;
  if (const auto* nh = update.get<wb::NextHop>(wb::attr_type::kNextHop)) {
    v4_next_hop.assign(nh->address.begin(), nh->address.end());
  }
  const std::uint8_t sub_type = config_.rib.fare.sub_type;
  // AS_PATH loop detection (RFC 4271 section 9.1.2): such routes are not
  // eligible; drop any earlier path the peer gave for the prefixes.
  bool loop = false;
  AttributesRef v4_attrs, v6_attrs;
  if (!update.nlri.empty()) {
    v4_attrs = make_route_attributes(attrs, v4_next_hop, sub_type);
    loop = v4_attrs->contains_as(config_.local_as);
  }
  if (reach && !reach->nlri.empty()) {
    v6_attrs = make_route_attributes(attrs, reach->next_hop, sub_type);
    loop = v6_attrs->contains_as(config_.local_as);
  }
  if (loop) ++counters.as_loops;
  auto announce = [&](std::uint16_t afi, const std::vector<wb::Prefix>& v,
                      const AttributesRef& a) {
    if (!family_ok(afi)) return;
    for (const wb::Prefix& prefix : v) {
      const Destination d = destination_of(afi, prefix);
      const std::uint32_t path_id = prefix.path_id.value_or(0);
      if (withdraw_all || loop) {
        rib_.remove_path(d, peer, path_id);
      } else {
        rib_.add_path(d, Path{peer, path_id, a});
        ++counters.prefixes_in;
      }
    }
  };
  announce(wb::kAfiIpv4, update.nlri, v4_attrs);
  if (reach) announce(reach->family.afi, reach->nlri, v6_attrs);
}

bool Speaker::held_anywhere(std::uint32_t index) const {
  for (const PeerRuntime& p : peers_) {
    if (index < p.advertised.size() &&
        (p.advertised[index] || p.pending_mark[index])) {
      return true;
    }
  }
  return false;
}

void Speaker::settle(Time now) {
  const std::vector<DecisionChange> changes = rib_.decide();
  for (const DecisionChange& c : changes) {
    const RibEntry& e = rib_.entry(c.index);
    if (c.installed_changed && config_.fib_updates) {
      outputs_.push_back(FibUpdate{e.destination, e.installed, e.fare_reason});
    }
    if (c.exported_changed) mark_changed_export(c.index, e);
  }
  for (const DecisionChange& c : changes) {
    rib_.collect(c.index, [this](std::uint32_t i) { return held_anywhere(i); });
  }
  for (PeerId p = 0; p < peers_.size(); ++p) {
    if (flush_due(peers_[p], now)) flush(p, now);
  }
}

void Speaker::mark_changed_export(std::uint32_t index, const RibEntry& e) {
  // Only peers that get something: the new route, or a withdrawal of the
  // one they have. In a leaf-spine fabric a leaf's routes from one spine
  // are never sent to another (the spines share an AS), and considering
  // them for every spine on every change made each leaf's work grow as
  // leaves x spines^2. Peers of one AS, in a row, share one path check.
  const std::uint8_t family = afi_bit(e.destination.afi);
  std::optional<std::uint32_t> checked_as;
  bool as_in_path = false;
  for (PeerRuntime& p : peers_) {
    if (!p.established) continue;
    bool send = index < p.advertised.size() && p.advertised[index];
    // exportable()'s test, its AS_PATH check shared by a run of one AS.
    if (!send && e.exported && (p.export_afis & family) != 0) {
      if (checked_as != p.remote_as) {
        checked_as = p.remote_as;
        as_in_path = e.exported->contains_as(p.remote_as);
      }
      send = !as_in_path;
    }
    if (send) mark_pending(p, index);
  }
}

bool Speaker::exportable(PeerId peer, const RouteAttributes& exported,
                         std::uint16_t afi) const {
  const PeerRuntime& p = peers_[peer];
  // Sender-side loop prevention: a peer whose AS is in the path would drop
  // the route (RFC 4271 section 9.1.2), so it is not sent.
  return (p.export_afis & afi_bit(afi)) != 0 &&
         !exported.contains_as(p.remote_as);
}

bool Speaker::flush_due(const PeerRuntime& p, Time now) const {
  if (!p.established || (p.pending.empty() && !p.end_of_rib_due)) {
    return false;
  }
  const Time mrai = config_.peers[&p - peers_.data()].mrai;
  return mrai == Time{} || p.last_flush + mrai <= now;
}

void Speaker::flush(PeerId peer, Time now) {
  PeerRuntime& p = peers_[peer];
  // Group announcements by exported attribute object, in first-seen order
  // (deterministic), and withdrawals by family.
  std::vector<AnnouncementGroup> groups;
  std::unordered_map<const RouteAttributes*, std::size_t> group_of;
  std::vector<Destination> withdraw_v4, withdraw_v6;
  std::vector<std::uint32_t> handled;
  handled.swap(p.pending);
  // Consecutive destinations usually share their exported attributes (one
  // received UPDATE's worth): remember the last verdict.
  const RouteAttributes* last_exported = nullptr;
  std::uint16_t last_afi = 0;
  bool last_eligible = false;
  std::size_t last_group = 0;
  for (std::uint32_t index : handled) {
    p.pending_mark[index] = false;
    const RibEntry& e = rib_.entry(index);
    const std::uint16_t afi = e.destination.afi;
    if (!e.in_use || !e.exported) {
      last_exported = nullptr;
      last_eligible = false;
    } else if (e.exported.get() != last_exported || afi != last_afi) {
      last_exported = e.exported.get();
      last_afi = afi;
      last_eligible = exportable(peer, *e.exported, afi);
      if (last_eligible) {
        auto [it, added] = group_of.try_emplace(last_exported, groups.size());
        if (added) groups.push_back(AnnouncementGroup{e.exported, {}});
        last_group = it->second;
      }
    }
    if (last_eligible) {
      groups[last_group].destinations.push_back(e.destination);
      p.advertised[index] = true;
    } else if (p.advertised[index]) {
      (afi == wb::kAfiIpv4 ? withdraw_v4 : withdraw_v6)
          .push_back(e.destination);
      p.advertised[index] = false;
    }
  }
  scratch_.clear();
  auto count_error = [&](const std::expected<void, EncodeError>& r) {
    if (!r) ++p.counters.encode_errors;
  };
  count_error(build_withdrawals(wb::kAfiIpv4, withdraw_v4, p.target, scratch_));
  count_error(build_withdrawals(wb::kAfiIpv6, withdraw_v6, p.target, scratch_));
  p.counters.withdrawals_out += withdraw_v4.size() + withdraw_v6.size();
  for (AnnouncementGroup& g : groups) {
    // A group may mix families when they share attributes: split.
    auto v6 = std::stable_partition(
        g.destinations.begin(), g.destinations.end(),
        [](const Destination& d) { return d.afi == wb::kAfiIpv4; });
    AnnouncementGroup g6{g.attributes, {v6, g.destinations.end()}};
    g.destinations.erase(v6, g.destinations.end());
    count_error(build_announcements(g, p.target, scratch_));
    count_error(build_announcements(g6, p.target, scratch_));
    p.counters.prefixes_out += g.destinations.size() + g6.destinations.size();
  }
  if (p.end_of_rib_due) {
    for (const wb::AfiSafi& f : p.families) {
      scratch_.push_back(end_of_rib(f.afi));
    }
    p.end_of_rib_due = false;
  }
  p.counters.updates_out += scratch_.size();
  for (Bytes& message : scratch_) p.session.send(std::move(message), now);
  scratch_.clear();
  p.last_flush = now;
  drain_session(peer);
  for (std::uint32_t index : handled) {
    rib_.collect(index, [this](std::uint32_t i) { return held_anywhere(i); });
  }
}

}  // namespace arfabric::proto::bgp
