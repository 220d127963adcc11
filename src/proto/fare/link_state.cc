#include "proto/fare/link_state.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"

namespace arfabric::proto::fare {
namespace {

constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();

std::unexpected<ConfigError> bad(std::string field, std::string reason) {
  return std::unexpected(ConfigError{std::move(field), std::move(reason)});
}

// Routes' order: IPv4 before IPv6, then address, then length.
struct PrefixLess {
  bool operator()(const fib::Prefix& a, const fib::Prefix& b) const {
    return std::tie(a.ipv6, a.address, a.length) <
           std::tie(b.ipv6, b.address, b.length);
  }
};

std::optional<std::string> prefix_problem(const fib::Prefix& p) {
  const unsigned max = p.ipv6 ? 128 : 32;
  if (p.length > max)
    return "length " + std::to_string(p.length) + " over " +
           std::to_string(max) + " bits";
  for (unsigned bit = p.length; bit < 128; ++bit)
    if (p.address[bit / 8] & (0x80 >> bit % 8)) return "host bits set";
  return std::nullopt;
}

// The link from one router to a neighbour, parallel links merged.
struct Edge {
  std::size_t to = 0;
  std::uint32_t metric = 0;
  BitsPerSecond capacity = kUnlimited;  // kUnlimited: no Maximum Bandwidth
};

// One first hop's capacity toward a router: the widest of the shortest
// paths through it.
struct HopCapacity {
  std::size_t first_hop = 0;  // router index of the neighbour of self
  BitsPerSecond capacity = 0;
};

// Sets `hops`' entry for `first_hop` to at least `capacity`. Returns
// whether it changed.
bool widen(std::vector<HopCapacity>& hops, std::size_t first_hop,
           BitsPerSecond capacity) {
  const auto it =
      std::ranges::lower_bound(hops, first_hop, {}, &HopCapacity::first_hop);
  if (it != hops.end() && it->first_hop == first_hop) {
    if (capacity <= it->capacity) return false;
    it->capacity = capacity;
    return true;
  }
  hops.insert(it, HopCapacity{first_hop, capacity});
  return true;
}

// The parser keeps the bits of the prefix's last octet beyond its length
// as sent; a route is keyed by the prefix alone.
void clear_host_bits(fib::Prefix& p) {
  for (unsigned bit = p.length; bit < 128; ++bit)
    p.address[bit / 8] &= static_cast<std::uint8_t>(~(0x80u >> bit % 8));
}

}  // namespace

std::optional<BitsPerSecond> to_bits_per_second(wire::lsr::Bandwidth32 bw) {
  const float f = bw.bytes_per_second();
  if (std::isnan(f) || (std::signbit(f) && f != 0.0f)) return std::nullopt;
  if (std::isinf(f)) return kUnlimited;
  // Exact: a float times 8 is a double without rounding.
  const double bits = static_cast<double>(f) * 8.0;
  if (bits >= 0x1p64) return kUnlimited;
  return static_cast<BitsPerSecond>(std::floor(bits));
}

wire::lsr::Bandwidth32 to_bandwidth32(BitsPerSecond rate) {
  if (rate == kUnlimited)
    return wire::lsr::Bandwidth32::from_bytes_per_second(FLT_MAX);
  float f = static_cast<float>(static_cast<long double>(rate) / 8);
  // Rounded to nearest, perhaps above: step down until not above (x86's
  // long double holds every 64-bit rate and every float times 8 exactly).
  while (static_cast<long double>(f) * 8 > static_cast<long double>(rate))
    f = std::nextafter(f, 0.0f);
  return wire::lsr::Bandwidth32::from_bytes_per_second(f);
}

RouterKey router_key(const wire::isis::SystemId& id) {
  RouterKey key = 0;
  for (std::uint8_t b : id) key = key << 8 | b;
  return key;
}

wire::isis::SystemId system_id(RouterKey key) {
  wire::isis::SystemId id{};
  for (int i = 5; i >= 0; --i, key >>= 8) id[i] = key & 0xff;
  return id;
}

std::expected<std::vector<LinkStateRoute>, ConfigError> compute_routes(
    const LinkStateDatabase& database, RouterKey self) {
  const auto& routers = database.routers;
  absl::flat_hash_map<RouterKey, std::size_t> index;
  for (std::size_t i = 0; i < routers.size(); ++i) {
    const std::string at = "routers[" + std::to_string(i) + "]";
    if (!index.emplace(routers[i].router, i).second)
      return bad(at + ".router", "listed twice");
    for (std::size_t j = 0; j < routers[i].prefixes.size(); ++j)
      if (auto why = prefix_problem(routers[i].prefixes[j].prefix))
        return bad(at + ".prefixes[" + std::to_string(j) + "].prefix", *why);
  }
  const auto self_at = index.find(self);
  if (self_at == index.end())
    return bad("self",
               "router " + std::to_string(self) + " is not in the database");
  const std::size_t source = self_at->second;

  // Each router's links to routers of the database, by neighbour index
  // (sorted, so that the two-way check is a search and parallel links are
  // adjacent). A link to itself or to a router not in the database is
  // nothing.
  struct Resolved {
    std::size_t neighbor = 0;
    const LinkStateLink* link = nullptr;
  };
  std::vector<std::vector<Resolved>> resolved(routers.size());
  for (std::size_t i = 0; i < routers.size(); ++i) {
    for (const LinkStateLink& l : routers[i].links)
      if (const auto n = index.find(l.neighbor);
          n != index.end() && n->second != i)
        resolved[i].push_back({n->second, &l});
    std::ranges::sort(resolved[i], {}, &Resolved::neighbor);
  }
  // Edges: the least metric to each neighbour that lists us too, the
  // capacities of the parallel links at that metric summed.
  std::vector<std::vector<Edge>> edges(routers.size());
  for (std::size_t i = 0; i < routers.size(); ++i) {
    const auto& out = resolved[i];
    for (std::size_t k = 0; k < out.size();) {
      const std::size_t j = out[k].neighbor;
      std::size_t end = k;
      std::uint32_t metric = std::numeric_limits<std::uint32_t>::max();
      for (; end < out.size() && out[end].neighbor == j; ++end)
        metric = std::min(metric, out[end].link->metric);
      const bool two_way =
          std::ranges::binary_search(resolved[j], i, {}, &Resolved::neighbor);
      if (two_way) {
        BitsPerSecond capacity = 0;
        bool unknown = false;  // a link at that metric without a bandwidth
        for (std::size_t p = k; p < end; ++p) {
          const LinkStateLink& l = *out[p].link;
          if (l.metric != metric) continue;
          if (l.max_bandwidth)
            capacity = saturating_add(capacity, *l.max_bandwidth);
          else
            unknown = true;
        }
        edges[i].push_back({j, metric, unknown ? kUnlimited : capacity});
      }
      k = end;
    }
  }

  // Dijkstra from self; overloaded routers are not transit.
  std::vector<std::uint64_t> distance(routers.size(), kUnreached);
  std::vector<std::size_t> order;  // by distance
  using Queued = std::pair<std::uint64_t, std::size_t>;
  std::priority_queue<Queued, std::vector<Queued>, std::greater<>> frontier;
  distance[source] = 0;
  frontier.push({0, source});
  while (!frontier.empty()) {
    const auto [d, u] = frontier.top();
    frontier.pop();
    if (d != distance[u]) continue;  // reached sooner since
    order.push_back(u);
    if (u != source && routers[u].overloaded) continue;
    for (const Edge& e : edges[u]) {
      if (d + e.metric < distance[e.to]) {
        distance[e.to] = d + e.metric;
        frontier.push({distance[e.to], e.to});
      }
    }
  }

  // First hops and their capacities along the shortest-path DAG. Edges of
  // metric 0 join routers at one distance, which one pass in distance
  // order may visit in the wrong order: with any, repeat until nothing
  // changes.
  const bool zero_metrics = std::ranges::any_of(edges, [](const auto& out) {
    return std::ranges::any_of(out,
                               [](const Edge& e) { return e.metric == 0; });
  });
  std::vector<std::vector<HopCapacity>> hops(routers.size());
  for (bool changed = true; changed;) {
    changed = false;
    for (const std::size_t u : order) {
      if (u != source && routers[u].overloaded) continue;
      for (const Edge& e : edges[u]) {
        if (e.to == source || distance[u] + e.metric != distance[e.to])
          continue;
        if (u == source) {
          changed |= widen(hops[e.to], e.to, e.capacity);
          continue;
        }
        for (const HopCapacity& h : hops[u])  // e.to != u: no aliasing
          changed |=
              widen(hops[e.to], h.first_hop, std::min(h.capacity, e.capacity));
      }
    }
    changed &= zero_metrics;
  }

  // Prefixes: the nearest originators other than self.
  struct Offer {
    std::size_t router = 0;
    std::uint64_t cost = 0;
    BitsPerSecond path_bandwidth = kUnlimited;
    bool inter_area = false;
  };
  std::map<fib::Prefix, std::vector<Offer>, PrefixLess> offers;
  std::set<fib::Prefix, PrefixLess> own;
  for (std::size_t i = 0; i < routers.size(); ++i) {
    for (const LinkStatePrefix& p : routers[i].prefixes) {
      if (i == source) {
        own.insert(p.prefix);
        continue;
      }
      if (distance[i] == kUnreached) continue;
      offers[p.prefix].push_back({i, distance[i] + p.metric,
                                  p.path_bandwidth.value_or(kUnlimited),
                                  p.inter_area});
    }
  }
  std::vector<LinkStateRoute> routes;
  for (auto& [prefix, list] : offers) {
    if (own.contains(prefix)) continue;
    // The level's or area's own advertisements are preferred to those
    // from another (an IS-IS up/down bit, RFC 5302 §3.3; an OSPF
    // inter-area route, RFC 2328 §11) whatever their costs; among one
    // kind, the least cost.
    const bool only_inter_area =
        std::ranges::all_of(list, [](const Offer& o) { return o.inter_area; });
    std::uint64_t best = kUnreached;
    for (const Offer& o : list)
      if (o.inter_area == only_inter_area) best = std::min(best, o.cost);
    LinkStateRoute route;
    route.prefix = prefix;
    route.metric = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        best, std::numeric_limits<std::uint32_t>::max()));
    std::vector<HopCapacity> first;
    BitsPerSecond bound = 0;  // the largest originator's Path Bandwidth
    route.inter_area = only_inter_area;
    for (const Offer& o : list) {
      if (o.cost != best || o.inter_area != only_inter_area) continue;
      route.originators.push_back(routers[o.router].router);
      bound = std::max(bound, o.path_bandwidth);
      for (const HopCapacity& h : hops[o.router])
        widen(first, h.first_hop, std::min(h.capacity, o.path_bandwidth));
    }
    if (first.empty()) continue;  // reached only through self's prefixes
    std::ranges::sort(route.originators);
    BitsPerSecond total = 0;
    bool unknown = false;
    for (const HopCapacity& h : first) {
      total = saturating_add(total, h.capacity);
      unknown |= h.capacity == kUnlimited;
    }
    route.path_bandwidth = std::min(bound, total);
    route.fallback = unknown      ? WeightFallback::unknown_capacity
                     : total == 0 ? WeightFallback::zero_total
                                  : WeightFallback::none;
    route.weighted = route.fallback == WeightFallback::none;
    for (const HopCapacity& h : first)
      route.first_hops.push_back(
          {routers[h.first_hop].router, route.weighted ? h.capacity : 1});
    std::ranges::sort(route.first_hops, {}, &WeightedFirstHop::neighbor);
    routes.push_back(std::move(route));
  }
  return routes;
}

std::expected<LinkStateDatabase, ConfigError> database_from_isis(
    std::span<const wire::isis::Lsp> lsps) {
  namespace isis = wire::isis;
  // RFC 5305 §3: a link at this metric is not for SPF; §4: nor a prefix
  // above MAX_PATH_METRIC.
  constexpr std::uint32_t kMaxLinkMetric = 0xFFFFFF;
  constexpr std::uint32_t kMaxPathMetric = 0xFE000000;
  auto bandwidth_of = [](const auto& sub_tlvs) {
    std::optional<BitsPerSecond> rate;
    for (const auto& sub : sub_tlvs) {
      if (const auto* mb = std::get_if<isis::MaxLinkBandwidthSubTlv>(&sub))
        rate = to_bits_per_second(mb->bandwidth);
    }
    return rate;
  };
  auto path_bandwidth_of = [](const auto& prefix) {
    std::optional<BitsPerSecond> rate;
    if (!prefix.sub_tlvs) return rate;
    for (const auto& sub : *prefix.sub_tlvs) {
      if (const auto* pb = std::get_if<isis::PathBandwidthSubTlv>(&sub))
        rate = to_bits_per_second(pb->bandwidth);
    }
    return rate;
  };
  auto add_prefix = [&](LinkStateRouter& router, const auto& p, bool ipv6) {
    if (p.metric > kMaxPathMetric) return;
    fib::Prefix prefix{.ipv6 = ipv6, .length = p.prefix_length};
    std::ranges::copy(p.prefix, prefix.address.begin());
    clear_host_bits(prefix);
    router.prefixes.push_back(
        {prefix, p.metric, path_bandwidth_of(p), p.up_down});
  };
  // Routers in the order their first LSP comes; only those with fragment
  // 0 are kept.
  std::map<RouterKey, std::size_t> index;
  std::vector<LinkStateRouter> routers;
  std::vector<bool> has_fragment_zero;
  for (std::size_t i = 0; i < lsps.size(); ++i) {
    const isis::Lsp& lsp = lsps[i];
    if (lsp.lsp_id.pseudonode != 0)
      return bad("lsps[" + std::to_string(i) + "].lsp_id.pseudonode",
                 "a LAN's pseudonode LSP: not supported (point-to-point "
                 "links only)");
    const RouterKey key = router_key(lsp.lsp_id.system_id);
    const auto [at, fresh] = index.try_emplace(key, routers.size());
    if (fresh) {
      routers.push_back(
          LinkStateRouter{.router = key, .links = {}, .prefixes = {}});
      has_fragment_zero.push_back(false);
    }
    LinkStateRouter& router = routers[at->second];
    if (lsp.lsp_id.fragment == 0) {
      has_fragment_zero[at->second] = true;
      router.overloaded = (lsp.flags & isis::kLspFlagOverload) != 0;
    }
    for (const isis::Tlv& tlv : lsp.tlvs) {
      if (const auto* is = std::get_if<isis::ExtendedIsReachTlv>(&tlv)) {
        for (const isis::IsNeighbor& n : is->neighbors) {
          // A LAN (not supported), or a link not for SPF.
          if (n.pseudonode != 0 || n.metric >= kMaxLinkMetric) continue;
          router.links.push_back(
              {router_key(n.system_id), n.metric, bandwidth_of(n.sub_tlvs)});
        }
      } else if (const auto* ip = std::get_if<isis::ExtendedIpReachTlv>(&tlv)) {
        for (const isis::Ipv4Prefix& p : ip->prefixes)
          add_prefix(router, p, false);
      } else if (const auto* ip6 = std::get_if<isis::Ipv6ReachTlv>(&tlv)) {
        for (const isis::Ipv6Prefix& p : ip6->prefixes)
          add_prefix(router, p, true);
      }
    }
  }
  LinkStateDatabase db;
  for (std::size_t r = 0; r < routers.size(); ++r)
    if (has_fragment_zero[r]) db.routers.push_back(std::move(routers[r]));
  return db;
}

}  // namespace arfabric::proto::fare
