#include "wire/lsn/lsn_frame.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "common/hex.h"

namespace arfabric::wire::lsn {
namespace {

// draft-camarillo-rtgwg-lsn-00 §4.2 Figure 3: Spine_A lost its link to
// Leaf_5; its reachability bitmap for range 0 has every bit set but index 5.
LsnFrame figure3_frame() {
  LsnFrame f;
  f.source = {0x02, 0x00, 0x00, 0x00, 0x0a, 0x01};  // Spine_A
  f.msg_type = MsgType::reachable;
  f.dev_range = 0;
  f.bitmap.fill(true);
  f.bitmap.set(5, false);
  return f;
}

const char* kFigure3Hex =
    "0180c2000001"   // DA: IEEE MAC-specific control protocols
    "02000000 0a01"  // SA: Spine_A
    "8808"           // EtherType TBD1 = MAC Control
    "5aa5"           // OpCode TBD2
    "c0"             // Type=12 (1100) R=0 Msg-type=00 Rsv(high)=0
    "00"             // Rsv(low 2)=00 Dev-Range=000000
    // Bitmap bits 0..7 = 1 1 1 1 1 0 1 1: index 5 (Leaf_5) cleared.
    "fb ffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff"
    "00000000000000000000";  // padding from 50 to 60 bytes

TEST(LsnFrame, SerializesFigure3ByteExact) {
  ByteWriter w;
  ASSERT_TRUE(serialize(figure3_frame(), w));
  EXPECT_EQ(to_hex(w.data()), to_hex(*from_hex(kFigure3Hex)));
  EXPECT_EQ(w.size(), 60u);
  EXPECT_EQ(encoded_size(figure3_frame()), 60u);
}

TEST(LsnFrame, ParsesFigure3) {
  auto f = parse(*from_hex(kFigure3Hex));
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(*f, figure3_frame());
  for (std::size_t i = 0; i < 256; ++i)
    EXPECT_EQ(f->bitmap.test(i), i != 5) << i;
  EXPECT_EQ(f->bitmap.count(), 255u);
}

TEST(LsnFrame, FieldPacking) {
  LsnFrame f;
  f.msg_type = MsgType::congestion_level_3;
  f.dev_range = 63;
  f.r = true;
  f.reserved = 5;  // 101
  f.bitmap.set(0, true);
  f.bitmap.set(255, true);
  ByteWriter w;
  ASSERT_TRUE(serialize(f, w));
  // 1100 1 11 1 | 01 111111
  EXPECT_EQ(w.data()[16], 0xcf);
  EXPECT_EQ(w.data()[17], 0x7f);
  EXPECT_EQ(w.data()[18], 0x80);  // device 0 is the most significant bit
  EXPECT_EQ(w.data()[49], 0x01);  // device 255 is the least significant bit
  auto back = parse(w.data());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, f);
  EXPECT_EQ(back->device_id(255), 63u * 256 + 255);
}

TEST(LsnFrame, FcsIsComputedAndVerified) {
  const CodecOptions with_fcs{.fcs = true};
  ByteWriter w;
  ASSERT_TRUE(serialize(figure3_frame(), w, with_fcs));
  ASSERT_EQ(w.size(), 64u);
  // A frame with a correct FCS has the CRC-32 residue 0x2144df1c over the
  // whole frame including the FCS (IEEE 802.3 clause 3.2.9).
  EXPECT_EQ(ethernet_fcs(w.data()), 0x2144df1cu);
  ASSERT_TRUE(parse(w.data(), with_fcs));
  Bytes bad = w.data();
  bad[20] ^= 0x01;
  auto e = parse(bad, with_fcs);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "lsn.fcs");
  EXPECT_EQ(e.error().offset, 60u);
  EXPECT_FALSE(parse(Bytes{1, 2, 3}, with_fcs));
}

TEST(LsnFrame, KnownFcsValue) {
  // CRC-32 check value of "123456789" (the standard test vector).
  const Bytes check = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(ethernet_fcs(check), 0xcbf43926u);
}

TEST(LsnFrame, TruncationAtEveryFieldNamesTheField) {
  const Bytes full = *from_hex(kFigure3Hex);
  for (std::size_t n = 0; n < 50; ++n) {
    auto e = parse(ByteSpan(full).first(n));
    ASSERT_FALSE(e) << "prefix " << n;
    EXPECT_EQ(e.error().offset, n < 6    ? 0u
                                : n < 12 ? 6u
                                : n < 14 ? 12u
                                : n < 16 ? 14u
                                : n < 17 ? 16u
                                : n < 18 ? 17u
                                         : 18u)
        << "prefix " << n;
    EXPECT_TRUE(e.error().field.starts_with("lsn.")) << e.error().field;
  }
  // Unpadded frames (50 bytes) are accepted: receivers ignore padding.
  EXPECT_TRUE(parse(ByteSpan(full).first(50)));
}

TEST(LsnFrame, RejectsOtherCodePoints) {
  Bytes frame = *from_hex(kFigure3Hex);
  frame[14] = 0x00;
  frame[15] = 0x01;  // MAC Control PAUSE opcode 0x0001
  auto e = parse(frame);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "lsn.opcode");
  EXPECT_EQ(e.error().reason, "expected 0x5aa5, got 0x0001");

  frame = *from_hex(kFigure3Hex);
  frame[16] = 0x30;  // Header Type 3
  e = parse(frame);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "lsn.type");
  EXPECT_EQ(e.error().offset, 16u);

  frame = *from_hex(kFigure3Hex);
  frame[12] = 0x88;
  frame[13] = 0xb5;  // experimental EtherType: accepted only when configured
  EXPECT_FALSE(parse(frame));
  EXPECT_TRUE(parse(frame, CodecOptions{.ethertype = 0x88b5}));
}

TEST(LsnFrame, RejectsUnencodableValues) {
  LsnFrame f;
  f.dev_range = 64;
  ByteWriter w;
  auto e = serialize(f, w);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "lsn.dev_range");
  f.dev_range = 0;
  f.reserved = 8;
  EXPECT_FALSE(serialize(f, w));
  f.reserved = 0;
  f.msg_type = static_cast<MsgType>(4);
  EXPECT_FALSE(serialize(f, w));
}

RC_GTEST_PROP(LsnFrame, ParseInvertsSerialize, ()) {
  LsnFrame f;
  f.source = *rc::gen::container<std::array<std::uint8_t, 6>>(
      rc::gen::arbitrary<std::uint8_t>());
  f.r = *rc::gen::arbitrary<bool>();
  f.msg_type = static_cast<MsgType>(*rc::gen::inRange(0, 4));
  f.reserved = static_cast<std::uint8_t>(*rc::gen::inRange(0, 8));
  f.dev_range = static_cast<std::uint8_t>(*rc::gen::inRange(0, 64));
  f.bitmap.bytes = *rc::gen::container<std::array<std::uint8_t, 32>>(
      rc::gen::arbitrary<std::uint8_t>());
  const bool fcs = *rc::gen::arbitrary<bool>();
  ByteWriter w;
  RC_ASSERT(serialize(f, w, CodecOptions{.fcs = fcs}).has_value());
  RC_ASSERT(w.size() == encoded_size(f, CodecOptions{.fcs = fcs}));
  auto back = parse(w.data(), CodecOptions{.fcs = fcs});
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == f);
}

// view() decides parse()'s success; the detailed walk behind parse()'s
// errors must refuse exactly the frames view() refuses, or parse() reports
// the internal error "lsn.parse". When both accept, they read the same
// fields.
void expect_view_agrees(ByteSpan frame, const CodecOptions& options) {
  const auto v = view(frame, options);
  const auto p = parse(frame, options);
  ASSERT_EQ(v.has_value(), p.has_value());
  if (!p) {
    ASSERT_NE(p.error().field, "lsn.parse") << p.error().to_string();
    return;
  }
  EXPECT_EQ(v->msg_type(), p->msg_type);
  EXPECT_EQ(v->dev_range(), p->dev_range);
  EXPECT_TRUE(
      std::equal(p->bitmap.bytes.begin(), p->bitmap.bytes.end(), v->bitmap()));
}

TEST(LsnFrame, ViewAgreesWithParseOnEveryTruncationAndByte) {
  for (bool fcs : {false, true}) {
    const CodecOptions options{.fcs = fcs};
    ByteWriter w;
    ASSERT_TRUE(serialize(figure3_frame(), w, options));
    const Bytes full = w.take();
    for (std::size_t n = 0; n <= full.size(); ++n)
      expect_view_agrees(ByteSpan(full).first(n), options);
    for (std::size_t at = 0; at < full.size(); ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        Bytes frame = full;
        frame[at] ^= static_cast<std::uint8_t>(1u << bit);
        expect_view_agrees(frame, options);
        // Without the FCS check, damage in the bitmap or padding is
        // accepted; with it, every flipped bit is refused.
        if (fcs) {
          EXPECT_FALSE(view(frame, options)) << at << "/" << bit;
        }
      }
    }
  }
}

RC_GTEST_PROP(LsnFrame, ViewAgreesWithParseOnRandomFrames, ()) {
  const bool fcs = *rc::gen::arbitrary<bool>();
  const CodecOptions options{
      .ethertype = *rc::gen::elementOf(
          std::vector<std::uint16_t>{kDefaultEtherType, 0x88b5}),
      .fcs = fcs};
  LsnFrame f;
  f.msg_type = static_cast<MsgType>(*rc::gen::inRange(0, 4));
  f.dev_range = static_cast<std::uint8_t>(*rc::gen::inRange(0, 64));
  f.bitmap.bytes = *rc::gen::container<std::array<std::uint8_t, 32>>(
      rc::gen::arbitrary<std::uint8_t>());
  ByteWriter w;
  RC_ASSERT(serialize(f, w, options).has_value());
  Bytes bytes = w.take();
  const int damage = *rc::gen::inRange(0, 3);
  for (int i = 0; i < damage; ++i) {
    bytes[*rc::gen::inRange<std::size_t>(0, bytes.size())] =
        *rc::gen::arbitrary<std::uint8_t>();
  }
  bytes.resize(*rc::gen::inRange<std::size_t>(0, bytes.size() + 1));
  const auto v = view(bytes, options);
  const auto p = parse(bytes, options);
  RC_ASSERT(v.has_value() == p.has_value());
  if (!p) {
    RC_ASSERT(p.error().field != "lsn.parse");
    return;
  }
  RC_ASSERT(v->msg_type() == p->msg_type);
  RC_ASSERT(v->dev_range() == p->dev_range);
  RC_ASSERT(
      std::equal(p->bitmap.bytes.begin(), p->bitmap.bytes.end(), v->bitmap()));
}

}  // namespace
}  // namespace arfabric::wire::lsn
