#include "sim/packet_pool.h"

#include <gtest/gtest.h>

namespace arfabric::sim {
namespace {

// Every field of the first line, as a default Packet has it.
void expect_default_first_line(const Packet& p) {
  const Packet d;
  EXPECT_EQ(p.kind, d.kind);
  EXPECT_EQ(p.protocol, d.protocol);
  EXPECT_EQ(p.ttl, d.ttl);
  EXPECT_EQ(p.source, d.source);
  EXPECT_EQ(p.destination, d.destination);
  EXPECT_EQ(p.wire_bytes, d.wire_bytes);
  EXPECT_EQ(p.flow_hash, d.flow_hash);
  const TransportHeader& h = p.transport;
  const TransportHeader& dh = d.transport;
  EXPECT_EQ(h.flow, dh.flow);
  EXPECT_EQ(h.seq, dh.seq);
  EXPECT_EQ(h.payload_bytes, dh.payload_bytes);
  EXPECT_EQ(h.cumulative_ack, dh.cumulative_ack);
  EXPECT_EQ(h.acked_seq, dh.acked_seq);
  EXPECT_EQ(h.signal, dh.signal);
  EXPECT_EQ(h.signal_echo, dh.signal_echo);
  EXPECT_EQ(h.is_ack, dh.is_ack);
  EXPECT_EQ(h.retransmission, dh.retransmission);
  EXPECT_EQ(h.ecn_capable, dh.ecn_capable);
  EXPECT_EQ(h.ecn_ce, dh.ecn_ce);
  EXPECT_EQ(h.ecn_echo, dh.ecn_echo);
  EXPECT_EQ(h.signal_valid, dh.signal_valid);
  EXPECT_EQ(h.signal_echo_valid, dh.signal_echo_valid);
  EXPECT_EQ(h.sent_at, dh.sent_at);
}

// A slot whose every field differs from a default Packet's.
void dirty(Packet& p) {
  p.kind = PacketKind::control;
  p.protocol = ControlProtocol::arn;
  p.ttl = 3;
  p.source = 11;
  p.destination = 12;
  p.wire_bytes = 13;
  p.flow_hash = 14;
  p.transport = TransportHeader{.flow = 1,
                                .seq = 2,
                                .payload_bytes = 3,
                                .cumulative_ack = 4,
                                .acked_seq = 5,
                                .signal = 6,
                                .signal_echo = 7,
                                .is_ack = true,
                                .retransmission = true,
                                .ecn_capable = false,
                                .ecn_ce = true,
                                .ecn_echo = true,
                                .signal_valid = true,
                                .signal_echo_valid = true,
                                .sent_at = Time::from_ps(8)};
  p.control = 15;
  p.connection = 16;
}

// The free list is a stack: the slot freed last is taken first.
TEST(PacketPool, TakesTheSlotFreedLast) {
  PacketPool pool;
  const PacketIndex a = pool.allocate();
  const PacketIndex b = pool.allocate();
  EXPECT_EQ(pool.in_use(), 2u);
  pool.release(a);
  pool.release(b);
  EXPECT_EQ(pool.in_use(), 0u);
  EXPECT_EQ(pool.allocate_transport(), b);
  EXPECT_EQ(pool.allocate(), a);
  EXPECT_EQ(pool.capacity(), 2u);
  EXPECT_EQ(pool.in_use(), 2u);
}

// A reused slot is a default Packet again; allocate_transport() resets
// only the first line and leaves the control fields as they were.
TEST(PacketPool, AReusedSlotIsResetAsItsKindNeeds) {
  PacketPool pool;
  const PacketIndex i = pool.allocate();
  dirty(pool[i]);
  pool.release(i);
  ASSERT_EQ(pool.allocate(), i);
  expect_default_first_line(pool[i]);
  EXPECT_EQ(pool[i].control, 0u);
  EXPECT_EQ(pool[i].connection, 0u);

  dirty(pool[i]);
  pool.release(i);
  ASSERT_EQ(pool.allocate_transport(), i);
  expect_default_first_line(pool[i]);
  EXPECT_EQ(pool[i].control, 15u);
  EXPECT_EQ(pool[i].connection, 16u);
}

// A new slot, from either call, is a whole default Packet.
TEST(PacketPool, ANewSlotIsADefaultPacket) {
  PacketPool pool;
  for (int k = 0; k < 2; ++k) {
    const PacketIndex i = k == 0 ? pool.allocate() : pool.allocate_transport();
    expect_default_first_line(pool[i]);
    EXPECT_EQ(pool[i].control, 0u);
    EXPECT_EQ(pool[i].connection, 0u);
  }
}

}  // namespace
}  // namespace arfabric::sim
