// Cross-check: LSN frames we encode, decoded by tshark with
// tools/wireshark/arfabric.lua, show the same fields as our parser; other
// MAC Control opcodes still reach tshark's built-in dissector.
#include <gtest/gtest.h>

#include "support/capture.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::wire::lsn {
namespace {

const std::string kLua = std::string("-X lua_script:") + ARFABRIC_SOURCE_DIR +
                         "/tools/wireshark/arfabric.lua";

TEST(LsnTshark, DissectorAgreesWithParser) {
  std::vector<LsnFrame> frames;
  LsnFrame a;  // Figure 3: Spine_A without Leaf_5
  a.source = {0x02, 0, 0, 0, 0x0a, 0x01};
  a.bitmap.fill(true);
  a.bitmap.set(5, false);
  frames.push_back(a);
  LsnFrame b;  // congestion level 2 for devices 768..1023, two not congested
  b.source = {0x02, 0, 0, 0, 0x0a, 0x02};
  b.msg_type = MsgType::congestion_level_2;
  b.dev_range = 3;
  b.bitmap.set(0, true);
  b.bitmap.set(255, true);
  frames.push_back(b);

  std::vector<Bytes> encoded;
  for (const LsnFrame& f : frames) {
    ByteWriter w;
    ASSERT_TRUE(serialize(f, w));
    encoded.push_back(w.take());
  }
  // An 802.3x PAUSE frame (opcode 0x0001) must stay MAC Control.
  Bytes pause = {0x01, 0x80, 0xc2, 0,    0,    0x01, 0x02, 0,    0,
                 0,    0,    0x09, 0x88, 0x08, 0x00, 0x01, 0xff, 0xff};
  pause.resize(60);
  encoded.push_back(pause);

  const std::string pcap = testing::temp_path("lsn.pcap");
  testing::write_pcap(pcap, encoded);
  const auto json = testing::run_tshark(pcap, kLua);
  ASSERT_EQ(json.size(), 3u);

  for (std::size_t i = 0; i < frames.size(); ++i) {
    auto ours = parse(encoded[i]);
    ASSERT_TRUE(ours);
    const auto& layer = testing::tshark_layers(json, i).at("arfabric_lsn");
    EXPECT_EQ(layer.at("arfabric_lsn.opcode").get<std::string>(), "0x5aa5");
    EXPECT_EQ(std::stoi(layer.at("arfabric_lsn.type").get<std::string>()),
              ours->type);
    EXPECT_EQ(std::stoi(layer.at("arfabric_lsn.msg_type").get<std::string>()),
              static_cast<int>(ours->msg_type));
    EXPECT_EQ(std::stoi(layer.at("arfabric_lsn.dev_range").get<std::string>()),
              ours->dev_range);
    EXPECT_EQ(std::stoi(layer.at("arfabric_lsn.set_bits").get<std::string>()),
              static_cast<int>(ours->bitmap.count()));
  }
  // Figure 3: the only device with a clear bit is Leaf_5.
  EXPECT_EQ(testing::tshark_layers(json, 0)
                .at("arfabric_lsn")
                .at("arfabric_lsn.clear")
                .get<std::string>(),
            "5");
  const auto& pause_layers = testing::tshark_layers(json, 2);
  EXPECT_FALSE(pause_layers.contains("arfabric_lsn"));
  ASSERT_TRUE(pause_layers.contains("macc")) << pause_layers.dump();
  EXPECT_EQ(pause_layers.at("macc").at("macc.opcode").get<std::string>(),
            "0x0001");
}

}  // namespace
}  // namespace arfabric::wire::lsn
