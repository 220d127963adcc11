#include "wire/ibcs/csig_tag.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire::ibcs {
namespace {

const Bytes kGolden = {
    0x88, 0xb6,  // TPID: default CSIG EtherType (IEEE local experimental 2)
    0x58, 0x85,  // T=2 (delay) | R=1 | S=0x11 | LM=0x05
};

TEST(CsigTag, ATpidOtherFramesStartWithIsAProblem) {
  EXPECT_EQ(csig_tpid_problem(kDefaultCsigEtherType), std::nullopt);
  for (const std::uint16_t low : {0x0000, 0x05dc, 0x05dd, 0x05ff})
    EXPECT_EQ(csig_tpid_problem(low),
              "not an EtherType (802.3 lengths go up to 1500, EtherTypes "
              "start at 0x0600)");
  EXPECT_EQ(csig_tpid_problem(0x0600), std::nullopt);
  for (const std::uint16_t vlan : {0x8100, 0x88a8, 0x9100})
    EXPECT_EQ(csig_tpid_problem(vlan), "a VLAN tag's TPID");
  EXPECT_EQ(csig_tpid_problem(0x0800), "IPv4's EtherType");
  EXPECT_EQ(csig_tpid_problem(0x86dd), "IPv6's EtherType");
  EXPECT_EQ(csig_tpid_problem(0x0806), "ARP's EtherType");
}

TEST(CsigTag, ParsesGoldenBytes) {
  auto tag = parse_csig_tag(kGolden);
  ASSERT_TRUE(tag) << tag.error().to_string();
  EXPECT_EQ(tag->tpid, 0x88b6);
  EXPECT_EQ(tag->signal_type, 2);
  EXPECT_EQ(tag->reserved, 1);
  EXPECT_EQ(tag->signal_value, 0x11);
  EXPECT_EQ(tag->locator_metadata, 0x05);
}

TEST(CsigTag, SerializesGoldenBytes) {
  CsigTag tag{.tpid = 0x88b6,
              .signal_type = 2,
              .reserved = 1,
              .signal_value = 0x11,
              .locator_metadata = 5};
  ByteWriter w;
  ASSERT_TRUE(serialize(tag, w));
  EXPECT_EQ(w.data(), kGolden);
  EXPECT_EQ(encoded_size(tag), w.size());
}

TEST(CsigTag, AllOnesControlWord) {
  const Bytes b = {0x88, 0xb6, 0xff, 0xff};
  auto tag = parse_csig_tag(b);
  ASSERT_TRUE(tag);
  EXPECT_EQ(tag->signal_type, 7);
  EXPECT_EQ(tag->reserved, 1);
  EXPECT_EQ(tag->signal_value, 31);
  EXPECT_EQ(tag->locator_metadata, 127);
}

TEST(CsigTag, TruncationAtEveryFieldIsACleanError) {
  for (std::size_t n = 0; n < kGolden.size(); ++n) {
    auto tag = parse_csig_tag(ByteSpan(kGolden).first(n), 10);
    ASSERT_FALSE(tag) << n;
    EXPECT_EQ(tag.error().field, n < 2 ? "csig.tpid" : "csig.control") << n;
    EXPECT_EQ(tag.error().offset, n < 2 ? 10u : 12u) << n;
  }
}

TEST(CsigTag, WrongTpidIsRejected) {
  const Bytes b = {0x81, 0x00, 0x00, 0x01};
  auto tag = parse_csig_tag(b);
  ASSERT_FALSE(tag);
  EXPECT_EQ(tag.error().field, "csig.tpid");
}

TEST(CsigTag, ConfiguredTpid) {
  const Bytes b = {0x99, 0x00, 0x08, 0x80};
  EXPECT_FALSE(parse_csig_tag(b));
  auto tag = parse_csig_tag(b, 0, 0x9900);
  ASSERT_TRUE(tag);
  EXPECT_EQ(tag->signal_value, 0x11);
}

TEST(CsigTag, SerializeRejectsOversizedFields) {
  ByteWriter w;
  EXPECT_EQ(serialize(CsigTag{.signal_type = 8}, w).error().field,
            "csig.signal_type");
  EXPECT_EQ(serialize(CsigTag{.reserved = 2}, w).error().field,
            "csig.reserved");
  EXPECT_EQ(serialize(CsigTag{.signal_value = 32}, w).error().field,
            "csig.signal_value");
  EXPECT_EQ(serialize(CsigTag{.locator_metadata = 128}, w).error().field,
            "csig.locator_metadata");
  EXPECT_EQ(w.size(), 0u);
}

TEST(CsigTag, SignalTypeRegistry) {
  EXPECT_EQ(csig_signal_type(0)->op, ExtremumOp::min);
  EXPECT_EQ(csig_signal_type(0)->uninitialized, 31);
  EXPECT_EQ(csig_signal_type(1)->op, ExtremumOp::min);
  EXPECT_EQ(csig_signal_type(2)->op, ExtremumOp::max);
  EXPECT_EQ(csig_signal_type(3)->uninitialized, 0);
  EXPECT_FALSE(csig_signal_type(4));
  EXPECT_FALSE(csig_signal_type(7));
}

TEST(CsigTag, QuantizeLinear) {
  // 25 Gb/s buckets from 0: 400G saturates at 16, 10G is bucket 0.
  EXPECT_EQ(quantize_linear(400'000'000'000, 0, 25'000'000'000, 31), 16u);
  EXPECT_EQ(quantize_linear(10'000'000'000, 0, 25'000'000'000, 31), 0u);
  EXPECT_EQ(quantize_linear(10'000, 0, 1, 31), 31u);
  EXPECT_EQ(quantize_linear(5, 10, 1, 31), 0u);
  EXPECT_EQ(quantize_linear(5, 0, 0, 31), 0u);
}

RC_GTEST_PROP(CsigTag, RoundTrip, (std::uint16_t tpid, std::uint16_t control)) {
  CsigTag tag{.tpid = tpid,
              .signal_type = static_cast<std::uint8_t>(control >> 13),
              .reserved = static_cast<std::uint8_t>(control >> 12 & 1),
              .signal_value = static_cast<std::uint8_t>(control >> 7 & 31),
              .locator_metadata = static_cast<std::uint8_t>(control & 127)};
  ByteWriter w;
  RC_ASSERT(serialize(tag, w).has_value());
  auto back = parse_csig_tag(w.data(), 0, tpid);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == tag);
}

}  // namespace
}  // namespace arfabric::wire::ibcs
