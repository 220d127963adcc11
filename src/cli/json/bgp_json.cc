#include "cli/json/bgp_json.h"

#include <arpa/inet.h>

#include <cmath>
#include <string>

#include "common/hex.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::cli {
namespace {

using namespace arfabric::wire::bgp;
using nlohmann::json;

std::string hex_byte(std::uint8_t b) { return "0x" + to_hex(ByteSpan(&b, 1)); }

std::uint8_t bits_for(AfiSafi f) {
  if (f.safi != kSafiUnicast) return 0;
  return f.afi == kAfiIpv4 ? 32 : f.afi == kAfiIpv6 ? 128 : 0;
}

// Generic fields plus the FARE Path Bandwidth (default sub-type) and RFC
// 10005 Link Bandwidth readings, the communities FARE weights come from.
json extended_community_json(const ExtendedCommunity& c) {
  json j = {{"type", hex_byte(c.type())},
            {"sub_type", hex_byte(c.sub_type())},
            {"transitive", c.transitive()},
            {"hex", to_hex(c.bytes)}};
  if (auto pb = wire::fare::decode_path_bandwidth(c)) {
    const auto id = pb->router_id;
    const wire::Ipv4Address router = {static_cast<std::uint8_t>(id >> 24),
                                      static_cast<std::uint8_t>(id >> 16),
                                      static_cast<std::uint8_t>(id >> 8),
                                      static_cast<std::uint8_t>(id)};
    j["path_bandwidth"] = {{"router_id", wire::format_ipv4(router)},
                           {"valid", pb->valid()}};
    const double gbps = pb->gigabytes_per_second();
    if (std::isfinite(gbps)) {
      j["path_bandwidth"]["gigabytes_per_second"] = gbps;
    } else {
      j["path_bandwidth"]["gigabytes_per_second"] =
          std::isnan(gbps) ? "nan" : "inf";
    }
  } else if (auto lb = wire::fare::decode_link_bandwidth(c)) {
    const double bps = lb->bytes_per_second();
    j["link_bandwidth"] = {{"as", lb->as_number}};
    if (std::isfinite(bps)) {
      j["link_bandwidth"]["bytes_per_second"] = bps;
    } else {
      j["link_bandwidth"]["bytes_per_second"] = std::isnan(bps) ? "nan" : "inf";
    }
  }
  return j;
}

json prefix_json(const Prefix& p, std::uint8_t bits) {
  if (!p.path_id) return format_prefix(p, bits);
  return {{"prefix", format_prefix(p, bits)}, {"path_id", *p.path_id}};
}

json prefixes_json(const std::vector<Prefix>& v, std::uint8_t bits) {
  json a = json::array();
  for (const Prefix& p : v) a.push_back(prefix_json(p, bits));
  return a;
}

// IPv4/IPv6 next hops as text (two for an IPv6 global + link-local pair).
json next_hop_json(const Bytes& nh) {
  char text[INET6_ADDRSTRLEN] = {};
  if (nh.size() == 4) {
    inet_ntop(AF_INET, nh.data(), text, sizeof text);
    return text;
  }
  if (nh.size() == 16 || nh.size() == 32) {
    json a = json::array();
    for (std::size_t i = 0; i < nh.size(); i += 16) {
      inet_ntop(AF_INET6, nh.data() + i, text, sizeof text);
      a.push_back(text);
    }
    return a.size() == 1 ? a[0] : a;
  }
  return to_hex(nh);
}

std::string segment_name(std::uint8_t t) {
  switch (t) {
    case segment_type::kAsSet:
      return "AS_SET";
    case segment_type::kAsSequence:
      return "AS_SEQUENCE";
    case segment_type::kConfedSequence:
      return "AS_CONFED_SEQUENCE";
    case segment_type::kConfedSet:
      return "AS_CONFED_SET";
  }
  return std::to_string(t);
}

json value_json(const AttributeValue& v) {
  return std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, RawAttribute>) {
          return to_hex(x.value);
        } else if constexpr (std::is_same_v<T, Origin>) {
          const auto v = static_cast<std::uint8_t>(x.value);
          const char* names[] = {"IGP", "EGP", "INCOMPLETE"};
          if (v > 2) return v;
          return names[v];
        } else if constexpr (std::is_same_v<T, AsPath>) {
          json a = json::array();
          for (const auto& s : x.segments) {
            a.push_back({{"type", segment_name(s.type)}, {"asns", s.asns}});
          }
          return a;
        } else if constexpr (std::is_same_v<T, NextHop>) {
          return wire::format_ipv4(x.address);
        } else if constexpr (std::is_same_v<T, Med> ||
                             std::is_same_v<T, LocalPref>) {
          return x.value;
        } else if constexpr (std::is_same_v<T, AtomicAggregate>) {
          return true;
        } else if constexpr (std::is_same_v<T, Aggregator>) {
          return {{"asn", x.asn}, {"address", wire::format_ipv4(x.address)}};
        } else if constexpr (std::is_same_v<T, Communities>) {
          json a = json::array();
          for (std::uint32_t c : x.values) {
            a.push_back(std::to_string(c >> 16) + ":" +
                        std::to_string(c & 0xffff));
          }
          return a;
        } else if constexpr (std::is_same_v<T, ExtendedCommunities>) {
          json a = json::array();
          for (const ExtendedCommunity& c : x.values) {
            a.push_back(extended_community_json(c));
          }
          return a;
        } else if constexpr (std::is_same_v<T, MpReachNlri>) {
          json j = {{"afi", x.family.afi},
                    {"safi", x.family.safi},
                    {"next_hop", next_hop_json(x.next_hop)},
                    {"nlri", prefixes_json(x.nlri, bits_for(x.family))}};
          if (x.reserved) j["reserved"] = x.reserved;
          if (!x.raw_nlri.empty()) j["raw_nlri"] = to_hex(x.raw_nlri);
          return j;
        } else if constexpr (std::is_same_v<T, MpUnreachNlri>) {
          json j = {
              {"afi", x.family.afi},
              {"safi", x.family.safi},
              {"withdrawn", prefixes_json(x.withdrawn, bits_for(x.family))}};
          if (!x.raw_withdrawn.empty()) {
            j["raw_withdrawn"] = to_hex(x.raw_withdrawn);
          }
          return j;
        }
      },
      v);
}

json attribute_json(const PathAttribute& a) {
  return {{"type_code", a.type},
          {"name", std::string(attribute_name(a.type))},
          {"flags", hex_byte(a.flags)},
          {"optional", (a.flags & attr_flag::kOptional) != 0},
          {"transitive", (a.flags & attr_flag::kTransitive) != 0},
          {"partial", (a.flags & attr_flag::kPartial) != 0},
          {"extended_length", (a.flags & attr_flag::kExtendedLength) != 0},
          {"value", value_json(a.value)}};
}

json capability_json(const Capability& c) {
  json j = {{"code", c.code}, {"name", std::string(capability_name(c.code))}};
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, RawCapability>) {
          j["value"] = to_hex(v.value);
        } else if constexpr (std::is_same_v<T, MultiprotocolCapability>) {
          j["afi"] = v.family.afi;
          j["safi"] = v.family.safi;
        } else if constexpr (std::is_same_v<T, FourOctetAsCapability>) {
          j["asn"] = v.asn;
        } else if constexpr (std::is_same_v<T, AddPathCapability>) {
          j["families"] = json::array();
          for (const auto& e : v.entries) {
            j["families"].push_back({{"afi", e.family.afi},
                                     {"safi", e.family.safi},
                                     {"send_receive", e.send_receive}});
          }
        } else if constexpr (std::is_same_v<T, GracefulRestartCapability>) {
          j["flags"] = v.flags;
          j["restart_time"] = v.restart_time;
          j["families"] = json::array();
          for (const auto& e : v.entries) {
            j["families"].push_back({{"afi", e.family.afi},
                                     {"safi", e.family.safi},
                                     {"flags", hex_byte(e.flags)}});
          }
        }
      },
      c.value);
  return j;
}

json message_body_json(const Message& m, const SessionCodecOptions& o) {
  return std::visit(
      [&](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Open>) {
          json params = json::array();
          for (const OptionalParameter& p : x.parameters) {
            json pj = {{"type", p.type}};
            if (p.type == kParamCapabilities) {
              pj["capabilities"] = json::array();
              for (const Capability& c : p.capabilities) {
                pj["capabilities"].push_back(capability_json(c));
              }
            } else {
              pj["value"] = to_hex(p.raw);
            }
            params.push_back(pj);
          }
          return {{"type", "OPEN"},
                  {"version", x.version},
                  {"my_as", x.my_as},
                  {"hold_time", x.hold_time},
                  {"identifier", wire::format_ipv4(x.identifier)},
                  {"extended_parameters", x.extended_parameters},
                  {"parameters", params}};
        } else if constexpr (std::is_same_v<T, Update>) {
          json attrs = json::array();
          for (const PathAttribute& a : x.attributes) {
            attrs.push_back(attribute_json(a));
          }
          json j = {{"type", "UPDATE"},
                    {"four_octet_as", o.four_octet_as},
                    {"withdrawn", prefixes_json(x.withdrawn, 32)},
                    {"attributes", attrs},
                    {"nlri", prefixes_json(x.nlri, 32)}};
          if (!o.add_path.empty()) j["add_path"] = true;
          if (!x.attribute_tail.empty()) {
            j["attribute_tail"] = to_hex(x.attribute_tail);
          }
          return j;
        } else if constexpr (std::is_same_v<T, Notification>) {
          return {{"type", "NOTIFICATION"},
                  {"code", x.code},
                  {"subcode", x.subcode},
                  {"code_name", std::string(notification_code_name(x.code))},
                  {"subcode_name",
                   std::string(notification_subcode_name(x.code, x.subcode))},
                  {"data", to_hex(x.data)}};
        } else if constexpr (std::is_same_v<T, Keepalive>) {
          return {{"type", "KEEPALIVE"}};
        } else {
          return {{"type", "ROUTE-REFRESH"},
                  {"afi", x.family.afi},
                  {"safi", x.family.safi},
                  {"subtype", x.subtype}};
        }
      },
      m);
}

bool as_width_error(const ParsedMessage& p) {
  for (const BgpError& e : p.attribute_errors) {
    if (e.attribute_type == attr_type::kAsPath ||
        e.attribute_type == attr_type::kAggregator) {
      return true;
    }
  }
  return false;
}

// Parses one message with the guesses described in the header.
std::pair<std::expected<ParsedMessage, BgpError>, SessionCodecOptions>
parse_guessing(ByteSpan data, std::size_t offset) {
  SessionCodecOptions four;
  four.four_octet_as = true;
  four.extended_message = true;
  SessionCodecOptions two = four;
  two.four_octet_as = false;
  auto r4 = parse_message(data, four, offset);
  if (r4 && as_width_error(*r4)) {
    auto r2 = parse_message(data, two, offset);
    if (r2 && !as_width_error(*r2)) return {std::move(r2), two};
  }
  if (!r4 && r4.error().code == error_code::kUpdateMessage) {
    for (SessionCodecOptions o : {four, two}) {
      o.add_path = {{kAfiIpv4, kSafiUnicast}, {kAfiIpv6, kSafiUnicast}};
      auto ra = parse_message(data, o, offset);
      if (ra && !as_width_error(*ra)) return {std::move(ra), o};
    }
  }
  return {std::move(r4), four};
}

}  // namespace

json bgp_error_to_json(const BgpError& e) {
  json n = {{"code", e.code},
            {"subcode", e.subcode},
            {"code_name", std::string(notification_code_name(e.code))},
            {"subcode_name",
             std::string(notification_subcode_name(e.code, e.subcode))}};
  if (!e.data.empty()) n["data"] = to_hex(e.data);
  json j = {{"field", e.decode.field},
            {"offset", e.decode.offset},
            {"reason", e.decode.reason},
            {"notification", n},
            {"rfc7606", std::string(rfc7606_action_name(e.action))}};
  if (e.attribute_type) j["attribute_type"] = e.attribute_type;
  return j;
}

json bgp_message_to_json(const Message& message,
                         const SessionCodecOptions& options) {
  return message_body_json(message, options);
}

json bgp_messages_to_json(ByteSpan stream, std::size_t base_offset) {
  json out = json::array();
  std::size_t at = 0;
  while (at < stream.size()) {
    const ByteSpan rest = stream.subspan(at);
    auto [r, options] = parse_guessing(rest, base_offset + at);
    if (r) {
      json j = message_body_json(r->message, options);
      j["length"] = r->length;
      if (!r->attribute_errors.empty()) {
        j["attribute_errors"] = json::array();
        for (const BgpError& e : r->attribute_errors) {
          j["attribute_errors"].push_back(bgp_error_to_json(e));
        }
        j["rfc7606"] = std::string(rfc7606_action_name(*r->worst));
      }
      out.push_back(std::move(j));
      at += r->length;
      continue;
    }
    out.push_back({{"error", bgp_error_to_json(r.error())}});
    // Skip the message when its header is sound and fits; else stop.
    auto h = parse_header(rest, options);
    if (!h || h->length > rest.size()) break;
    at += h->length;
  }
  return out;
}

}  // namespace arfabric::cli
