#include "sim/notification.h"

#include <gtest/gtest.h>

#include <vector>

#include "clos_fixture.h"

namespace arfabric::sim {
namespace {

using testing::Clos;
using testing::Sim;

// Hands every control packet to the plane, as LsnControl does.
struct Forward : ControlHandler {
  NotificationPlane* plane;
  void on_control(NodeIndex node, proto::PortId port, PacketIndex packet,
                  Time now) override {
    plane->on_control(node, port, packet, now);
  }
  void on_control_dropped(const Packet& packet) override {
    plane->on_control_dropped(packet);
  }
};

struct Fixture {
  Clos clos{1, 2, 1, 400'000'000'000, ns(500)};
  Sim sim{clos.spec};
  NotificationPlane plane{*sim.net,
                          sim.events,
                          sim.pool,
                          EventType::lsn,
                          ControlProtocol::lsn,
                          /*overhead=*/24,
                          us(1)};
  Forward forward;
  Fixture() {
    forward.plane = &plane;
    sim.net->set_control_handler(&forward);
    plane.add_switch(clos.spine(0));
    plane.add_switch(clos.leaf(0));
    plane.add_switch(clos.leaf(1));
  }
  // Runs the network until the next plane event, and returns it.
  Event next_plane_event() {
    while (!sim.events.empty()) {
      const Event e = sim.events.pop();
      if (e.type == EventType::lsn) return e;
      sim.net->on_event(e);
    }
    ADD_FAILURE() << "no plane event";
    return {};
  }
};

TEST(NotificationPlane, NumbersSwitchesInTheOrderAdded) {
  Fixture f;
  EXPECT_EQ(f.plane.switch_index(f.clos.spine(0)), 0u);
  EXPECT_EQ(f.plane.switch_index(f.clos.leaf(1)), 2u);
  EXPECT_EQ(f.plane.switch_index(f.clos.host(0, 0)),
            NotificationPlane::kNotSwitch);
}

// Sent, carried, processed `processing` after arrival at the switch it
// reached, with the bytes sent. Its packet is freed on arrival: from then
// on it is delivered and not in flight, so that a run ending before its
// processing still adds up (injected = delivered + dropped + in flight).
TEST(NotificationPlane, ANotificationArrivesAndIsProcessedAfterTheDelay) {
  Fixture f;
  const proto::PortId up =
      *f.sim.net->port_toward(f.clos.leaf(0), f.clos.spine(0));
  const Bytes sent = {1, 2, 3, 4, 5};
  EXPECT_EQ(f.plane.send(f.clos.leaf(0), up, sent, Time{}), 5u + 24u);
  EXPECT_EQ(f.sim.pool.in_use(), 1u);
  const Event e = f.next_plane_event();
  EXPECT_EQ(f.sim.pool.in_use(), 0u);
  EXPECT_EQ(f.sim.net->counters().injected, 1u);
  EXPECT_EQ(f.sim.net->counters().control_delivered, 1u);
  // 29 bytes at 400G (0.58 ns) plus 500 ns on the cable, then 1 us.
  EXPECT_EQ(e.at, ps(580) + ns(500) + us(1));
  EXPECT_NE(e.b, NotificationPlane::kTimer);
  EXPECT_NE(e.b, NotificationPlane::kSample);
  bool handled = false;
  const std::uint32_t index = f.plane.deliver(
      e, [&](std::uint32_t sw, proto::PortId port, ByteSpan bytes) {
        handled = true;
        EXPECT_EQ(sw, 0u);  // the spine
        EXPECT_EQ(port,
                  *f.sim.net->port_toward(f.clos.spine(0), f.clos.leaf(0)));
        EXPECT_EQ(Bytes(bytes.begin(), bytes.end()), sent);
      });
  EXPECT_TRUE(handled);
  EXPECT_EQ(index, 0u);
}

// Nothing is sent out of a port that does not exist or whose cable is
// down (it would only be lost).
TEST(NotificationPlane, SendsNothingWhereItWouldBeLost) {
  Fixture f;
  const Bytes bytes = {1};
  EXPECT_EQ(f.plane.send(f.clos.leaf(0), 0, bytes, Time{}), 0u);
  EXPECT_EQ(f.plane.send(f.clos.leaf(0), 99, bytes, Time{}), 0u);
  f.sim.net->set_cable_up(0, false);  // leaf0-spine0
  const proto::PortId up =
      *f.sim.net->port_toward(f.clos.leaf(0), f.clos.spine(0));
  EXPECT_EQ(f.plane.send(f.clos.leaf(0), up, bytes, Time{}), 0u);
  EXPECT_EQ(f.sim.pool.in_use(), 0u);
  EXPECT_TRUE(f.sim.events.empty());
}

// A timer event only for a deadline earlier than the one pending; a
// sampling event whenever asked.
TEST(NotificationPlane, TimerAndSampleEvents) {
  Fixture f;
  PendingTimer timer;
  f.plane.arm(1, timer, us(5));
  f.plane.arm(1, timer, us(7));  // later: the pending event covers it
  f.plane.arm(1, timer, us(3));
  f.plane.sample_at(2, us(4));
  std::vector<Event> seen;
  while (!f.sim.events.empty()) seen.push_back(f.sim.events.pop());
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].at, us(3));
  EXPECT_EQ(seen[0].a, 1u);
  EXPECT_EQ(seen[0].b, NotificationPlane::kTimer);
  EXPECT_EQ(seen[1].at, us(4));
  EXPECT_EQ(seen[1].a, 2u);
  EXPECT_EQ(seen[1].b, NotificationPlane::kSample);
  EXPECT_EQ(seen[2].at, us(5));
  for (const Event& e : seen) EXPECT_EQ(e.type, EventType::lsn);
  EXPECT_TRUE(timer.fire(us(3)));
  EXPECT_FALSE(timer.fire(us(5)));  // superseded
}

}  // namespace
}  // namespace arfabric::sim
