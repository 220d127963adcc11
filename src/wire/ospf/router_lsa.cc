#include "wire/ospf/router_lsa.h"

#include <string>

namespace arfabric::wire::ospf {
namespace {

constexpr std::size_t kFixedSize = 4;
constexpr std::size_t kLinkSize = 12;
constexpr std::size_t kTosSize = 4;

}  // namespace

std::expected<RouterLsa, DecodeError> parse_router_lsa_body(
    ByteSpan body, std::size_t base_offset) {
  ByteReader r(body, base_offset);
  RouterLsa lsa;
  lsa.flags = ARF_TRY(r.u8("ospf.router_lsa.flags"));
  lsa.reserved = ARF_TRY(r.u8("ospf.router_lsa.reserved"));
  const std::size_t count_at = r.offset();
  const std::uint16_t count = ARF_TRY(r.u16("ospf.router_lsa.link_count"));
  for (std::uint16_t i = 0; i < count; ++i) {
    if (r.empty())
      return std::unexpected(r.error_at(count_at, "ospf.router_lsa.link_count",
                                        std::to_string(count) +
                                            " links counted, " +
                                            std::to_string(i) + " present"));
    RouterLsaLink link;
    link.link_id = ARF_TRY(r.array<4>("ospf.router_lsa.link.link_id"));
    link.link_data = ARF_TRY(r.array<4>("ospf.router_lsa.link.link_data"));
    link.type = ARF_TRY(r.u8("ospf.router_lsa.link.type"));
    const std::uint8_t tos_count =
        ARF_TRY(r.u8("ospf.router_lsa.link.tos_count"));
    link.metric = ARF_TRY(r.u16("ospf.router_lsa.link.metric"));
    for (std::uint8_t t = 0; t < tos_count; ++t) {
      TosMetric m;
      m.tos = ARF_TRY(r.u8("ospf.router_lsa.link.tos.tos"));
      m.reserved = ARF_TRY(r.u8("ospf.router_lsa.link.tos.reserved"));
      m.metric = ARF_TRY(r.u16("ospf.router_lsa.link.tos.metric"));
      link.tos.push_back(m);
    }
    lsa.links.push_back(std::move(link));
  }
  if (!r.empty())
    return std::unexpected(r.error_at(
        count_at, "ospf.router_lsa.link_count",
        std::to_string(count) + " links counted, but " +
            std::to_string(r.remaining()) + " bytes follow the last"));
  return lsa;
}

std::expected<void, EncodeError> serialize_router_lsa_body(const RouterLsa& lsa,
                                                           ByteWriter& out) {
  if (lsa.links.size() > 0xffff)
    return std::unexpected(
        EncodeError{"ospf.router_lsa.link_count",
                    std::to_string(lsa.links.size()) + " links exceed 65535"});
  for (std::size_t i = 0; i < lsa.links.size(); ++i)
    if (lsa.links[i].tos.size() > 0xff)
      return std::unexpected(EncodeError{
          "ospf.router_lsa.links[" + std::to_string(i) + "].tos",
          std::to_string(lsa.links[i].tos.size()) + " TOS entries exceed 255"});
  out.u8(lsa.flags);
  out.u8(lsa.reserved);
  out.u16(static_cast<std::uint16_t>(lsa.links.size()));
  for (const RouterLsaLink& link : lsa.links) {
    out.bytes(link.link_id);
    out.bytes(link.link_data);
    out.u8(link.type);
    out.u8(static_cast<std::uint8_t>(link.tos.size()));
    out.u16(link.metric);
    for (const TosMetric& m : link.tos) {
      out.u8(m.tos);
      out.u8(m.reserved);
      out.u16(m.metric);
    }
  }
  return {};
}

std::size_t encoded_size(const RouterLsa& lsa) {
  std::size_t size = kFixedSize;
  for (const RouterLsaLink& link : lsa.links)
    size += kLinkSize + kTosSize * link.tos.size();
  return size;
}

}  // namespace arfabric::wire::ospf
