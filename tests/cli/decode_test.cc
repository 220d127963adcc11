#include "cli/decode.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/hex.h"
#include "support/capture.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::cli {
namespace {

std::vector<nlohmann::json> decode_lines(const std::string& text,
                                         const DecodeOptions& options = {}) {
  std::istringstream in(text);
  std::ostringstream out;
  EXPECT_EQ(run_decode(options, in, out), 0);
  std::vector<nlohmann::json> result;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    result.push_back(nlohmann::json::parse(line));
  }
  return result;
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

}  // namespace
}  // namespace arfabric::cli
