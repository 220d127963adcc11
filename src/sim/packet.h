// The simulator's packet: a light struct for data and ACKs (no bytes), or a
// handle to real encoded control bytes (BGP, LSN, ARN) kept aside.
//
// Data packets carry only what the models read: the transport header that
// hosts' transport engines exchange (sim/transport), ECN bits, the IBCS
// signal that switches update through the real Signal Update Function, and
// the flow hash computed once at the first switch, before any header field
// changes (IBCS draft, "Phase 2": the hash must not see the signal).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/units.h"

namespace arfabric::sim {

using NodeIndex = std::uint32_t;    // a switch or host of the topology
using LinkIndex = std::uint32_t;    // one direction of a cable
using FlowId = std::uint32_t;       // a transport flow, unique per run
using PacketIndex = std::uint32_t;  // a slot of the PacketPool
inline constexpr PacketIndex kNoPacket = 0xffffffff;

// What a transport engine puts on the wire and reads back. Sequence
// numbers count packets, not bytes: every data packet of a flow but the
// last carries `payload_bytes` = the flow's MSS.
struct TransportHeader {
  FlowId flow = 0;
  std::uint32_t seq = 0;             // data: packet number from 0
  std::uint32_t payload_bytes = 0;   // data: bytes of payload
  std::uint32_t cumulative_ack = 0;  // ack: every packet below is received
  std::uint32_t acked_seq = 0;       // ack: the packet that triggered it
  // IBCS: the in-band signal as a data packet carries it (the SUF updates
  // it hop by hop), and as the receiver echoes it back in the ACK; valid
  // when the flags below say so.
  std::uint32_t signal = 0;
  std::uint32_t signal_echo = 0;
  // One-bit flags, so that the header takes 40 bytes.
  bool is_ack : 1 = false;
  bool retransmission : 1 = false;  // data: sent before (for counters)
  bool ecn_capable : 1 = true;
  bool ecn_ce : 1 = false;    // data: Congestion Experienced, set by switches
  bool ecn_echo : 1 = false;  // ack: the acked packet had CE
  bool signal_valid : 1 = false;
  bool signal_echo_valid : 1 = false;
  Time sent_at{};  // data: when the sender sent it; ack: echoed
};

enum class PacketKind : std::uint8_t { transport, control };
// Which control plane a control packet belongs to (sim/control_mux.h).
enum class ControlProtocol : std::uint8_t { bgp, lsn, arn };

// The IP TTL (hop limit) hosts send with: Linux's default
// (net.ipv4.ip_default_ttl, net.ipv6.conf.*.hop_limit).
inline constexpr std::uint8_t kInitialTtl = 64;

// 64-byte aligned, with everything a data packet's hops and hosts read in
// the first cache line; the control-packet fields take the second.
struct alignas(64) Packet {
  PacketKind kind = PacketKind::transport;
  ControlProtocol protocol = ControlProtocol::bgp;  // control packets
  // Transport packets: each switch that forwards one takes one off, and
  // discards it instead when that would leave none (RFC 791 / RFC 8200),
  // so a packet caught in a routing loop dies after kInitialTtl hops.
  std::uint8_t ttl = kInitialTtl;
  NodeIndex source = 0;          // sending host (or node, for control)
  NodeIndex destination = 0;     // receiving host (or the next node)
  std::uint32_t wire_bytes = 0;  // size on the link, headers included
  std::uint64_t flow_hash = 0;   // set at the first switch
  TransportHeader transport;
  std::uint32_t control = 0;  // control: index into the control payloads
  // control: the BGP connection it belongs to; LSN/ARN: unused.
  std::uint32_t connection = 0;
};
static_assert(sizeof(TransportHeader) == 40);
// PacketPool::allocate_transport() resets the first line (the bytes before
// `control`) and only that line.
static_assert(offsetof(Packet, control) == 64, "data fields fill one line");

}  // namespace arfabric::sim
