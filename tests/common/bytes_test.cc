#include "common/bytes.h"

#include <gtest/gtest.h>

namespace arfabric {
namespace {

TEST(ByteReader, ReadsBigEndianAndReportsAbsoluteOffsets) {
  const Bytes data = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07};
  ByteReader r(data, 100);
  EXPECT_EQ(*r.u8("a"), 0x01);
  EXPECT_EQ(*r.u16("b"), 0x0203);
  EXPECT_EQ(r.offset(), 103u);
  auto sub = r.sub(2, "c");
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->offset(), 103u);
  EXPECT_EQ(*sub->u16("c.x"), 0x0405);
  auto past = sub->u8("c.y");
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().field, "c.y");
  EXPECT_EQ(past.error().offset, 105u);
  // The sub-reader could not see the parent's remaining bytes.
  EXPECT_EQ(r.remaining(), 2u);
}

TEST(ByteReader, TruncatedReadLeavesPositionUnchanged) {
  const Bytes data = {0xaa, 0xbb, 0xcc};
  ByteReader r(data);
  auto v = r.u32("field");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().offset, 0u);
  EXPECT_EQ(v.error().reason, "truncated: need 4 bytes, have 3");
  EXPECT_EQ(*r.u24("field"), 0xaabbccu);
  EXPECT_TRUE(r.empty());
  EXPECT_FALSE(r.bytes(1, "more"));
}

TEST(ByteReader, U64ErrorDoesNotConsume) {
  const Bytes data = {1, 2, 3, 4, 5, 6};
  ByteReader r(data);
  ASSERT_FALSE(r.u64("x"));
  EXPECT_EQ(r.remaining(), 6u);
}

TEST(ByteWriter, WritesBigEndianAndPatches) {
  ByteWriter w;
  w.u16(0);
  w.u32(0x01020304);
  w.u24(0x050607);
  w.patch_u16(0, static_cast<std::uint16_t>(w.size()));
  EXPECT_EQ(w.data(), (Bytes{0x00, 0x09, 1, 2, 3, 4, 5, 6, 7}));
  w.truncate(2);
  EXPECT_EQ(w.size(), 2u);
}

}  // namespace
}  // namespace arfabric
