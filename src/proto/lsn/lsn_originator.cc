#include "proto/lsn/lsn_originator.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "proto/lsn/congestion_level.h"

namespace arfabric::proto::lsn {
namespace {

using wire::lsn::MsgType;

// Byte offset of the bitmap in the frame: DA, SA, EtherType, OpCode, then
// the two header bytes of Figure 2.
constexpr std::size_t kBitmapOffset = 18;
constexpr std::size_t kBitmapSize = 32;

}  // namespace

std::expected<Originator, ConfigError> Originator::create(
    const Config& config) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  return Originator(config);
}

Originator::Originator(const Config& config)
    : config_(config), ranges_(range_count(config.num_devices)) {
  PortId max_port = 0;
  for (const PortConfig& p : config_.ports) max_port = std::max(max_port, p.id);
  port_index_.assign(std::size_t{max_port} + 1, -1);
  for (std::size_t i = 0; i < config_.ports.size(); ++i) {
    const PortConfig& p = config_.ports[i];
    port_index_[p.id] = static_cast<std::int32_t>(i);
    ports_.push_back(PortState{p.initially_up, 0});
    if (p.role == PortRole::trusted) trusted_.push_back(p.id);
  }

  // Both directions of the attachment relation as compressed rows, so a
  // port event touches only its own nodes and a node only its own ports.
  const std::size_t n_nodes = config_.num_devices;
  node_begin_.assign(n_nodes + 1, 0);
  port_begin_.assign(ports_.size() + 1, 0);
  for (const Attachment& a : config_.attached) {
    ++node_begin_[a.node + 1];
    ++port_begin_[static_cast<std::size_t>(port_index_[a.port]) + 1];
  }
  for (std::size_t i = 0; i < n_nodes; ++i)
    node_begin_[i + 1] += node_begin_[i];
  for (std::size_t i = 0; i < ports_.size(); ++i)
    port_begin_[i + 1] += port_begin_[i];
  node_ports_.resize(config_.attached.size());
  port_nodes_.resize(config_.attached.size());
  std::vector<std::uint32_t> node_fill(node_begin_.begin(),
                                       node_begin_.end() - 1);
  std::vector<std::uint32_t> port_fill(port_begin_.begin(),
                                       port_begin_.end() - 1);
  for (const Attachment& a : config_.attached) {
    const auto p = static_cast<std::uint32_t>(port_index_[a.port]);
    node_ports_[node_fill[a.node]++] = p;
    port_nodes_[port_fill[p]++] = a.node;
  }

  // Encode every frame once through the codec; later only bitmap bits (and
  // the FCS) are patched, so the bytes stay codec-exact.
  ByteWriter w;
  for (std::uint32_t t = 0; t < 4; ++t) {
    for (std::uint32_t r = 0; r < ranges_; ++r) {
      wire::lsn::LsnFrame f;
      f.source = config_.node_mac;
      f.msg_type = static_cast<MsgType>(t);
      f.dev_range = static_cast<std::uint8_t>(r);
      // Cannot fail: every field is in range by construction.
      (void)wire::lsn::serialize(f, w, config_.codec);
    }
  }
  frame_size_ = wire::lsn::encoded_size(wire::lsn::LsnFrame{}, config_.codec);
  frames_ = w.take();
  linger_.assign(4 * std::size_t{ranges_}, 0);
  pending_.reserve(4 * std::size_t{ranges_});

  if (originates()) {
    for (NodeId n = 0; n < config_.num_devices; ++n) {
      if (attached(n)) {
        refresh_node(n);
      } else {
        set_bits(n, true, 0);
      }
    }
    next_ = Time();
  }
  for (std::uint32_t s = 0; s < 4 * ranges_; ++s)
    dirty_[s / 64] |= 1ull << (s % 64);
  finish();
  // Building the initial state is not an event to announce.
  clear_pending();
  std::fill(linger_.begin(), linger_.end(), 0);
  counters_ = {};
}

std::expected<std::uint32_t, ConfigError> Originator::index_of(
    PortId port) const {
  if (port >= port_index_.size() || port_index_[port] < 0) {
    return std::unexpected(ConfigError{
        "port", "port " + std::to_string(port) + " is not configured"});
  }
  return static_cast<std::uint32_t>(port_index_[port]);
}

std::expected<bool, ConfigError> Originator::set_port_state(PortId port,
                                                            bool up,
                                                            Time /*now*/) {
  const std::uint32_t p = ARF_TRY(index_of(port));
  if (ports_[p].up == up) return false;
  ports_[p].up = up;
  const bool queued = refresh_port_nodes(p);
  finish();
  return queued;
}

std::expected<bool, ConfigError> Originator::set_queue_depth(
    PortId port, std::uint64_t bytes, Time /*now*/) {
  const std::uint32_t p = ARF_TRY(index_of(port));
  const std::uint8_t level =
      next_congestion_level(config_.congestion, ports_[p].level, bytes);
  if (level == ports_[p].level) return false;
  ports_[p].level = level;
  // A down port's level is remembered but announces nothing until it is up.
  if (!ports_[p].up) return false;
  const bool queued = refresh_port_nodes(p);
  finish();
  return queued;
}

std::expected<bool, ConfigError> Originator::set_transit_reachable(
    NodeId node, bool reachable, Time /*now*/) {
  if (!config_.transit) {
    return std::unexpected(
        ConfigError{"transit", "transit devices are not configured"});
  }
  if (node >= config_.num_devices) {
    return std::unexpected(ConfigError{
        "node", "node " + std::to_string(node) + " is beyond num_devices " +
                    std::to_string(config_.num_devices)});
  }
  if (attached(node)) {
    return std::unexpected(ConfigError{
        "node", "node " + std::to_string(node) +
                    " is attached: its ports' state decides its bits"});
  }
  const bool queued = set_bits(node, reachable, 0);
  finish();
  return queued;
}

bool Originator::refresh_port_nodes(std::uint32_t p) {
  bool queued = false;
  for (std::uint32_t i = port_begin_[p]; i < port_begin_[p + 1]; ++i)
    queued |= refresh_node(port_nodes_[i]);
  return queued;
}

bool Originator::refresh_node(NodeId node) {
  // Reachable while any attached port is up; the level is the worst among
  // the up ports, because the spine spreads flows over parallel links and
  // those hashed onto the congested one suffer.
  bool reachable = false;
  std::uint8_t level = 0;
  for (std::uint32_t i = node_begin_[node]; i < node_begin_[node + 1]; ++i) {
    const PortState& ps = ports_[node_ports_[i]];
    if (!ps.up) continue;
    reachable = true;
    level = std::max(level, ps.level);
  }
  return set_bits(node, reachable, level);
}

bool Originator::set_bits(NodeId node, bool reachable, std::uint8_t level) {
  bool changed = patch(0, node, reachable);
  for (std::uint32_t t = 1; t < 4; ++t)
    changed |= patch(t, node, reachable && level < t);
  return changed;
}

bool Originator::patch(std::uint32_t type, NodeId node, bool bit) {
  const std::uint32_t s = slot(type, node / 256);
  const std::uint32_t index = node % 256;
  std::uint8_t& byte = frame_at(s)[kBitmapOffset + index / 8];
  const auto mask = static_cast<std::uint8_t>(0x80u >> (index % 8));
  if (((byte & mask) != 0) == bit) return false;
  byte = static_cast<std::uint8_t>(bit ? (byte | mask) : (byte & ~mask));
  dirty_[s / 64] |= 1ull << (s % 64);
  // Every change leaves the following periods' refreshes to repair a lost
  // triggered frame, even when it clears the last congestion.
  if (type > 0) linger_[s] = config_.congestion_linger_periods;
  if (!(queued_[s / 64] >> (s % 64) & 1)) ++counters_.triggered_frames;
  queue(s);
  return true;
}

bool Originator::congestion_active(std::uint32_t type,
                                   std::uint32_t range) const {
  return std::memcmp(frame_at(slot(type, range)) + kBitmapOffset,
                     frame_at(slot(0, range)) + kBitmapOffset,
                     kBitmapSize) != 0;
}

void Originator::queue(std::uint32_t s) {
  std::uint64_t& word = queued_[s / 64];
  const std::uint64_t bit = 1ull << (s % 64);
  if (word & bit) return;
  word |= bit;
  pending_.push_back(PendingFrame{static_cast<MsgType>(s / ranges_),
                                  static_cast<std::uint8_t>(s % ranges_),
                                  ByteSpan(frame_at(s), frame_size_)});
}

void Originator::on_timer(Time now) {
  if (now < next_) return;
  auto periodic = [&](std::uint32_t s) {
    if (!(queued_[s / 64] >> (s % 64) & 1)) ++counters_.periodic_frames;
    queue(s);
  };
  for (std::uint32_t r = 0; r < ranges_; ++r) {
    periodic(slot(0, r));
    for (std::uint32_t t = 1; t < 4; ++t) {
      const std::uint32_t s = slot(t, r);
      if (config_.always_send_congestion) {
        periodic(s);
      } else if (congestion_active(t, r)) {
        linger_[s] = config_.congestion_linger_periods;
        periodic(s);
      } else if (linger_[s] > 0) {
        --linger_[s];
        periodic(s);
      }
    }
  }
  // Keep the phase, but never queue a burst of missed periods.
  next_ = next_ == Time() ? now + config_.period : next_ + config_.period;
  if (next_ <= now) next_ = now + config_.period;
}

void Originator::clear_pending() {
  pending_.clear();
  queued_ = {};
}

void Originator::drain(std::vector<SendFrame>& out) {
  for (const PendingFrame& f : pending_) {
    for (PortId port : trusted_)
      out.push_back(SendFrame{port, Bytes(f.frame.begin(), f.frame.end())});
  }
  clear_pending();
}

void Originator::finish() {
  if (config_.codec.fcs) {
    for (std::uint32_t w = 0; w < 4; ++w) {
      for (std::uint64_t bits = dirty_[w]; bits != 0; bits &= bits - 1) {
        const std::uint32_t s =
            w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        std::uint8_t* f = frame_at(s);
        const std::uint32_t fcs =
            wire::lsn::ethernet_fcs(ByteSpan(f, wire::lsn::kFrameSize));
        for (std::size_t i = 0; i < wire::lsn::kFcsSize; ++i)
          f[wire::lsn::kFrameSize + i] =
              static_cast<std::uint8_t>(fcs >> (8 * i));
      }
    }
  }
  dirty_ = {};
}

ByteSpan Originator::frame(MsgType type, std::uint8_t dev_range) const {
  if (dev_range >= ranges_) return {};
  return ByteSpan(frame_at(slot(static_cast<std::uint32_t>(type), dev_range)),
                  frame_size_);
}

std::uint8_t Originator::congestion_level(PortId port) const {
  auto p = index_of(port);
  return p ? ports_[*p].level : 0;
}

}  // namespace arfabric::proto::lsn
