#include "wire/fare/path_bandwidth.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "common/hex.h"
#include "wire/fare/binary16.h"

namespace arfabric::wire::fare {
namespace {

TEST(PathBandwidth, GoldenTransitive400G) {
  const PathBandwidth pb = make_path_bandwidth(0x0a000001, 50.0);
  EXPECT_EQ(to_hex(encode(pb).bytes),
            "01"        // type: transitive IPv4-Address-Specific
            "aa"        // sub-type (TBD, default 0xAA)
            "0a000001"  // Global Administrator: router ID 10.0.0.1
            "5240");    // Local Administrator: 50 GB/s as binary16
  auto back = decode_path_bandwidth(encode(pb));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, pb);
  EXPECT_EQ(back->gigabytes_per_second(), 50.0);
  EXPECT_TRUE(back->transitive);
}

TEST(PathBandwidth, NonTransitiveAndMaximum) {
  const PathBandwidth pb = max_path_bandwidth(0x01020304, false);
  const auto ec = encode(pb, 0x10);
  EXPECT_EQ(to_hex(ec.bytes), "4110010203047bff");
  EXPECT_FALSE(ec.transitive());
  EXPECT_FALSE(decode_path_bandwidth(ec));  // other sub-type configured
  auto back = decode_path_bandwidth(ec, 0x10);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->gigabytes_per_second(), 65504.0);
}

TEST(PathBandwidth, ValidityOfSpecialValues) {
  PathBandwidth pb;
  pb.bandwidth_bits = 0x7e00;  // NaN
  EXPECT_FALSE(pb.valid());
  pb.bandwidth_bits = 0xc000;  // -2
  EXPECT_FALSE(pb.valid());
  pb.bandwidth_bits = 0x8000;  // -0 is zero
  EXPECT_TRUE(pb.valid());
  pb.bandwidth_bits = kBinary16PositiveInfinity;
  EXPECT_TRUE(pb.valid());
  EXPECT_TRUE(std::isinf(pb.gigabytes_per_second()));
}

TEST(PathBandwidth, OtherCommunitiesAreNotPathBandwidth) {
  bgp::ExtendedCommunity rt;
  rt.bytes = {0x00, 0x02, 0xfd, 0xe8, 0, 0, 0, 1};  // route target 65000:1
  EXPECT_FALSE(decode_path_bandwidth(rt));
  EXPECT_FALSE(decode_link_bandwidth(rt));
}

TEST(LinkBandwidth, GoldenRfc10005) {
  // 10 Gb/s = 1.25e9 bytes/s = 0x4e9502f9 as binary32.
  const LinkBandwidth lb = make_link_bandwidth(65001, 1.25e9f);
  EXPECT_EQ(to_hex(encode(lb).bytes),
            "40"          // non-transitive Two-Octet AS-Specific
            "04"          // sub-type: link bandwidth
            "fde9"        // AS 65001
            "4e9502f9");  // 1.25e9 bytes/s
  auto back = decode_link_bandwidth(encode(lb));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->bytes_per_second(), 1.25e9);
  EXPECT_FALSE(back->transitive);
}

RC_GTEST_PROP(PathBandwidth, DecodeInvertsEncode, ()) {
  PathBandwidth pb;
  pb.transitive = *rc::gen::arbitrary<bool>();
  pb.router_id = *rc::gen::arbitrary<std::uint32_t>();
  pb.bandwidth_bits = *rc::gen::arbitrary<std::uint16_t>();
  const std::uint8_t sub_type = *rc::gen::arbitrary<std::uint8_t>();
  auto back = decode_path_bandwidth(encode(pb, sub_type), sub_type);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == pb);
}

}  // namespace
}  // namespace arfabric::wire::fare
