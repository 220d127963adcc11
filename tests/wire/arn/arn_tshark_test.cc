// Cross-check: ARN messages we encode over UDP and raw Ethernet, decoded by
// tshark with tools/wireshark/arfabric.lua, show the fields our parser sees.
#include <gtest/gtest.h>

#include "support/capture.h"
#include "wire/arn/arn_transport.h"

namespace arfabric::wire::arn {
namespace {

const std::string kLua = std::string("-X lua_script:") + ARFABRIC_SOURCE_DIR +
                         "/tools/wireshark/arfabric.lua";

ArnMessage example() {
  ArnMessage m;
  m.type = ArnType::failure_detected;
  m.metric = 200;
  FiveTuple t;
  t.mask = kMaskAll;
  t.protocol = 17;
  t.source = {10, 1, 0, 5};
  t.destination = {10, 2, 0, 9};
  t.source_port = 49152;
  t.destination_port = 4791;
  m.flow = t;
  m.path_id = 0xabcdef01;
  return m;
}

int field(const nlohmann::json& layer, const std::string& name) {
  return static_cast<int>(
      std::stoul(layer.at(name).get<std::string>(), nullptr, 0));
}

TEST(ArnTshark, DissectorAgreesWithParser) {
  ByteWriter udp;
  serialize(testing::test_ethernet(kEtherTypeIpv4), udp);
  ASSERT_TRUE(
      serialize_ipv4_udp(example(), {10, 0, 0, 1}, {10, 0, 0, 2}, {}, udp));
  ByteWriter l2;
  ArnL2Frame f;
  f.source = {0x02, 0, 0, 0, 0, 0x07};
  f.message = example();
  f.message.type = ArnType::congestion_eliminated;
  ASSERT_TRUE(serialize_l2(f, l2));

  const std::string pcap = testing::temp_path("arn.pcap");
  testing::write_pcap(pcap, {udp.data(), l2.data()});
  const auto json = testing::run_tshark(pcap, kLua);
  ASSERT_EQ(json.size(), 2u);

  const std::vector<ArnMessage> ours = {
      parse_ipv4_udp(ByteSpan(udp.data()).subspan(14))->message,
      parse_l2(l2.data())->message};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& layers = testing::tshark_layers(json, i);
    ASSERT_TRUE(layers.contains("arfabric_arn")) << layers.dump();
    const auto& a = layers.at("arfabric_arn");
    const ArnMessage& m = ours[i];
    EXPECT_EQ(field(a, "arfabric_arn.type"), static_cast<int>(m.type));
    EXPECT_EQ(field(a, "arfabric_arn.version"), m.version);
    EXPECT_EQ(field(a, "arfabric_arn.metric"), m.metric);
    EXPECT_EQ(field(a, "arfabric_arn.para_type"), m.para_type());
    EXPECT_EQ(static_cast<std::uint32_t>(
                  std::stoul(a.at("arfabric_arn.path_id").get<std::string>())),
              *m.path_id);
    // The 5-tuple subtree.
    const std::string dump = a.dump();
    EXPECT_NE(dump.find("\"arfabric_arn.flow.src\":\"10.1.0.5\""),
              std::string::npos)
        << dump;
    EXPECT_NE(dump.find("\"arfabric_arn.flow.dst\":\"10.2.0.9\""),
              std::string::npos);
    EXPECT_NE(dump.find("\"arfabric_arn.flow.dst_port\":\"4791\""),
              std::string::npos);
  }
  EXPECT_EQ(field(testing::tshark_layers(json, 1).at("arfabric_arn_l2"),
                  "arfabric_arn.length"),
            static_cast<int>(encoded_size(ours[1])));
}

}  // namespace
}  // namespace arfabric::wire::arn
