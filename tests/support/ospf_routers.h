// Test support: OSPFv2 LSAs of small point-to-point fabrics, for the FARE
// link-state tests (proto/fare/link_state_ospf, cli/fare_lsr). Router n
// has router ID 10.0.n.1; its k-th link to router m has local interface
// address 172.(16 + k).n.m.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "wire/ospf/ospfv2_lsa.h"

namespace arfabric::testing {

inline wire::Ipv4Address ospf_router(std::uint8_t n) { return {10, 0, n, 1}; }
inline wire::Ipv4Address ospf_local_address(std::uint8_t from, std::uint8_t to,
                                            std::uint8_t parallel = 0) {
  return {172, static_cast<std::uint8_t>(16 + parallel), from, to};
}

struct OspfLink {
  std::uint8_t neighbor = 0;
  // The TE Maximum Bandwidth toward the neighbour (bytes/s); no TE Link
  // TLV when nullopt.
  std::optional<float> bytes_per_second;
  std::uint16_t metric = 10;
  std::uint8_t parallel = 0;  // which of several links to one neighbour
};

inline wire::ospf::Ospfv2LsaHeader ospf_header(std::uint8_t ls_type,
                                               std::uint8_t n,
                                               wire::Ipv4Address id) {
  return {.ls_age = 1,
          .options = 0x42,
          .ls_type = ls_type,
          .link_state_id = id,
          .advertising_router = ospf_router(n)};
}

// Router n's Router-LSA: its point-to-point links and stub networks
// (prefix, length, metric).
struct OspfStub {
  wire::Ipv4Address network{};
  std::uint8_t length = 24;
  std::uint16_t metric = 0;
};
inline wire::ospf::Ospfv2Lsa ospf_router_lsa(
    std::uint8_t n, const std::vector<OspfLink>& links,
    const std::vector<OspfStub>& stubs = {}, std::uint8_t flags = 0) {
  namespace ospf = wire::ospf;
  ospf::RouterLsa body{.flags = flags};
  for (const OspfLink& l : links)
    body.links.push_back(
        {.link_id = ospf_router(l.neighbor),
         .link_data = ospf_local_address(n, l.neighbor, l.parallel),
         .type = ospf::kRouterLinkPointToPoint,
         .metric = l.metric});
  for (const OspfStub& s : stubs) {
    const std::uint32_t mask =
        s.length == 0 ? 0 : ~std::uint32_t{0} << (32 - s.length);
    body.links.push_back({.link_id = s.network,
                          .link_data = {static_cast<std::uint8_t>(mask >> 24),
                                        static_cast<std::uint8_t>(mask >> 16),
                                        static_cast<std::uint8_t>(mask >> 8),
                                        static_cast<std::uint8_t>(mask)},
                          .type = ospf::kRouterLinkStub,
                          .metric = s.metric});
  }
  return {.header = ospf_header(ospf::kLsTypeRouter, n, ospf_router(n)),
          .body = body};
}

// Router n's TE LSAs, one per link with a bandwidth (RFC 3630: one
// top-level TLV per LSA), opaque IDs 1, 2, ...
inline std::vector<wire::ospf::Ospfv2Lsa> ospf_te_lsas(
    std::uint8_t n, const std::vector<OspfLink>& links) {
  namespace ospf = wire::ospf;
  std::vector<ospf::Ospfv2Lsa> out;
  std::uint8_t instance = 0;
  for (const OspfLink& l : links) {
    if (!l.bytes_per_second) continue;
    ospf::TeLinkTlv tlv{
        {ospf::LinkTypeSubTlv{1}, ospf::LinkIdSubTlv{ospf_router(l.neighbor)},
         ospf::LocalAddressSubTlv{
             {ospf_local_address(n, l.neighbor, l.parallel)}},
         ospf::MaxBandwidthSubTlv{wire::lsr::Bandwidth32::from_bytes_per_second(
             *l.bytes_per_second)}}};
    out.push_back(
        {.header = ospf_header(ospf::kLsTypeOpaqueArea, n,
                               {ospf::kOpaqueTypeTe, 0, 0, ++instance}),
         .body = ospf::TeLsa{{tlv}}});
  }
  return out;
}

// An Extended Prefix LSA of router n with one prefix and its Path
// Bandwidth (bytes/s).
inline wire::ospf::Ospfv2Lsa ospf_path_bandwidth_lsa(
    std::uint8_t n, std::uint8_t instance, std::uint8_t route_type,
    wire::Ipv4Address prefix, std::uint8_t length, float bytes_per_second) {
  namespace ospf = wire::ospf;
  return {
      .header = ospf_header(ospf::kLsTypeOpaqueArea, n,
                            {ospf::kOpaqueTypeExtendedPrefix, 0, 0, instance}),
      .body = ospf::ExtendedPrefixLsa{{ospf::ExtendedPrefixTlv{
          .route_type = route_type,
          .prefix_length = length,
          .prefix = prefix,
          .sub_tlvs = {ospf::PathBandwidthSubTlv{
              wire::lsr::Bandwidth32::from_bytes_per_second(
                  bytes_per_second)}}}}}};
}

// Router n's Summary-LSA (LS type 3) for a prefix at `metric`.
inline wire::ospf::Ospfv2Lsa ospf_summary_lsa(std::uint8_t n,
                                              wire::Ipv4Address network,
                                              wire::Ipv4Address mask,
                                              std::uint32_t metric) {
  namespace ospf = wire::ospf;
  return {.header = ospf_header(ospf::kLsTypeSummaryNetwork, n, network),
          .body = ospf::SummaryLsa{.network_mask = mask, .metric = metric}};
}

}  // namespace arfabric::testing
