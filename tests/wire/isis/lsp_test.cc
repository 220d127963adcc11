#include "wire/isis/lsp.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "common/hex.h"
#include "wire/isis/isis_gen.h"

namespace arfabric::wire::isis {
namespace {

// The L2 LSP a FARE leaf (draft-xu-lsr-fare-04 section 4.1) floods: its
// uplink to spine S1 with the link capacity in sub-TLV 9, and its attached
// prefixes with the Path Bandwidth sub-TLV set to the "maximum bandwidth
// value" (largest finite binary32). Checksum cross-checked by tshark in
// isis_tshark_test.cc.
const Bytes kLeafLsp = {
    // Common header (ISO 10589 section 9.8)
    0x83,  // IRPD
    0x1b,  // length indicator 27
    0x01,  // version/protocol ID extension
    0x00,  // ID length 0 = 6
    0x14,  // PDU type 20 = L2 LSP
    0x01,  // version
    0x00,  // reserved
    0x00,  // maximum area addresses 0 = 3
    // LSP header
    0x00,
    0x87,  // PDU length 135
    0x04,
    0xaf,  // remaining lifetime 1199
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x00,  // LSP ID 0000.0000.0001.00-00
    0x00,
    0x00,
    0x00,
    0x2a,  // sequence number 42
    0xce,
    0x1f,  // checksum
    0x03,  // P=0 ATT=0 OL=0 IS type L1L2
    // TLV 137 dynamic hostname "leaf1"
    0x89,
    0x05,
    'l',
    'e',
    'a',
    'f',
    '1',
    // TLV 129 protocols supported: IPv4 (0xcc), IPv6 (0x8e)
    0x81,
    0x02,
    0xcc,
    0x8e,
    // TLV 132 IP interface address 10.0.0.1
    0x84,
    0x04,
    0x0a,
    0x00,
    0x00,
    0x01,
    // TLV 22 extended IS reachability, 34 bytes
    0x16,
    0x22,
    0x00,
    0x00,
    0x00,
    0x00,
    0x01,
    0x01,
    0x00,  // neighbor 0000.0000.0101.00
    0x00,
    0x00,
    0x0a,  // metric 10
    0x17,  // sub-TLVs length 23
    0x06,
    0x04,
    0x0a,
    0x01,
    0x01,
    0x00,  // 6 IPv4 interface 10.1.1.0
    0x08,
    0x04,
    0x0a,
    0x01,
    0x01,
    0x01,  // 8 IPv4 neighbor 10.1.1.1
    0x09,
    0x04,
    0x51,
    0x3a,
    0x43,
    0xb7,  // 9 max link BW 5e10 B/s (400G)
    0x12,
    0x03,
    0x00,
    0x00,
    0x0a,  // 18 TE default metric (raw)
    // TLV 135 extended IP reachability, 27 bytes
    0x87,
    0x1b,
    0x00,
    0x00,
    0x00,
    0x0a,  // metric 10
    0x58,  // U=0 S=1 prefix length 24
    0x0a,
    0x01,
    0x00,  // 10.1.0.0/24
    0x09,  // sub-TLVs length 9
    0x1f,
    0x04,
    0x7f,
    0x7f,
    0xff,
    0xff,  // 31 path bandwidth FLT_MAX
    0x04,
    0x01,
    0x00,  // 4 prefix attribute flags 0
    0x00,
    0x00,
    0x00,
    0x01,  // metric 1
    0x20,  // U=0 S=0 prefix length 32
    0x0a,
    0xff,
    0x00,
    0x01,  // 10.255.0.1/32
    // TLV 236 IPv6 reachability, 19 bytes
    0xec,
    0x13,
    0x00,
    0x00,
    0x00,
    0x0a,  // metric 10
    0x20,  // U=0 X=0 S=1
    0x30,  // prefix length 48
    0x20,
    0x01,
    0x0d,
    0xb8,
    0x00,
    0x01,  // 2001:db8:1::/48
    0x06,  // sub-TLVs length 6
    0x1f,
    0x04,
    0x7f,
    0x7f,
    0xff,
    0xff,  // 31 path bandwidth FLT_MAX
    // TLV 250 (unknown, kept raw)
    0xfa,
    0x03,
    0x01,
    0x02,
    0x03,
};

Lsp leaf_lsp() {
  Lsp lsp;
  lsp.header.pdu_type = kPduTypeL2Lsp;
  lsp.remaining_lifetime = 1199;
  lsp.lsp_id.system_id = {0, 0, 0, 0, 0, 1};
  lsp.sequence_number = 42;
  lsp.checksum = 0xce1f;
  lsp.flags = 0x03;
  const auto kMax = lsr::Bandwidth32{0x7f7fffff};
  lsp.tlvs = {
      DynamicHostnameTlv{"leaf1"},
      ProtocolsSupportedTlv{{0xcc, 0x8e}},
      IpInterfaceAddressTlv{{{10, 0, 0, 1}}},
      ExtendedIsReachTlv{
          {IsNeighbor{{0, 0, 0, 0, 1, 1},
                      0,
                      10,
                      {Ipv4InterfaceAddressSubTlv{{10, 1, 1, 0}},
                       Ipv4NeighborAddressSubTlv{{10, 1, 1, 1}},
                       MaxLinkBandwidthSubTlv{
                           lsr::Bandwidth32::from_bytes_per_second(5e10f)},
                       RawTlv{18, {0, 0, 10}}}}}},
      ExtendedIpReachTlv{{
          Ipv4Prefix{
              10,
              false,
              24,
              {10, 1, 0, 0},
              std::vector<PrefixSubTlv>{PathBandwidthSubTlv{kMax},
                                        PrefixAttributeFlagsSubTlv{{0x00}}}},
          Ipv4Prefix{1, false, 32, {10, 255, 0, 1}, std::nullopt},
      }},
      Ipv6ReachTlv{
          {Ipv6Prefix{10,
                      false,
                      false,
                      0,
                      48,
                      {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01},
                      std::vector<PrefixSubTlv>{PathBandwidthSubTlv{kMax}}}}},
      RawTlv{250, {1, 2, 3}},
  };
  return lsp;
}

TEST(IsisLsp, ParsesGoldenLeafLsp) {
  auto parsed = parse_lsp(kLeafLsp);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(parsed->pdu_length, 135);
  EXPECT_TRUE(parsed->checksum_valid);
  EXPECT_EQ(parsed->lsp, leaf_lsp());
  // The 400G link: 5e10 is not exact in binary32; the nearest is sent.
  const auto& tlv22 = std::get<ExtendedIsReachTlv>(parsed->lsp.tlvs[3]);
  const auto& bw =
      std::get<MaxLinkBandwidthSubTlv>(tlv22.neighbors[0].sub_tlvs[2]);
  EXPECT_EQ(bw.bandwidth.bits, 0x513a43b7u);
  EXPECT_EQ(bw.bandwidth.bytes_per_second(), 49999998976.0f);
}

TEST(IsisLsp, SerializesGoldenLeafLspWithComputedChecksum) {
  Lsp lsp = leaf_lsp();
  lsp.checksum = 0;  // computed by serialize
  ByteWriter out;
  ASSERT_TRUE(serialize(lsp, out));
  EXPECT_EQ(to_hex(out.data()), to_hex(kLeafLsp));
  EXPECT_EQ(encoded_size(lsp), kLeafLsp.size());
}

TEST(IsisLsp, KeepsChecksumWhenAskedAndReportsItBad) {
  Lsp lsp = leaf_lsp();
  lsp.checksum = 0x1234;
  ByteWriter out;
  ASSERT_TRUE(serialize(lsp, out, {.codec = {}, .compute_checksum = false}));
  auto parsed = parse_lsp(out.data());
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->checksum_valid);
  EXPECT_EQ(parsed->lsp.checksum, 0x1234);
}

TEST(IsisLsp, ChecksumIgnoresRemainingLifetimeButCoversEverythingElse) {
  Bytes b = kLeafLsp;
  b[10] = 0x00;  // remaining lifetime: outside the checksum (ISO 10589 7.3.11)
  b[11] = 0x10;
  EXPECT_TRUE(parse_lsp(b)->checksum_valid);
  for (std::size_t i = kLspChecksumRangeStart; i < b.size(); ++i) {
    Bytes c = kLeafLsp;
    c[i] ^= 0x01;
    auto parsed = parse_lsp(c);
    if (!parsed) continue;  // some flips make the TLVs unparseable
    EXPECT_FALSE(parsed->checksum_valid) << "flipped byte " << i;
  }
}

TEST(IsisLsp, IgnoresTrailingPaddingAfterPduLength) {
  Bytes b = kLeafLsp;
  b.insert(b.end(), 20, 0x00);
  auto parsed = parse_lsp(b);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->checksum_valid);
  EXPECT_EQ(parsed->lsp, leaf_lsp());
}

TEST(IsisLsp, TruncationAtEveryLengthIsACleanError) {
  for (std::size_t n = 0; n < kLeafLsp.size(); ++n) {
    auto parsed = parse_lsp(ByteSpan(kLeafLsp).first(n));
    ASSERT_FALSE(parsed) << "length " << n;
    EXPECT_EQ(parsed.error().field.rfind("isis.", 0), 0u) << n;
    EXPECT_LE(parsed.error().offset, n);
  }
}

// The PDU length shrunk with the buffer: the cut lands inside a TLV unless
// it falls on a TLV boundary.
TEST(IsisLsp, ShortenedPduLengthCutsTlvsCleanly) {
  const std::vector<std::size_t> boundaries = {27, 34, 38, 44, 80, 109, 130};
  for (std::size_t n = kLspHeaderSize; n < kLeafLsp.size(); ++n) {
    Bytes b(kLeafLsp.begin(), kLeafLsp.begin() + n);
    b[8] = 0;
    b[9] = static_cast<std::uint8_t>(n);
    auto parsed = parse_lsp(b);
    const bool boundary =
        std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
    ASSERT_EQ(parsed.has_value(), boundary) << "length " << n;
    if (!parsed) {
      EXPECT_EQ(parsed.error().field.rfind("isis.tlv", 0), 0u)
          << n << " " << parsed.error().to_string();
      EXPECT_LE(parsed.error().offset, n);
    }
  }
}

TEST(IsisLsp, RejectsBadHeaderFields) {
  struct Case {
    std::size_t at;
    std::uint8_t value;
    std::string field;
  };
  const Case cases[] = {
      {0, 0x82, "isis.irpd"},           {1, 26, "isis.length_indicator"},
      {3, 4, "isis.id_length"},         {4, 17, "isis.pdu_type"},
      {8, 0x01, "isis.lsp.pdu_length"},  // 0x0187 = 391 > buffer
      {9, 0x10, "isis.lsp.pdu_length"},  // 0x0010 = 16 < 27
  };
  for (const Case& c : cases) {
    Bytes b = kLeafLsp;
    b[c.at] = c.value;
    if (c.at == 9) b[8] = 0;
    auto parsed = parse_lsp(b);
    ASSERT_FALSE(parsed) << c.field;
    EXPECT_EQ(parsed.error().field, c.field);
    EXPECT_EQ(parsed.error().offset, c.at == 9 ? 8u : c.at);
  }
}

TEST(IsisLsp, SerializeRejectsNonLspPduTypeAndOddIdLength) {
  Lsp lsp = leaf_lsp();
  lsp.header.pdu_type = 17;
  ByteWriter out;
  EXPECT_EQ(serialize(lsp, out).error().field, "isis.pdu_type");
  lsp = leaf_lsp();
  lsp.header.id_length = 8;
  EXPECT_EQ(serialize(lsp, out).error().field, "isis.id_length");
  EXPECT_EQ(out.size(), 0u);
}

TEST(IsisLsp, OverlongTlvIsAnEncodeErrorAndWritesNothing) {
  Lsp lsp = leaf_lsp();
  lsp.tlvs.push_back(DynamicHostnameTlv{std::string(256, 'x')});
  ByteWriter out;
  auto r = serialize(lsp, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "isis.tlv137.value");
  EXPECT_EQ(out.size(), 0u);
}

RC_GTEST_PROP(IsisLsp, ParseSerializeRoundTrip, ()) {
  const Lsp lsp = *testing::gen_lsp();
  ByteWriter out;
  const auto ok = serialize(lsp, out);
  RC_ASSERT(ok.has_value());
  RC_ASSERT(out.size() == encoded_size(lsp));
  auto parsed = parse_lsp(out.data());
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->checksum_valid);
  Lsp expected = lsp;
  expected.checksum = parsed->lsp.checksum;
  RC_ASSERT(parsed->lsp == expected);
  // And byte-exact the other way.
  ByteWriter again;
  RC_ASSERT(
      serialize(parsed->lsp, again, {.codec = {}, .compute_checksum = false})
          .has_value());
  RC_ASSERT(again.data() == out.data());
}

}  // namespace
}  // namespace arfabric::wire::isis
