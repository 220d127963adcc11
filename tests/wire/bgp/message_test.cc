// KEEPALIVE, NOTIFICATION, ROUTE-REFRESH and the message dispatcher.
#include "wire/bgp/message.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "wire/bgp/bgp_test_util.h"

namespace arfabric::wire::bgp {
namespace {

using testing::hex;

const Bytes kKeepalive =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "0013"                              // length 19
        "04");                              // type KEEPALIVE

const Bytes kNotification =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "0017"                              // length 23
        "03"                                // type NOTIFICATION
        "06"                                // code 6 Cease
        "02"                                // subcode 2 Administrative Shutdown
        "0162");                            // data: RFC 8203 length 1, "b"

const Bytes kRouteRefresh =
    hex("ffffffffffffffffffffffffffffffff"  // marker
        "0017"                              // length 23
        "05"                                // type ROUTE-REFRESH
        "0002"                              // AFI IPv6
        "01"                                // subtype 1 BoRR (RFC 7313)
        "01");                              // SAFI unicast

TEST(BgpKeepalive, GoldenRoundTrip) {
  auto m = parse_message(kKeepalive);
  ASSERT_TRUE(m);
  EXPECT_TRUE(std::holds_alternative<Keepalive>(m->message));
  EXPECT_EQ(m->length, 19u);
  ByteWriter w;
  ASSERT_TRUE(serialize(m->message, {}, w));
  EXPECT_EQ(w.data(), kKeepalive);
}

TEST(BgpKeepalive, Rfc4271Sec6_1_LengthOtherThan19) {
  Bytes m = kKeepalive;
  m[17] = 20;
  m.push_back(0);
  auto r = parse_message(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kBadMessageLength);
  EXPECT_EQ(r.error().data, (Bytes{0, 20}));
}

TEST(BgpHeader, Rfc4271Sec6_1_MarkerNotAllOnes) {
  Bytes m = kKeepalive;
  m[5] = 0;
  auto r = parse_message(m, {}, 100);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMessageHeader);
  EXPECT_EQ(r.error().subcode, subcode::kConnectionNotSynchronized);
  EXPECT_EQ(r.error().decode.offset, 100u);
}

TEST(BgpHeader, Rfc4271Sec6_1_BadType) {
  Bytes m = kKeepalive;
  m[18] = 9;
  auto r = parse_message(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kBadMessageType);
  EXPECT_EQ(r.error().data, (Bytes{9}));
}

TEST(BgpHeader, Rfc4271Sec6_1_LengthBelowTypeMinimum) {
  Bytes m = kNotification;
  m[17] = 20;  // NOTIFICATION needs 21
  auto r = parse_message(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().subcode, subcode::kBadMessageLength);
}

TEST(BgpNotification, GoldenDecodesAndRoundTrips) {
  auto n = parse_notification(kNotification);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->code, 6);
  EXPECT_EQ(n->subcode, 2);
  EXPECT_EQ(n->data, (Bytes{0x01, 0x62}));
  EXPECT_EQ(notification_code_name(n->code), "Cease");
  EXPECT_EQ(notification_subcode_name(n->code, n->subcode),
            "Administrative Shutdown");
  ByteWriter w;
  ASSERT_TRUE(serialize(*n, w));
  EXPECT_EQ(w.data(), kNotification);
  EXPECT_EQ(encoded_size(*n), kNotification.size());
}

TEST(BgpNotification, NotificationForAnError) {
  Bytes m = kKeepalive;
  m[18] = 9;
  auto r = parse_message(m);
  ASSERT_FALSE(r);
  Notification n = notification_for(r.error());
  EXPECT_EQ(n, (Notification{1, 3, {9}}));
  EXPECT_EQ(notification_subcode_name(3, 11), "Malformed AS_PATH");
  EXPECT_EQ(notification_subcode_name(3, 99), "unknown");
}

TEST(BgpRouteRefresh, GoldenDecodesAndRoundTrips) {
  auto rr = parse_route_refresh(kRouteRefresh);
  ASSERT_TRUE(rr);
  EXPECT_EQ(rr->family, (AfiSafi{kAfiIpv6, kSafiUnicast}));
  EXPECT_EQ(rr->subtype, 1);
  ByteWriter w;
  serialize(*rr, w);
  EXPECT_EQ(w.data(), kRouteRefresh);
}

TEST(BgpRouteRefresh, Rfc7313Sec5_InvalidMessageLength) {
  Bytes m = kRouteRefresh;
  m[17] = 24;
  m.push_back(0);
  auto r = parse_route_refresh(m);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRouteRefresh);
  EXPECT_EQ(r.error().subcode, subcode::kInvalidMessageLength);
  EXPECT_EQ(r.error().data, m);  // the whole message
}

TEST(BgpMessage, TruncationAtEveryLengthFailsCleanly) {
  for (const Bytes* msg : {&kKeepalive, &kNotification, &kRouteRefresh}) {
    for (std::size_t n = 0; n < msg->size(); ++n) {
      auto r = parse_message(ByteSpan(*msg).first(n));
      ASSERT_FALSE(r) << n;
      EXPECT_FALSE(r.error().decode.field.empty());
    }
  }
}

TEST(BgpMessage, ParsesConcatenatedStream) {
  Bytes stream = kKeepalive;
  stream.insert(stream.end(), kNotification.begin(), kNotification.end());
  auto a = parse_message(stream);
  ASSERT_TRUE(a);
  auto b = parse_message(ByteSpan(stream).subspan(a->length), {}, a->length);
  ASSERT_TRUE(b);
  EXPECT_TRUE(std::holds_alternative<Notification>(b->message));
}

RC_GTEST_PROP(BgpMessage, NotificationAndRouteRefreshRoundTrip, ()) {
  Notification n{testing::u8(), testing::u8(), testing::raw_bytes(40)};
  ByteWriter w;
  RC_ASSERT(serialize(Message{n}, {}, w).has_value());
  RouteRefresh rr{{testing::u16(), testing::u8()}, testing::u8()};
  RC_ASSERT(serialize(Message{rr}, {}, w).has_value());
  auto a = parse_message(w.data());
  RC_ASSERT(a.has_value());
  RC_ASSERT(std::get<Notification>(a->message) == n);
  auto b = parse_message(ByteSpan(w.data()).subspan(a->length));
  RC_ASSERT(b.has_value());
  RC_ASSERT(std::get<RouteRefresh>(b->message) == rr);
}

}  // namespace
}  // namespace arfabric::wire::bgp
