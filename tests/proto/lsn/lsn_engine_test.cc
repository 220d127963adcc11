#include "proto/lsn/lsn_engine.h"

#include <gtest/gtest.h>

#include "proto/lsn/lsn_test_support.h"

namespace arfabric::proto::lsn {
namespace {

Engine make(const Config& c) {
  auto e = Engine::create(c);
  EXPECT_TRUE(e) << e.error().to_string();
  return std::move(*e);
}

// Delivers every pending frame of `spine` to `leaf` on `leaf_port` (the
// leaf's port facing that spine) and clears the spine's queue.
std::size_t deliver(Engine& spine, Engine& leaf, PortId leaf_port, Time now) {
  std::size_t records = 0;
  for (const PendingFrame& f : spine.pending_frames())
    records += leaf.on_frame(leaf_port, f.frame, now);
  spine.clear_pending_frames();
  return records;
}

TEST(LsnEngine, InvalidConfigIsRejected) {
  Config c = testing::spine_config(4);
  c.num_devices = 0;
  auto e = Engine::create(c);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().field, "num_devices");
}

// draft-camarillo-rtgwg-lsn-00 §4 at full size, LSN part: 256 spines, 256
// leaves; L_Ingress (ports 1..256 face SA..SIV) hears every spine. Spine_A
// loses Leaf_5: exactly one record, (port 1, Leaf_5) vetoed; after the link
// returns, exactly one record lifting it. (The ECMP group dropping to 255
// members is the FIB's part, tested there and in the integration test.)
TEST(LsnEngine, Section4FullSize) {
  std::vector<Engine> spines;
  spines.reserve(256);
  for (std::uint8_t s = 0; s < 255; ++s)
    spines.push_back(
        make(testing::spine_config(256, {0x02, 0, 0, 0, 0x0a, s})));
  spines.push_back(make(testing::spine_config(256, {0x02, 0, 0, 0, 0x0b, 0})));
  Engine ingress = make(testing::leaf_config(256, 256, 16));

  for (std::size_t s = 0; s < 256; ++s) {
    spines[s].on_timer(Time());
    EXPECT_EQ(deliver(spines[s], ingress, static_cast<PortId>(s + 1), us(1)),
              0u);
  }
  EXPECT_EQ(ingress.receiver().counters().applied, 256u);

  Engine& spine_a = spines[0];
  ASSERT_TRUE(*spine_a.set_port_state(6, false, us(10)));  // port 6: Leaf_5
  // Msg-type 0 and the three "reachable and not congested" frames.
  EXPECT_EQ(spine_a.pending_frames().size(), 4u);
  deliver(spine_a, ingress, 1, us(11));
  ASSERT_EQ(ingress.veto_changes().size(), 1u);
  EXPECT_EQ(ingress.veto_changes()[0],
            (VetoChange{1, 5, VetoSource::lsn, true}));
  // Unreachable is also "not (reachable and not congested)" at every level:
  // the Msg-type 1, 2, 3 frames raise the level step by step.
  ASSERT_EQ(ingress.congestion_changes().size(), 3u);
  for (std::uint8_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ingress.congestion_changes()[i],
              (CongestionChange{1, 5, VetoSource::lsn,
                                static_cast<std::uint8_t>(i + 1)}));
  }
  ingress.clear_changes();

  // A full period of refreshes from all 256 spines changes nothing.
  for (std::size_t s = 0; s < 256; ++s) {
    spines[s].on_timer(us(100));
    deliver(spines[s], ingress, static_cast<PortId>(s + 1), us(101));
  }
  EXPECT_TRUE(ingress.veto_changes().empty());
  EXPECT_TRUE(ingress.congestion_changes().empty());

  ASSERT_TRUE(*spine_a.set_port_state(6, true, us(150)));
  deliver(spine_a, ingress, 1, us(151));
  ASSERT_EQ(ingress.veto_changes().size(), 1u);
  EXPECT_EQ(ingress.veto_changes()[0],
            (VetoChange{1, 5, VetoSource::lsn, false}));
  // Level 3 holds until the Msg-type 3 bit is 1 again, then drops to 0.
  ASSERT_EQ(ingress.congestion_changes().size(), 1u);
  EXPECT_EQ(ingress.congestion_changes()[0].level, 0);
  for (PortId p = 1; p <= 256; ++p)
    for (NodeId d = 0; d < 256; ++d)
      ASSERT_TRUE(ingress.receiver().reachable(p, d));
}

TEST(LsnEngine, ThousandLeavesAcrossFourDevRanges) {
  Engine spine = make(testing::spine_config(1000));
  Engine leaf = make(testing::leaf_config(2, 1000));
  spine.on_timer(Time());
  ASSERT_EQ(spine.pending_frames().size(), 4u);
  EXPECT_EQ(deliver(spine, leaf, 2, Time()), 0u);
  EXPECT_EQ(leaf.receiver().counters().applied, 4u);

  // Leaves 3 (range 0), 300 (range 1), 700 (range 2), 999 (range 3).
  for (PortId port : {4, 301, 701, 1000})
    ASSERT_TRUE(*spine.set_port_state(port, false, us(1)));
  std::vector<SendFrame> sends;
  spine.drain_send_frames(sends);
  // 4 ranges x Msg-types 0..3, each to all 1,000 leaf ports.
  EXPECT_EQ(sends.size(), 16u * 1000u);
  for (const SendFrame& s : sends)
    if (s.port == 1) leaf.on_frame(2, s.frame, us(2));
  std::vector<NodeId> vetoed;
  for (const VetoChange& v : leaf.veto_changes()) {
    EXPECT_EQ(v.port, 2);
    EXPECT_TRUE(v.vetoed);
    vetoed.push_back(v.destination);
  }
  EXPECT_EQ(vetoed, (std::vector<NodeId>{3, 300, 700, 999}));
}

TEST(LsnEngine, CongestionReachesTheReceiver) {
  Engine spine = make(testing::spine_config(16));
  Engine leaf = make(testing::leaf_config(4, 16));
  ASSERT_TRUE(*spine.set_queue_depth(8, 300 * 1024, Time()));  // level 2
  deliver(spine, leaf, 3, Time());
  // Msg-types 1 and 2 clear bit 7; the level rises 0 -> 1 -> 2.
  ASSERT_EQ(leaf.congestion_changes().size(), 2u);
  EXPECT_EQ(leaf.congestion_changes()[1],
            (CongestionChange{3, 7, VetoSource::lsn, 2}));
  EXPECT_TRUE(leaf.veto_changes().empty());
  leaf.clear_changes();
  ASSERT_TRUE(*spine.set_queue_depth(8, 0, us(5)));
  deliver(spine, leaf, 3, us(5));
  ASSERT_FALSE(leaf.congestion_changes().empty());
  EXPECT_EQ(leaf.congestion_changes().back().level, 0);
  EXPECT_EQ(leaf.receiver().congestion_level(3, 7), 0);
}

}  // namespace
}  // namespace arfabric::proto::lsn
