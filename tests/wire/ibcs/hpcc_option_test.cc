#include "wire/ibcs/hpcc_option.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace arfabric::wire::ibcs {
namespace {

const Bytes kGolden = {
    0x9e,                    // type: copied, class 0, number 30 (RFC 4727)
    0x08,                    // length
    0x13,                    // version 1 | flags 0x3
    0x2a,                    // locator 42
    0x00, 0x01, 0x80, 0x00,  // max utilisation 1.5 (Q16.16)
};

TEST(HpccOption, ParsesGoldenBytes) {
  auto o = parse_hpcc_option(kGolden);
  ASSERT_TRUE(o) << o.error().to_string();
  EXPECT_EQ(o->type, 0x9e);
  EXPECT_EQ(o->version, 1);
  EXPECT_EQ(o->flags, 3);
  EXPECT_EQ(o->locator, 42);
  EXPECT_EQ(o->max_utilisation, kHpccUtilisationOne * 3 / 2);
}

TEST(HpccOption, SerializesGoldenBytes) {
  HpccOption o{.flags = 3, .locator = 42, .max_utilisation = 0x18000};
  ByteWriter w;
  ASSERT_TRUE(serialize(o, w));
  EXPECT_EQ(w.data(), kGolden);
  EXPECT_EQ(encoded_size(o), w.size());
}

TEST(HpccOption, TruncationAtEveryFieldIsACleanError) {
  const char* fields[] = {"hpcc.type",
                          "hpcc.length",
                          "hpcc.version",
                          "hpcc.locator",
                          "hpcc.max_utilisation",
                          "hpcc.max_utilisation",
                          "hpcc.max_utilisation",
                          "hpcc.max_utilisation"};
  for (std::size_t n = 0; n < kGolden.size(); ++n) {
    auto o = parse_hpcc_option(ByteSpan(kGolden).first(n), 100);
    ASSERT_FALSE(o) << n;
    EXPECT_EQ(o.error().field, fields[n]) << n;
    EXPECT_EQ(o.error().offset, 100 + std::min<std::size_t>(n, 4)) << n;
  }
}

TEST(HpccOption, MalformedValues) {
  Bytes b = kGolden;
  b[0] = 0x44;  // a timestamp option, not ours
  EXPECT_EQ(parse_hpcc_option(b).error().field, "hpcc.type");
  b = kGolden;
  b[1] = 12;
  EXPECT_EQ(parse_hpcc_option(b).error().field, "hpcc.length");
  b = kGolden;
  b[2] = 0x23;  // version 2
  EXPECT_EQ(parse_hpcc_option(b).error().field, "hpcc.version");
  EXPECT_EQ(parse_hpcc_option(b).error().offset, 2u);
}

TEST(HpccOption, ConfiguredType) {
  Bytes b = kGolden;
  b[0] = 0x5e;
  EXPECT_FALSE(parse_hpcc_option(b));
  EXPECT_TRUE(parse_hpcc_option(b, 0, 0x5e));
}

TEST(HpccOption, SerializeRejectsOversizedFields) {
  ByteWriter w;
  EXPECT_EQ(serialize(HpccOption{.version = 16}, w).error().field,
            "hpcc.version");
  EXPECT_EQ(serialize(HpccOption{.flags = 16}, w).error().field, "hpcc.flags");
  EXPECT_EQ(w.size(), 0u);
}

TEST(HpccOption, UtilisationQ16) {
  EXPECT_EQ(utilisation_q16(1, 2), 0x8000u);
  EXPECT_EQ(utilisation_q16(3, 2), 0x18000u);
  EXPECT_EQ(utilisation_q16(1, 0), UINT32_MAX);
  EXPECT_EQ(utilisation_q16(UINT64_MAX, 1), UINT32_MAX);
}

RC_GTEST_PROP(HpccOption, RoundTrip,
              (std::uint8_t type, std::uint8_t flags, std::uint8_t locator,
               std::uint32_t util)) {
  HpccOption o{.type = type,
               .version = 1,
               .flags = static_cast<std::uint8_t>(flags & 0x0f),
               .locator = locator,
               .max_utilisation = util};
  ByteWriter w;
  RC_ASSERT(serialize(o, w).has_value());
  auto back = parse_hpcc_option(w.data(), 0, type);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == o);
}

}  // namespace
}  // namespace arfabric::wire::ibcs
