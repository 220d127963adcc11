// One speaker driven by a scripted peer: the test writes the peer's bytes
// with the wire codec and reads what the speaker sends. Covers the RFC 7606
// outcomes on a live session and the speaker's configuration errors.
#include "proto/bgp/speaker.h"

#include <gtest/gtest.h>

#include "common/overloaded.h"
#include "proto/bgp/fabric_harness.h"
#include "wire/bgp/message.h"

namespace arfabric::proto::bgp {
namespace {

namespace wb = wire::bgp;
using testing::destination;

constexpr ConnectionId kConn = 7;

SpeakerConfig config() {
  SpeakerConfig c;
  c.local_as = 65001;
  c.router_id = {10, 0, 0, 1};
  PeerConfig p;
  p.name = "spine";
  p.session.remote_as = 65100;
  p.session.families = {{wb::kAfiIpv4, wb::kSafiUnicast},
                        {wb::kAfiIpv6, wb::kSafiUnicast}};
  p.role = fare::Role::spine;
  p.link_bandwidth = gbps(400);
  p.next_hop_ipv4 = {10, 0, 0, 1};
  p.next_hop_ipv6 = Bytes(16, 1);
  c.peers.push_back(p);
  c.rib.fare.role = fare::Role::leaf;
  c.networks = {destination("10.1.0.0/24")};
  return c;
}

Bytes encode(const wb::Message& m, bool four_octet = true) {
  wb::SessionCodecOptions o;
  o.four_octet_as = four_octet;
  ByteWriter w;
  auto r = wb::serialize(m, o, w);
  EXPECT_TRUE(r) << r.error().to_string();
  return w.take();
}

wb::Open peer_open(std::uint32_t asn = 65100) {
  wb::Open o;
  o.my_as = static_cast<std::uint16_t>(asn);
  o.hold_time = 90;
  o.identifier = {10, 0, 0, 2};
  wb::OptionalParameter caps;
  caps.capabilities = {
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv4, wb::kSafiUnicast}}},
      {wb::capability_code::kMultiprotocol,
       wb::MultiprotocolCapability{{wb::kAfiIpv6, wb::kSafiUnicast}}},
      {wb::capability_code::kRouteRefresh, wb::RouteRefreshCapability{}},
      {wb::capability_code::kFourOctetAs, wb::FourOctetAsCapability{asn}}};
  o.parameters.push_back(caps);
  return o;
}

struct Scripted {
  Speaker speaker;
  Time now = sec(1);
  std::vector<wb::Message> received;  // what the speaker sent, parsed
  std::vector<FibUpdate> fib;

  explicit Scripted(SpeakerConfig c = config()) : speaker(std::move(c)) {
    speaker.start(now);
    speaker.on_connected(0, kConn, Direction::outgoing, now);
    drain();
    feed(encode(peer_open()));
    feed(encode(wb::Keepalive{}));
    EXPECT_EQ(speaker.peer_state(0), SessionState::established);
  }
  void feed(const Bytes& bytes) {
    speaker.on_bytes(0, kConn, bytes, now);
    drain();
  }
  void drain() {
    for (SpeakerOutput& o : speaker.outputs()) {
      if (auto* s = std::get_if<SendRequest>(&o)) {
        wb::ParseOptions options;
        options.four_octet_as = true;
        ByteSpan rest = s->bytes;
        while (!rest.empty()) {
          auto m = wb::parse_message(rest, options);
          ASSERT_TRUE(m) << m.error().to_string();
          received.push_back(m->message);
          rest = rest.subspan(m->length);
        }
      } else if (auto* f = std::get_if<FibUpdate>(&o)) {
        fib.push_back(*f);
      }
    }
    speaker.outputs().clear();
  }
  std::vector<wb::Update> updates() const {
    std::vector<wb::Update> out;
    for (const auto& m : received) {
      if (auto* u = std::get_if<wb::Update>(&m)) out.push_back(*u);
    }
    return out;
  }
  const wb::Notification* notification() const {
    for (const auto& m : received) {
      if (auto* n = std::get_if<wb::Notification>(&m)) return n;
    }
    return nullptr;
  }
};

wb::Update announce(const std::string& prefix,
                    std::vector<wb::PathAttribute> extra = {},
                    std::vector<std::uint32_t> path = {65100, 65002}) {
  wb::Update u;
  u.attributes = {
      wb::make_attribute(wb::attr_type::kOrigin, wb::Origin{}),
      wb::make_attribute(wb::attr_type::kAsPath,
                         wb::AsPath{{{wb::segment_type::kAsSequence, path}}}),
      wb::make_attribute(wb::attr_type::kNextHop, wb::NextHop{{10, 0, 0, 2}})};
  for (auto& a : extra) u.attributes.push_back(std::move(a));
  u.nlri.push_back(*wb::prefix_from_string(prefix));
  return u;
}

wb::PathAttribute raw(std::uint8_t flags, std::uint8_t type, Bytes value) {
  return wb::PathAttribute{flags, type, wb::RawAttribute{std::move(value)}};
}

// A negotiated family without a next hop for it (an IPv6 peer has no
// IPv4 NEXT_HOP of its own) carries no routes: nothing is built that
// cannot be encoded, and nothing is counted as sent.
TEST(Speaker, AFamilyWithoutANextHopCarriesNoRoutes) {
  SpeakerConfig c = config();
  c.peers[0].next_hop_ipv4.clear();
  c.networks.push_back(destination("2001:db8:1::/48"));
  Scripted s(c);
  std::vector<Destination> sent;
  for (const wb::Update& u : s.updates()) {
    for (const auto& p : u.nlri)
      sent.push_back(destination_of(wb::kAfiIpv4, p));
    for (const auto& a : u.attributes) {
      if (const auto* mp = std::get_if<wb::MpReachNlri>(&a.value)) {
        for (const auto& p : mp->nlri) {
          sent.push_back(destination_of(wb::kAfiIpv6, p));
        }
      }
    }
  }
  EXPECT_EQ(sent, std::vector<Destination>{destination("2001:db8:1::/48")});
  EXPECT_EQ(s.speaker.counters(0).prefixes_out, 1u);
  EXPECT_EQ(s.speaker.counters(0).encode_errors, 0u);
  EXPECT_EQ(s.speaker.advertised_count(0), 1u);
}

TEST(Speaker, SendsItsTableThenEndOfRibOnEstablishment) {
  Scripted s;
  const auto updates = s.updates();
  ASSERT_EQ(updates.size(), 3u);  // 10.1.0.0/24, EoR IPv4, EoR IPv6
  ASSERT_EQ(updates[0].nlri.size(), 1u);
  EXPECT_EQ(destination_of(wb::kAfiIpv4, updates[0].nlri[0]),
            destination("10.1.0.0/24"));
  const auto* path = updates[0].get<wb::AsPath>(wb::attr_type::kAsPath);
  ASSERT_TRUE(path);
  EXPECT_EQ(path->segments[0].asns, (std::vector<std::uint32_t>{65001}));
  EXPECT_TRUE(is_end_of_rib(updates[1]));
  EXPECT_TRUE(is_end_of_rib(updates[2]));
}

TEST(Speaker, LearnsAndWithdrawsARoute) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  ASSERT_EQ(s.fib.size(), 1u);
  EXPECT_EQ(s.fib[0].destination, destination("10.2.0.0/24"));
  ASSERT_EQ(s.fib[0].next_hops.size(), 1u);
  EXPECT_EQ(s.fib[0].next_hops[0].next_hop, (Bytes{10, 0, 0, 2}));
  wb::Update w;
  w.withdrawn.push_back(*wb::prefix_from_string("10.2.0.0/24"));
  s.feed(encode(w));
  ASSERT_EQ(s.fib.size(), 2u);
  EXPECT_TRUE(s.fib[1].next_hops.empty());
  EXPECT_EQ(s.speaker.counters(0).withdrawals_in, 1u);
}

TEST(Speaker, RejectsRoutesWithItsOwnAsInThePath) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24", {}, {65100, 65001, 65003})));
  EXPECT_TRUE(s.fib.empty());
  EXPECT_EQ(s.speaker.counters(0).as_loops, 1u);
  EXPECT_EQ(s.speaker.rib().find(destination("10.2.0.0/24")), nullptr);
}

// RFC 7606 outcomes with the session kept up: the first UPDATE installs
// 10.2.0.0/24, the second re-announces it with one malformed attribute.
struct Rfc7606Case {
  const char* name;
  wb::PathAttribute attribute;
  bool withdrawn;  // treat-as-withdraw; else attribute-discard
  const char* section;
};

class SpeakerRfc7606 : public ::testing::TestWithParam<Rfc7606Case> {};

TEST_P(SpeakerRfc7606, OutcomeKeepsTheSessionUp) {
  const Rfc7606Case& c = GetParam();
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  ASSERT_NE(s.speaker.rib().find(destination("10.2.0.0/24")), nullptr);
  wb::Update bad = announce("10.2.0.0/24");
  // Replace an attribute of the same type if present, else append.
  std::erase_if(bad.attributes,
                [&](const auto& a) { return a.type == c.attribute.type; });
  bad.attributes.push_back(c.attribute);
  s.feed(encode(bad));
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::established)
      << c.name << " (RFC 7606 section " << c.section << ")";
  EXPECT_EQ(s.notification(), nullptr);
  const RibEntry* e = s.speaker.rib().find(destination("10.2.0.0/24"));
  if (c.withdrawn) {
    EXPECT_TRUE(e == nullptr || e->paths.empty()) << c.name;
    EXPECT_EQ(s.speaker.counters(0).treat_as_withdraw, 1u);
  } else {
    ASSERT_TRUE(e && e->paths.size() == 1) << c.name;
    EXPECT_EQ(e->paths[0].attributes->find(c.attribute.type), nullptr);
    EXPECT_EQ(s.speaker.counters(0).attributes_discarded, 1u);
  }
}

constexpr std::uint8_t kWellKnown = wb::attr_flag::kTransitive;
constexpr std::uint8_t kOptional = wb::attr_flag::kOptional;
constexpr std::uint8_t kOptTrans =
    wb::attr_flag::kOptional | wb::attr_flag::kTransitive;

INSTANTIATE_TEST_SUITE_P(
    Cases, SpeakerRfc7606,
    ::testing::Values(
        Rfc7606Case{"origin_value", raw(kWellKnown, 1, {7}), true, "7.1"},
        Rfc7606Case{"as_path_segment", raw(kWellKnown, 2, {9, 1, 0, 0, 0, 1}),
                    true, "7.2"},
        Rfc7606Case{"next_hop_length", raw(kWellKnown, 3, {10, 0, 0}), true,
                    "7.3"},
        Rfc7606Case{"med_length", raw(kOptional, 4, {0, 0, 1}), true, "7.4"},
        Rfc7606Case{"atomic_aggregate_length", raw(kWellKnown, 6, {1}), false,
                    "7.6"},
        Rfc7606Case{"aggregator_length", raw(kOptTrans, 7, {0, 1, 2}), false,
                    "7.7"},
        Rfc7606Case{"communities_length", raw(kOptTrans, 8, {0, 1, 2}), true,
                    "7.8"},
        Rfc7606Case{"extended_communities_length",
                    raw(kOptTrans, 16, {0, 1, 2, 3, 4}), true, "7.14"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Speaker, LocalPrefFromAnExternalPeerIsIgnored) {
  Scripted s;
  s.feed(encode(announce(
      "10.2.0.0/24",
      {wb::make_attribute(wb::attr_type::kLocalPref, wb::LocalPref{500})})));
  const RibEntry* e = s.speaker.rib().find(destination("10.2.0.0/24"));
  ASSERT_TRUE(e && e->paths.size() == 1);
  EXPECT_EQ(e->paths[0].attributes->find(wb::attr_type::kLocalPref), nullptr);
  EXPECT_EQ(e->paths[0].attributes->local_pref, 100u);
}

TEST(Speaker, MissingMandatoryAttributeIsTreatAsWithdraw) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  wb::Update bad = announce("10.2.0.0/24");
  std::erase_if(bad.attributes,
                [](const auto& a) { return a.type == wb::attr_type::kOrigin; });
  s.feed(encode(bad));
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::established);
  const RibEntry* e = s.speaker.rib().find(destination("10.2.0.0/24"));
  EXPECT_TRUE(e == nullptr || e->paths.empty());
}

TEST(Speaker, MalformedNlriResetsTheSessionWithNotification) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  // An UPDATE whose NLRI has prefix length 33 (RFC 7606 section 5.3).
  Bytes bytes = encode(announce("10.3.0.0/24"));
  const std::size_t nlri_at = bytes.size() - 4;  // length byte of /24
  bytes[nlri_at] = 33;
  s.feed(bytes);
  EXPECT_NE(s.speaker.peer_state(0), SessionState::established);
  const wb::Notification* n = s.notification();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->code, wb::error_code::kUpdateMessage);
  EXPECT_EQ(n->subcode, wb::subcode::kInvalidNetworkField);
  // The peer's routes are gone with the session.
  EXPECT_EQ(s.speaker.rib().path_count(), 1u);  // our own 10.1.0.0/24
  ASSERT_FALSE(s.fib.empty());
  EXPECT_TRUE(s.fib.back().next_hops.empty());
}

TEST(Speaker, UnknownOptionalTransitiveIsPropagatedWithPartial) {
  SpeakerConfig c = config();
  PeerConfig second = c.peers[0];
  second.name = "spine2";
  second.session.remote_as = 65200;
  c.peers.push_back(second);
  Speaker speaker(c);
  Time now = sec(1);
  speaker.start(now);
  speaker.on_connected(0, 1, Direction::outgoing, now);
  speaker.on_bytes(0, 1, encode(peer_open()), now);
  speaker.on_bytes(0, 1, encode(wb::Keepalive{}), now);
  speaker.on_connected(1, 2, Direction::outgoing, now);
  wb::Open o2 = peer_open(65200);
  o2.identifier = {10, 0, 0, 3};
  speaker.on_bytes(1, 2, encode(o2), now);
  speaker.on_bytes(1, 2, encode(wb::Keepalive{}), now);
  ASSERT_EQ(speaker.peer_state(1), SessionState::established);
  speaker.outputs().clear();
  speaker.on_bytes(0, 1,
                   encode(announce("10.2.0.0/24", {raw(kOptTrans, 99, {1, 2}),
                                                   raw(kOptional, 98, {3})})),
                   now);
  bool seen = false;
  for (const SpeakerOutput& o : speaker.outputs()) {
    const auto* s = std::get_if<SendRequest>(&o);
    if (!s || s->peer != 1) continue;
    wb::ParseOptions options;
    options.four_octet_as = true;
    auto m = wb::parse_message(s->bytes, options);
    ASSERT_TRUE(m);
    const auto* u = std::get_if<wb::Update>(&m->message);
    if (!u || u->nlri.empty()) continue;
    seen = true;
    const wb::PathAttribute* a99 = u->find(99);
    ASSERT_NE(a99, nullptr);
    EXPECT_TRUE(a99->flags & wb::attr_flag::kPartial);
    EXPECT_EQ(u->find(98), nullptr);  // optional non-transitive: dropped
    const auto* path = u->get<wb::AsPath>(wb::attr_type::kAsPath);
    EXPECT_EQ(path->segments[0].asns,
              (std::vector<std::uint32_t>{65001, 65100, 65002}));
    const auto* nh = u->get<wb::NextHop>(wb::attr_type::kNextHop);
    EXPECT_EQ(nh->address, (wire::Ipv4Address{10, 0, 0, 1}));
  }
  EXPECT_TRUE(seen);
}

TEST(Speaker, ConfigurationErrorsNameTheField) {
  SpeakerConfig c = config();
  c.local_as = 0;
  EXPECT_EQ(validate(c).error().field, "local_as");
  c = config();
  c.peers[0].session.remote_as = c.local_as;
  EXPECT_EQ(validate(c).error().field, "peers[0].session.remote_as");
  c = config();
  c.peers[0].next_hop_ipv4 = {1, 2, 3};
  EXPECT_EQ(validate(c).error().field, "peers[0].next_hop_ipv4");
  c = config();
  c.rib.maximum_paths = 0;
  EXPECT_EQ(validate(c).error().field, "rib.maximum_paths");
  c = config();
  c.multihomed = {{destination("10.0.0.0/8"), 0}};
  EXPECT_EQ(validate(c).error().field, "multihomed[0]");
  c = config();
  c.peers[0].session.hold_time_s = 2;
  auto r = validate(c);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field.rfind("peers[0].session.", 0), 0u)
      << r.error().field;
  EXPECT_TRUE(validate(config()));
}

TEST(Speaker, AddPeerAtRunTimeLeavesTheOtherSessionUp) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  PeerConfig p = config().peers[0];
  p.name = "spine2";
  p.session.remote_as = 65200;
  auto id = s.speaker.add_peer(p, s.now);
  ASSERT_TRUE(id) << id.error().to_string();
  EXPECT_EQ(*id, 1u);
  EXPECT_EQ(s.speaker.peer_count(), 2u);
  bool connect = false;
  for (const SpeakerOutput& o : s.speaker.outputs()) {
    if (const auto* c = std::get_if<ConnectRequest>(&o)) {
      connect = c->peer == 1;
    }
  }
  EXPECT_TRUE(connect);  // the new session starts at once
  s.drain();
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::established);
  EXPECT_EQ(s.notification(), nullptr);
  EXPECT_TRUE(s.speaker.rib().find(destination("10.2.0.0/24")));
  EXPECT_EQ(s.speaker.config().peers[1].name, "spine2");
}

TEST(Speaker, AddPeerErrorsNameThePeerField) {
  Scripted s;
  PeerConfig p = config().peers[0];
  p.session.remote_as = 65001;  // our own AS: iBGP is refused
  auto id = s.speaker.add_peer(p, s.now);
  ASSERT_FALSE(id);
  EXPECT_EQ(id.error().field, "peer.session.remote_as");
  EXPECT_EQ(s.speaker.peer_count(), 1u);
}

TEST(Speaker, RemovePeerSendsCeaseWithdrawsItsRoutesAndRefusesIt) {
  Scripted s;
  s.feed(encode(announce("10.2.0.0/24")));
  ASSERT_EQ(s.fib.size(), 1u);
  s.speaker.remove_peer(0, s.now);
  s.drain();
  const wb::Notification* n = s.notification();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->code, 6);  // Cease
  EXPECT_EQ(n->subcode, cease::kAdministrativeShutdown);
  ASSERT_EQ(s.fib.size(), 2u);
  EXPECT_TRUE(s.fib[1].next_hops.empty());
  EXPECT_TRUE(s.speaker.peer_removed(0));
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::idle);
  // Neither a restart of the whole speaker nor a new connection revives it.
  s.speaker.start(s.now);
  s.speaker.on_connected(0, kConn + 1, Direction::incoming, s.now);
  bool closed = false;
  for (const SpeakerOutput& o : s.speaker.outputs()) {
    if (const auto* c = std::get_if<CloseRequest>(&o)) {
      closed = c->connection == kConn + 1;
    }
    EXPECT_FALSE(std::holds_alternative<ConnectRequest>(o));
  }
  EXPECT_TRUE(closed);
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::idle);
  EXPECT_EQ(s.speaker.next_deadline(), Time::max());
}

TEST(Speaker, StartPeerRestartsAStoppedSessionOnly) {
  Scripted s;
  s.speaker.stop_peer(0, s.now);
  s.drain();
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::idle);
  EXPECT_EQ(s.speaker.next_deadline(), Time::max());  // no automatic restart
  s.speaker.start_peer(0, s.now);
  bool connect = false;
  for (const SpeakerOutput& o : s.speaker.outputs()) {
    connect = connect || std::holds_alternative<ConnectRequest>(o);
  }
  EXPECT_TRUE(connect);
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::connect);
  s.drain();
  s.speaker.remove_peer(0, s.now);
  s.speaker.start_peer(0, s.now);  // a removed peer stays removed
  EXPECT_EQ(s.speaker.peer_state(0), SessionState::idle);
}

}  // namespace
}  // namespace arfabric::proto::bgp
