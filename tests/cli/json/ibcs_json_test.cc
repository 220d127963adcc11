#include "cli/json/ibcs_json.h"

#include <gtest/gtest.h>

namespace arfabric::cli {
namespace {

using wire::ibcs::CsigTag;

TEST(IbcsJson, CsigTag) {
  const auto j = to_json(CsigTag{.signal_type = 2,
                                 .reserved = 1,
                                 .signal_value = 17,
                                 .locator_metadata = 5});
  EXPECT_EQ(j["tpid"], 0x88b6);
  EXPECT_EQ(j["signal"], "delay");
  EXPECT_EQ(j["signal_value"], 17);
  EXPECT_EQ(j["locator_metadata"], 5);
  EXPECT_EQ(j["reserved"], 1);
  EXPECT_EQ(to_json(CsigTag{.signal_type = 6})["signal"], "unassigned");
}

TEST(IbcsJson, HpccOptionAndShim) {
  const auto h = to_json(wire::ibcs::HpccOption{.max_utilisation = 0x18000});
  EXPECT_EQ(h["max_utilisation"], 0x18000);
  EXPECT_DOUBLE_EQ(h["max_utilisation_ratio"].get<double>(), 1.5);
  const auto s = to_json(wire::ibcs::UdpShim{
      .signal_type = 1, .metric = 9, .reserved = {0, 1, 2}});
  EXPECT_EQ(s["signal"], "max_utilisation");
  EXPECT_EQ(s["metric"], 9);
  EXPECT_EQ(s["reserved"], "000102");
}

TEST(IbcsJson, DecodeFrameListsEachBindingFound) {
  const Bytes frame = {
      0x02, 0,    0,    0,    0, 0x02, 0x02, 0, 0, 0, 0, 0x01,  // MACs
      0x88, 0xb6, 0x0f, 0x85,  // CSIG: ABW, S=31 (UNINITIALIZED), LM=5
      0x08, 0x00,              // IPv4 follows (truncated: not parsed)
  };
  const auto j = decode_ibcs_frame(frame);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["binding"], "csig_l2");
  EXPECT_EQ(j[0]["operator"], "min");
  EXPECT_EQ(j[0]["metric"], 31);
  EXPECT_EQ(j[0]["is_uninitialized"], true);
  EXPECT_EQ(j[0]["tag"]["locator_metadata"], 5);
  EXPECT_TRUE(decode_ibcs_frame(ByteSpan(frame).first(10)).empty());
}

}  // namespace
}  // namespace arfabric::cli
