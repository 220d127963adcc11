#include "wire/isis/frame.h"

#include <gtest/gtest.h>

#include "common/hex.h"

namespace arfabric::wire::isis {
namespace {

Lsp small_lsp() {
  Lsp lsp;
  lsp.lsp_id.system_id = {0, 0, 0, 0, 0, 7};
  lsp.tlvs = {DynamicHostnameTlv{"s7"}};
  return lsp;
}

Bytes llc_with(const Lsp& lsp) {
  ByteWriter out;
  serialize_llc(out);
  EXPECT_TRUE(serialize(lsp, out));
  return out.take();
}

TEST(IsisFrame, ParsesLlcAndLsp) {
  Bytes b = llc_with(small_lsp());
  b.insert(b.end(), 10, 0);  // Ethernet padding after the PDU
  auto pdu = parse_isis_frame_payload(b);
  ASSERT_TRUE(pdu) << pdu.error().to_string();
  EXPECT_EQ(pdu->header.pdu_type, kPduTypeL2Lsp);
  ASSERT_TRUE(pdu->lsp);
  EXPECT_TRUE(pdu->lsp->checksum_valid);
  EXPECT_EQ(pdu->lsp->lsp.tlvs, small_lsp().tlvs);
  EXPECT_EQ(pdu->pdu.size(), b.size() - 3);
}

TEST(IsisFrame, OtherPduTypesKeepHeaderAndBytes) {
  // A point-to-point hello's common header (type 17) and a few body bytes.
  const Bytes b = *from_hex("fefe03 83 14 01 00 11 01 00 00 02 00000000000a");
  auto pdu = parse_isis_frame_payload(b);
  ASSERT_TRUE(pdu);
  EXPECT_EQ(pdu->header.pdu_type, 17);
  EXPECT_EQ(pdu_type_name(17), "p2p_hello");
  EXPECT_FALSE(pdu->lsp);
  EXPECT_EQ(pdu->pdu.size(), b.size() - 3);
}

TEST(IsisFrame, ErrorsCarryOffsetsFromTheLlcHeader) {
  struct Case {
    const char* hex;
    const char* field;
    std::size_t offset;
  };
  const Case cases[] = {
      {"aafe03", "llc.dsap", 0},
      {"feaa03", "llc.ssap", 1},
      {"fefe13", "llc.control", 2},
      {"fefe", "llc.control", 2},
      {"fefe03 82", "isis.irpd", 3},
      {"fefe03 83 1b 01 00 14 01", "isis.reserved", 9},
      // An L2 LSP whose PDU length (0x40) runs past the buffer.
      {"fefe03 831b01001401000000400000", "isis.lsp.pdu_length", 11},
  };
  for (const Case& c : cases) {
    auto r = parse_isis_frame_payload(*from_hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().field, c.field) << c.hex;
    EXPECT_EQ(r.error().offset, c.offset) << c.hex;
  }
}

TEST(IsisFrame, TruncationAtEveryLength) {
  const Bytes b = llc_with(small_lsp());
  for (std::size_t n = 0; n < b.size(); ++n) {
    auto r = parse_isis_frame_payload(ByteSpan(b).first(n));
    ASSERT_FALSE(r) << n;
    EXPECT_FALSE(r.error().field.empty());
    EXPECT_LE(r.error().offset, n);
  }
}

TEST(IsisFrame, Destinations) {
  EXPECT_TRUE(is_isis_destination(kAllL1Iss));
  EXPECT_TRUE(is_isis_destination(kAllL2Iss));
  EXPECT_TRUE(is_isis_destination(kAllIss));
  EXPECT_FALSE(is_isis_destination({0x01, 0x80, 0xc2, 0, 0, 0x01}));
}

}  // namespace
}  // namespace arfabric::wire::isis
