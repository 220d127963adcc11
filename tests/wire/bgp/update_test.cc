#include "wire/bgp/update.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "wire/bgp/bgp_test_util.h"
#include "wire/bgp/message.h"

namespace arfabric::wire::bgp {
namespace {

using testing::hex;

// An IPv4 UPDATE from a 4-octet-AS session.
const Bytes kIpv4Update =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "0063"                              // length 99
        "02"                                // type UPDATE
        "0003"                              // withdrawn routes length 3
        "100a02"                            // withdrawn 10.2.0.0/16
        "0042"                              // total path attribute length 66
        "40010100"                          // ORIGIN (well-known) IGP
        "40020a02020000fde90000fdea"        // AS_PATH AS_SEQUENCE 65001 65002
        "4003040a000001"                    // NEXT_HOP 10.0.0.1
        "80040400000064"                    // MED 100 (optional non-transitive)
        "400504000000c8"                    // LOCAL_PREF 200
        "c00808fde90001ffffff01"            // COMMUNITIES 65001:1 NO_EXPORT
        "c010080002fde900000064"            // EXT COMMUNITIES RT 65001:100
        "c06303010203"                      // unknown optional transitive 99
        "180a0101"                          // NLRI 10.1.1.0/24
        "10ac10");                          // NLRI 172.16.0.0/16

// An IPv6 UPDATE (MP_REACH_NLRI + MP_UNREACH_NLRI) on a 2-octet-AS session.
const Bytes kIpv6Update =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "0055"                              // length 85
        "02"                                // type UPDATE
        "0000"                              // no withdrawn routes
        "003e"                              // total path attribute length 62
        "40010100"                          // ORIGIN IGP
        "4002040201fde9"  // AS_PATH AS_SEQUENCE 65001 (2-octet)
        "800e23"          // MP_REACH_NLRI, length 35
        "0002"
        "01"                                //   AFI IPv6, SAFI unicast
        "10"                                //   next hop length 16
        "20010db8000000000000000000000001"  //   next hop 2001:db8::1
        "00"                                //   reserved
        "2020010db8"                        //   2001:db8::/32
        "4020010db800010002"                //   2001:db8:1:2::/64
        "800f0a"                            // MP_UNREACH_NLRI, length 10
        "0002"
        "01"                //   AFI IPv6, SAFI unicast
        "3020010db80003");  //   2001:db8:3::/48

SessionCodecOptions four_octet() {
  SessionCodecOptions o;
  o.four_octet_as = true;
  return o;
}

TEST(BgpUpdate, GoldenIpv4DecodesEveryField) {
  auto r = parse_update(kIpv4Update, four_octet());
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->attribute_errors.empty());
  EXPECT_FALSE(r->worst);
  const Update& u = r->update;
  ASSERT_EQ(u.withdrawn.size(), 1u);
  EXPECT_EQ(format_prefix(u.withdrawn[0], 32), "10.2.0.0/16");
  ASSERT_EQ(u.nlri.size(), 2u);
  EXPECT_EQ(format_prefix(u.nlri[0], 32), "10.1.1.0/24");
  EXPECT_EQ(format_prefix(u.nlri[1], 32), "172.16.0.0/16");
  ASSERT_EQ(u.attributes.size(), 8u);
  EXPECT_EQ(u.get<Origin>(attr_type::kOrigin)->value, OriginValue::igp);
  const AsPath* path = u.get<AsPath>(attr_type::kAsPath);
  ASSERT_TRUE(path);
  EXPECT_EQ(format_as_path(*path), "65001 65002");
  EXPECT_EQ(u.get<NextHop>(attr_type::kNextHop)->address,
            (Ipv4Address{10, 0, 0, 1}));
  EXPECT_EQ(u.get<Med>(attr_type::kMed)->value, 100u);
  EXPECT_EQ(u.get<LocalPref>(attr_type::kLocalPref)->value, 200u);
  EXPECT_EQ(u.get<Communities>(attr_type::kCommunities)->values,
            (std::vector<std::uint32_t>{0xfde90001, 0xffffff01}));
  const auto* ec = u.get<ExtendedCommunities>(attr_type::kExtendedCommunities);
  ASSERT_TRUE(ec);
  ASSERT_EQ(ec->values.size(), 1u);
  EXPECT_EQ(ec->values[0].type(), 0x00);
  EXPECT_EQ(ec->values[0].sub_type(), 0x02);
  EXPECT_TRUE(ec->values[0].transitive());
  const PathAttribute* unknown = u.find(99);
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->flags, 0xc0);
  EXPECT_EQ(std::get<RawAttribute>(unknown->value).value, (Bytes{1, 2, 3}));
}

TEST(BgpUpdate, GoldenIpv4RoundTripsByteExact) {
  auto r = parse_update(kIpv4Update, four_octet());
  ASSERT_TRUE(r);
  ByteWriter w;
  ASSERT_TRUE(serialize(r->update, four_octet(), w));
  EXPECT_EQ(to_hex(w.data()), to_hex(kIpv4Update));
  EXPECT_EQ(encoded_size(r->update, four_octet()), kIpv4Update.size());
}

TEST(BgpUpdate, GoldenIpv6MpReachDecodesAndRoundTrips) {
  auto r = parse_update(kIpv6Update);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->attribute_errors.empty());
  const Update& u = r->update;
  EXPECT_TRUE(u.nlri.empty());
  EXPECT_EQ(format_as_path(*u.get<AsPath>(attr_type::kAsPath)), "65001");
  const auto* reach = u.get<MpReachNlri>(attr_type::kMpReachNlri);
  ASSERT_TRUE(reach);
  EXPECT_EQ(reach->family, (AfiSafi{kAfiIpv6, kSafiUnicast}));
  EXPECT_EQ(to_hex(reach->next_hop), "20010db8000000000000000000000001");
  ASSERT_EQ(reach->nlri.size(), 2u);
  EXPECT_EQ(format_prefix(reach->nlri[0], 128), "2001:db8::/32");
  EXPECT_EQ(format_prefix(reach->nlri[1], 128), "2001:db8:1:2::/64");
  const auto* unreach = u.get<MpUnreachNlri>(attr_type::kMpUnreachNlri);
  ASSERT_TRUE(unreach);
  ASSERT_EQ(unreach->withdrawn.size(), 1u);
  EXPECT_EQ(format_prefix(unreach->withdrawn[0], 128), "2001:db8:3::/48");
  ByteWriter w;
  ASSERT_TRUE(serialize(u, {}, w));
  EXPECT_EQ(to_hex(w.data()), to_hex(kIpv6Update));
}

TEST(BgpUpdate, TwoOctetSessionReadsTheSameAsPathDifferently) {
  // The 4-octet AS_PATH above read with 2-octet ASNs: 2 "ASNs" of 2 bytes
  // leave 4 bytes that do not form a segment -> malformed AS_PATH.
  auto r = parse_update(kIpv4Update);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->attribute_errors.size(), 1u);
  EXPECT_EQ(r->attribute_errors[0].subcode, subcode::kMalformedAsPath);
  EXPECT_EQ(r->attribute_errors[0].action, Rfc7606Action::treat_as_withdraw);
}

TEST(BgpUpdate, AddPathIdsOnIpv4Nlri) {
  SessionCodecOptions o;
  o.add_path = {{kAfiIpv4, kSafiUnicast}};
  Update u;
  u.attributes = {make_attribute(attr_type::kOrigin, Origin{}),
                  make_attribute(attr_type::kAsPath, AsPath{}),
                  make_attribute(attr_type::kNextHop, NextHop{{1, 2, 3, 4}})};
  Prefix p = *prefix_from_string("10.9.0.0/16");
  p.path_id = 7;
  u.nlri = {p};
  ByteWriter w;
  ASSERT_TRUE(serialize(u, o, w));
  // Path ID 7, then length 16, then 2 bytes.
  EXPECT_EQ(to_hex(ByteSpan(w.data()).last(7)), "00000007100a09");
  auto back = parse_update(w.data(), o);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->update, u);
  // Without ADD-PATH negotiated a path ID cannot be encoded.
  ByteWriter w2;
  EXPECT_FALSE(serialize(u, {}, w2));
  EXPECT_EQ(w2.size(), 0u);
}

TEST(BgpUpdate, ExtendedLengthChosenAbove255AndPreservedWhenReceived) {
  Communities c;
  c.values.assign(70, 0x00010002);  // 280 bytes
  PathAttribute big = make_attribute(attr_type::kCommunities, c);
  ByteWriter w;
  ASSERT_TRUE(serialize(big, {}, w));
  EXPECT_EQ(to_hex(ByteSpan(w.data()).first(4)), "d0080118");  // ext, 280
  // A short attribute received with Extended Length keeps the 2-byte form.
  PathAttribute small{0x50, attr_type::kOrigin, Origin{OriginValue::egp}};
  ByteWriter w2;
  ASSERT_TRUE(serialize(small, {}, w2));
  EXPECT_EQ(to_hex(w2.data()), "5001000101");
}

TEST(BgpUpdate, PrepareForPropagationSetsPartialOnUnknownTransitive) {
  // RFC 4271 section 5: Partial on unrecognized optional transitive;
  // unrecognized optional non-transitive are not propagated.
  std::vector<PathAttribute> attrs = {
      make_attribute(attr_type::kMed, Med{5}),
      PathAttribute{0xc0, 99, RawAttribute{{1}}},
      PathAttribute{0x80, 98, RawAttribute{{2}}},
  };
  prepare_for_propagation(attrs);
  ASSERT_EQ(attrs.size(), 2u);
  EXPECT_EQ(attrs[0].flags, attr_flag::kOptional);  // known: untouched
  EXPECT_EQ(attrs[1].type, 99);
  EXPECT_EQ(attrs[1].flags, 0xe0);
}

TEST(BgpUpdate, TruncatedBufferAtEveryLengthFailsCleanly) {
  for (const Bytes* msg : {&kIpv4Update, &kIpv6Update}) {
    for (std::size_t n = 0; n < msg->size(); ++n) {
      auto r = parse_message(ByteSpan(*msg).first(n), four_octet());
      ASSERT_FALSE(r) << n;
      EXPECT_FALSE(r.error().decode.field.empty());
      EXPECT_EQ(r.error().action, Rfc7606Action::session_reset);
    }
  }
}

TEST(BgpUpdate, ShortenedLengthFieldAtEveryLengthNeverCrashes) {
  // The header length says n: inner fields are cut at every position.
  // Either a clean error naming a field, or (cut on a boundary) a message
  // that re-serializes to exactly the bytes parsed.
  for (const Bytes* msg : {&kIpv4Update, &kIpv6Update}) {
    for (std::size_t n = 23; n < msg->size(); ++n) {
      Bytes cut(msg->begin(), msg->begin() + n);
      cut[16] = static_cast<std::uint8_t>(n >> 8);
      cut[17] = static_cast<std::uint8_t>(n);
      auto r = parse_update(cut, four_octet());
      if (!r) {
        EXPECT_FALSE(r.error().decode.field.empty()) << n;
        EXPECT_LE(r.error().decode.offset, n) << n;
        continue;
      }
      ByteWriter w;
      ASSERT_TRUE(serialize(r->update, four_octet(), w)) << n;
      EXPECT_EQ(w.data(), cut) << n;
    }
  }
}

TEST(BgpUpdate, OverMaximumLengthIsAnEncodeError) {
  Update u;
  u.attributes = {PathAttribute{0xc0, 99, RawAttribute{Bytes(5000, 1)}}};
  ByteWriter w;
  EXPECT_FALSE(serialize(u, {}, w));
  SessionCodecOptions ext;
  ext.extended_message = true;
  ASSERT_TRUE(serialize(u, ext, w));
  EXPECT_TRUE(parse_update(w.data(), ext));
  // RFC 8654: without the capability the receiver rejects it (1/2).
  auto r = parse_update(w.data());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMessageHeader);
  EXPECT_EQ(r.error().subcode, subcode::kBadMessageLength);
}

// The benchmark-sized vector: an UPDATE filling the 4096-byte maximum with
// /24 NLRI after a typical attribute set.
TEST(BgpUpdate, FourKilobyteUpdateRoundTrips) {
  Update u;
  u.attributes = {
      make_attribute(attr_type::kOrigin, Origin{}),
      make_attribute(attr_type::kAsPath,
                     AsPath{{{segment_type::kAsSequence, {65001, 65002}}}}),
      make_attribute(attr_type::kNextHop, NextHop{{10, 0, 0, 1}}),
      make_attribute(attr_type::kCommunities, Communities{{0xfde90001}})};
  Prefix p;
  p.length = 24;
  while (encoded_size(u, four_octet()) + 4 <= 4096) {
    const std::size_t i = u.nlri.size();
    p.address = {10, static_cast<std::uint8_t>(i >> 8),
                 static_cast<std::uint8_t>(i)};
    u.nlri.push_back(p);
  }
  ByteWriter w;
  ASSERT_TRUE(serialize(u, four_octet(), w));
  EXPECT_GT(w.size(), 4090u);
  EXPECT_LE(w.size(), 4096u);
  auto back = parse_update(w.data(), four_octet());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->update, u);
  EXPECT_EQ(back->update.nlri.size(), u.nlri.size());
}

RC_GTEST_PROP(BgpUpdate, ParseOfSerializeIsIdentity, ()) {
  const SessionCodecOptions o = testing::gen_options();
  const Update u = testing::gen_update(o);
  ByteWriter w;
  auto s = serialize(u, o, w);
  if (!s) RC_LOG() << s.error().to_string() << "\n";
  RC_ASSERT(s.has_value());
  RC_ASSERT(w.size() == encoded_size(u, o));
  auto back = parse_update(w.data(), o);
  if (!back) RC_LOG() << back.error().to_string() << "\n";
  RC_ASSERT(back.has_value());
  for (const BgpError& e : back->attribute_errors) {
    RC_LOG() << e.to_string() << "\n";
  }
  RC_ASSERT(back->attribute_errors.empty());
  if (!(back->update == u)) {
    RC_LOG() << "withdrawn " << (back->update.withdrawn == u.withdrawn)
             << " nlri " << (back->update.nlri == u.nlri) << " attrs "
             << back->update.attributes.size() << "/" << u.attributes.size()
             << "\n";
    for (std::size_t i = 0;
         i < u.attributes.size() && i < back->update.attributes.size(); ++i) {
      if (!(u.attributes[i] == back->update.attributes[i])) {
        RC_LOG() << "attr " << int(u.attributes[i].type)
                 << " differs: " << format_attribute(u.attributes[i]) << " vs "
                 << format_attribute(back->update.attributes[i]) << "\n";
      }
    }
  }
  RC_ASSERT(back->update == u);
}

}  // namespace
}  // namespace arfabric::wire::bgp
