#include "cli/decode.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/hex.h"
#include "support/capture.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::cli {
namespace {

// Runs decode, which must exit 0, and parses its JSON lines.
std::vector<nlohmann::json> decode(const DecodeOptions& options,
                                   std::istream& in) {
  std::ostringstream out;
  EXPECT_EQ(run_decode(options, in, out), 0);
  std::vector<nlohmann::json> result;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    result.push_back(nlohmann::json::parse(line));
  }
  return result;
}

std::vector<nlohmann::json> decode_lines(const std::string& text,
                                         const DecodeOptions& options = {}) {
  std::istringstream in(text);
  return decode(options, in);
}

TEST(Decode, BundledExamplesDecodeAndTheMalformedOneReportsItsField) {
  std::ifstream file(std::string(ARFABRIC_SOURCE_DIR) + "/examples/frames.hex");
  ASSERT_TRUE(file);
  std::stringstream text;
  text << file.rdbuf();
  const auto frames = decode_lines(text.str());
  ASSERT_GE(frames.size(), 5u);
  EXPECT_EQ(frames[0].at("protocol"), "lsn");
  EXPECT_EQ(frames[0].at("clear"), nlohmann::json::array({5}));
  EXPECT_EQ(frames[1].at("msg_type"), "congestion_level_3");
  EXPECT_EQ(frames[2].at("protocol"), "arn");
  EXPECT_EQ(frames[2].at("transport"), "udp");
  EXPECT_TRUE(frames[2].at("udp_checksum_valid").get<bool>());
  EXPECT_EQ(frames[2].at("arn").at("path_id"), 7);
  EXPECT_EQ(frames[3].at("transport"), "ethernet");
  EXPECT_EQ(frames[4].at("ibcs").at(0).at("binding"), "ipv4_udp");
  EXPECT_EQ(frames[4].at("ibcs").at(0).at("metric"), 400000);
  const auto& update = frames[5].at("messages").at(0);
  EXPECT_EQ(update.at("type"), "UPDATE");
  EXPECT_EQ(update.at("nlri"), nlohmann::json::array({"10.1.0.0/24"}));
  const auto& ec = update.at("attributes").at(3).at("value").at(0);
  EXPECT_EQ(ec.at("path_bandwidth").at("gigabytes_per_second"), 50.0);
  EXPECT_EQ(ec.at("path_bandwidth").at("router_id"), "10.0.0.1");
  EXPECT_EQ(frames[6].at("protocol"), "isis");
  EXPECT_TRUE(frames[6].at("isis").at("lsp").at("checksum_valid").get<bool>());
  std::size_t errors = 0;
  for (const auto& f : frames) {
    if (f.contains("error")) {
      ++errors;
      EXPECT_EQ(f.at("error").at("field"), "lsn.bitmap");
      EXPECT_EQ(f.at("error").at("offset"), 18);
    }
  }
  EXPECT_EQ(errors, 1u);
}

TEST(Decode, BadHexAndCommentsAndLineNumbers) {
  const auto frames = decode_lines("# comment\n\n0g\n");
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].at("line"), 3);
  EXPECT_EQ(frames[0].at("error").at("field"), "hex");
}

// Bytes that are not UTF-8 (a pcap fed without -r, a UTF-8 'é' or BOM)
// give an error for their line, and decoding goes on: the error message
// used to echo the byte into JSON, which threw and aborted.
TEST(Decode, BytesThatAreNotUtf8GiveAnErrorAndDecodingGoesOn) {
  const auto frames = decode_lines("\xff\xfe\n\xc3\xa9\n00\n");
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].at("error").at("field"), "hex");
  EXPECT_EQ(frames[1].at("error").at("field"), "hex");
  EXPECT_EQ(frames[2].at("line"), 3);
}

TEST(Decode, ConfiguredCodePoints) {
  wire::lsn::LsnFrame f;
  ByteWriter w;
  ASSERT_TRUE(wire::lsn::serialize(f, w, {.opcode = 0x1234, .fcs = true}));
  const std::string hex = to_hex(w.data()) + "\n";
  // With the default opcode the frame is MAC Control of an unknown kind.
  EXPECT_EQ(decode_lines(hex)[0].at("protocol"), "unknown");
  DecodeOptions options;
  options.lsn.opcode = 0x1234;
  options.fcs = true;
  EXPECT_EQ(decode_lines(hex, options)[0].at("protocol"), "lsn");
  // A corrupted FCS is reported, not ignored.
  Bytes bad = w.data();
  bad.back() ^= 1;
  EXPECT_EQ(
      decode_lines(to_hex(bad) + "\n", options)[0].at("error").at("field"),
      "lsn.fcs");
}

// A CSIG TPID that other frames start with would take them for tags: an
// IPv4 frame lost its packet, an 802.1Q tag showed twice. Refused.
TEST(Decode, ACsigTpidOtherFramesUseIsRefused) {
  DecodeOptions options;
  EXPECT_EQ(csig_tpid_problem(options), std::nullopt);
  for (const std::uint16_t tpid : {0x0800, 0x86dd, 0x0806, 0x8100, 0x88a8,
                                   0x9100, 0x8808, 0x88b5, 0x05dc, 0x0000}) {
    options.ibcs.csig_ethertype = tpid;
    EXPECT_TRUE(csig_tpid_problem(options)) << tpid;
  }
  options.ibcs.csig_ethertype = 0x0800;
  EXPECT_EQ(*csig_tpid_problem(options),
            "--csig-ethertype 0x0800 is IPv4's EtherType: the CSIG tag needs "
            "a TPID no other frame starts with");
  std::istringstream in("00\n");
  std::ostringstream out;
  EXPECT_EQ(run_decode(options, in, out), 1);
  EXPECT_EQ(out.str(), "");
  options.ibcs.csig_ethertype = 0x9900;
  EXPECT_EQ(csig_tpid_problem(options), std::nullopt);
  // A moved LSN EtherType is named as the clash it makes.
  options.lsn.ethertype = 0x9900;
  EXPECT_EQ(*csig_tpid_problem(options),
            "--csig-ethertype 0x9900 is LSN's EtherType (--lsn-ethertype): "
            "the CSIG tag needs a TPID no other frame starts with");
}

TEST(Decode, ReadsPcapFilesAndNumbersFrames) {
  wire::lsn::LsnFrame f;
  f.bitmap.fill(true);
  ByteWriter w;
  ASSERT_TRUE(wire::lsn::serialize(f, w));
  const std::string pcap = testing::temp_path("decode.pcap");
  testing::write_pcap(pcap, {w.data(), Bytes{1, 2, 3}});
  DecodeOptions options;
  options.pcap_path = pcap;
  std::istringstream in;
  std::ostringstream out;
  ASSERT_EQ(run_decode(options, in, out), 0);
  std::istringstream lines(out.str());
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(nlohmann::json::parse(first).at("frame"), 1);
  EXPECT_EQ(nlohmann::json::parse(first).at("set_bits"), 256);
  EXPECT_EQ(nlohmann::json::parse(second).at("error").at("field"),
            "eth.destination");

  options.pcap_path = testing::temp_path("missing.pcap");
  EXPECT_EQ(run_decode(options, in, out), 1);
}

}  // namespace
}  // namespace arfabric::cli

namespace arfabric::cli {
namespace {

std::vector<nlohmann::json> decode_pcap(const std::string& path,
                                        DecodeOptions options = {}) {
  options.pcap_path = path;
  std::istringstream in;
  return decode(options, in);
}

// examples/frames.hex's ARN over UDP, less its Ethernet header.
Bytes arn_ipv4_packet() {
  return *from_hex(
      "45c0003400000000401165f70a0000010a000002 d0d0d0d000202131 03 00 ff c0 "
      "1a000011 00000000 0a000200 0000 0000 00000007");
}

// A BGP KEEPALIVE from fe80::1 port 179 to fe80::2 over IPv6.
Bytes bgp_keepalive_ipv6_packet() {
  return *from_hex(
      "6c000000 0027 06 01 fe800000000000000000000000000001 "
      "fe800000000000000000000000000002 "
      // TCP: 179 -> 40000, seq, ack, data offset 5, PSH+ACK, window
      "00b3 9c40 00000001 00000001 5018 ffff 0000 0000 "
      "ffffffffffffffffffffffffffffffff 0013 04");
}

// BGP over IPv6 (link-local sessions, RFC 8950 fabrics) is decoded as over
// IPv4; other IPv6 packets are shown with their next header; a broken
// IPv6 header names its field.
TEST(Decode, BgpOverIpv6) {
  const std::string eth = "020000000002 020000000001 86dd ";
  const std::string bgp = to_hex(bgp_keepalive_ipv6_packet());
  std::string udp = bgp;
  udp.replace(udp.find("002706"), 6, "002711");
  // The fourth in VLAN 100, priority 6: the tag is shown.
  const std::string tagged = "020000000002 020000000001 8100 c064 86dd ";
  const auto frames = decode_lines(eth + bgp + "\n" + eth + udp + "\n" + eth +
                                   "6000\n" + tagged + bgp + "\n");
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_FALSE(frames[0].contains("vlan"));
  EXPECT_EQ(frames[3].at("protocol"), "bgp") << frames[3].dump();
  EXPECT_EQ(frames[3].at("vlan"),
            (nlohmann::json{{"id", 100}, {"priority", 6}}));
  EXPECT_EQ(frames[0].at("protocol"), "bgp") << frames[0].dump();
  EXPECT_EQ(frames[0].at("source"), "fe80::1");
  EXPECT_EQ(frames[0].at("destination"), "fe80::2");
  EXPECT_EQ(frames[0].at("source_port"), 179);
  EXPECT_EQ(frames[0].at("messages").at(0).at("type"), "KEEPALIVE");
  EXPECT_EQ(frames[1].at("protocol"), "ipv6") << frames[1].dump();
  EXPECT_EQ(frames[1].at("next_header"), 17);
  EXPECT_EQ(
      frames[2].at("error").at("field").get<std::string>().rfind("ipv6.", 0),
      0u)
      << frames[2].dump();
  EXPECT_EQ(frames[2].at("error").at("offset"), 14);
}

// Raw IP (tcpdump on a tunnel; LINKTYPE_RAW) and Linux cooked captures
// (tcpdump -i any, SLL and SLL2): their IPv4 packets are decoded as in an
// Ethernet frame; what else they carry is shown, not guessed at.
TEST(Decode, RawIpAndLinuxCookedCapturesDecodeTheirIpv4) {
  const Bytes ip = arn_ipv4_packet();
  const std::string raw = testing::temp_path("decode-raw.pcap");
  const Bytes bgp6 = bgp_keepalive_ipv6_packet();
  Bytes version5 = {0x50, 0, 0, 0};
  testing::write_pcap_file(raw, 101, {{ip, 0}, {bgp6, 0}, {version5, 0}});
  auto frames = decode_pcap(raw);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].at("protocol"), "arn") << frames[0].dump();
  EXPECT_EQ(frames[0].at("arn").at("path_id"), 7);
  EXPECT_EQ(frames[1].at("protocol"), "bgp") << frames[1].dump();
  EXPECT_EQ(frames[1].at("source"), "fe80::1");
  // Raw IP is IPv4 or IPv6 and nothing else.
  EXPECT_EQ(frames[2].at("error"),
            (nlohmann::json{{"field", "ip.version"},
                            {"offset", 0},
                            {"reason", "version 5 is neither IPv4 nor IPv6"}}));

  // SLL: packet type 4 (sent by us), ARPHRD_ETHER, a 6-byte address, then
  // the protocol.
  Bytes sll = *from_hex("0004 0001 0006 020000000001 0000 0800");
  sll.insert(sll.end(), ip.begin(), ip.end());
  Bytes sll_lsn = *from_hex("0000 0001 0006 020000000a01 0000 8808 5aa5c000");
  const std::string cooked = testing::temp_path("decode-sll.pcap");
  testing::write_pcap_file(cooked, 113,
                           {{sll, 0}, {sll_lsn, 0}, {Bytes(9), 0}});
  frames = decode_pcap(cooked);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].at("protocol"), "arn") << frames[0].dump();
  EXPECT_EQ(frames[0].at("sll").at("protocol"), 0x0800);
  EXPECT_EQ(frames[0].at("sll").at("packet_type"), 4);
  EXPECT_EQ(frames[1].at("protocol"), "unknown");
  EXPECT_EQ(frames[1].at("sll").at("protocol"), 0x8808);
  EXPECT_EQ(frames[1].at("payload"), "5aa5c000");
  EXPECT_EQ(frames[2].at("error").at("field"), "sll.header");

  // SLL2: the protocol first, then the interface index, ARPHRD, packet
  // type and the address.
  Bytes sll2 = *from_hex("0800 0000 00000002 0001 00 06 0200000000010000");
  sll2.insert(sll2.end(), ip.begin(), ip.end());
  Bytes sll2_v6 = *from_hex("86dd 0000 00000002 0001 04 06 0200000000010000");
  sll2_v6.insert(sll2_v6.end(), bgp6.begin(), bgp6.end());
  const std::string cooked2 = testing::temp_path("decode-sll2.pcap");
  testing::write_pcap_file(cooked2, 276, {{sll2, 0}, {sll2_v6, 0}});
  // A VLAN tag libpcap put back after the header (VLAN 10, priority 3),
  // and one cut short.
  Bytes sll2_vlan = *from_hex(
      "8100 0000 00000002 0001 00 06 0200000000010000"
      "600a 0800");
  sll2_vlan.insert(sll2_vlan.end(), ip.begin(), ip.end());
  const Bytes sll2_cut_vlan =
      *from_hex("8100 0000 00000002 0001 00 06 0200000000010000 600a");
  testing::write_pcap_file(
      cooked2, 276,
      {{sll2, 0}, {sll2_v6, 0}, {sll2_vlan, 0}, {sll2_cut_vlan, 0}});
  frames = decode_pcap(cooked2);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].at("protocol"), "arn") << frames[0].dump();
  EXPECT_EQ(frames[0].at("sll2").at("protocol"), 0x0800);
  EXPECT_FALSE(frames[0].contains("vlan"));
  EXPECT_EQ(frames[1].at("protocol"), "bgp") << frames[1].dump();
  EXPECT_EQ(frames[1].at("sll2").at("packet_type"), 4);
  EXPECT_EQ(frames[2].at("protocol"), "arn") << frames[2].dump();
  EXPECT_EQ(frames[2].at("sll2").at("protocol"), 0x8100);
  EXPECT_EQ(frames[2].at("vlan"),
            (nlohmann::json{{"id", 10}, {"priority", 3}}));
  // At the missing field: the EtherType after the TCI.
  EXPECT_EQ(frames[3].at("error").at("field"), "sll2.vlan.ethertype")
      << frames[3].dump();
  EXPECT_EQ(frames[3].at("error").at("offset"), 22);

  // Any other link type is named.
  const std::string ppp = testing::temp_path("decode-ppp.pcap");
  testing::write_pcap_file(ppp, 9, {{Bytes{0xff, 0x03}, 0}});
  frames = decode_pcap(ppp);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].at("error").at("reason"),
            "link type 9 (PPP) is not read: Ethernet, raw IP and Linux "
            "cooked captures are");
}

// The example LSP of examples/frames.hex from its LLC header on (the
// 802.3 length field says 0x6e bytes).
std::string example_isis_llc() {
  std::ifstream file(std::string(ARFABRIC_SOURCE_DIR) + "/examples/frames.hex");
  for (std::string line; std::getline(file, line);) {
    const std::size_t llc = line.find("fefe03");
    if (llc == 28) return line.substr(llc, 2 * 0x6e);
  }
  ADD_FAILURE() << "no IS-IS frame in examples/frames.hex";
  return {};
}

// Stacked VLAN tags (802.1ad outside 802.1Q, and 0x9100) are stepped over
// to the packet inside and shown; so is a CSIG tag, which IBCS shows. An
// IS-IS PDU is found behind tags, and in a cooked capture by its LLC
// protocol; a tag cut short names itself.
TEST(Decode, StackedTagsCsigTagsAndIsisBehindThem) {
  const std::string macs = "020000000002 020000000001 ";
  const std::string bgp6 = to_hex(bgp_keepalive_ipv6_packet());
  const std::string arn = to_hex(arn_ipv4_packet());
  const std::string isis = example_isis_llc();
  ASSERT_FALSE(isis.empty());
  const auto frames = decode_lines(
      // QinQ: S-tag 200 (priority 5), C-tag 100 (priority 6).
      macs + "88a8 a0c8 8100 c064 86dd " + bgp6 + "\n" +
      // The old QinQ TPID around one 802.1Q tag, then IS-IS.
      macs + "9100 0007 8100 0008 006e " + isis + "\n" +
      // A CSIG tag (the default TPID, 0x88b6) before IPv4 (the ARN packet).
      macs + "8100 0064 88b6 2000 0800 " + arn + "\n" +
      // An 802.1ad tag cut inside the C-tag behind it.
      macs + "88a8 a0c8 8100 c0\n");
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].at("protocol"), "bgp") << frames[0].dump();
  EXPECT_EQ(frames[0].at("vlan"),
            (nlohmann::json{{"id", 200}, {"priority", 5}, {"tpid", 0x88a8}}));
  EXPECT_EQ(frames[0].at("inner_vlans"),
            nlohmann::json::array({{{"id", 100}, {"priority", 6}}}));
  EXPECT_EQ(frames[1].at("protocol"), "isis") << frames[1].dump();
  EXPECT_TRUE(frames[1].at("isis").at("lsp").at("checksum_valid").get<bool>());
  EXPECT_EQ(frames[1].at("vlan"),
            (nlohmann::json{{"id", 7}, {"priority", 0}, {"tpid", 0x9100}}));
  EXPECT_EQ(frames[1].at("inner_vlans").size(), 1u);
  EXPECT_EQ(frames[2].at("protocol"), "arn") << frames[2].dump();
  EXPECT_EQ(frames[2].at("vlan"),
            (nlohmann::json{{"id", 100}, {"priority", 0}}));
  EXPECT_FALSE(frames[2].contains("inner_vlans"));  // CSIG is no VLAN
  EXPECT_EQ(frames[2].at("ibcs").at(0).at("binding"), "csig_l2");
  EXPECT_EQ(frames[3].at("error").at("field"), "eth.vlan.tci")
      << frames[3].dump();
  EXPECT_EQ(frames[3].at("error").at("offset"), 18);

  // The IBCS signal is found behind QinQ tags as decode finds the packet:
  // the UDP shim of examples/frames.hex's fifth frame.
  const auto shim =
      decode_lines(macs +
                   "88a8 0064 8100 0007 0800 "
                   "4500002e00000000401163b20a0001050a000209 9c40c193001ae3f5 "
                   "1000061a80000000 68656c6c6f2069626373\n");
  ASSERT_EQ(shim.size(), 1u);
  EXPECT_EQ(shim[0].at("ibcs").at(0).at("binding"), "ipv4_udp")
      << shim[0].dump();
  EXPECT_EQ(shim[0].at("vlan").at("tpid"), 0x88a8);

  // IS-IS in a cooked capture (tcpdump -i any): SLL protocol 4, 802.2
  // LLC; raw IPv6 (DLT 229).
  Bytes sll_isis = *from_hex("0000 0001 0006 020000000001 0000 0004" + isis);
  const std::string cooked = testing::temp_path("decode-sll-isis.pcap");
  testing::write_pcap_file(cooked, 113, {{sll_isis, 0}});
  auto captured = decode_pcap(cooked);
  ASSERT_EQ(captured.size(), 1u);
  EXPECT_EQ(captured[0].at("protocol"), "isis") << captured[0].dump();
  EXPECT_EQ(captured[0].at("sll").at("protocol"), 4);
  const std::string raw6 = testing::temp_path("decode-raw6.pcap");
  testing::write_pcap_file(raw6, 229, {{bgp_keepalive_ipv6_packet(), 0}});
  captured = decode_pcap(raw6);
  ASSERT_EQ(captured.size(), 1u);
  EXPECT_EQ(captured[0].at("protocol"), "bgp") << captured[0].dump();
}

// A frame the capture's snaplen cut short says so, next to the error its
// missing end causes.
TEST(Decode, AFrameCutByTheSnaplenSaysSo) {
  Bytes frame = *from_hex("020000000002 020000000001 0800");
  const Bytes ip = arn_ipv4_packet();
  frame.insert(frame.end(), ip.begin(), ip.end());
  const auto whole = static_cast<std::uint32_t>(frame.size());
  frame.resize(40);
  const std::string path = testing::temp_path("decode-cut.pcap");
  testing::write_pcap_file(path, 1, {{frame, whole}});
  const auto frames = decode_pcap(path);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_TRUE(frames[0].contains("error")) << frames[0].dump();
  EXPECT_EQ(frames[0].at("truncated").at("captured"), 40);
  EXPECT_EQ(frames[0].at("truncated").at("length"), whole);
}

// What a cut frame kept is decoded up to the cut: the IP and TCP headers
// and every whole BGP message; the cut message is an error. Over IPv4 and
// IPv6 (their length fields count the header, and do not).
TEST(Decode, ACutFrameIsDecodedUpToTheCut) {
  const std::string tcp = "00b3 9c40 00000001 00000001 5018 ffff 0000 0000 ";
  const std::string keepalive = "ffffffffffffffffffffffffffffffff 0013 04 ";
  Bytes v4 = *from_hex(
      "020000000002 020000000001 0800 "
      "4500 004e 0000 4000 40 06 0000 0a000001 0a000002 " +
      tcp + keepalive + keepalive);
  Bytes v6 = *from_hex(
      "020000000002 020000000001 86dd "
      "6c000000 003a 06 01 fe800000000000000000000000000001 "
      "fe800000000000000000000000000002 " +
      tcp + keepalive + keepalive);
  const auto v4_whole = static_cast<std::uint32_t>(v4.size());
  const auto v6_whole = static_cast<std::uint32_t>(v6.size());
  v4.resize(v4.size() - 9);  // the second KEEPALIVE keeps 10 bytes
  v6.resize(v6.size() - 9);
  const std::string path = testing::temp_path("decode-cut-bgp.pcap");
  testing::write_pcap_file(path, 1, {{v4, v4_whole}, {v6, v6_whole}});
  const auto frames = decode_pcap(path);
  ASSERT_EQ(frames.size(), 2u);
  for (const nlohmann::json& f : frames) {
    EXPECT_EQ(f.at("protocol"), "bgp") << f.dump();
    ASSERT_EQ(f.at("messages").size(), 2u) << f.dump();
    EXPECT_EQ(f.at("messages").at(0).at("type"), "KEEPALIVE");
    EXPECT_TRUE(f.at("messages").at(1).contains("error")) << f.dump();
    EXPECT_TRUE(f.contains("truncated"));
  }
  EXPECT_EQ(frames[0].at("source"), "10.0.0.1");
  EXPECT_EQ(frames[1].at("source"), "fe80::1");

  // A cut frame has lost its FCS: --fcs drops nothing of it.
  DecodeOptions fcs;
  fcs.fcs = true;
  EXPECT_EQ(decode_pcap(path, fcs), frames);

  // A length the frame on the wire could not have held is no cut: it is
  // the error it is (the IPv4 packet claims 78 bytes of the 74 the
  // 88-byte frame had after its Ethernet header).
  const std::string wrong = testing::temp_path("decode-cut-wrong.pcap");
  testing::write_pcap_file(wrong, 1, {{v4, 88}});
  const auto wrong_frames = decode_pcap(wrong);
  ASSERT_EQ(wrong_frames.size(), 1u);
  EXPECT_EQ(wrong_frames[0].at("error").at("field"), "ipv4.total_length")
      << wrong_frames[0].dump();

  // The same bytes as a hex line (nothing says the capture cut them): the
  // IP length that runs past the frame is an error.
  const auto lines = decode_lines(to_hex(v4) + "\n" + to_hex(v6) + "\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].at("error").at("field"), "ipv4.total_length");
  EXPECT_EQ(lines[1].at("error").at("field"), "ipv6.payload_length");
}

// A comment may follow the hex; a line that is not hex has an error with
// its position in the line, and no frame offset.
TEST(Decode, CommentsAfterHexAndHexErrorsWithoutAnOffset) {
  const auto frames = decode_lines(
      "0180c2000001 020000000a01 8808 5aa5 c000 "
      "fbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff "
      "00000000000000000000  # Spine_A: Leaf_5 is gone\n"
      "00 g0 # not hex\n");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].at("protocol"), "lsn") << frames[0].dump();
  EXPECT_EQ(frames[1].at("error").at("field"), "hex");
  EXPECT_FALSE(frames[1].at("error").contains("offset"));
  EXPECT_EQ(frames[1].at("error").at("reason"),
            "invalid hex character 'g' at position 3");
}

TEST(Decode, IsisErrorsReportFrameOffsets) {
  // The example LSP cut inside its LSP ID: the error offset counts from the
  // start of the Ethernet frame (14-byte 802.3 header + LLC + PDU).
  const std::string lsp =
      "0180c2000015020000000001006efefe03831b010014010000006b0384192168";
  const auto frames = decode_lines(lsp + "\n");
  ASSERT_EQ(frames.size(), 1u);
  ASSERT_TRUE(frames[0].contains("error")) << frames[0].dump();
  EXPECT_GE(frames[0].at("error").at("offset").get<int>(), 14 + 3 + 8);
  EXPECT_LE(frames[0].at("error").at("offset").get<int>(), 32);
}

// OSPFv2 in IPv4 (protocol 89): the golden Link State Update of
// tests/wire/ospf/packet_test.cc in an Ethernet frame, its Router-LSA and
// Summary-LSA decoded; the same with the Router-LSA's link count one too
// many (the error at its offset in the frame: 14 + 20 + 24 + 4 + 20 + 2);
// and as an IP fragment, which stays undecoded.
TEST(Decode, OspfLinkStateUpdates) {
  const std::string head = "01005e000005020000000001080045c0008c0001";
  const std::string ip = "01591652c0000201e0000005";
  const std::string tail =
      "aaaaaaaaaaaaaaaa0000000200010201c0000201c000020180000003345900400100"
      "00";
  const std::string lsas_rest =
      "c00002020a0101000100000a0a010100fffffffe0300000a0a000100ffffff000301"
      "000108000014000202030a070000c000020180000001e683001cffff00000000001e";
  const auto frames = decode_lines(
      head + "0000" + ip + "02040078c000020100000000d9de0000" + tail + "03" +
      lsas_rest + "\n" + head + "0000" + ip +
      "02040078c000020100000000d9dd0000" + tail + "04" + lsas_rest + "\n" +
      head + "2000" + "0159f651c0000201e0000005" +
      "02040078c000020100000000d9de0000" + tail + "03" + lsas_rest + "\n");
  ASSERT_EQ(frames.size(), 3u);
  const nlohmann::json& update = frames[0];
  EXPECT_EQ(update["protocol"], "ospfv2") << update.dump();
  EXPECT_EQ(update["type_name"], "link_state_update");
  EXPECT_EQ(update["router_id"], "192.0.2.1");
  EXPECT_EQ(update["area_id"], "0.0.0.0");
  EXPECT_EQ(update["checksum_valid"], true);
  EXPECT_EQ(update["source"], "192.0.2.1");
  ASSERT_EQ(update["lsas"].size(), 2u);
  const nlohmann::json& router = update["lsas"][0];
  EXPECT_EQ(router["ls_type"], 1);
  EXPECT_EQ(router["border"], true);
  ASSERT_EQ(router["links"].size(), 3u);
  EXPECT_EQ(router["links"][0]["type_name"], "point_to_point");
  EXPECT_EQ(router["links"][0]["link_id"], "192.0.2.2");
  EXPECT_EQ(router["links"][1]["link_data"], "255.255.255.254");
  EXPECT_EQ(router["links"][2]["tos"],
            nlohmann::json::parse(R"([{"tos":8,"metric":20}])"));
  const nlohmann::json& summary = update["lsas"][1];
  EXPECT_EQ(summary["ls_type"], 3);
  EXPECT_EQ(summary["link_state_id"], "10.7.0.0");
  EXPECT_EQ(summary["network_mask"], "255.255.0.0");
  EXPECT_EQ(summary["metric"], 30);

  const nlohmann::json& bad = frames[1];
  EXPECT_EQ(bad["checksum_valid"], true) << bad.dump();
  const nlohmann::json& error = bad["lsas"][0]["body_error"];
  EXPECT_EQ(error["field"], "ospf.router_lsa.link_count") << bad.dump();
  EXPECT_EQ(error["offset"], 14 + 20 + 24 + 4 + 20 + 2);
  EXPECT_EQ(bad["lsas"][1]["metric"], 30);

  EXPECT_EQ(frames[2]["protocol"], "ipv4") << frames[2].dump();
  EXPECT_EQ(frames[2]["ip_protocol"], 89);
}

}  // namespace
}  // namespace arfabric::cli
