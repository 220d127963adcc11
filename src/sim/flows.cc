#include "sim/flows.h"

#include <algorithm>

namespace arfabric::sim {

Flows::Flows(Network& network, EventQueue& events, PacketPool& pool,
             const transport::TransportConfig& config)
    : network_(&network), events_(&events), pool_(&pool), config_(config) {}

FlowId Flows::start(NodeIndex source, NodeIndex destination,
                    std::uint64_t bytes, Time now, std::uint64_t flow_hash) {
  const FlowId id = static_cast<FlowId>(flows_.size());
  if (flow_hash != 0) steered_[id] = flow_hash;
  stats_.push_back(FlowStats{source, destination, bytes, now, Time::max()});
  Flow f;
  f.source = source;
  f.destination = destination;
  f.sender = std::make_unique<transport::Sender>(config_, id, bytes, now);
  f.receiver = std::make_unique<transport::Receiver>(config_, id, bytes);
  flows_.push_back(std::move(f));
  ++active_;
  pump(id, now);
  return id;
}

transport::SenderCounters Flows::sender_totals() const {
  transport::SenderCounters totals = completed_senders_;
  for (const Flow& f : flows_) {
    if (f.sender != nullptr) totals.add(f.sender->counters());
  }
  return totals;
}

void Flows::send(NodeIndex from, NodeIndex to, const TransportHeader& h,
                 Time now) {
  const PacketIndex i = pool_->allocate_transport();
  Packet& p = (*pool_)[i];
  p.source = from;
  p.destination = to;
  p.transport = h;
  p.wire_bytes = transport::wire_bytes(config_, h);
  if (!steered_.empty() && !h.is_ack) {
    if (auto it = steered_.find(h.flow); it != steered_.end()) {
      p.flow_hash = it->second;
    }
  }
  network_->send_from_host(from, i, now);
}

void Flows::pump(FlowId id, Time now) {
  Flow& f = flows_[id];
  if (!f.sender) return;  // complete
  if (f.sender->complete()) {
    // Its pending timer (an RTO, often milliseconds away) is of no use now.
    if (f.timer.at() != Time::max()) {
      f.timer.cancel();
      note_stale_timer();
    }
    stats_[id].completed = now;
    completed_senders_.add(f.sender->counters());
    f.sender.reset();
    // Every byte was acknowledged, so the receiver has them all: late
    // copies still get their ACK (Receiver::ack_when_complete), and the
    // 100-odd bytes per flow are freed (two million flows in a ring
    // all-reduce across 1,024 hosts).
    f.receiver.reset();
    if (!steered_.empty()) steered_.erase(id);
    --active_;
    if (on_complete_) on_complete_(id, now);
    return;
  }
  while (auto h = f.sender->next_packet(now)) {
    ++data_sent_;
    if (signal_origin_) {
      h->signal_valid = true;
      h->signal = *signal_origin_;
    }
    send(f.source, f.destination, *h, now);
  }
  arm_timer(id);
}

void Flows::arm_timer(FlowId id) {
  Flow& f = flows_[id];
  const Time deadline = f.sender->next_deadline();
  // One pending event per flow: only an earlier deadline needs a new one;
  // a later one is picked up when the pending event fires.
  const bool had_pending = f.timer.at() != Time::max();
  if (!f.timer.arm(deadline)) return;
  events_->push(deadline, EventType::flow_timer, id, 0);
  if (had_pending) note_stale_timer();  // the earlier event is superseded
}

void Flows::note_stale_timer() {
  // Purging costs O(queue), so it runs when the stale events are at least
  // half the queue: amortised O(1) per stale event.
  constexpr std::size_t kPurgeAtLeast = 1024;
  if (++stale_timers_ >= kPurgeAtLeast &&
      2 * stale_timers_ >= events_->size()) {
    events_->remove_if([&](const Event& e) {
      return e.type == EventType::flow_timer && e.a < flows_.size() &&
             e.at != flows_[e.a].timer.at();
    });
    stale_timers_ = 0;
  }
}

void Flows::on_event(const Event& e) {
  if (e.type != EventType::flow_timer || e.a >= flows_.size()) return;
  Flow& f = flows_[e.a];
  if (!f.timer.fire(e.at)) {  // superseded by an earlier one
    if (stale_timers_ > 0) --stale_timers_;
    return;
  }
  if (!f.sender) return;  // complete
  if (f.sender->next_deadline() <= e.at) f.sender->on_timer(e.at);
  pump(e.a, e.at);
}

void Flows::prefetch_record(const Packet& packet) const {
  if (!names_flow(packet.kind, packet.transport)) return;
  __builtin_prefetch(&flows_[packet.transport.flow]);
}

void Flows::prefetch_state(const Packet& packet) const {
  if (!names_flow(packet.kind, packet.transport)) return;
  const Flow& f = flows_[packet.transport.flow];
  if (!packet.transport.is_ack) {
    if (f.receiver == nullptr) return;
    __builtin_prefetch(f.receiver.get());
    __builtin_prefetch(reinterpret_cast<const char*>(f.receiver.get()) + 64);
  } else if (f.sender != nullptr) {
    f.sender->prefetch();
  }
}

void Flows::on_packet(NodeIndex host, PacketIndex index, Time now) {
  // Only the packet's first line: the second holds control fields, and
  // copying it cost a cache miss per delivery at 4,096 hosts.
  const PacketKind kind = (*pool_)[index].kind;
  const TransportHeader h = (*pool_)[index].transport;
  pool_->release(index);
  if (!names_flow(kind, h)) return;
  Flow& f = flows_[h.flow];
  if (!h.is_ack) {
    if (host != f.destination) return;
    if (h.signal_valid) {
      ++signals_.delivered;
      signals_.sum += h.signal;
      ++signals_.histogram[std::min<std::uint32_t>(h.signal, 31)];
    }
    if (!f.receiver) {  // a late copy: the flow is complete
      const auto packets = static_cast<std::uint32_t>(
          transport::packet_count(config_, stats_[h.flow].bytes));
      send(f.destination, f.source,
           transport::Receiver::ack_when_complete(h.flow, packets, h), now);
      return;
    }
    const std::uint64_t before = f.receiver->bytes_delivered();
    const TransportHeader ack = f.receiver->on_data(h, now);
    payload_delivered_ += f.receiver->bytes_delivered() - before;
    send(f.destination, f.source, ack, now);
    return;
  }
  if (host != f.source || !f.sender) return;
  f.sender->on_ack(h, now);
  pump(h.flow, now);
}

}  // namespace arfabric::sim
