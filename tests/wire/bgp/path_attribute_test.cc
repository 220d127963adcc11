// RFC 7606 error handling, one test per case, named after its section.
#include "wire/bgp/path_attribute.h"

#include <gtest/gtest.h>

#include "wire/bgp/bgp_test_util.h"
#include "wire/bgp/update.h"

namespace arfabric::wire::bgp {
namespace {

using testing::hex;

const std::string kOrigin = "40010100";
const std::string kAsPath = "4002040201fde9";  // 2-octet AS_SEQUENCE 65001
const std::string kNextHop = "4003040a000001";
const std::string kNlri = "180a0101";  // 10.1.1.0/24

// An UPDATE with the given path attribute bytes and NLRI, lengths filled.
Bytes update(const std::string& attrs, const std::string& nlri = kNlri,
             const std::string& withdrawn = "") {
  const Bytes a = hex(attrs), n = hex(nlri), w = hex(withdrawn);
  ByteWriter out;
  for (int i = 0; i < 16; ++i) out.u8(0xff);
  out.u16(static_cast<std::uint16_t>(23 + a.size() + n.size() + w.size()));
  out.u8(2);
  out.u16(static_cast<std::uint16_t>(w.size()));
  out.bytes(w);
  out.u16(static_cast<std::uint16_t>(a.size()));
  out.bytes(a);
  out.bytes(n);
  return out.take();
}

// Parses `msg`, expects exactly one soft error and returns it.
BgpError one_soft_error(const Bytes& msg, SessionCodecOptions o = {}) {
  auto r = parse_update(msg, o);
  EXPECT_TRUE(r) << r.error().to_string();
  if (!r) return {};
  EXPECT_EQ(r->attribute_errors.size(), 1u);
  if (r->attribute_errors.empty()) return {};
  EXPECT_EQ(r->worst, r->attribute_errors[0].action);
  // Whatever was wrong, the message re-serializes byte-exact.
  ByteWriter w;
  EXPECT_TRUE(serialize(r->update, o, w));
  EXPECT_EQ(to_hex(w.data()), to_hex(msg));
  return r->attribute_errors[0];
}

BgpError hard_error(const Bytes& msg, SessionCodecOptions o = {}) {
  auto r = parse_update(msg, o);
  EXPECT_FALSE(r);
  if (r) return {};
  EXPECT_EQ(r.error().action, Rfc7606Action::session_reset);
  return r.error();
}

TEST(BgpRfc7606, WellFormedUpdateHasNoErrors) {
  auto r = parse_update(update(kOrigin + kAsPath + kNextHop));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->attribute_errors.empty());
}

TEST(BgpRfc7606, Sec7_1_OriginWrongLengthTreatAsWithdraw) {
  BgpError e = one_soft_error(update("4001020000" + kAsPath + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kAttributeLengthError);
  EXPECT_EQ(e.attribute_type, attr_type::kOrigin);
  EXPECT_EQ(to_hex(e.data), "4001020000");  // RFC 4271 6.3: the attribute
}

TEST(BgpRfc7606, Sec7_1_OriginUndefinedValueTreatAsWithdraw) {
  BgpError e = one_soft_error(update("40010103" + kAsPath + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kInvalidOrigin);
  EXPECT_EQ(e.decode.field, "bgp.update.origin");
}

TEST(BgpRfc7606, Sec7_2_AsPathBadSegmentTypeTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + "4002040501fde9" + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kMalformedAsPath);
  EXPECT_EQ(e.decode.field, "bgp.update.as_path.segment_type");
}

TEST(BgpRfc7606, Sec7_2_AsPathSegmentOverrunTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + "4002040202fde9" + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.decode.field, "bgp.update.as_path.segment_length");
}

TEST(BgpRfc7606, Sec7_2_AsPathEmptySegmentTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + "4002020200" + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
}

TEST(BgpRfc7606, Sec7_3_NextHopWrongLengthTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + kAsPath + "4003030a0000"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.attribute_type, attr_type::kNextHop);
}

TEST(BgpRfc7606, Sec7_4_MedWrongLengthTreatAsWithdraw) {
  BgpError e =
      one_soft_error(update(kOrigin + kAsPath + kNextHop + "800403000064"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.decode.field, "bgp.update.multi_exit_disc");
}

TEST(BgpRfc7606, Sec7_5_LocalPrefWrongLengthTreatAsWithdraw) {
  BgpError e =
      one_soft_error(update(kOrigin + kAsPath + kNextHop + "4005050000000064"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.attribute_type, attr_type::kLocalPref);
}

TEST(BgpRfc7606, Sec7_6_AtomicAggregateWrongLengthAttributeDiscard) {
  BgpError e =
      one_soft_error(update(kOrigin + kAsPath + kNextHop + "40060100"));
  EXPECT_EQ(e.action, Rfc7606Action::attribute_discard);
  EXPECT_EQ(e.attribute_type, attr_type::kAtomicAggregate);
}

TEST(BgpRfc7606, Sec7_7_AggregatorWrongLengthAttributeDiscard) {
  // 8 bytes on a 2-octet session (needs 6).
  BgpError e = one_soft_error(
      update(kOrigin + kAsPath + kNextHop + "c007080000fde90a000001"));
  EXPECT_EQ(e.action, Rfc7606Action::attribute_discard);
  // The same bytes are right on a 4-octet session... except AS_PATH, which
  // is then 2 bytes short, so use a 4-octet AS_PATH there.
  SessionCodecOptions o;
  o.four_octet_as = true;
  auto r = parse_update(update(kOrigin + "400206020100000001" + kNextHop +
                               "c007080000fde90a000001"),
                        o);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->attribute_errors.empty());
  EXPECT_EQ(r->update.get<Aggregator>(attr_type::kAggregator)->asn, 65001u);
}

TEST(BgpRfc7606, Sec7_8_CommunitiesNotMultipleOf4TreatAsWithdraw) {
  BgpError e = one_soft_error(
      update(kOrigin + kAsPath + kNextHop + "c00806fde90001ffff"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kOptionalAttributeError);
}

TEST(BgpRfc7606, Sec7_8_CommunitiesEmptyTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + kAsPath + kNextHop + "c00800"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
}

TEST(BgpRfc7606, Sec7_14_ExtendedCommunitiesNotMultipleOf8TreatAsWithdraw) {
  BgpError e = one_soft_error(
      update(kOrigin + kAsPath + kNextHop + "c010060002fde90000"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.attribute_type, attr_type::kExtendedCommunities);
}

TEST(BgpRfc7606, Rfc6793Sec6_MalformedAs4PathAttributeDiscard) {
  BgpError e = one_soft_error(
      update(kOrigin + kAsPath + kNextHop + "c01106020200000001"));
  EXPECT_EQ(e.action, Rfc7606Action::attribute_discard);
  EXPECT_EQ(e.attribute_type, attr_type::kAs4Path);
}

TEST(BgpRfc7606, Rfc6793Sec6_MalformedAs4AggregatorAttributeDiscard) {
  BgpError e = one_soft_error(
      update(kOrigin + kAsPath + kNextHop + "c01206fde90a000001"));
  EXPECT_EQ(e.action, Rfc7606Action::attribute_discard);
}

TEST(BgpRfc7606, Sec7_11_MpReachBadNextHopLengthAfiSafiDisable) {
  // IPv6 unicast with a 4-byte next hop.
  BgpError e = one_soft_error(update(kOrigin + kAsPath +
                                         "800e0e000201042001000100"
                                         "2020010db8",
                                     ""));
  EXPECT_EQ(e.action, Rfc7606Action::afi_safi_disable);
  EXPECT_EQ(e.family, (AfiSafi{kAfiIpv6, kSafiUnicast}));
  EXPECT_EQ(e.subcode, subcode::kOptionalAttributeError);
}

TEST(BgpRfc7606, Sec7_11_MpReachBadPrefixLengthAfiSafiDisable) {
  // Prefix length 129 in IPv6 NLRI (RFC 7606 section 5.3).
  BgpError e = one_soft_error(update(kOrigin + kAsPath +
                                         "800e1600020110"
                                         "20010db8000000000000000000000001"
                                         "00"
                                         "81",
                                     ""));
  EXPECT_EQ(e.action, Rfc7606Action::afi_safi_disable);
  EXPECT_EQ(e.decode.field, "bgp.update.mp_reach.nlri.prefix_length");
}

TEST(BgpRfc7606, Sec7_11_MpReachTooShortForAfiSafiSessionReset) {
  BgpError e = hard_error(update(kOrigin + kAsPath + "800e020002", ""));
  EXPECT_EQ(e.attribute_type, attr_type::kMpReachNlri);
}

TEST(BgpRfc7606, Sec7_12_MpUnreachPrefixOverrunAfiSafiDisable) {
  BgpError e =
      one_soft_error(update("800f05000201"
                            "3020",
                            ""));
  EXPECT_EQ(e.action, Rfc7606Action::afi_safi_disable);
}

TEST(BgpRfc7606, Sec3c_FlagsConflictTreatAsWithdraw) {
  // ORIGIN marked optional.
  BgpError e = one_soft_error(update("c0010100" + kAsPath + kNextHop));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kAttributeFlagsError);
  EXPECT_EQ(e.decode.field, "bgp.update.attribute.flags");
}

TEST(BgpRfc7606, Sec3c_OnlyOptionalAndTransitiveBitsAreChecked) {
  // Partial bit and the unused low bits set on ORIGIN: not an error.
  auto r = parse_update(update("6f010100" + kAsPath + kNextHop));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->attribute_errors.empty());
}

TEST(BgpRfc7606, Sec3f_MissingWellKnownMandatoryTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + kAsPath));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.subcode, subcode::kMissingWellKnownAttribute);
  EXPECT_EQ(e.data, (Bytes{attr_type::kNextHop}));
}

TEST(BgpRfc7606, Sec3f_MpReachOnlyNeedsNoNextHop) {
  auto r = parse_update(update(kOrigin + kAsPath +
                                   "800e1a00020110"
                                   "20010db8000000000000000000000001"
                                   "00"
                                   "2020010db8",
                               ""));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->attribute_errors.empty());
}

TEST(BgpRfc7606, Sec3f_WithdrawOnlyUpdateNeedsNoAttributes) {
  auto r = parse_update(update("", "", "100a02"));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->attribute_errors.empty());
  EXPECT_EQ(r->update.withdrawn.size(), 1u);
}

TEST(BgpRfc7606, Sec3g_DuplicateAttributeDiscardedKeepsFirst) {
  auto msg = update(kOrigin + "40010101" + kAsPath + kNextHop);
  BgpError e = one_soft_error(msg);
  EXPECT_EQ(e.action, Rfc7606Action::attribute_discard);
  EXPECT_EQ(e.attribute_type, attr_type::kOrigin);
  auto r = parse_update(msg);
  EXPECT_EQ(r->update.get<Origin>(attr_type::kOrigin)->value, OriginValue::igp);
}

TEST(BgpRfc7606, Sec3g_DuplicateMpReachSessionReset) {
  const std::string mp =
      "800e1a00020110"
      "20010db8000000000000000000000001"
      "00"
      "2020010db8";
  BgpError e = hard_error(update(kOrigin + kAsPath + mp + mp, ""));
  EXPECT_EQ(e.subcode, subcode::kMalformedAttributeList);
}

TEST(BgpRfc7606, Sec3g_DuplicateMpUnreachSessionReset) {
  const std::string mp = "800f03000201";
  BgpError e = hard_error(update(mp + mp, ""));
  EXPECT_EQ(e.subcode, subcode::kMalformedAttributeList);
}

TEST(BgpRfc7606, Sec4_AttributeLengthOverrunTreatAsWithdraw) {
  // ORIGIN claims 9 bytes; the NLRI is still found via the total length.
  BgpError e = one_soft_error(update("400109000000"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.decode.field, "bgp.update.attribute.length");
  auto r = parse_update(update("400109000000"));
  EXPECT_EQ(r->update.nlri.size(), 1u);
  EXPECT_EQ(to_hex(r->update.attribute_tail), "400109000000");
}

TEST(BgpRfc7606, Sec4_FewerThanThreeBytesLeftTreatAsWithdraw) {
  BgpError e = one_soft_error(update(kOrigin + kAsPath + kNextHop + "4001"));
  EXPECT_EQ(e.action, Rfc7606Action::treat_as_withdraw);
  EXPECT_EQ(e.decode.field, "bgp.update.attribute");
}

TEST(BgpRfc7606, Sec5_3_NlriPrefixTooLongSessionReset) {
  BgpError e = hard_error(update(kOrigin + kAsPath + kNextHop, "210a010101"));
  EXPECT_EQ(e.subcode, subcode::kInvalidNetworkField);
  EXPECT_EQ(e.decode.field, "bgp.update.nlri.prefix_length");
}

TEST(BgpRfc7606, Sec5_3_NlriPrefixOverrunSessionReset) {
  BgpError e = hard_error(update(kOrigin + kAsPath + kNextHop, "180a01"));
  EXPECT_EQ(e.decode.field, "bgp.update.nlri.prefix");
}

TEST(BgpRfc7606, Sec5_3_WithdrawnPrefixTooLongSessionReset) {
  BgpError e = hard_error(update("", "",
                                 "21"
                                 "0a010101"));
  EXPECT_EQ(e.decode.field, "bgp.update.withdrawn_routes.prefix_length");
}

TEST(BgpRfc4271, Sec6_3_WithdrawnLengthOverrunMalformedAttributeList) {
  Bytes msg = update("", "", "100a02");
  msg[20] = 0x50;  // withdrawn routes length 80
  BgpError e = hard_error(msg);
  EXPECT_EQ(e.subcode, subcode::kMalformedAttributeList);
}

TEST(BgpRfc4271, Sec6_3_UnrecognizedWellKnownSessionReset) {
  BgpError e = hard_error(update(kOrigin + kAsPath + kNextHop + "4063010a"));
  EXPECT_EQ(e.subcode, subcode::kUnrecognizedWellKnownAttribute);
  EXPECT_EQ(to_hex(e.data), "4063010a");
}

TEST(BgpRfc7606, WorstActionIsTheMostSevere) {
  // Bad ATOMIC_AGGREGATE (discard) and bad MED (withdraw).
  auto r = parse_update(
      update(kOrigin + kAsPath + kNextHop + "40060100" + "800403000064"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->attribute_errors.size(), 2u);
  EXPECT_EQ(r->worst, Rfc7606Action::treat_as_withdraw);
}

TEST(BgpAttributeRegistry, EntriesAreConsistent) {
  for (const AttributeSpec& s : attribute_registry()) {
    EXPECT_EQ(find_attribute_spec(s.type), &s);
    EXPECT_FALSE(s.name.empty());
    // Well-known attributes are transitive and not optional (4271 4.3).
    if (s.well_known_mandatory) {
      EXPECT_EQ(s.flags, attr_flag::kTransitive);
    }
  }
  EXPECT_EQ(attribute_name(attr_type::kMpReachNlri), "MP_REACH_NLRI");
  EXPECT_EQ(attribute_name(250), "unknown");
  EXPECT_EQ(format_attribute(make_attribute(attr_type::kCommunities,
                                            Communities{{0xfde90001}})),
            "65001:1");
}

}  // namespace
}  // namespace arfabric::wire::bgp
