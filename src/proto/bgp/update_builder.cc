#include "proto/bgp/update_builder.h"

#include <algorithm>

#include "wire/bgp/header.h"
#include "wire/bgp/message.h"
#include "wire/bgp/open.h"

namespace arfabric::proto::bgp {

namespace wb = wire::bgp;

namespace {

constexpr std::size_t kUpdateFixed = 19 + 2 + 2;  // header + two lengths

// RFC 6793 section 4.2.2: toward a 2-octet speaker, 4-octet ASNs become
// AS_TRANS in AS_PATH and the true path travels in AS4_PATH.
void downgrade_as_path(std::vector<wb::PathAttribute>& attrs) {
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    auto* path = std::get_if<wb::AsPath>(&attrs[i].value);
    if (attrs[i].type != wb::attr_type::kAsPath || !path) continue;
    bool wide = false;
    for (const auto& s : path->segments) {
      for (std::uint32_t asn : s.asns) wide |= asn > 0xffff;
    }
    if (!wide) return;
    wb::AsPath as4 = *path;
    for (auto& s : path->segments) {
      for (std::uint32_t& asn : s.asns) {
        if (asn > 0xffff) asn = wb::kAsTrans;
      }
    }
    std::erase_if(attrs, [](const wb::PathAttribute& a) {
      return a.type == wb::attr_type::kAs4Path;
    });
    auto at = std::find_if(attrs.begin(), attrs.end(), [](const auto& a) {
      return a.type > wb::attr_type::kAs4Path;
    });
    attrs.insert(at, wb::make_attribute(wb::attr_type::kAs4Path, as4));
    return;
  }
}

std::size_t attributes_size(const std::vector<wb::PathAttribute>& attrs,
                            const wb::SessionCodecOptions& options) {
  std::size_t n = 0;
  for (const auto& a : attrs) n += wb::encoded_size(a, options);
  return n;
}

std::expected<void, EncodeError> emit(const wb::Update& update,
                                      const wb::SessionCodecOptions& options,
                                      std::vector<Bytes>& out) {
  ByteWriter w;
  if (auto r = wb::serialize(update, options, w); !r) return r;
  out.push_back(std::move(w).take());
  return {};
}

std::size_t prefix_size(const Destination& d, bool add_path) {
  return 1 + (d.length + 7u) / 8u + (add_path ? 4 : 0);
}

wb::Prefix wire_prefix(const Destination& d, bool add_path) {
  wb::Prefix p = to_wire_prefix(d);
  // One path per destination is advertised; its identifier is 1.
  if (add_path) p.path_id = 1;
  return p;
}

// Splits `destinations` into runs whose encoded prefixes fit `budget`
// bytes and calls `f(first, last)` for each.
template <typename F>
std::expected<void, EncodeError> for_each_chunk(
    const std::vector<Destination>& destinations, std::size_t budget,
    bool add_path, F&& f) {
  std::size_t first = 0;
  while (first < destinations.size()) {
    std::size_t used = 0, last = first;
    while (last < destinations.size() &&
           used + prefix_size(destinations[last], add_path) <= budget) {
      used += prefix_size(destinations[last], add_path);
      ++last;
    }
    if (last == first) {
      return std::unexpected(EncodeError{"update.attributes",
                                         "attributes leave no room for a "
                                         "prefix in one message"});
    }
    if (auto r = f(first, last); !r) return r;
    first = last;
  }
  return {};
}

}  // namespace

std::expected<void, EncodeError> build_announcements(
    const AnnouncementGroup& group, const ExportTarget& target,
    std::vector<Bytes>& out) {
  if (group.destinations.empty()) return {};
  const std::uint16_t afi = group.destinations.front().afi;
  const wb::AfiSafi family{afi, wb::kSafiUnicast};
  const bool add_path = target.send.has_add_path(family);
  std::vector<wb::PathAttribute> attrs = group.attributes->attributes;
  if (!target.send.four_octet_as) downgrade_as_path(attrs);
  const std::size_t max = target.send.max_message_length();
  const std::size_t rollback = out.size();
  auto fail = [&](EncodeError e) {
    out.resize(rollback);
    return std::unexpected(std::move(e));
  };

  if (afi == wb::kAfiIpv4) {
    if (target.next_hop_ipv4.size() != 4) {
      return fail({"next_hop_ipv4", "no IPv4 next hop for this peer"});
    }
    wb::NextHop nh;
    std::copy_n(target.next_hop_ipv4.begin(), 4, nh.address.begin());
    attrs.insert(std::find_if(attrs.begin(), attrs.end(),
                              [](const auto& a) {
                                return a.type > wb::attr_type::kNextHop;
                              }),
                 wb::make_attribute(wb::attr_type::kNextHop, nh));
    const std::size_t fixed =
        kUpdateFixed + attributes_size(attrs, target.send);
    if (fixed >= max) return fail({"update.attributes", "too large"});
    wb::Update update;
    update.attributes = std::move(attrs);
    auto r = for_each_chunk(
        group.destinations, max - fixed, add_path,
        [&](std::size_t first,
            std::size_t last) -> std::expected<void, EncodeError> {
          update.nlri.clear();
          for (std::size_t i = first; i < last; ++i) {
            update.nlri.push_back(wire_prefix(group.destinations[i], add_path));
          }
          return emit(update, target.send, out);
        });
    if (!r) return fail(r.error());
    return {};
  }

  if (target.next_hop_ipv6.size() != 16 && target.next_hop_ipv6.size() != 32) {
    return fail({"next_hop_ipv6", "no IPv6 next hop for this peer"});
  }
  // MP_REACH_NLRI: always the 2-byte length form so the size is known.
  const std::size_t mp_fixed =
      2 + 2 + 2 + 1 + 1 + target.next_hop_ipv6.size() + 1;
  const std::size_t fixed =
      kUpdateFixed + attributes_size(attrs, target.send) + mp_fixed;
  if (fixed >= max) return fail({"update.attributes", "too large"});
  const auto mp_at = std::find_if(
      attrs.begin(), attrs.end(),
      [](const auto& a) { return a.type > wb::attr_type::kMpReachNlri; });
  const std::size_t mp_index = static_cast<std::size_t>(mp_at - attrs.begin());
  wb::PathAttribute mp = wb::make_attribute(
      wb::attr_type::kMpReachNlri,
      wb::MpReachNlri{family, target.next_hop_ipv6, 0, {}, {}});
  mp.flags |= wb::attr_flag::kExtendedLength;
  attrs.insert(mp_at, std::move(mp));
  wb::Update update;
  update.attributes = std::move(attrs);
  auto r = for_each_chunk(
      group.destinations, std::min<std::size_t>(max - fixed, 65535 - 5 - 32),
      add_path,
      [&](std::size_t first,
          std::size_t last) -> std::expected<void, EncodeError> {
        auto& reach =
            std::get<wb::MpReachNlri>(update.attributes[mp_index].value);
        reach.nlri.clear();
        for (std::size_t i = first; i < last; ++i) {
          reach.nlri.push_back(wire_prefix(group.destinations[i], add_path));
        }
        return emit(update, target.send, out);
      });
  if (!r) return fail(r.error());
  return {};
}

std::expected<void, EncodeError> build_withdrawals(
    std::uint16_t afi, const std::vector<Destination>& destinations,
    const ExportTarget& target, std::vector<Bytes>& out) {
  if (destinations.empty()) return {};
  const wb::AfiSafi family{afi, wb::kSafiUnicast};
  const bool add_path = target.send.has_add_path(family);
  const std::size_t max = target.send.max_message_length();
  const std::size_t rollback = out.size();
  wb::Update update;
  std::expected<void, EncodeError> r;
  if (afi == wb::kAfiIpv4) {
    r = for_each_chunk(
        destinations, max - kUpdateFixed, add_path,
        [&](std::size_t first, std::size_t last) {
          update.withdrawn.clear();
          for (std::size_t i = first; i < last; ++i) {
            update.withdrawn.push_back(wire_prefix(destinations[i], add_path));
          }
          return emit(update, target.send, out);
        });
  } else {
    wb::PathAttribute mp = wb::make_attribute(
        wb::attr_type::kMpUnreachNlri, wb::MpUnreachNlri{family, {}, {}});
    mp.flags |= wb::attr_flag::kExtendedLength;
    update.attributes.push_back(std::move(mp));
    const std::size_t fixed = kUpdateFixed + 4 + 3;
    r = for_each_chunk(
        destinations, std::min<std::size_t>(max - fixed, 65535 - 3), add_path,
        [&](std::size_t first, std::size_t last) {
          auto& un = std::get<wb::MpUnreachNlri>(update.attributes[0].value);
          un.withdrawn.clear();
          for (std::size_t i = first; i < last; ++i) {
            un.withdrawn.push_back(wire_prefix(destinations[i], add_path));
          }
          return emit(update, target.send, out);
        });
  }
  if (!r) out.resize(rollback);
  return r;
}

Bytes end_of_rib(std::uint16_t afi) {
  wb::Update update;
  if (afi != wb::kAfiIpv4) {
    update.attributes.push_back(
        wb::make_attribute(wb::attr_type::kMpUnreachNlri,
                           wb::MpUnreachNlri{{afi, wb::kSafiUnicast}, {}, {}}));
  }
  ByteWriter w;
  // An empty UPDATE (or one with an empty MP_UNREACH_NLRI) always encodes.
  (void)wb::serialize(update, wb::SessionCodecOptions{}, w);
  return std::move(w).take();
}

bool is_end_of_rib(const wb::Update& update) {
  if (!update.withdrawn.empty() || !update.nlri.empty()) return false;
  if (update.attributes.empty()) return true;
  if (update.attributes.size() != 1) return false;
  const auto* un = std::get_if<wb::MpUnreachNlri>(&update.attributes[0].value);
  return un && un->withdrawn.empty() && un->raw_withdrawn.empty();
}

}  // namespace arfabric::proto::bgp
