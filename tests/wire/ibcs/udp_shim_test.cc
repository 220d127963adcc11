#include "wire/ibcs/udp_shim.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire::ibcs {
namespace {

const Bytes kGolden = {
    0x10,                    // version 1 | signal type 0 (min ABW)
    0x00, 0x01, 0x86, 0xa0,  // metric 100000 Mb/s = 100 Gb/s
    0x00, 0x00, 0x07,        // reserved (kept as received)
};

TEST(UdpShim, ParsesGoldenBytes) {
  auto s = parse_udp_shim(kGolden);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->version, 1);
  EXPECT_EQ(s->signal_type, 0);
  EXPECT_EQ(s->metric, 100000u);
  EXPECT_EQ(s->reserved, (std::array<std::uint8_t, 3>{0, 0, 7}));
}

TEST(UdpShim, SerializesGoldenBytes) {
  UdpShim s{.metric = 100000, .reserved = {0, 0, 7}};
  ByteWriter w;
  ASSERT_TRUE(serialize(s, w));
  EXPECT_EQ(w.data(), kGolden);
  EXPECT_EQ(encoded_size(s), w.size());
}

TEST(UdpShim, TruncationAtEveryFieldIsACleanError) {
  for (std::size_t n = 0; n < kGolden.size(); ++n) {
    auto s = parse_udp_shim(ByteSpan(kGolden).first(n), 50);
    ASSERT_FALSE(s) << n;
    const char* want = n == 0  ? "ibcs_udp.version"
                       : n < 5 ? "ibcs_udp.metric"
                               : "ibcs_udp.reserved";
    EXPECT_EQ(s.error().field, want) << n;
    EXPECT_EQ(s.error().offset, n == 0 ? 50u : n < 5 ? 51u : 55u) << n;
  }
}

TEST(UdpShim, BadVersion) {
  Bytes b = kGolden;
  b[0] = 0x20;
  auto s = parse_udp_shim(b);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().field, "ibcs_udp.version");
}

TEST(UdpShim, UnknownSignalTypeIsKept) {
  Bytes b = kGolden;
  b[0] = 0x1f;
  auto s = parse_udp_shim(b);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->signal_type, 15);
  EXPECT_FALSE(udp_signal_type(15));
}

TEST(UdpShim, SignalTypeRegistry) {
  EXPECT_EQ(udp_signal_type(0)->op, ExtremumOp::min);
  EXPECT_EQ(udp_signal_type(0)->uninitialized, 0xffffffffu);
  EXPECT_EQ(udp_signal_type(1)->op, ExtremumOp::max);
  EXPECT_EQ(udp_signal_type(1)->uninitialized, 0u);
}

TEST(UdpShim, SerializeRejectsOversizedFields) {
  ByteWriter w;
  EXPECT_EQ(serialize(UdpShim{.version = 16}, w).error().field,
            "ibcs_udp.version");
  EXPECT_EQ(serialize(UdpShim{.signal_type = 16}, w).error().field,
            "ibcs_udp.signal_type");
  EXPECT_EQ(w.size(), 0u);
}

RC_GTEST_PROP(UdpShim, RoundTrip,
              (std::uint8_t type, std::uint32_t metric, std::uint8_t r0,
               std::uint8_t r2)) {
  UdpShim s{.version = 1,
            .signal_type = static_cast<std::uint8_t>(type & 0x0f),
            .metric = metric,
            .reserved = {r0, 0, r2}};
  ByteWriter w;
  RC_ASSERT(serialize(s, w).has_value());
  auto back = parse_udp_shim(w.data());
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == s);
}

}  // namespace
}  // namespace arfabric::wire::ibcs
