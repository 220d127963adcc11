#include "cli/json/isis_json.h"

#include <arpa/inet.h>

#include <cmath>
#include <cstdio>

#include "cli/json/error_json.h"
#include "common/hex.h"
#include "common/overloaded.h"

namespace arfabric::cli {
namespace {

namespace isis = wire::isis;
using nlohmann::json;

std::string format_neighbor_id(const isis::IsNeighbor& n) {
  char buf[4];
  std::snprintf(buf, sizeof buf, ".%02x", n.pseudonode);
  return format_system_id(n.system_id) + buf;
}

json raw_json(const isis::RawTlv& t) {
  return {{"type", t.type}, {"value", to_hex(t.value)}};
}

json is_sub_tlv_json(const isis::IsReachSubTlv& s) {
  return std::visit(Overloaded{
                        [](const isis::Ipv4InterfaceAddressSubTlv& t) -> json {
                          return {{"type", isis::kSubTlvIpv4InterfaceAddress},
                                  {"name", "ipv4_interface_address"},
                                  {"address", wire::format_ipv4(t.address)}};
                        },
                        [](const isis::Ipv4NeighborAddressSubTlv& t) -> json {
                          return {{"type", isis::kSubTlvIpv4NeighborAddress},
                                  {"name", "ipv4_neighbor_address"},
                                  {"address", wire::format_ipv4(t.address)}};
                        },
                        [](const isis::MaxLinkBandwidthSubTlv& t) -> json {
                          return {
                              {"type", isis::kSubTlvMaxLinkBandwidth},
                              {"name", "max_link_bandwidth"},
                              {"bandwidth", bandwidth_to_json(t.bandwidth)}};
                        },
                        [](const isis::RawTlv& t) -> json {
                          json j = raw_json(t);
                          j["name"] = isis::is_reach_sub_tlv_name(t.type);
                          return j;
                        },
                    },
                    s);
}

json prefix_sub_tlvs_json(const std::vector<isis::PrefixSubTlv>& subs,
                          const isis::CodecOptions& options) {
  json a = json::array();
  for (const isis::PrefixSubTlv& s : subs) {
    a.push_back(std::visit(
        Overloaded{
            [&](const isis::PathBandwidthSubTlv& t) -> json {
              return {{"type", options.path_bandwidth_sub_tlv_type},
                      {"name", "path_bandwidth"},
                      {"bandwidth", bandwidth_to_json(t.bandwidth)}};
            },
            [](const isis::PrefixAttributeFlagsSubTlv& t) -> json {
              const std::uint8_t f = t.flags.empty() ? 0 : t.flags[0];
              return {{"type", isis::kSubTlvPrefixAttributeFlags},
                      {"name", "prefix_attribute_flags"},
                      {"flags", to_hex(t.flags)},
                      {"x", (f & 0x80) != 0},
                      {"r", (f & 0x40) != 0},
                      {"n", (f & 0x20) != 0}};
            },
            [&](const isis::RawTlv& t) -> json {
              json j = raw_json(t);
              j["name"] = isis::prefix_sub_tlv_name(t.type, options);
              return j;
            },
        },
        s));
  }
  return a;
}

json ipv4_prefix_json(const isis::Ipv4Prefix& p,
                      const isis::CodecOptions& options) {
  json j = {{"prefix", wire::format_ipv4(p.prefix) + "/" +
                           std::to_string(p.prefix_length)},
            {"metric", p.metric},
            {"up_down", p.up_down}};
  if (p.sub_tlvs) j["sub_tlvs"] = prefix_sub_tlvs_json(*p.sub_tlvs, options);
  return j;
}

json ipv6_prefix_json(const isis::Ipv6Prefix& p,
                      const isis::CodecOptions& options) {
  json j = {
      {"prefix", format_ipv6(p.prefix) + "/" + std::to_string(p.prefix_length)},
      {"metric", p.metric},
      {"up_down", p.up_down},
      {"external", p.external}};
  if (p.reserved_flags != 0) j["reserved_flags"] = p.reserved_flags;
  if (p.sub_tlvs) j["sub_tlvs"] = prefix_sub_tlvs_json(*p.sub_tlvs, options);
  return j;
}

template <class T, class F>
json map_array(const std::vector<T>& v, F f) {
  json a = json::array();
  for (const T& x : v) a.push_back(f(x));
  return a;
}

}  // namespace

json bandwidth_to_json(const wire::lsr::Bandwidth32& bw) {
  const float f = bw.bytes_per_second();
  json value;
  if (std::isnan(f))
    value = "nan";
  else if (std::isinf(f))
    value = f > 0 ? "inf" : "-inf";
  else
    value = static_cast<double>(f);
  char raw[9];
  std::snprintf(raw, sizeof raw, "%08x", bw.bits);
  return {{"bytes_per_second", value}, {"raw", raw}};
}

std::string format_system_id(const isis::SystemId& id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02x%02x.%02x%02x.%02x%02x", id[0], id[1],
                id[2], id[3], id[4], id[5]);
  return buf;
}

std::string format_lsp_id(const isis::LspId& id) {
  char buf[8];
  std::snprintf(buf, sizeof buf, ".%02x-%02x", id.pseudonode, id.fragment);
  return format_system_id(id.system_id) + buf;
}

std::string format_ipv6(const std::array<std::uint8_t, 16>& address) {
  char buf[INET6_ADDRSTRLEN];
  if (!::inet_ntop(AF_INET6, address.data(), buf, sizeof buf))
    return to_hex(address);
  return buf;
}

json isis_tlv_to_json(const isis::Tlv& tlv, const isis::CodecOptions& options) {
  const std::uint8_t type = isis::tlv_type(tlv);
  json j = {{"type", type}, {"name", isis::tlv_name(type)}};
  std::visit(
      Overloaded{
          [&](const isis::ProtocolsSupportedTlv& t) {
            j["nlpids"] = map_array(
                std::vector<std::uint8_t>(t.nlpids.begin(), t.nlpids.end()),
                [](std::uint8_t n) { return n; });
          },
          [&](const isis::IpInterfaceAddressTlv& t) {
            j["addresses"] = map_array(t.addresses, [](const auto& a) {
              return wire::format_ipv4(a);
            });
          },
          [&](const isis::DynamicHostnameTlv& t) {
            // Hostnames are meant to be ASCII; show anything else as hex.
            bool printable = true;
            for (char c : t.hostname)
              if (c < 0x20 || c > 0x7e) printable = false;
            if (printable)
              j["hostname"] = t.hostname;
            else
              j["hostname_hex"] = to_hex(ByteSpan(
                  reinterpret_cast<const std::uint8_t*>(t.hostname.data()),
                  t.hostname.size()));
          },
          [&](const isis::ExtendedIsReachTlv& t) {
            j["neighbors"] = map_array(t.neighbors, [](const auto& n) {
              json nj = {{"neighbor_id", format_neighbor_id(n)},
                         {"metric", n.metric}};
              nj["sub_tlvs"] = map_array(n.sub_tlvs, is_sub_tlv_json);
              return nj;
            });
          },
          [&](const isis::ExtendedIpReachTlv& t) {
            j["prefixes"] = map_array(t.prefixes, [&](const auto& p) {
              return ipv4_prefix_json(p, options);
            });
          },
          [&](const isis::MtIpReachTlv& t) {
            j["mt_id"] = t.mt_id;
            if (t.mt_reserved) j["mt_reserved"] = t.mt_reserved;
            j["prefixes"] = map_array(t.prefixes, [&](const auto& p) {
              return ipv4_prefix_json(p, options);
            });
          },
          [&](const isis::Ipv6ReachTlv& t) {
            j["prefixes"] = map_array(t.prefixes, [&](const auto& p) {
              return ipv6_prefix_json(p, options);
            });
          },
          [&](const isis::MtIpv6ReachTlv& t) {
            j["mt_id"] = t.mt_id;
            if (t.mt_reserved) j["mt_reserved"] = t.mt_reserved;
            j["prefixes"] = map_array(t.prefixes, [&](const auto& p) {
              return ipv6_prefix_json(p, options);
            });
          },
          [&](const isis::RawTlv& t) { j["value"] = to_hex(t.value); },
      },
      tlv);
  return j;
}

json isis_lsp_to_json(const isis::ParsedLsp& parsed,
                      const isis::CodecOptions& options) {
  const isis::Lsp& lsp = parsed.lsp;
  json j = {
      {"pdu_length", parsed.pdu_length},
      {"remaining_lifetime", lsp.remaining_lifetime},
      {"lsp_id", format_lsp_id(lsp.lsp_id)},
      {"sequence_number", lsp.sequence_number},
      {"checksum", to_hex16(lsp.checksum)},
      {"checksum_valid", parsed.checksum_valid},
      {"flags",
       {{"partition_repair", (lsp.flags & isis::kLspFlagPartitionRepair) != 0},
        {"attached", (lsp.flags & isis::kLspFlagAttachedMask) >> 3},
        {"overload", (lsp.flags & isis::kLspFlagOverload) != 0},
        {"is_type", lsp.flags & isis::kLspIsTypeMask}}},
  };
  j["tlvs"] = map_array(lsp.tlvs, [&](const isis::Tlv& t) {
    return isis_tlv_to_json(t, options);
  });
  return j;
}

json isis_pdu_to_json(ByteSpan llc_payload, const isis::CodecOptions& options) {
  auto pdu = isis::parse_isis_frame_payload(llc_payload, options);
  if (!pdu) return error_json(pdu.error());
  const isis::CommonHeader& h = pdu->header;
  json j = {{"pdu_type", h.pdu_type},
            {"pdu_type_name", isis::pdu_type_name(h.pdu_type)},
            {"length_indicator", h.length_indicator},
            {"version_ext", h.version_ext},
            {"id_length", h.id_length},
            {"version", h.version},
            {"max_area_addresses", h.max_area_addresses}};
  if (pdu->lsp)
    j["lsp"] = isis_lsp_to_json(*pdu->lsp, options);
  else
    j["pdu"] = to_hex(pdu->pdu);
  return {{"protocol", "isis"}, {"isis", j}};
}

}  // namespace arfabric::cli
