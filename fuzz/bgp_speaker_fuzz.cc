// libFuzzer target: the BGP speaker's receive path on an established
// session. The input is the byte stream the peer sends after OPEN and
// KEEPALIVE, cut into reads whose sizes come from the input itself, so
// stream reassembly, UPDATE handling with RFC 7606 outcomes, the decision
// process and re-advertisement to a second peer all see hostile bytes.
// Invariants: no crash, sanitizer report or leak; whatever is still
// installed has at least one next hop; once the session is gone the peer's
// routes are gone with it.
#include <cstddef>
#include <cstdint>

#include "proto/bgp/speaker.h"
#include "wire/bgp/message.h"

using namespace arfabric;
using namespace arfabric::proto::bgp;
namespace wb = arfabric::wire::bgp;

namespace {

Bytes encode(const wb::Message& m) {
  wb::SessionCodecOptions o;
  o.four_octet_as = true;
  ByteWriter w;
  (void)wb::serialize(m, o, w);
  return w.take();
}

wb::Open open_from(std::uint32_t asn, std::uint8_t id) {
  wb::Open o;
  o.my_as = static_cast<std::uint16_t>(asn);
  o.hold_time = 90;
  o.identifier = {10, 0, 0, id};
  wb::OptionalParameter caps;
  caps.capabilities = {
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv4, wb::kSafiUnicast}}},
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv6, wb::kSafiUnicast}}},
      {wb::capability_code::kFourOctetAs, wb::FourOctetAsCapability{asn}},
      {wb::capability_code::kAddPath,
       wb::AddPathCapability{{{{wb::kAfiIpv4, wb::kSafiUnicast}, 3}}}}};
  o.parameters.push_back(caps);
  return o;
}

SpeakerConfig config() {
  SpeakerConfig c;
  c.local_as = 65001;
  c.router_id = {10, 0, 0, 1};
  c.rib.fare.role = proto::fare::Role::spine;
  for (int i = 0; i < 2; ++i) {
    PeerConfig p;
    p.session.remote_as = 65100 + static_cast<std::uint32_t>(i);
    p.session.families = {{wb::kAfiIpv4, wb::kSafiUnicast},
                          {wb::kAfiIpv6, wb::kSafiUnicast}};
    p.session.add_path = {{{wb::kAfiIpv4, wb::kSafiUnicast}, 3}};
    p.role = proto::fare::Role::leaf;
    p.link_bandwidth = gbps(400);
    p.next_hop_ipv4 = {10, 0, 1, static_cast<std::uint8_t>(i)};
    p.next_hop_ipv6 = Bytes(16, static_cast<std::uint8_t>(i + 1));
    c.peers.push_back(p);
  }
  c.networks = {
      destination_of(wb::kAfiIpv4, *wb::prefix_from_string("10.1.0.0/24"))};
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  Speaker speaker(config());
  Time now = sec(1);
  speaker.start(now);
  for (PeerId p = 0; p < 2; ++p) {
    speaker.on_connected(p, p + 1, Direction::outgoing, now);
    speaker.on_bytes(
        p, p + 1,
        encode(open_from(65100 + p, static_cast<std::uint8_t>(2 + p))), now);
    speaker.on_bytes(p, p + 1, encode(wb::Keepalive{}), now);
  }
  if (speaker.peer_state(0) != SessionState::established) __builtin_trap();
  std::size_t at = 0;
  while (at < size) {
    // One length byte, then that many stream bytes (0 means 1).
    const std::size_t n = std::min<std::size_t>(
        std::max<std::size_t>(data[at], 1), size - at - 1);
    ++at;
    now += ms(1);
    speaker.on_bytes(0, 1, ByteSpan(data + at, n), now);
    at += n;
    speaker.outputs().clear();
  }
  speaker.rib().for_each([](std::uint32_t, const RibEntry& e) {
    for (const NextHopWeight& h : e.installed) {
      if (h.peer != 0) __builtin_trap();  // only peer 0 sent routes
    }
  });
  if (speaker.peer_state(0) != SessionState::established) {
    bool stale = false;
    speaker.rib().for_each([&](std::uint32_t, const RibEntry& e) {
      stale |= !e.installed.empty();
    });
    if (stale) __builtin_trap();
  }
  return 0;
}
