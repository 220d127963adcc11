#include "proto/fare/policy.h"

#include <algorithm>

namespace arfabric::proto::fare {

namespace {

// §4.2: a spine weighs routes from super-spines by the non-transitive
// community (the bandwidth of the super-spine's link toward the next-next
// hop); every other pairing uses the transitive one (§4.1). With a
// non-transitive path community (§3) every pairing reads that one.
bool uses_non_transitive(const FareConfig& config, const Candidate& c) {
  return !config.path_bandwidth_transitive ||
         (config.role == Role::spine && c.peer_role == Role::super_spine);
}

// min(link, divide(path, n)) without the 64-bit division (most of the cost
// of a candidate) when the link is the bottleneck: link <= floor(path / n)
// exactly when link * n <= path.
BitsPerSecond min_link_and_divided(BitsPerSecond link, BitsPerSecond path,
                                   std::uint64_t n) {
  std::uint64_t scaled;
  if (path == kUnlimited ||
      (!__builtin_mul_overflow(link, n, &scaled) && scaled <= path)) {
    return link;
  }
  return divide(path, n);
}

// The rate of the community a candidate's rule reads, or the reason it has
// none.
struct Lookup {
  std::optional<BitsPerSecond> rate;
  FallbackReason missing = FallbackReason::none;
};

Lookup lookup(const std::optional<wire::fare::PathBandwidth>& ec,
              bool non_transitive) {
  if (!ec) {
    return {std::nullopt, non_transitive
                              ? FallbackReason::missing_non_transitive
                              : FallbackReason::missing_path_bandwidth};
  }
  auto rate = to_bits_per_second(*ec);
  if (!rate) {
    return {std::nullopt, non_transitive
                              ? FallbackReason::invalid_non_transitive
                              : FallbackReason::invalid_path_bandwidth};
  }
  return {rate, FallbackReason::none};
}

Lookup lookup(const FareConfig& config, const Candidate& c) {
  const bool nt = uses_non_transitive(config, c);
  return lookup(nt ? c.non_transitive : c.transitive, nt);
}

// The first counted candidate's transitive community if valid, else the
// next one's: what a super-spine (and by default a spine, for routes from
// super-spines) passes on unchanged.
std::optional<wire::fare::PathBandwidth> first_valid_transitive(
    std::span<const Candidate> counted) {
  for (const Candidate& c : counted) {
    if (c.transitive && c.transitive->valid()) {
      wire::fare::PathBandwidth pb = *c.transitive;
      pb.transitive = true;
      return pb;
    }
  }
  return std::nullopt;
}

// Sum of the per-route minima of the rule over the first `counted` of
// `selected`, or nullopt when one of them lacks its community. Reuses
// import.path_bandwidth when it can hold the unadjusted minima of `selected`
// (same size, no multi-homing rule applied); otherwise recomputes.
std::optional<BitsPerSecond> total_path_bandwidth(
    const FareConfig& config, std::span<const Candidate> selected,
    std::size_t counted_size, const ImportResult& import) {
  const bool reuse = !import.multihoming_applied &&
                     import.path_bandwidth.size() == selected.size();
  const auto counted = selected.first(counted_size);
  BitsPerSecond total = 0;
  for (std::size_t i = 0; i < counted.size(); ++i) {
    const Lookup l = lookup(config, counted[i]);
    if (!l.rate) return std::nullopt;
    const BitsPerSecond m = reuse
                                ? import.path_bandwidth[i]
                                : std::min(counted[i].link_bandwidth, *l.rate);
    total = saturating_add(total, m);
  }
  return total;
}

}  // namespace

void import_weights(const FareConfig& config,
                    std::span<const Candidate> candidates,
                    std::uint32_t multihomed_leaves, ImportResult& out) {
  const std::size_t n = candidates.size();
  out.weights.assign(n, 1);
  out.path_bandwidth.assign(n, 0);
  out.weighted = false;
  out.reason = FallbackReason::none;
  out.offending_candidate = 0;
  out.multihoming_applied = config.role == Role::leaf && multihomed_leaves > 1;
  if (n == 0) {
    out.reason = FallbackReason::no_candidates;
    return;
  }
  bool any_nonzero = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Candidate& c = candidates[i];
    const Lookup l = lookup(config, c);
    if (!l.rate) {
      if (out.reason == FallbackReason::none) {
        out.reason = l.missing;
        out.offending_candidate = i;
      }
      continue;
    }
    const BitsPerSecond link = c.link_bandwidth;
    const BitsPerSecond path = *l.rate;
    if (!out.multihoming_applied) {
      out.path_bandwidth[i] = std::min(link, path);
    } else if (config.multihoming == MultihomingRule::divide_path_bandwidth) {
      out.path_bandwidth[i] =
          min_link_and_divided(link, path, multihomed_leaves);
    } else {
      out.path_bandwidth[i] =
          std::min(saturating_multiply(link, multihomed_leaves), path);
    }
    any_nonzero = any_nonzero || out.path_bandwidth[i] != 0;
  }
  if (out.reason != FallbackReason::none) return;
  if (!any_nonzero) {
    out.reason = FallbackReason::zero_total;
    return;
  }
  out.weighted = true;
  std::copy(out.path_bandwidth.begin(), out.path_bandwidth.end(),
            out.weights.begin());
}

ImportResult import_weights(const FareConfig& config,
                            std::span<const Candidate> candidates,
                            std::uint32_t multihomed_leaves) {
  ImportResult out;
  import_weights(config, candidates, multihomed_leaves, out);
  return out;
}

namespace {

// The path community `pb` in the field of its configured type (§3).
ExportResult path_community(const FareConfig& config,
                            wire::fare::PathBandwidth pb) {
  if (config.path_bandwidth_transitive) return {pb, std::nullopt};
  pb.transitive = false;
  return {std::nullopt, pb};
}

}  // namespace

ExportResult originate(const FareConfig& config) {
  return path_community(config,
                        wire::fare::max_path_bandwidth(config.router_id));
}

ExportResult readvertise(const FareConfig& config,
                         std::span<const Candidate> selected,
                         const ImportResult& import, bool multipath) {
  ExportResult out;
  if (selected.empty()) return out;
  const std::span<const Candidate> counted =
      multipath ? selected : selected.first(1);

  if (config.role == Role::super_spine && config.path_bandwidth_transitive) {
    out.transitive = first_valid_transitive(counted);
    if (config.super_spine_attach_link_ec) {
      BitsPerSecond links = 0;
      for (const Candidate& c : counted) {
        links = saturating_add(links, c.link_bandwidth);
      }
      out.non_transitive = to_path_bandwidth(config.router_id, links, false);
    }
    return out;
  }

  if (config.role == Role::spine && config.path_bandwidth_transitive &&
      selected.front().peer_role == Role::super_spine) {
    out.transitive = first_valid_transitive(counted);
    if (!config.spine_lower_to_next_next_hop || !out.transitive) return out;
    const auto total =
        total_path_bandwidth(config, selected, counted.size(), import);
    if (!total) return out;  // "In the case where each route contains ..."
    const auto current = to_bits_per_second(*out.transitive);
    if (*total < *current) {
      out.transitive = to_path_bandwidth(config.router_id, *total);
    }
    return out;
  }

  const auto total =
      total_path_bandwidth(config, selected, counted.size(), import);
  if (!total) return out;
  return path_community(config, to_path_bandwidth(config.router_id, *total));
}

std::string_view fallback_reason_name(FallbackReason reason) {
  switch (reason) {
    case FallbackReason::none:
      return "none";
    case FallbackReason::no_candidates:
      return "no_candidates";
    case FallbackReason::missing_path_bandwidth:
      return "missing_path_bandwidth";
    case FallbackReason::invalid_path_bandwidth:
      return "invalid_path_bandwidth";
    case FallbackReason::missing_non_transitive:
      return "missing_non_transitive";
    case FallbackReason::invalid_non_transitive:
      return "invalid_non_transitive";
    case FallbackReason::zero_total:
      return "zero_total";
  }
  return "unknown";
}

}  // namespace arfabric::proto::fare
