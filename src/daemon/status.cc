#include "daemon/status.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "wire/bgp/as_path.h"
#include "wire/bgp/nlri.h"
#include "wire/fare/path_bandwidth.h"
#include "wire/inet/ipv4.h"

namespace arfabric::daemon {

namespace {

namespace bgp = proto::bgp;
namespace wb = wire::bgp;
using nlohmann::json;

// The next hop's first address (of an IPv6 global + link-local pair, the
// global one), or with `second` its link-local one ("" when it has none).
std::string format_next_hop(ByteSpan b, bool second = false) {
  if (second && b.size() != 32) return "";
  if (b.size() == 32) b = second ? b.subspan(16) : b.first(16);
  const auto a = IpAddress::from_bytes(b);
  return a ? a->to_string() : "";
}

std::string format_ipv4_host(std::uint32_t v) {
  return wire::format_ipv4(
      {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
       static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
}

std::string peer_name(const std::vector<PeerView>& peers, bgp::PeerId id) {
  if (id == bgp::kLocalPeer) return "local";
  if (id < peers.size() && peers[id].config) return peers[id].config->name;
  return "removed#" + std::to_string(id);
}

// Sets j[unit_key] = value and j["bits_per_second"] = value * bits_per_unit;
// JSON has no infinity or NaN, so such a value sets j["special"] to
// "+inf", "-inf" or "nan" instead.
void put_bandwidth(json& j, const char* unit_key, double value,
                   double bits_per_unit) {
  if (std::isfinite(value)) {
    j[unit_key] = value;
    j["bits_per_second"] = value * bits_per_unit;
  } else {
    j["special"] = std::isnan(value) ? "nan" : value > 0 ? "+inf" : "-inf";
  }
}

std::string hex(const wb::ExtendedCommunity& ec) {
  std::string s;
  char buf[3];
  for (std::uint8_t b : ec.bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    s += buf;
  }
  return s;
}

json path_json(const bgp::Path& path, const std::vector<PeerView>& peers,
               std::uint8_t sub_type) {
  const bgp::RouteAttributes& a = *path.attributes;
  json j{{"peer", peer_name(peers, path.peer)},
         {"path_id", path.path_id},
         {"next_hop", format_next_hop(a.next_hop)},
         {"as_path_length", a.as_path_length},
         {"local_pref", a.local_pref}};
  if (const std::string ll = format_next_hop(a.next_hop, true); !ll.empty()) {
    j["next_hop_link_local"] = ll;
  }
  if (const auto* ap = a.find(wb::attr_type::kAsPath)) {
    if (const auto* v = std::get_if<wb::AsPath>(&ap->value)) {
      j["as_path"] = wb::format_as_path(*v);
    }
  }
  if (a.med) j["med"] = *a.med;
  if (a.path_bandwidth) {
    j["path_bandwidth"] = path_bandwidth_json(*a.path_bandwidth);
  }
  if (a.path_bandwidth_non_transitive) {
    j["path_bandwidth_non_transitive"] =
        path_bandwidth_json(*a.path_bandwidth_non_transitive);
  }
  json ecs = json::array();
  if (const auto* ea = a.find(wb::attr_type::kExtendedCommunities)) {
    if (const auto* v = std::get_if<wb::ExtendedCommunities>(&ea->value)) {
      for (const wb::ExtendedCommunity& ec : v->values) {
        json e{{"hex", hex(ec)},
               {"type", ec.type()},
               {"sub_type", ec.sub_type()},
               {"transitive", ec.transitive()}};
        if (auto pb = wire::fare::decode_path_bandwidth(ec, sub_type)) {
          e["path_bandwidth"] = path_bandwidth_json(*pb);
        }
        // RFC 10005, as FRR sends it for UCMP.
        if (auto lb = wire::fare::decode_link_bandwidth(ec)) {
          json l{{"asn", lb->as_number}, {"transitive", lb->transitive}};
          put_bandwidth(l, "bytes_per_second", lb->bytes_per_second(), 8.0);
          e["link_bandwidth"] = l;
          j["link_bandwidth"] = std::move(l);
        }
        ecs.push_back(std::move(e));
      }
    }
  }
  j["extended_communities"] = std::move(ecs);
  return j;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s + " ";
}

// The unit is chosen by magnitude, so that a negative value (an invalid
// Path Bandwidth) reads "-8G", not "-8e+09".
std::string rate(double bits_per_second) {
  char buf[32];
  const double magnitude = std::fabs(bits_per_second);
  if (magnitude >= 1e12) {
    // Up to binary16's largest Path Bandwidth, 65504 GB/s = 524 Tb/s.
    std::snprintf(buf, sizeof buf, "%.4gT", bits_per_second / 1e12);
  } else if (magnitude >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.4gG", bits_per_second / 1e9);
  } else if (magnitude >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.4gM", bits_per_second / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", bits_per_second);
  }
  return buf;
}

// The rate of a bandwidth object's bits_per_second, or its "special"
// value ("+inf" shows as "inf"), or "?".
std::string rate_of(const json& bandwidth) {
  const auto n = bandwidth.find("bits_per_second");
  if (n != bandwidth.end() && n->is_number()) return rate(n->get<double>());
  const auto special = bandwidth.find("special");
  if (special != bandwidth.end() && special->is_string()) {
    const std::string v = special->get<std::string>();
    return v == "+inf" ? "inf" : v;
  }
  return "?";
}

}  // namespace

json path_bandwidth_json(const wire::fare::PathBandwidth& pb) {
  json j{{"transitive", pb.transitive},
         {"router_id", format_ipv4_host(pb.router_id)},
         {"valid", pb.valid()}};
  put_bandwidth(j, "gbytes_per_second", pb.gigabytes_per_second(), 8e9);
  return j;
}

std::string dump_json(const json& doc, int indent) {
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

json neighbors_json(const bgp::Speaker& speaker,
                    const std::vector<PeerView>& peers) {
  json out = json::array();
  for (bgp::PeerId id = 0; id < speaker.peer_count(); ++id) {
    if (id >= peers.size() || !peers[id].config) continue;
    const DaemonPeer& p = *peers[id].config;
    const bgp::Session& s = speaker.session(id);
    const bgp::PeerCounters& c = speaker.counters(id);
    json j{{"name", p.name},
           {"address", p.address.to_string()},
           {"port", p.port},
           {"remote_as", p.asn},
           {"role", proto::fare::role_name(p.role)},
           {"state", bgp::session_state_name(speaker.peer_state(id))},
           {"link_bandwidth", peers[id].link_bandwidth},
           {"established_transitions", c.established_transitions},
           {"updates_in", c.updates_in},
           {"updates_out", c.updates_out},
           {"prefixes_in", c.prefixes_in},
           {"received", speaker.rib().path_count(id)},
           {"prefixes_out", c.prefixes_out},
           {"withdrawals_in", c.withdrawals_in},
           {"withdrawals_out", c.withdrawals_out},
           {"treat_as_withdraw", c.treat_as_withdraw},
           {"attributes_discarded", c.attributes_discarded},
           {"notifications_in", s.counters().notifications_in},
           {"notifications_out", s.counters().notifications_out},
           {"advertised", speaker.advertised_count(id)}};
    if (!p.interface.empty()) j["interface"] = p.interface;
    if (const bgp::Negotiated* n = s.negotiated()) {
      json families = json::array();
      for (const wb::AfiSafi& f : n->families) {
        families.push_back(f.afi == wb::kAfiIpv4   ? "ipv4-unicast"
                           : f.afi == wb::kAfiIpv6 ? "ipv6-unicast"
                                                   : "other");
      }
      json peer_caps = json::array();
      for (const wb::Capability& cap : n->remote_open.capabilities()) {
        peer_caps.push_back(cap.code);
      }
      j["negotiated"] = {
          {"remote_id", wire::format_ipv4(n->remote_id)},
          {"hold_time", n->hold_time_s},
          {"families", families},
          {"four_octet_as", n->receive.four_octet_as && n->send.four_octet_as},
          {"route_refresh", n->route_refresh},
          {"extended_message", n->receive.extended_message},
          {"peer_capability_codes", peer_caps}};
    }
    out.push_back(std::move(j));
  }
  return out;
}

json rib_json(const bgp::Speaker& speaker, const std::vector<PeerView>& peers) {
  json out = json::array();
  const std::uint8_t sub_type = speaker.config().rib.fare.sub_type;
  const bgp::Rib& rib = speaker.rib();
  std::vector<std::pair<bgp::Destination, std::uint32_t>> order;
  rib.for_each([&](std::uint32_t i, const bgp::RibEntry& e) {
    if (!e.paths.empty()) order.emplace_back(e.destination, i);
  });
  std::sort(order.begin(), order.end());
  for (const auto& [d, i] : order) {
    const bgp::RibEntry& e = rib.entry(i);
    json paths = json::array();
    for (const bgp::Path& p : e.paths) {
      paths.push_back(path_json(p, peers, sub_type));
    }
    json installed = json::array();
    for (const bgp::NextHopWeight& h : e.installed) {
      json member = {{"peer", peer_name(peers, h.peer)},
                     {"next_hop", format_next_hop(h.next_hop)},
                     {"weight", h.weight}};
      if (const std::string ll = format_next_hop(h.next_hop, true);
          !ll.empty()) {
        member["next_hop_link_local"] = ll;
      }
      installed.push_back(std::move(member));
    }
    out.push_back(
        {{"prefix", bgp::format_destination(d)},
         {"local", e.local_best},
         {"fare_reason", proto::fare::fallback_reason_name(e.fare_reason)},
         {"installed", std::move(installed)},
         {"paths", std::move(paths)}});
  }
  return out;
}

json fib_json(const std::vector<FibRoute>& routes) {
  json out = json::array();
  for (const FibRoute& r : routes) {
    json members = json::array();
    for (const FibMember& m : r.members) {
      members.push_back({{"gateway", m.gateway},
                         {"interface", m.interface},
                         {"nexthop_id", m.nexthop_id},
                         {"kernel_weight", m.kernel_weight},
                         {"fare_weight", m.fare_weight}});
    }
    json j{{"prefix", r.prefix},
           {"group_id", r.group_id},
           {"programmed", r.programmed},
           {"members", std::move(members)}};
    if (!r.error.empty()) j["error"] = r.error;
    out.push_back(std::move(j));
  }
  return out;
}

std::string render_neighbors(const json& doc) {
  if (!doc.is_array()) return dump_json(doc, 2) + "\n";
  std::ostringstream s;
  s << pad("Neighbor", 16) << pad("Address", 18) << pad("AS", 10)
    << pad("State", 12) << pad("PfxRcd", 8) << pad("PfxSnt", 8) << "LinkBW\n";
  for (const json& n : doc) {
    // A link-local address with its link: "fe80::2%eth1".
    std::string address = n.value("address", "");
    if (auto ip = parse_ip(address); ip && ip->link_local()) {
      address += "%" + n.value("interface", "");
    }
    s << pad(n.value("name", ""), 16) << pad(address, 18)
      << pad(std::to_string(n.value("remote_as", 0u)), 10)
      << pad(n.value("state", ""), 12)
      // A daemon older than "received" gives its lifetime count.
      << pad(std::to_string(n.contains("received")
                                ? n.value("received", 0u)
                                : n.value("prefixes_in", 0u)),
             8)
      << pad(std::to_string(n.value("advertised", 0u)), 8)
      << rate(static_cast<double>(n.value("link_bandwidth", 0ull))) << "\n";
  }
  return s.str();
}

std::string render_rib(const json& doc) {
  if (!doc.is_array()) return dump_json(doc, 2) + "\n";
  std::ostringstream s;
  for (const json& r : doc) {
    s << r.value("prefix", "");
    if (r.value("local", false)) s << "  (originated)";
    const std::string reason = r.value("fare_reason", "none");
    if (reason != "none") s << "  FARE fallback: " << reason;
    s << "\n";
    for (const json& p : r["paths"]) {
      std::string nh = p.value("next_hop", "");
      bool used = false;
      std::uint64_t weight = 0;
      for (const json& h : r["installed"]) {
        if (h.value("peer", "") == p.value("peer", "") &&
            h.value("next_hop", "") == nh) {
          used = true;
          weight = h.value("weight", 0ull);
        }
      }
      const std::string ll = p.value("next_hop_link_local", "");
      s << (used ? "  *> " : "     ") << pad(p.value("peer", ""), 14)
        << pad(ll.empty() ? nh : nh + " " + ll, 16)
        << pad(p.value("as_path", ""), 20);
      // The non-transitive one (fare.transitivity: non-transitive, or a
      // super-spine's link) as "pathbw-nt". NaN and negative values count
      // as no community (FARE falls back).
      for (const auto& [key, label] :
           {std::pair{"path_bandwidth", "pathbw"},
            {"path_bandwidth_non_transitive", "pathbw-nt"}}) {
        if (!p.contains(key)) continue;
        s << label << " " << rate_of(p[key]) << " ";
        if (!p[key].value("valid", true)) s << "(invalid) ";
      }
      if (p.contains("link_bandwidth")) {
        s << "linkbw " << rate_of(p["link_bandwidth"]) << " ";
      }
      if (used) s << "weight " << rate(static_cast<double>(weight));
      s << "\n";
    }
  }
  return s.str();
}

std::string render_fib(const json& doc) {
  if (!doc.is_array()) return dump_json(doc, 2) + "\n";
  std::ostringstream s;
  for (const json& r : doc) {
    s << r.value("prefix", "") << "  nhg " << r.value("group_id", 0u)
      << (r.value("programmed", false) ? "" : "  NOT PROGRAMMED");
    if (r.contains("error")) s << " (" << r.value("error", "") << ")";
    s << "\n";
    for (const json& m : r["members"]) {
      s << "    via " << pad(m.value("gateway", ""), 16) << "dev "
        << pad(m.value("interface", ""), 10) << "nh "
        << pad(std::to_string(m.value("nexthop_id", 0u)), 6) << "weight "
        << m.value("kernel_weight", 0u) << "/256  (FARE "
        << rate(static_cast<double>(m.value("fare_weight", 0ull))) << ")\n";
    }
  }
  return s.str();
}

}  // namespace arfabric::daemon
