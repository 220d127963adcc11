// libFuzzer target: the bgpd configuration text (daemon/config.h), and the
// same bytes as a rate (common/quantity.h parse_rate, which the
// configuration's link_bandwidth uses) and as an address (parse_ip). Parsing
// only: nothing is opened, bound or installed.
//
// parse_config: an error must name the input's file, a dotted key and a
// message, with a line within the input (0 only with column 0). A
// configuration that parses must keep the header's promises: asn neither
// 0 nor AS_TRANS, a non-zero IPv4 router_id, timers and ranges as
// documented, peers with distinct addresses (a link-local one per
// interface) and names, another AS, a link bandwidth source, an IPv4
// NEXT_HOP source and at least one family, link-local addresses only with
// an interface (and a peer's with a local_address), no link-local listen
// address or next_hop_ipv6, and an engine configuration that passes
// validate(SpeakerConfig).
//
// parse_rate: a rate is non-zero and reads back from its decimal digits
// (and from its value in G when it is whole gigabits). parse_ip: an
// address holds no text beyond the literal (no embedded NUL), and reads
// back from its own to_string().
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/quantity.h"
#include "daemon/config.h"
#include "yaml_lines.h"

using namespace arfabric;
using namespace arfabric::daemon;

namespace {

const std::string kFile = "fuzz-bgpd.yaml";

void check_config(const DaemonConfig& c) {
  if (c.file != kFile) __builtin_trap();
  if (c.asn == 0 || c.asn == 23456) __builtin_trap();
  if (std::all_of(c.router_id.begin(), c.router_id.end(),
                  [](std::uint8_t b) { return b == 0; }))
    __builtin_trap();
  if (c.hold_s == 1 || c.hold_s == 2) __builtin_trap();
  if (c.maximum_paths < 1 || c.maximum_paths > 256) __builtin_trap();
  if (c.fib_protocol < 5 || c.interface_poll_ms < 10) __builtin_trap();
  if (c.connect_retry_s < 1 || c.connect_retry_s > 3600) __builtin_trap();
  for (const auto& [prefix, leaves] : c.multihomed)
    if (leaves < 1) __builtin_trap();
  const bool listen_v4 =
      !c.listen_address.v6 && c.listen_address != IpAddress{};
  if (c.listen_address.link_local()) __builtin_trap();
  for (std::size_t i = 0; i < c.peers.size(); ++i) {
    const DaemonPeer& p = c.peers[i];
    if (p.asn == 0 || p.asn == c.asn || p.port == 0) __builtin_trap();
    for (std::size_t j = 0; j < i; ++j)
      if (same_neighbor(c.peers[j], p) || c.peers[j].name == p.name)
        __builtin_trap();
    // A link-local peer: its interface, a local_address, a global
    // next_hop_ipv6 (the link-local one goes with it).
    const bool bound_link_local =
        p.local_address && p.local_address->link_local();
    if ((p.address.link_local() || bound_link_local) && p.interface.empty())
      __builtin_trap();
    if (p.address.link_local() && !p.local_address) __builtin_trap();
    if (p.next_hop_ipv6 && p.next_hop_ipv6->link_local()) __builtin_trap();
    if (!p.ipv4 && !p.ipv6) __builtin_trap();
    if (p.bandwidth_from_interface ? p.interface.empty()
                                   : p.link_bandwidth == 0)
      __builtin_trap();
    if (p.local_address && p.local_address->v6 != p.address.v6)
      __builtin_trap();
    if (p.next_hop_ipv6 && !p.next_hop_ipv6->v6) __builtin_trap();
    if (!p.address.v6 && !p.local_address && !listen_v4) __builtin_trap();
    if (p.hold_s == 1 || p.hold_s == 2) __builtin_trap();
  }
  const std::vector<BitsPerSecond> bandwidth(c.peers.size(), 1);
  if (!proto::bgp::validate(speaker_config(c, bandwidth))) __builtin_trap();
}

void check_rate(std::string_view text) {
  const auto rate = parse_rate(text);
  if (!rate) {
    if (rate.error().empty()) __builtin_trap();
    return;
  }
  if (*rate == 0) __builtin_trap();
  const auto digits = parse_rate(std::to_string(*rate));
  if (!digits || *digits != *rate) __builtin_trap();
  constexpr BitsPerSecond kG = 1'000'000'000;
  if (*rate % kG == 0) {
    const auto g = parse_rate(std::to_string(*rate / kG) + "G");
    if (!g || *g != *rate) __builtin_trap();
  }
}

void check_ip(std::string_view text) {
  const auto ip = parse_ip(text);
  if (!ip) {
    if (ip.error().empty()) __builtin_trap();
    return;
  }
  if (text.find('\0') != std::string_view::npos) __builtin_trap();
  if (!ip->v6 && std::any_of(ip->bytes.begin() + 4, ip->bytes.end(),
                             [](std::uint8_t b) { return b != 0; }))
    __builtin_trap();
  if (ip->to_bytes().size() != (ip->v6 ? 16u : 4u)) __builtin_trap();
  const auto again = parse_ip(ip->to_string());
  if (!again || !(*again == *ip)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_rate(text);
  check_ip(text);
  auto config = parse_config(text, kFile);
  if (!config) {
    const ConfigFileError& e = config.error();
    if (e.file != kFile || e.key.empty() || e.message.empty()) __builtin_trap();
    if (e.line < 0 || e.line > yaml_line_count(text)) __builtin_trap();
    if (e.column < 0 || (e.line == 0 && e.column != 0)) __builtin_trap();
    return 0;
  }
  check_config(*config);
  return 0;
}
