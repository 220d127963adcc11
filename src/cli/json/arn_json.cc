#include "cli/json/arn_json.h"

#include <arpa/inet.h>

#include "common/hex.h"

namespace arfabric::cli {
namespace {

std::string format_address(const wire::arn::FiveTuple& t,
                           const std::array<std::uint8_t, 16>& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  const int family =
      t.family == wire::arn::AddressFamily::ipv4 ? AF_INET : AF_INET6;
  inet_ntop(family, a.data(), buf, sizeof buf);
  return buf;
}

nlohmann::json to_json(const wire::arn::FiveTuple& t) {
  using namespace wire::arn;
  // Wildcard fields (Mask bit 0) are shown as null.
  auto field = [&](std::uint8_t bit, nlohmann::json value) {
    return (t.mask & bit) ? value : nlohmann::json(nullptr);
  };
  return {
      {"family", t.family == AddressFamily::ipv4 ? "ipv4" : "ipv6"},
      {"mask", t.mask},
      {"reserved", t.reserved},
      {"protocol", field(kMaskProtocol, t.protocol)},
      {"source", field(kMaskSource, format_address(t, t.source))},
      {"destination",
       field(kMaskDestination, format_address(t, t.destination))},
      {"source_port", field(kMaskSourcePort, t.source_port)},
      {"destination_port", field(kMaskDestinationPort, t.destination_port)}};
}

}  // namespace

nlohmann::json to_json(const wire::arn::ArnMessage& m) {
  nlohmann::json j = {{"type", wire::arn::to_string(m.type)},
                      {"type_code", static_cast<int>(m.type)},
                      {"version", m.version},
                      {"reserved", m.reserved},
                      {"metric", m.metric},
                      {"para_type", m.para_type()}};
  if (m.flow) j["flow"] = to_json(*m.flow);
  if (m.path_id) j["path_id"] = *m.path_id;
  if (m.inner_flow) j["inner_flow"] = to_json(*m.inner_flow);
  if (!m.unknown_parameters.empty()) {
    j["unknown_parameters"] = to_hex(m.unknown_parameters);
  }
  return j;
}

nlohmann::json to_json(const wire::arn::ArnL2Frame& f) {
  return {{"protocol", "arn"},
          {"transport", "ethernet"},
          {"destination", wire::format_mac(f.destination)},
          {"source", wire::format_mac(f.source)},
          {"arn", to_json(f.message)}};
}

nlohmann::json to_json(const wire::arn::ArnDatagram& d) {
  return {{"protocol", "arn"},
          {"transport", "udp"},
          {"source", wire::format_ipv4(d.ip.source)},
          {"destination", wire::format_ipv4(d.ip.destination)},
          {"dscp", d.ip.dscp},
          {"ip_checksum_valid", d.ip_checksum_valid},
          {"udp_checksum_valid", d.udp_checksum_valid},
          {"arn", to_json(d.message)}};
}

}  // namespace arfabric::cli
