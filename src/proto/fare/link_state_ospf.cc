#include "proto/fare/link_state_ospf.h"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

#include "absl/container/flat_hash_map.h"

namespace arfabric::proto::fare {
namespace {

namespace ospf = wire::ospf;

std::unexpected<ConfigError> bad(std::string field, std::string reason) {
  return std::unexpected(ConfigError{std::move(field), std::move(reason)});
}

std::uint32_t to_u32(const wire::Ipv4Address& a) {
  return std::uint32_t{a[0]} << 24 | std::uint32_t{a[1]} << 16 |
         std::uint32_t{a[2]} << 8 | a[3];
}

// The prefix of `network` under a contiguous `mask`; nullopt when the
// mask is not contiguous.
std::optional<fib::Prefix> masked_prefix(const wire::Ipv4Address& network,
                                         const wire::Ipv4Address& mask) {
  const std::uint32_t m = to_u32(mask);
  const int length = std::countl_one(m);
  if (length < 32 && (m << length) != 0) return std::nullopt;
  fib::Prefix p{.ipv6 = false, .length = static_cast<std::uint8_t>(length)};
  for (std::size_t i = 0; i < 4; ++i)
    p.address[i] = static_cast<std::uint8_t>(network[i] & mask[i]);
  return p;
}

// RFC 4203 §1.1.1: Link Local/Remote Identifiers, a TE Link sub-TLV of
// two 32-bit identifiers (kept raw by the TE codec).
constexpr std::uint16_t kLinkLocalRemoteIdentifiers = 11;

std::string lsa_name(std::size_t i) {
  return "lsas[" + std::to_string(i) + "]";
}

}  // namespace

RouterKey router_key(const wire::Ipv4Address& router_id) {
  return to_u32(router_id);
}

wire::Ipv4Address ospf_router_id(RouterKey key) {
  return {static_cast<std::uint8_t>(key >> 24),
          static_cast<std::uint8_t>(key >> 16),
          static_cast<std::uint8_t>(key >> 8), static_cast<std::uint8_t>(key)};
}

std::expected<OspfDatabase, ConfigError> database_from_ospfv2(
    std::span<const ospf::Ospfv2Lsa> lsas, const OspfView& view) {
  // Each LSA once (RFC 2328 §12.1: LS type, Link State ID, advertising
  // router identify it).
  absl::flat_hash_map<std::tuple<std::uint8_t, std::uint32_t, std::uint32_t>,
                      std::size_t>
      seen;
  seen.reserve(lsas.size());
  for (std::size_t i = 0; i < lsas.size(); ++i) {
    const ospf::Ospfv2LsaHeader& h = lsas[i].header;
    const auto [at, fresh] = seen.try_emplace(
        {h.ls_type, to_u32(h.link_state_id), to_u32(h.advertising_router)}, i);
    if (!fresh)
      return bad(lsa_name(i),
                 "the same LSA (LS type " + std::to_string(h.ls_type) +
                     ", link state ID " + wire::format_ipv4(h.link_state_id) +
                     ", advertising router " +
                     wire::format_ipv4(h.advertising_router) + ") as " +
                     lsa_name(at->second));
  }

  OspfDatabase out;
  LinkStateDatabase& db = out.database;
  auto note = [&](std::size_t i, OspfNoteKind kind, std::string detail = {}) {
    out.notes.push_back({i, kind, std::move(detail)});
  };
  // Routers from their Router-LSAs, in the order those come.
  absl::flat_hash_map<RouterKey, std::size_t> index;
  // Per router, per point-to-point link: its Link Data (the local
  // interface address, or an unnumbered link's ifIndex), which TE Link
  // TLVs name it by; and whether the router is an area border router.
  std::vector<std::vector<std::uint32_t>> link_data;
  std::vector<bool> border;
  for (std::size_t i = 0; i < lsas.size(); ++i) {
    const ospf::Ospfv2LsaHeader& h = lsas[i].header;
    if (h.ls_type == 2) note(i, OspfNoteKind::lan, "Network-LSA");
    if (h.ls_type == 5 || h.ls_type == 7) note(i, OspfNoteKind::external);
    const auto* body = std::get_if<ospf::RouterLsa>(&lsas[i].body);
    if (!body) continue;
    if (h.link_state_id != h.advertising_router) {
      note(i, OspfNoteKind::router_lsa_id);
      continue;
    }
    LinkStateRouter router{
        .router = router_key(h.advertising_router),
        .overloaded = (body->flags & ospf::kRouterFlagHost) != 0,
        .links = {},
        .prefixes = {}};
    std::vector<std::uint32_t> own_link_data;
    std::size_t transit = 0, virtual_links = 0;
    for (std::size_t j = 0; j < body->links.size(); ++j) {
      const ospf::RouterLsaLink& link = body->links[j];
      if (link.type == ospf::kRouterLinkPointToPoint) {
        router.links.push_back(
            {router_key(link.link_id), link.metric, std::nullopt});
        own_link_data.push_back(to_u32(link.link_data));
      } else if (link.type == ospf::kRouterLinkStub) {
        const auto prefix = masked_prefix(link.link_id, link.link_data);
        if (!prefix) {
          note(i, OspfNoteKind::mask,
               "links[" + std::to_string(j) + "]: stub network " +
                   wire::format_ipv4(link.link_id) + " mask " +
                   wire::format_ipv4(link.link_data));
          continue;
        }
        router.prefixes.push_back({*prefix, link.metric, std::nullopt, false});
      } else if (link.type == ospf::kRouterLinkTransit) {
        ++transit;
      } else if (link.type == ospf::kRouterLinkVirtual) {
        ++virtual_links;
      }
    }
    if (transit > 0)
      note(i, OspfNoteKind::lan, std::to_string(transit) + " transit links");
    if (virtual_links > 0)
      note(i, OspfNoteKind::virtual_link,
           std::to_string(virtual_links) + " virtual links");
    index.try_emplace(router.router, db.routers.size());
    db.routers.push_back(std::move(router));
    link_data.push_back(std::move(own_link_data));
    border.push_back((body->flags & ospf::kRouterFlagBorder) != 0);
  }

  // Inter-area prefixes from the ABRs' Summary-LSAs (RFC 2328 §16.2).
  const auto self_at = view.self ? index.find(*view.self) : index.end();
  const bool self_is_abr_outside_backbone =
      self_at != index.end() && border[self_at->second] && !view.backbone;
  for (std::size_t i = 0; i < lsas.size(); ++i) {
    const auto* body = std::get_if<ospf::SummaryLsa>(&lsas[i].body);
    const ospf::Ospfv2LsaHeader& h = lsas[i].header;
    if (!body || h.ls_type != ospf::kLsTypeSummaryNetwork) continue;
    const auto at = index.find(router_key(h.advertising_router));
    if (at == index.end()) continue;  // no Router-LSA: left out
    if (view.self && at->first == *view.self) continue;  // §16.2 (2)
    if (self_is_abr_outside_backbone) {
      note(i, OspfNoteKind::summary_outside_backbone);
      continue;
    }
    if (!border[at->second]) {
      note(i, OspfNoteKind::summary_not_from_abr);
      continue;
    }
    const auto prefix = masked_prefix(h.link_state_id, body->network_mask);
    if (!prefix) {
      note(i, OspfNoteKind::mask,
           "network " + wire::format_ipv4(h.link_state_id) + " mask " +
               wire::format_ipv4(body->network_mask));
      continue;
    }
    if (body->metric >= ospf::kLsInfinity) continue;  // withdrawn
    db.routers[at->second].prefixes.push_back(
        {*prefix, body->metric, std::nullopt, true});
  }

  // What TE Link TLVs and Extended Prefix TLVs name, per router (by
  // index): a point-to-point link by neighbour and Link Data, the links to
  // a neighbour, a prefix advertisement by network, length and kind.
  struct NeighborLinks {
    std::size_t first = 0;
    std::size_t count = 0;
  };
  absl::flat_hash_map<std::tuple<std::size_t, RouterKey, std::uint32_t>,
                      std::size_t>
      link_by_address;
  absl::flat_hash_map<std::pair<std::size_t, RouterKey>, NeighborLinks>
      links_by_neighbor;
  absl::flat_hash_map<
      std::tuple<std::size_t, std::uint32_t, std::uint8_t, bool>,
      std::vector<std::size_t>>
      prefixes_by_key;
  for (std::size_t r = 0; r < db.routers.size(); ++r) {
    const LinkStateRouter& router = db.routers[r];
    for (std::size_t k = 0; k < router.links.size(); ++k) {
      const RouterKey neighbor = router.links[k].neighbor;
      link_by_address.try_emplace({r, neighbor, link_data[r][k]}, k);
      NeighborLinks& n = links_by_neighbor[{r, neighbor}];
      if (n.count++ == 0) n.first = k;
    }
    for (std::size_t k = 0; k < router.prefixes.size(); ++k) {
      const LinkStatePrefix& p = router.prefixes[k];
      prefixes_by_key[{r,
                       to_u32({p.prefix.address[0], p.prefix.address[1],
                               p.prefix.address[2], p.prefix.address[3]}),
                       p.prefix.length, p.inter_area}]
          .push_back(k);
    }
  }

  // Link capacities from the TE LSAs, Path Bandwidths from the Extended
  // Prefix LSAs.
  struct UnnamedTeLink {
    std::size_t lsa = 0;
    std::size_t router = 0;
    RouterKey neighbor = 0;
    BitsPerSecond capacity = 0;
  };
  std::vector<UnnamedTeLink> by_neighbor_only;
  for (std::size_t i = 0; i < lsas.size(); ++i) {
    const ospf::Ospfv2Lsa& lsa = lsas[i];
    const auto at = index.find(router_key(lsa.header.advertising_router));
    if (at == index.end()) continue;
    const std::size_t r = at->second;
    LinkStateRouter& router = db.routers[r];
    if (const auto* te = std::get_if<ospf::TeLsa>(&lsa.body)) {
      for (const ospf::TeTlv& tlv : te->tlvs) {
        const auto* link = std::get_if<ospf::TeLinkTlv>(&tlv);
        if (!link) continue;
        std::optional<RouterKey> neighbor;
        std::vector<std::uint32_t> local;
        std::optional<std::uint32_t> local_identifier;
        std::optional<BitsPerSecond> capacity;
        bool point_to_point = true;
        for (const ospf::LinkSubTlv& sub : link->sub_tlvs) {
          if (const auto* t = std::get_if<ospf::LinkTypeSubTlv>(&sub))
            point_to_point = t->link_type == 1;
          else if (const auto* id = std::get_if<ospf::LinkIdSubTlv>(&sub))
            neighbor = router_key(id->link_id);
          else if (const auto* a = std::get_if<ospf::LocalAddressSubTlv>(&sub))
            for (const wire::Ipv4Address& address : a->addresses)
              local.push_back(to_u32(address));
          else if (const auto* mb = std::get_if<ospf::MaxBandwidthSubTlv>(&sub))
            capacity = to_bits_per_second(mb->bandwidth);
          else if (const auto* raw = std::get_if<ospf::RawTlv>(&sub);
                   raw && raw->type == kLinkLocalRemoteIdentifiers &&
                   raw->value.size() == 8)
            local_identifier = to_u32(
                {raw->value[0], raw->value[1], raw->value[2], raw->value[3]});
        }
        if (!point_to_point || !neighbor || !capacity) continue;
        // The router's link the TLV names by local address or link
        // identifier (the first of them); else, after every exact name has
        // been given (below), the one link to its neighbour.
        std::optional<std::size_t> named;
        auto name_by = [&](std::uint32_t data) {
          const auto k = link_by_address.find({r, *neighbor, data});
          if (k != link_by_address.end())
            named = std::min(named.value_or(k->second), k->second);
        };
        for (std::uint32_t address : local) name_by(address);
        if (!named && local_identifier) name_by(*local_identifier);
        if (named) {
          if (!router.links[*named].max_bandwidth)
            router.links[*named].max_bandwidth = capacity;
        } else {
          by_neighbor_only.push_back({i, r, *neighbor, *capacity});
        }
      }
    } else if (const auto* ep =
                   std::get_if<ospf::ExtendedPrefixLsa>(&lsa.body)) {
      for (const ospf::ExtendedPrefixLsaTlv& tlv : ep->tlvs) {
        const auto* prefix_tlv = std::get_if<ospf::ExtendedPrefixTlv>(&tlv);
        if (!prefix_tlv) continue;
        const std::uint8_t type = prefix_tlv->route_type;
        if (type != 0 && type != 1 && type != 3) continue;
        std::optional<BitsPerSecond> path_bandwidth;
        bool present = false;
        for (const ospf::PrefixSubTlv& sub : prefix_tlv->sub_tlvs)
          if (const auto* pb = std::get_if<ospf::PathBandwidthSubTlv>(&sub)) {
            path_bandwidth = to_bits_per_second(pb->bandwidth);
            present = true;
          }
        if (!present) continue;
        const std::uint8_t length = prefix_tlv->prefix_length;
        const std::uint32_t mask =
            length == 0 ? 0 : ~std::uint32_t{0} << (32 - length);
        const std::uint32_t network = to_u32(prefix_tlv->prefix) & mask;
        for (const bool inter_area : {false, true}) {
          if (type != 0 && inter_area != (type == 3)) continue;
          const auto found =
              prefixes_by_key.find({r, network, length, inter_area});
          if (found == prefixes_by_key.end()) continue;
          for (std::size_t k : found->second)
            router.prefixes[k].path_bandwidth = path_bandwidth;
        }
      }
    }
  }
  // TE Link TLVs that named no link exactly: the neighbour's one link,
  // unless an exact name gave it its capacity already.
  for (const UnnamedTeLink& t : by_neighbor_only) {
    const auto n = links_by_neighbor.find({t.router, t.neighbor});
    LinkStateLink* link = n != links_by_neighbor.end() && n->second.count == 1
                              ? &db.routers[t.router].links[n->second.first]
                              : nullptr;
    if (link && !link->max_bandwidth) {
      link->max_bandwidth = t.capacity;
      continue;
    }
    note(t.lsa, OspfNoteKind::te_link_unmatched,
         "Link ID " + wire::format_ipv4(ospf_router_id(t.neighbor)));
  }
  std::ranges::stable_sort(out.notes, {}, &OspfNote::lsa);
  return out;
}

}  // namespace arfabric::proto::fare
