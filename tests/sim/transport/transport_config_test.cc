#include "sim/transport/transport_config.h"

#include <gtest/gtest.h>

namespace arfabric::sim::transport {
namespace {

TEST(TransportConfig, DefaultsAreValid) {
  EXPECT_TRUE(validate(TransportConfig{}));
}

TEST(TransportConfig, NamesTheBadField) {
  auto expect_bad = [](const TransportConfig& c, const char* field) {
    auto r = validate(c);
    ASSERT_FALSE(r) << field;
    EXPECT_EQ(r.error().field, field) << r.error().to_string();
  };
  TransportConfig c;
  c.mss_bytes = 0;
  expect_bad(c, "mss_bytes");
  c = {};
  c.max_window_packets = 0;
  expect_bad(c, "max_window_packets");
  c = {};
  c.max_window_packets = (1u << 20) + 1;
  expect_bad(c, "max_window_packets");
  c = {};
  c.initial_window_packets = 0;
  expect_bad(c, "initial_window_packets");
  c = {};
  c.initial_window_packets = c.max_window_packets + 1;
  expect_bad(c, "initial_window_packets");
  c = {};
  c.min_rto = Time();
  expect_bad(c, "min_rto");
  c = {};
  c.initial_rto = c.min_rto - ps(1);
  expect_bad(c, "initial_rto");
  c = {};
  c.max_rto = c.initial_rto - ps(1);
  expect_bad(c, "max_rto");
  c = {};
  c.reorder_window = ps(-1);
  expect_bad(c, "reorder_window");
  c = {};
  c.dupack_threshold = 0;
  expect_bad(c, "dupack_threshold");
  c = {};
  c.dctcp_g = 0;
  expect_bad(c, "dctcp_g");
  c.dctcp_g = 1.5;
  expect_bad(c, "dctcp_g");
  c = {};
  c.dctcp_initial_alpha = -0.1;
  expect_bad(c, "dctcp_initial_alpha");
  TransportConfig ibcs;
  ibcs.cc = CongestionControl::ibcs;
  EXPECT_TRUE(validate(ibcs));
  c = ibcs;
  c.ibcs_beta = 0.0;
  expect_bad(c, "ibcs_beta");
  c.ibcs_beta = 1.01;
  expect_bad(c, "ibcs_beta");
  c.cc = CongestionControl::dctcp;  // ibcs_* mean nothing to DCTCP
  EXPECT_TRUE(validate(c));
  c = ibcs;
  c.ibcs_max_decrease = 0.0;
  expect_bad(c, "ibcs_max_decrease");
  c.ibcs_max_decrease = 1.0;  // a cut to nothing
  expect_bad(c, "ibcs_max_decrease");
  c = ibcs;
  c.ibcs_max_signal = false;  // a MIN signal is never below 0
  c.ibcs_target = 0;
  expect_bad(c, "ibcs_target");
  c.ibcs_max_signal = true;  // a MAX signal above 0 is
  EXPECT_TRUE(validate(c));
  c = {};
  c.cc = static_cast<CongestionControl>(7);
  expect_bad(c, "cc");
}

TEST(TransportConfig, PacketCountAndWireBytes) {
  TransportConfig c;  // MSS 4096, header 64
  EXPECT_EQ(packet_count(c, 0), 0u);
  EXPECT_EQ(packet_count(c, 1), 1u);
  EXPECT_EQ(packet_count(c, 4096), 1u);
  EXPECT_EQ(packet_count(c, 4097), 2u);
  TransportHeader h;
  h.payload_bytes = 4096;
  EXPECT_EQ(wire_bytes(c, h), 4160u);
  h.payload_bytes = 0;
  EXPECT_EQ(wire_bytes(c, h), 64u);
}

}  // namespace
}  // namespace arfabric::sim::transport
