#include "cli/json/ospf_json.h"

#include "cli/json/error_json.h"
#include "cli/json/isis_json.h"
#include "common/hex.h"
#include "common/overloaded.h"
#include "wire/ospf/packet.h"
#include "wire/ospf/router_lsa.h"
#include "wire/ospf/summary_lsa.h"

namespace arfabric::cli {
namespace {

namespace ospf = wire::ospf;
using nlohmann::json;

json raw_json(const ospf::RawTlv& t) {
  return {{"type", t.type}, {"value", to_hex(t.value)}};
}

json addresses_json(const std::vector<wire::Ipv4Address>& v) {
  json a = json::array();
  for (const auto& x : v) a.push_back(wire::format_ipv4(x));
  return a;
}

json prefix_sub_tlvs_json(const std::vector<ospf::PrefixSubTlv>& subs,
                          std::uint16_t bw_type) {
  json a = json::array();
  for (const ospf::PrefixSubTlv& s : subs) {
    if (const auto* bw = std::get_if<ospf::PathBandwidthSubTlv>(&s))
      a.push_back({{"type", bw_type},
                   {"name", "path_bandwidth"},
                   {"bandwidth", bandwidth_to_json(bw->bandwidth)}});
    else
      a.push_back(raw_json(std::get<ospf::RawTlv>(s)));
  }
  return a;
}

const char* router_link_type_name(std::uint8_t type) {
  switch (type) {
    case ospf::kRouterLinkPointToPoint:
      return "point_to_point";
    case ospf::kRouterLinkTransit:
      return "transit";
    case ospf::kRouterLinkStub:
      return "stub";
    case ospf::kRouterLinkVirtual:
      return "virtual";
    default:
      return "unknown";
  }
}

json v3_prefix_json(const ospf::Ospfv3Prefix& p) {
  json j = {{"prefix",
             format_ipv6(p.address) + "/" + std::to_string(p.prefix_length)},
            {"prefix_options", p.prefix_options}};
  if (p.reserved) j["reserved"] = p.reserved;
  return j;
}

}  // namespace

json ospf_te_tlvs_to_json(const std::vector<ospf::TeTlv>& tlvs) {
  json a = json::array();
  for (const ospf::TeTlv& tlv : tlvs) {
    a.push_back(std::visit(
        Overloaded{
            [](const ospf::TeRouterAddressTlv& t) -> json {
              return {{"type", ospf::kTeTlvRouterAddress},
                      {"name", "router_address"},
                      {"address", wire::format_ipv4(t.address)}};
            },
            [](const ospf::TeLinkTlv& t) -> json {
              json subs = json::array();
              for (const ospf::LinkSubTlv& s : t.sub_tlvs) {
                subs.push_back(std::visit(
                    Overloaded{
                        [](const ospf::LinkTypeSubTlv& x) -> json {
                          return {{"type", ospf::kLinkSubTlvLinkType},
                                  {"name", "link_type"},
                                  {"link_type", x.link_type}};
                        },
                        [](const ospf::LinkIdSubTlv& x) -> json {
                          return {{"type", ospf::kLinkSubTlvLinkId},
                                  {"name", "link_id"},
                                  {"link_id", wire::format_ipv4(x.link_id)}};
                        },
                        [](const ospf::LocalAddressSubTlv& x) -> json {
                          return {{"type", ospf::kLinkSubTlvLocalAddress},
                                  {"name", "local_interface_address"},
                                  {"addresses", addresses_json(x.addresses)}};
                        },
                        [](const ospf::RemoteAddressSubTlv& x) -> json {
                          return {{"type", ospf::kLinkSubTlvRemoteAddress},
                                  {"name", "remote_interface_address"},
                                  {"addresses", addresses_json(x.addresses)}};
                        },
                        [](const ospf::MaxBandwidthSubTlv& x) -> json {
                          return {
                              {"type", ospf::kLinkSubTlvMaxBandwidth},
                              {"name", "max_bandwidth"},
                              {"bandwidth", bandwidth_to_json(x.bandwidth)}};
                        },
                        [](const ospf::RawTlv& x) { return raw_json(x); },
                    },
                    s));
              }
              return {{"type", ospf::kTeTlvLink},
                      {"name", "link"},
                      {"sub_tlvs", subs}};
            },
            [](const ospf::RawTlv& t) { return raw_json(t); },
        },
        tlv));
  }
  return a;
}

json ospf_extended_prefix_tlvs_to_json(
    const std::vector<ospf::ExtendedPrefixLsaTlv>& tlvs,
    const ospf::CodecOptions& options) {
  json a = json::array();
  for (const ospf::ExtendedPrefixLsaTlv& tlv : tlvs) {
    if (const auto* p = std::get_if<ospf::ExtendedPrefixTlv>(&tlv)) {
      a.push_back(
          {{"type", ospf::kTlvExtendedPrefix},
           {"name", "extended_prefix"},
           {"route_type", p->route_type},
           {"prefix", wire::format_ipv4(p->prefix) + "/" +
                          std::to_string(p->prefix_length)},
           {"address_family", p->address_family},
           {"flags", p->flags},
           {"attach", (p->flags & ospf::kExtendedPrefixFlagAttach) != 0},
           {"node", (p->flags & ospf::kExtendedPrefixFlagNode) != 0},
           {"sub_tlvs",
            prefix_sub_tlvs_json(p->sub_tlvs,
                                 options.ospfv2_path_bandwidth_sub_tlv_type)}});
    } else {
      a.push_back(raw_json(std::get<ospf::RawTlv>(tlv)));
    }
  }
  return a;
}

json ospfv3_tlvs_to_json(const std::vector<ospf::Ospfv3Tlv>& tlvs,
                         const ospf::CodecOptions& options) {
  const std::uint16_t bw = options.ospfv3_path_bandwidth_sub_tlv_type;
  json a = json::array();
  for (const ospf::Ospfv3Tlv& tlv : tlvs) {
    a.push_back(std::visit(
        Overloaded{
            [&](const ospf::InterAreaPrefixTlv& t) -> json {
              json j = {{"type", ospf::kV3TlvInterAreaPrefix},
                        {"name", "inter_area_prefix"},
                        {"metric", t.metric}};
              j.update(v3_prefix_json(t.prefix));
              j["sub_tlvs"] = prefix_sub_tlvs_json(t.sub_tlvs, bw);
              return j;
            },
            [&](const ospf::ExternalPrefixTlv& t) -> json {
              json j = {{"type", ospf::kV3TlvExternalPrefix},
                        {"name", "external_prefix"},
                        {"flags", t.flags},
                        {"e", (t.flags & ospf::kV3ExternalFlagE) != 0},
                        {"metric", t.metric}};
              j.update(v3_prefix_json(t.prefix));
              j["sub_tlvs"] = prefix_sub_tlvs_json(t.sub_tlvs, bw);
              return j;
            },
            [&](const ospf::IntraAreaPrefixTlv& t) -> json {
              json j = {{"type", ospf::kV3TlvIntraAreaPrefix},
                        {"name", "intra_area_prefix"},
                        {"metric", t.metric}};
              j.update(v3_prefix_json(t.prefix));
              j["sub_tlvs"] = prefix_sub_tlvs_json(t.sub_tlvs, bw);
              return j;
            },
            [](const ospf::RawTlv& t) { return raw_json(t); },
        },
        tlv));
  }
  return a;
}

json ospf_te_lsa_body_to_json(ByteSpan body) {
  auto r = ospf::parse_te_lsa_body(body);
  if (!r) return error_json(r.error());
  return {{"protocol", "ospf_te"}, {"tlvs", ospf_te_tlvs_to_json(*r)}};
}

json ospf_extended_prefix_lsa_body_to_json(ByteSpan body,
                                           const ospf::CodecOptions& options) {
  auto r = ospf::parse_extended_prefix_lsa_body(body, 0, options);
  if (!r) return error_json(r.error());
  return {{"protocol", "ospf_extended_prefix"},
          {"tlvs", ospf_extended_prefix_tlvs_to_json(*r, options)}};
}

json ospfv3_prefix_tlvs_body_to_json(ByteSpan body,
                                     const ospf::CodecOptions& options) {
  auto r = ospf::parse_ospfv3_tlvs(body, 0, options);
  if (!r) return error_json(r.error());
  return {{"protocol", "ospfv3_extended_lsa"},
          {"tlvs", ospfv3_tlvs_to_json(*r, options)}};
}

json ospf_router_lsa_body_to_json(ByteSpan body) {
  auto r = ospf::parse_router_lsa_body(body);
  if (!r) return error_json(r.error());
  json links = json::array();
  for (const ospf::RouterLsaLink& l : r->links) {
    json tos = json::array();
    for (const ospf::TosMetric& t : l.tos)
      tos.push_back({{"tos", t.tos}, {"metric", t.metric}});
    links.push_back({{"link_id", wire::format_ipv4(l.link_id)},
                     {"link_data", wire::format_ipv4(l.link_data)},
                     {"type", l.type},
                     {"type_name", router_link_type_name(l.type)},
                     {"metric", l.metric},
                     {"tos", tos}});
  }
  return {{"protocol", "ospf_router_lsa"},
          {"flags", r->flags},
          {"border", (r->flags & ospf::kRouterFlagBorder) != 0},
          {"external", (r->flags & ospf::kRouterFlagExternal) != 0},
          {"virtual", (r->flags & ospf::kRouterFlagVirtual) != 0},
          {"host", (r->flags & ospf::kRouterFlagHost) != 0},
          {"links", links}};
}

json ospf_summary_lsa_body_to_json(ByteSpan body) {
  auto r = ospf::parse_summary_lsa_body(body);
  if (!r) return error_json(r.error());
  json tos = json::array();
  for (const ospf::SummaryTosMetric& t : r->tos)
    tos.push_back({{"tos", t.tos}, {"metric", t.metric}});
  return {{"protocol", "ospf_summary_lsa"},
          {"network_mask", wire::format_ipv4(r->network_mask)},
          {"metric", r->metric},
          {"tos", tos}};
}

namespace {

json lsa_common_json(const auto& h, bool checksum_valid) {
  return {{"ls_age", h.ls_age},
          {"ls_type", h.ls_type},
          {"link_state_id", wire::format_ipv4(h.link_state_id)},
          {"advertising_router", wire::format_ipv4(h.advertising_router)},
          {"sequence_number", h.sequence_number},
          {"checksum", to_hex16(h.checksum)},
          {"checksum_valid", checksum_valid},
          {"length", h.length}};
}

// Merges a body decode into `j` (its fields but "protocol"), or records
// its error under "body_error".
void add_body(json& j, const json& decoded) {
  if (decoded.contains("error")) {
    j["body_error"] = decoded["error"];
    return;
  }
  for (const auto& [key, value] : decoded.items())
    if (key != "protocol") j[key] = value;
}

}  // namespace

json ospfv2_lsa_to_json(ByteSpan lsa, const ospf::CodecOptions& options) {
  auto r = ospf::parse_ospfv2_lsa(lsa);
  if (!r) return error_json(r.error());
  json j = lsa_common_json(r->header, r->checksum_valid);
  j["options"] = r->header.options;
  // Body errors are reported relative to the body; shift them to the LSA.
  auto shift = [](json b) {
    if (b.contains("error"))
      b["error"]["offset"] =
          b["error"]["offset"].get<std::size_t>() + ospf::kLsaHeaderSize;
    return b;
  };
  if (r->header.ls_type == ospf::kLsTypeRouter) {
    add_body(j, shift(ospf_router_lsa_body_to_json(r->body)));
    return {{"protocol", "ospfv2_lsa"}, {"lsa", j}};
  }
  if (r->header.ls_type == ospf::kLsTypeSummaryNetwork ||
      r->header.ls_type == ospf::kLsTypeSummaryAsbr) {
    add_body(j, shift(ospf_summary_lsa_body_to_json(r->body)));
    return {{"protocol", "ospfv2_lsa"}, {"lsa", j}};
  }
  if (r->header.is_opaque()) {
    j["opaque_type"] = r->header.opaque_type();
    if (r->header.opaque_type() == ospf::kOpaqueTypeTe) {
      add_body(j, shift(ospf_te_lsa_body_to_json(r->body)));
      return {{"protocol", "ospfv2_lsa"}, {"lsa", j}};
    }
    if (r->header.opaque_type() == ospf::kOpaqueTypeExtendedPrefix) {
      add_body(j,
               shift(ospf_extended_prefix_lsa_body_to_json(r->body, options)));
      return {{"protocol", "ospfv2_lsa"}, {"lsa", j}};
    }
  }
  j["body"] = to_hex(r->body);
  return {{"protocol", "ospfv2_lsa"}, {"lsa", j}};
}

json ospfv3_lsa_to_json(ByteSpan lsa, const ospf::CodecOptions& options) {
  auto r = ospf::parse_ospfv3_lsa(lsa);
  if (!r) return error_json(r.error());
  json j = lsa_common_json(r->header, r->checksum_valid);
  j["function_code"] = r->header.function_code();
  const auto at = ospf::elsa_tlv_offset(r->header.function_code());
  if (at && *at <= r->body.size()) {
    j["fixed"] = to_hex(r->body.first(*at));
    json b = ospfv3_prefix_tlvs_body_to_json(r->body.subspan(*at), options);
    if (b.contains("error"))
      b["error"]["offset"] =
          b["error"]["offset"].get<std::size_t>() + ospf::kLsaHeaderSize + *at;
    add_body(j, b);
  } else {
    j["body"] = to_hex(r->body);
  }
  return {{"protocol", "ospfv3_lsa"}, {"lsa", j}};
}

json ospfv2_packet_to_json(ByteSpan packet, std::size_t offset,
                           const ospf::CodecOptions& options) {
  auto p = ospf::parse_ospfv2_packet(packet, offset);
  if (!p) return error_json(p.error());
  static constexpr const char* kTypeNames[] = {"",
                                               "hello",
                                               "database_description",
                                               "link_state_request",
                                               "link_state_update",
                                               "link_state_ack"};
  json j = {{"protocol", "ospfv2"},
            {"type", p->header.type},
            {"type_name", kTypeNames[p->header.type]},
            {"length", p->header.length},
            {"router_id", wire::format_ipv4(p->header.router_id)},
            {"area_id", wire::format_ipv4(p->header.area_id)},
            {"checksum", to_hex16(p->header.checksum)},
            {"checksum_valid", p->checksum_valid},
            {"au_type", p->header.au_type}};
  if (p->header.type != ospf::kPacketLinkStateUpdate) {
    j["body"] = to_hex(p->body);
    return j;
  }
  const std::size_t body_at = offset + ospf::kOspfv2PacketHeaderSize;
  auto lsas = ospf::parse_ls_update(p->body, body_at);
  if (!lsas) {
    j["body_error"] = error_json(lsas.error())["error"];
    return j;
  }
  json list = json::array();
  for (ByteSpan lsa : *lsas) {
    json one = ospfv2_lsa_to_json(lsa, options);
    // Offsets from the LSA's first octet: shift them to the caller's.
    const std::size_t at =
        body_at + static_cast<std::size_t>(lsa.data() - p->body.data());
    auto shift = [at](json& e) {
      e["offset"] = e["offset"].get<std::size_t>() + at;
    };
    if (one.contains("error")) {
      shift(one["error"]);
      list.push_back(one);
      continue;
    }
    if (one["lsa"].contains("body_error")) shift(one["lsa"]["body_error"]);
    list.push_back(one["lsa"]);
  }
  j["lsas"] = list;
  return j;
}

}  // namespace arfabric::cli
