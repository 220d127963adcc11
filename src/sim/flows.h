// Transport flows between hosts, run over a Network: the HostHandler that
// feeds arriving data packets to the receiving host's transport Receiver
// and ACKs to the sending host's Sender, sends what the window allows, and
// keeps one retransmission timer event per flow in the EventQueue.
//
// Flows are created up front or at run time (start()); each owns its
// Sender and Receiver, sized from the flow's length at creation, so the
// per-packet path allocates nothing. A complete flow frees its Sender
// (its counters join sender_totals()) and its Receiver, and keeps two
// 32-byte records: a ring all-reduce across 1,024 hosts starts two million
// flows, and kept whole they took 1.7 GB.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sim/network.h"
#include "sim/transport/receiver.h"
#include "sim/transport/sender.h"

namespace arfabric::sim {

struct FlowStats {
  NodeIndex source = 0, destination = 0;
  std::uint64_t bytes = 0;
  Time started{};
  Time completed = Time::max();
};

// IBCS signals as receivers got them (values of the CSIG tag's 5-bit
// field, so 32 buckets).
struct SignalStats {
  std::uint64_t delivered = 0;  // data packets that arrived with a signal
  std::uint64_t sum = 0;
  std::array<std::uint64_t, 32> histogram{};
};

class Flows : public HostHandler {
 public:
  // `config` must pass transport::validate.
  Flows(Network& network, EventQueue& events, PacketPool& pool,
        const transport::TransportConfig& config);
  // Its flows' Senders refer to its copy of the configuration, so it
  // stays where it was made.
  Flows(const Flows&) = delete;
  Flows& operator=(const Flows&) = delete;

  // Starts a flow of `bytes` from host `source` to host `destination` at
  // `now`; returns its id. A `flow_hash` other than 0 is carried by its
  // data packets instead of the hash of their 5-tuple: the sender chose
  // its source port to steer the flow (Network::flow_hash_across).
  FlowId start(NodeIndex source, NodeIndex destination, std::uint64_t bytes,
               Time now, std::uint64_t flow_hash = 0);

  // Called when a flow completes (every byte acknowledged).
  void on_complete(std::function<void(FlowId, Time)> callback) {
    on_complete_ = std::move(callback);
  }

  // IBCS: from now on data packets leave with the signal field present and
  // set to `uninitialized` (the hosts originate the signal, IBCS §4.1).
  void originate_signal(std::uint32_t uninitialized) {
    signal_origin_ = uninitialized;
  }
  const SignalStats& signals() const { return signals_; }

  void on_packet(NodeIndex host, PacketIndex packet, Time now) override;
  // The flow's record, then its Sender (for an ACK) or Receiver.
  void prefetch_record(const Packet& packet) const override;
  void prefetch_state(const Packet& packet) const override;
  // Timer events this object scheduled (EventType::flow_timer, a = flow).
  void on_event(const Event& e);

  std::size_t size() const { return flows_.size(); }
  const FlowStats& stats(FlowId f) const { return stats_[f]; }
  // The flow's Sender while it runs; null once it is complete.
  const transport::Sender* sender(FlowId f) const {
    return flows_[f].sender.get();
  }
  // Sender counters summed over every flow started: the complete ones'
  // final counts and the running ones' counts so far. O(flows).
  transport::SenderCounters sender_totals() const;
  // The flow's Receiver while it runs; null once it is complete (it then
  // delivered all stats(f).bytes).
  const transport::Receiver* receiver(FlowId f) const {
    return flows_[f].receiver.get();
  }
  std::size_t active() const { return active_; }
  std::uint64_t data_packets_sent() const { return data_sent_; }
  // Payload bytes delivered to receivers so far, over all flows (a running
  // sum, so that time series need not walk every flow).
  std::uint64_t payload_delivered() const { return payload_delivered_; }

 private:
  // What a packet's arrival at a host reads of its flow: 32 bytes, two to
  // a line and none across two (at 4,096 hosts the record is read from
  // memory). The ends repeat the flow's FlowStats, which only its start
  // and completion touch.
  struct alignas(32) Flow {
    // Null once the flow is complete (every byte acknowledged).
    std::unique_ptr<transport::Sender> sender;
    std::unique_ptr<transport::Receiver> receiver;
    PendingTimer timer;  // its pending timer event
    NodeIndex source = 0, destination = 0;
  };
  // Whether a packet of this kind and header belongs to one of the flows.
  bool names_flow(PacketKind kind, const TransportHeader& h) const {
    return kind == PacketKind::transport && h.flow < flows_.size();
  }
  void pump(FlowId f, Time now);
  void arm_timer(FlowId f);
  // A flow's timer event in the queue became stale (superseded, or the
  // flow completed): counts it, and purges them all when they are many.
  void note_stale_timer();
  void send(NodeIndex from, NodeIndex to, const TransportHeader& h, Time now);

  Network* network_;
  EventQueue* events_;
  PacketPool* pool_;
  transport::TransportConfig config_;
  std::vector<Flow> flows_;
  std::vector<FlowStats> stats_;  // by flow
  std::function<void(FlowId, Time)> on_complete_;
  std::size_t active_ = 0;
  std::uint64_t data_sent_ = 0;
  std::uint64_t payload_delivered_ = 0;
  transport::SenderCounters completed_senders_;  // summed at completion
  // Stale timer events still in the EventQueue: a flow whose deadline
  // moves earlier pushes a new event and leaves the old one behind, and a
  // flow that completes leaves its last one. They are purged when they
  // reach half the queue; left there, superseded ones made the heap ~30
  // times the live events (~45 k entries for 256 flows), and completed
  // flows' ones (a ring all-reduce runs many short flows) 5-8 times.
  std::size_t stale_timers_ = 0;
  std::optional<std::uint32_t> signal_origin_;
  SignalStats signals_;
  // Steered flows' data packets' flow hashes (few: incasts), by flow.
  std::unordered_map<FlowId, std::uint64_t> steered_;
};

}  // namespace arfabric::sim
