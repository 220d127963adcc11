#include "sim/transport/receiver.h"

#include <gtest/gtest.h>

namespace arfabric::sim::transport {
namespace {

TransportHeader data(std::uint32_t seq, std::uint32_t payload) {
  TransportHeader h;
  h.flow = 7;
  h.seq = seq;
  h.payload_bytes = payload;
  h.sent_at = us(seq);
  return h;
}

TEST(Receiver, CumulativeAndSelectiveAcks) {
  TransportConfig c;
  // 3 packets: 4096 + 4096 + 808.
  Receiver r(c, 7, 9000);
  auto a = r.on_data(data(1, 4096), us(10));
  EXPECT_TRUE(a.is_ack);
  EXPECT_EQ(a.flow, 7u);
  EXPECT_EQ(a.acked_seq, 1u);
  EXPECT_EQ(a.cumulative_ack, 0u);  // hole at 0
  EXPECT_EQ(a.sent_at, us(1));      // echoed for the RTT sample
  EXPECT_EQ(r.counters().out_of_order, 1u);
  a = r.on_data(data(0, 4096), us(11));
  EXPECT_EQ(a.cumulative_ack, 2u);  // 0 fills the hole, 1 was there
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.completion_time(), Time::max());
  a = r.on_data(data(2, 808), us(12));
  EXPECT_EQ(a.cumulative_ack, 3u);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.completion_time(), us(12));
  EXPECT_EQ(r.bytes_delivered(), 9000u);
}

TEST(Receiver, DuplicatesCountedOnce) {
  TransportConfig c;
  Receiver r(c, 7, 8192);
  r.on_data(data(0, 4096), us(1));
  auto a = r.on_data(data(0, 4096), us(2));
  EXPECT_EQ(a.acked_seq, 0u);  // still acked: the first ACK may be lost
  EXPECT_EQ(a.cumulative_ack, 1u);
  EXPECT_EQ(r.counters().duplicates, 1u);
  EXPECT_EQ(r.bytes_delivered(), 4096u);
}

// A complete receiver has freed its bitmap; late retransmissions of every
// packet, the last one included, are still duplicates, answered as before.
TEST(Receiver, AfterCompletionEveryPacketIsADuplicate) {
  TransportConfig c;
  // 130 packets: the bitmap spans three words.
  Receiver r(c, 7, 130 * 4096);
  for (std::uint32_t seq = 130; seq-- > 0;) r.on_data(data(seq, 4096), us(1));
  ASSERT_TRUE(r.complete());
  for (std::uint32_t seq : {0u, 63u, 64u, 128u, 129u}) {
    const auto a = r.on_data(data(seq, 4096), us(2));
    EXPECT_EQ(a.acked_seq, seq);
    EXPECT_EQ(a.cumulative_ack, 130u);
  }
  EXPECT_EQ(r.counters().duplicates, 5u);
  EXPECT_EQ(r.counters().out_of_order, 129u);
  EXPECT_EQ(r.bytes_delivered(), 130u * 4096);
  EXPECT_EQ(r.completion_time(), us(1));
  // Past the end is still invalid, not a duplicate.
  EXPECT_EQ(r.on_data(data(130, 4096), us(3)).acked_seq, kNoSeq);
  EXPECT_EQ(r.counters().invalid, 1u);
}

// Once complete, a receiver's ACK depends on the data packet alone:
// ack_when_complete gives what on_data gives, field for field, for
// duplicates with every echo flag, an ACK, another flow's packet and a
// sequence number past the end (Flows answers late copies with it after
// freeing the receiver).
TEST(Receiver, AckWhenCompleteIsWhatACompleteReceiverSends) {
  TransportConfig c;
  Receiver r(c, 7, 9000);  // 3 packets
  for (std::uint32_t seq = 0; seq < 3; ++seq) r.on_data(data(seq, 1), us(1));
  ASSERT_TRUE(r.complete());
  auto same = [](const TransportHeader& a, const TransportHeader& b) {
    return a.flow == b.flow && a.seq == b.seq &&
           a.payload_bytes == b.payload_bytes &&
           a.cumulative_ack == b.cumulative_ack && a.acked_seq == b.acked_seq &&
           a.signal == b.signal && a.signal_echo == b.signal_echo &&
           a.is_ack == b.is_ack && a.retransmission == b.retransmission &&
           a.ecn_capable == b.ecn_capable && a.ecn_ce == b.ecn_ce &&
           a.ecn_echo == b.ecn_echo && a.signal_valid == b.signal_valid &&
           a.signal_echo_valid == b.signal_echo_valid && a.sent_at == b.sent_at;
  };
  for (std::uint32_t seq : {0u, 2u, 3u, 100u}) {
    for (int flags = 0; flags < 16; ++flags) {
      TransportHeader d = data(seq, 4096);
      d.ecn_capable = flags & 1;
      d.ecn_ce = flags & 2;
      d.signal_valid = flags & 4;
      d.signal = 9 + seq;
      d.is_ack = flags & 8;
      d.retransmission = true;
      const TransportHeader want = r.on_data(d, us(2));
      const TransportHeader got = Receiver::ack_when_complete(7, 3, d);
      EXPECT_TRUE(same(want, got)) << "seq " << seq << " flags " << flags;
    }
  }
  TransportHeader other = data(1, 4096);
  other.flow = 8;
  EXPECT_TRUE(
      same(r.on_data(other, us(3)), Receiver::ack_when_complete(7, 3, other)));
  EXPECT_EQ(Receiver::ack_when_complete(7, 3, other).acked_seq, kNoSeq);
  EXPECT_EQ(Receiver::ack_when_complete(7, 3, data(2, 1)).acked_seq, 2u);
  EXPECT_EQ(Receiver::ack_when_complete(7, 3, data(2, 1)).cumulative_ack, 3u);
}

TEST(Receiver, EchoesEcnAndIbcsSignal) {
  TransportConfig c;
  Receiver r(c, 7, 8192);
  auto d = data(0, 4096);
  d.ecn_ce = true;
  d.signal_valid = true;
  d.signal = 12345;
  auto a = r.on_data(d, us(1));
  EXPECT_TRUE(a.ecn_echo);
  EXPECT_TRUE(a.signal_echo_valid);
  EXPECT_EQ(a.signal_echo, 12345u);
  EXPECT_EQ(r.counters().ecn_marked, 1u);
  a = r.on_data(data(1, 4096), us(2));
  EXPECT_FALSE(a.ecn_echo);  // per-packet echo, not sticky
  EXPECT_FALSE(a.signal_echo_valid);
}

TEST(Receiver, InvalidPacketsChangeNothing) {
  TransportConfig c;
  Receiver r(c, 7, 4096);
  auto bad = data(1, 4096);  // past the end of a 1-packet flow
  auto a = r.on_data(bad, us(1));
  EXPECT_EQ(a.acked_seq, kNoSeq);
  auto other = data(0, 4096);
  other.flow = 8;
  a = r.on_data(other, us(1));
  EXPECT_EQ(a.acked_seq, kNoSeq);
  EXPECT_EQ(r.counters().invalid, 2u);
  EXPECT_EQ(r.bytes_delivered(), 0u);
  EXPECT_FALSE(r.complete());
}

TEST(Receiver, EmptyFlowIsComplete) {
  TransportConfig c;
  Receiver r(c, 7, 0);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.completion_time(), Time());
}

}  // namespace
}  // namespace arfabric::sim::transport
