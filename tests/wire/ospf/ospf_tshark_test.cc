// Cross-checks the OSPF TE and Extended Prefix codecs against tshark: two
// opaque LSAs serialized by us (wire/ospf/lsa.h + te_link.h +
// extended_prefix.h) in an OSPFv2 Link State Update over IPv4 must decode in
// tshark with the same LSA checksums, TE link fields and maximum bandwidth,
// Extended Prefix fields, and with our padding (tshark finds the sub-TLV
// and TLV after a padded 3-byte value, and the Path Bandwidth value as an
// unknown sub-TLV of type 32768).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/capture.h"
#include "wire/inet/checksum.h"
#include "wire/ospf/extended_prefix.h"
#include "wire/ospf/lsa.h"
#include "wire/ospf/te_link.h"

namespace arfabric::wire::ospf {
namespace {

using nlohmann::json;

// nlohmann::json keeps object keys sorted, so sibling LSAs come back ordered
// by tshark's label text, not by position: compare them as sorted lists.
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

struct Lsa {
  Bytes bytes;
  std::uint16_t checksum;
};

Lsa lsa(std::uint8_t opaque_type, std::uint32_t seq, const Bytes& body) {
  Ospfv2LsaHeader h;
  h.ls_age = 1;
  h.options = 0x42;  // O, E
  h.ls_type = kLsTypeOpaqueArea;
  h.link_state_id = {opaque_type, 0, 0, 3};
  h.advertising_router = {192, 0, 2, 1};
  h.sequence_number = seq;
  ByteWriter out;
  EXPECT_TRUE(serialize_ospfv2_lsa(h, body, out));
  return {out.data(),
          static_cast<std::uint16_t>(out.data()[16] << 8 | out.data()[17])};
}

// OSPFv2 header (RFC 2328 A.3.1) + Link State Update (A.3.5), null auth.
Bytes link_state_update(const std::vector<Lsa>& lsas) {
  ByteWriter p;
  p.u8(2);                             // version
  p.u8(4);                             // type: LS Update
  p.u16(0);                            // packet length, patched below
  p.bytes(Ipv4Address{192, 0, 2, 1});  // router ID
  p.bytes(Ipv4Address{0, 0, 0, 0});    // area 0
  p.u16(0);                            // checksum, patched below
  p.u16(0);                            // AuType 0
  p.zeros(8);                          // authentication
  p.u32(static_cast<std::uint32_t>(lsas.size()));
  for (const Lsa& l : lsas) p.bytes(l.bytes);
  p.patch_u16(2, static_cast<std::uint16_t>(p.size()));
  // The checksum excludes the 64-bit authentication field, which is zero
  // here and so adds nothing to the one's complement sum.
  p.patch_u16(12, internet_checksum(p.data()));
  Ipv4Header ip = arfabric::testing::test_ipv4(89);
  ByteWriter out;
  serialize(arfabric::testing::test_ethernet(kEtherTypeIpv4), out);
  EXPECT_TRUE(serialize(ip, p.size(), out));
  out.bytes(p.data());
  return out.take();
}

TEST(OspfTshark, TsharkDecodesOurOpaqueLsasLikeWeDo) {
  const std::vector<TeTlv> te = {
      TeRouterAddressTlv{{192, 0, 2, 1}},
      TeLinkTlv{
          {LinkTypeSubTlv{1}, LinkIdSubTlv{{192, 0, 2, 2}},
           LocalAddressSubTlv{{{10, 1, 1, 0}}},
           RemoteAddressSubTlv{{{10, 1, 1, 1}}},
           MaxBandwidthSubTlv{lsr::Bandwidth32::from_bytes_per_second(5e10f)},
           RawTlv{5, {0, 0, 0, 10}}}}};
  const std::vector<ExtendedPrefixLsaTlv> ep = {
      ExtendedPrefixTlv{1,
                        24,
                        0,
                        0,
                        {10, 1, 0, 0},
                        {PathBandwidthSubTlv{{0x7f7fffff}},
                         RawTlv{2, {0, 0, 0, 0, 0, 0, 100}}}},
      RawTlv{5, {0xab, 0xcd, 0xef}}};
  ByteWriter te_body, ep_body;
  ASSERT_TRUE(serialize_te_lsa_body(te, te_body));
  ASSERT_TRUE(serialize_extended_prefix_lsa_body(ep, ep_body));
  const std::vector<Lsa> lsas = {
      lsa(kOpaqueTypeTe, 0x80000010, te_body.data()),
      lsa(kOpaqueTypeExtendedPrefix, 0x80000011, ep_body.data())};

  const std::string pcap = arfabric::testing::temp_path("ospf_lsu.pcap");
  arfabric::testing::write_pcap(pcap, {link_state_update(lsas)});
  const json ts = arfabric::testing::run_tshark(pcap, "--no-duplicate-keys");
  ASSERT_EQ(ts.size(), 1u);
  const json t = arfabric::testing::tshark_layers(ts, 0);

  // LSA headers: tshark reads the checksums and lengths we computed.
  char c0[8], c1[8];
  std::snprintf(c0, sizeof c0, "0x%04x", lsas[0].checksum);
  std::snprintf(c1, sizeof c1, "0x%04x", lsas[1].checksum);
  EXPECT_EQ(sorted(testing::tshark_values(t, "ospf.lsa.chksum")),
            sorted({c0, c1}));
  EXPECT_EQ(sorted(testing::tshark_values(t, "ospf.lsa.length")),
            sorted({std::to_string(lsas[0].bytes.size()),
                    std::to_string(lsas[1].bytes.size())}));
  EXPECT_EQ(sorted(testing::tshark_values(t, "ospf.lsa.seqnum")),
            sorted({"0x80000010", "0x80000011"}));
  // And our parser agrees the checksums are valid.
  for (const Lsa& l : lsas)
    EXPECT_TRUE(parse_ospfv2_lsa(l.bytes)->checksum_valid);

  // TE link.
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.routerid"),
            std::vector<std::string>{"192.0.2.1"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.linktype"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.linkid"),
            std::vector<std::string>{"192.0.2.2"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.local_addr"),
            std::vector<std::string>{"10.1.1.0"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.remote_addr"),
            std::vector<std::string>{"10.1.1.1"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.mpls.te_metric"),
            std::vector<std::string>{"10"});
  const auto bw = testing::tshark_values(t, "ospf.mpls.link_max_bw");
  ASSERT_EQ(bw.size(), 1u);
  const double ours =
      static_cast<double>(find_max_bandwidth(std::get<TeLinkTlv>(te[1]))
                              ->bandwidth.bytes_per_second());
  EXPECT_NEAR(std::stod(bw[0]), ours, ours * 1e-6);  // both bytes/s

  // Extended Prefix: fixed fields, then our Path Bandwidth as an unknown
  // sub-TLV 32768 with our bits, then the padded Prefix SID and TLV 5.
  EXPECT_EQ(testing::tshark_values(t, "ospf.tlv.extpfx.rotuetype"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.prefix_length"),
            std::vector<std::string>{"24"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.v3.address_prefix.ipv4"),
            std::vector<std::string>{"10.1.0.0"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.tlv_value"),
            std::vector<std::string>{"7f:7f:ff:ff"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.tlv.sid_label"),
            std::vector<std::string>{"100"});
  EXPECT_EQ(testing::tshark_values(t, "ospf.tlv.unknown"),
            std::vector<std::string>{"ab:cd:ef"});
}

}  // namespace
}  // namespace arfabric::wire::ospf
