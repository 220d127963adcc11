#include "sim/link.h"

#include <gtest/gtest.h>

#include <vector>

namespace arfabric::sim {
namespace {

// A 100G link with 1 us of propagation: 1250 B take 100 ns, 125 B 10 ns.
struct LinkRig {
  Link link{Link::Config{0, 1, 1, gbps(100), us(1), 0, 0}};
  std::vector<Packet> packets;
  LinkRig() { packets.reserve(64); }
  // Enqueues a packet; returns its arrival time at the far end.
  Time put(PacketKind kind, std::uint32_t bytes, Time now) {
    packets.push_back(Packet{});
    Packet& p = packets.back();
    p.kind = kind;
    p.wire_bytes = bytes;
    bool first = false;
    Time arrival{};
    EXPECT_EQ(link.enqueue(static_cast<PacketIndex>(packets.size() - 1), p, now,
                           first, arrival),
              EnqueueResult::accepted);
    return arrival;
  }
  // Every packet in arrival order: (index, arrival time).
  std::vector<std::pair<PacketIndex, Time>> drain() {
    std::vector<std::pair<PacketIndex, Time>> out;
    Time next = link.head_arrival();
    while (next != Time::max()) {
      const Time at = next;
      // pop_arrival() checks, in debug builds, that this is its head.
      const PacketIndex head = link.head_packet();
      next = link.pop_arrival(head);
      out.emplace_back(head, at);
    }
    EXPECT_EQ(link.head_packet(), kNoPacket);
    return out;
  }
};

// The FIFO starts in the link's two in-place entries and moves to a heap
// ring when a third packet comes: packets arrive in order and on time
// whether the ring had wrapped around when it grew or not, and a link
// moved (as vectors of links do) keeps its FIFO.
TEST(Link, FifoKeepsOrderWhileGrowingFromItsInlineEntries) {
  LinkRig rig;
  std::vector<std::pair<PacketIndex, Time>> want;
  // Wrap the two inline entries: put two, take one, put one more.
  want.emplace_back(0, rig.put(PacketKind::transport, 1250, Time{}));
  want.emplace_back(1, rig.put(PacketKind::transport, 1250, Time{}));
  EXPECT_EQ(rig.link.head_packet(), 0u);
  EXPECT_EQ(rig.link.pop_arrival(0), want[1].second);
  want.erase(want.begin());
  want.emplace_back(2, rig.put(PacketKind::transport, 1250, ns(50)));
  // Grow while wrapped, then again.
  for (PacketIndex i = 3; i < 12; ++i) {
    want.emplace_back(i, rig.put(PacketKind::transport, 125, ns(60)));
  }
  EXPECT_EQ(rig.link.in_flight(), want.size());
  Link moved = std::move(rig.link);
  rig.link = std::move(moved);
  EXPECT_EQ(rig.drain(), want);
}

// Serialisation is a multiplication for rates that divide 8e12 ps a
// byte's bits and a division otherwise: either way exactly
// transmission_time(), before and after a rate change (lane loss).
TEST(Link, SerialisationTimeIsTransmissionTimeAtEveryRate) {
  const BitsPerSecond rates[] = {
      gbps(400), gbps(300), gbps(100), gbps(25), 3'000'000'007ULL, 1'000, 1, 7};
  const std::uint32_t sizes[] = {1, 64, 1500, 4160, 9000, 0x7fffffff};
  for (BitsPerSecond initial : {gbps(400), BitsPerSecond{3}}) {
    for (BitsPerSecond rate : rates) {
      Link link{Link::Config{0, 1, 1, initial, Time{}, 0, 0}};
      link.set_rate(rate, Time{});
      for (std::uint32_t bytes : sizes) {
        Packet p;
        p.kind = PacketKind::transport;
        p.wire_bytes = bytes;
        bool first = false;
        Time arrival{};
        // Slow rates with jumbo sizes would overflow the picoseconds.
        if (rate < gbps(1) && bytes > 9000) continue;
        const Time before = link.counters().busy;
        ASSERT_EQ(link.enqueue(0, p, Time{}, first, arrival),
                  EnqueueResult::accepted);
        EXPECT_EQ(link.counters().busy - before, transmission_time(bytes, rate))
            << "rate " << rate << " bytes " << bytes;
      }
    }
  }
}

TEST(Link, ControlPacketsOvertakeQueuedDataButNotTheOneOnTheWire) {
  LinkRig r;
  for (int i = 0; i < 10; ++i) r.put(PacketKind::transport, 1250, Time{});
  // At 150 ns data 1 is being sent (100..200 ns); 2..9 wait.
  EXPECT_EQ(r.put(PacketKind::control, 125, ns(150)), ns(210) + us(1));
  EXPECT_EQ(r.put(PacketKind::control, 125, ns(160)), ns(220) + us(1));
  // Bytes not yet sent at 160 ns: the last 40 ns of data 1 (500 B), data
  // 2..9 and both control packets.
  EXPECT_EQ(r.link.queued_bytes(ns(160)), 500u + 8 * 1250 + 2 * 125);
  const auto got = r.drain();
  ASSERT_EQ(got.size(), 12u);
  const std::vector<PacketIndex> order = {0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9};
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, order[i]) << i;
  }
  // The data behind moved by the two control packets' 20 ns.
  EXPECT_EQ(got[4].second, ns(320) + us(1));
  EXPECT_EQ(got[11].second, ns(1020) + us(1));
  for (std::size_t i = 1; i < got.size(); ++i) {
    EXPECT_GE(got[i].second, got[i - 1].second);
  }
  EXPECT_EQ(r.link.counters().packets, 12u);
  EXPECT_EQ(r.link.counters().busy, ns(1020));
  EXPECT_EQ(r.link.counters().bytes, 10u * 1250 + 2 * 125);
  EXPECT_EQ(r.link.counters().control_bytes, 2u * 125);
}

// The queue a switch reads: bytes not yet sent, the packet on the wire
// by its unsent part, rounded up to a byte, at rates whose byte time is
// a whole number of picoseconds and at others.
TEST(Link, QueuedBytesAreTheBytesNotYetSent) {
  LinkRig r;  // 100G: 80 ps a byte
  r.put(PacketKind::transport, 1250, Time{});
  r.put(PacketKind::transport, 1250, Time{});
  EXPECT_EQ(r.link.queued_bytes(Time{}), 2500u);
  EXPECT_EQ(r.link.queued_bytes(ns(40)), 2000u);
  EXPECT_EQ(r.link.queued_bytes(ns(40) + ps(1)), 2000u);  // 1999.99 B
  EXPECT_EQ(r.link.queued_bytes(ns(40) + ps(80)), 1999u);
  EXPECT_EQ(r.link.queued_bytes(ns(200)), 0u);
  EXPECT_EQ(r.link.queued_bytes(us(5)), 0u);  // both have arrived

  // 300G: 26.67 ps a byte, so serialisation divides.
  Link odd{Link::Config{0, 1, 1, gbps(300), us(1), 0, 0}};
  Packet p;
  p.wire_bytes = 3000;
  bool first = false;
  Time arrival{};
  ASSERT_EQ(odd.enqueue(0, p, Time{}, first, arrival), EnqueueResult::accepted);
  EXPECT_EQ(arrival, ns(80) + us(1));
  EXPECT_EQ(odd.queued_bytes(Time{}), 3000u);
  EXPECT_EQ(odd.queued_bytes(ns(40)), 1500u);
  EXPECT_EQ(odd.queued_bytes(ns(40) + ps(1)), 1500u);  // 1499.96 B
  EXPECT_EQ(odd.queued_bytes(ns(80)), 0u);
}

// Drop-tail and ECN marking decide on exactly queued_bytes(): around the
// picosecond where the bytes not yet sent pass the limits, at a rate with
// a whole-picosecond byte time and at one without.
TEST(Link, DropTailAndEcnDecideOnQueuedBytesToTheByte) {
  for (const BitsPerSecond rate : {gbps(100), gbps(300)}) {
    for (std::int64_t offset = -200; offset <= 200; ++offset) {
      // 2,500 B of buffer, marking above 1,000 B.
      Link link{Link::Config{0, 1, 1, rate, us(1), 2500, 1000}};
      Packet first;
      first.wire_bytes = 2000;
      bool head = false;
      Time arrival{};
      ASSERT_EQ(link.enqueue(0, first, Time{}, head, arrival),
                EnqueueResult::accepted);
      // About 1,000 B of the first packet left to send.
      const Time now = transmission_time(1000, rate) + ps(offset);
      const std::uint64_t queued = link.queued_bytes(now);
      Packet p;
      p.wire_bytes = 1500;
      const EnqueueResult r = link.enqueue(1, p, now, head, arrival);
      EXPECT_EQ(r == EnqueueResult::dropped_overflow, queued + 1500 > 2500)
          << rate << " " << offset;
      if (r == EnqueueResult::accepted) {
        EXPECT_EQ(p.transport.ecn_ce, queued > 1000) << rate << " " << offset;
      }
    }
  }
}

// Lane loss: the rate applies at once to what is not yet sent. The packet
// on the wire sends its remainder at the new rate and those behind it
// follow; packets already sent (propagating) keep their arrival.
TEST(Link, ARateChangeRetimesEveryByteNotYetSent) {
  LinkRig r;
  for (int i = 0; i < 3; ++i) r.put(PacketKind::transport, 1250, Time{});
  // At 50 ns, half of packet 0 is sent; the rest takes 100 ns at 50G.
  const std::uint32_t epoch = r.link.epoch();
  EXPECT_TRUE(r.link.set_rate(gbps(50), ns(50)));
  EXPECT_NE(r.link.epoch(), epoch);  // the head's old event is stale
  EXPECT_EQ(r.link.head_arrival(), ns(150) + us(1));
  EXPECT_EQ(r.link.queued_bytes(ns(50)), 625u + 2 * 1250);
  EXPECT_EQ(r.link.counters().busy, ns(550));
  // A packet queued now starts after them, at the new rate.
  EXPECT_EQ(r.put(PacketKind::transport, 1250, ns(60)), ns(750) + us(1));
  // Back to 100G at 450 ns, with packets 0 and 1 propagating and packet 2
  // on the wire (350..550 ns at 50G, so half sent): the head keeps its
  // arrival and its event.
  const std::uint32_t epoch_before = r.link.epoch();
  EXPECT_FALSE(r.link.set_rate(gbps(100), ns(450)));
  EXPECT_EQ(r.link.epoch(), epoch_before);
  EXPECT_EQ(r.link.head_arrival(), ns(150) + us(1));
  const auto got = r.drain();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[1].second, ns(350) + us(1));  // 150 + 200
  EXPECT_EQ(got[2].second, ns(500) + us(1));  // 450 + the last 50 ns
  EXPECT_EQ(got[3].second, ns(600) + us(1));
  EXPECT_EQ(r.link.counters().busy, ns(600));
  // Nothing left to send: nothing moves.
  EXPECT_FALSE(r.link.set_rate(gbps(50), us(2)));
  EXPECT_EQ(r.link.counters().busy, ns(600));
}

// The same rate again changes nothing, even with a packet on the wire.
TEST(Link, TheSameRateAgainLeavesEverythingAsItWas) {
  LinkRig r;
  r.put(PacketKind::transport, 1250, Time{});
  r.put(PacketKind::transport, 1250, Time{});
  const std::uint32_t epoch = r.link.epoch();
  EXPECT_FALSE(r.link.set_rate(gbps(100), ns(50)));
  EXPECT_EQ(r.link.epoch(), epoch);
  EXPECT_EQ(r.link.head_arrival(), ns(100) + us(1));
  EXPECT_EQ(r.link.queued_bytes(ns(50)), 625u + 1250);
}

// A rate whose byte time is not a whole number of picoseconds: the packet
// on the wire's remainder is scaled and rounded up, those behind take
// transmission_time() at the new rate; a control packet queued after the
// change goes right behind the packet being sent, at the new rate.
TEST(Link, ARateChangeToADividingRateAndAControlPacketAfterIt) {
  LinkRig r;  // 100G
  for (int i = 0; i < 3; ++i) r.put(PacketKind::transport, 1250, Time{});
  // At 10 ns, 90 ns of packet 0 are left: 90 * 100/300 = 30 ns at 300G.
  EXPECT_TRUE(r.link.set_rate(gbps(300), ns(10)));
  EXPECT_EQ(r.link.head_arrival(), ns(40) + us(1));
  // 1250 B at 300G: 33.333 ns, rounded up to 33,334 ps.
  ASSERT_EQ(transmission_time(1250, gbps(300)), ps(33'334));
  // At 50 ns packet 1 is on the wire (40..73.334 ns); the control packet
  // (125 B: 3,334 ps) goes right after it, before packet 2.
  EXPECT_EQ(r.put(PacketKind::control, 125, ns(50)),
            ns(40) + ps(33'334) + ps(3'334) + us(1));
  const auto got = r.drain();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[2].first, 3u);  // the control packet
  EXPECT_EQ(got[3].first, 2u);
  EXPECT_EQ(got[3].second,
            ns(40) + ps(33'334) + ps(3'334) + ps(33'334) + us(1));
}

TEST(Link, ControlPacketOnAnIdleOrDrainingLinkGoesLast) {
  LinkRig r;
  EXPECT_EQ(r.put(PacketKind::control, 125, Time{}), ns(10) + us(1));
  // Data 0 is on the wire alone: nothing to overtake.
  r.put(PacketKind::transport, 1250, ns(100));
  EXPECT_EQ(r.put(PacketKind::control, 125, ns(150)), ns(210) + us(1));
  // Finished data (propagating) is never overtaken either.
  EXPECT_EQ(r.put(PacketKind::control, 125, ns(500)), ns(510) + us(1));
  const auto got = r.drain();
  ASSERT_EQ(got.size(), 4u);
  for (PacketIndex i = 0; i < 4; ++i) EXPECT_EQ(got[i].first, i);
  // Control bytes are counted on this path too.
  EXPECT_EQ(r.link.counters().bytes, 1250u + 3 * 125);
  EXPECT_EQ(r.link.counters().control_bytes, 3u * 125);
}

// The link is free for a new packet as soon as its last one finished:
// when that one is still queued, sent or arrived (the FIFO emptied), and
// after the link went down with packets on it and came back up.
TEST(Link, APacketStartsWhenTheLinkIsFreeAfterDrainingOrGoingDown) {
  LinkRig r;
  EXPECT_EQ(r.put(PacketKind::transport, 1250, Time{}), ns(100) + us(1));
  EXPECT_EQ(r.put(PacketKind::transport, 1250, ns(150)), ns(250) + us(1));
  EXPECT_EQ(r.put(PacketKind::transport, 1250, ns(160)), ns(350) + us(1));
  // The third is on the wire, 90 of its 100 ns to go.
  EXPECT_EQ(r.link.queued_bytes(ns(260)), 1125u);
  EXPECT_EQ(r.drain().size(), 3u);
  EXPECT_EQ(r.link.queued_bytes(us(2)), 0u);
  EXPECT_EQ(r.put(PacketKind::transport, 1250, us(2)), us(2) + ns(1100));

  r.put(PacketKind::transport, 1250, us(3));
  r.put(PacketKind::transport, 1250, us(3));
  std::vector<PacketIndex> lost;
  r.link.set_down(lost);
  // The one sent at 2 us is still propagating.
  EXPECT_EQ(lost, (std::vector<PacketIndex>{3, 4, 5}));
  EXPECT_EQ(r.link.in_flight(), 0u);
  EXPECT_EQ(r.link.queued_bytes(us(3)), 0u);
  r.packets.push_back(Packet{});
  r.packets.back().wire_bytes = 1250;
  bool first = false;
  Time arrival{};
  EXPECT_EQ(r.link.enqueue(6, r.packets.back(), us(3), first, arrival),
            EnqueueResult::dropped_down);
  r.link.set_up();
  // Free at once, though the lost packets would have kept it busy to 3.2 us.
  EXPECT_EQ(r.put(PacketKind::transport, 1250, us(3) + ns(50)),
            us(3) + ns(150) + us(1));
  LinkCounters want;
  want.packets = 7;
  want.bytes = 7 * 1250;
  want.busy = ns(700);
  want.dropped_down = 4;  // three lost in flight, one sent onto the dead link
  EXPECT_EQ(r.link.counters(), want);
}

// Up while up (a link_up of a cable that never went down) changes
// nothing: a new epoch would orphan the busy link's pending arrival event.
TEST(Link, UpWhileUpKeepsThePendingArrival) {
  LinkRig r;
  r.put(PacketKind::transport, 1250, Time{});
  const std::uint32_t epoch = r.link.epoch();
  r.link.set_up();
  EXPECT_EQ(r.link.epoch(), epoch);
  EXPECT_EQ(r.link.in_flight(), 1u);
  EXPECT_EQ(r.drain().size(), 1u);
}

}  // namespace
}  // namespace arfabric::sim
