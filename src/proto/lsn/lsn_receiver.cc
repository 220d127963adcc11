#include "proto/lsn/lsn_receiver.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "wire/lsn/lsn_frame.h"

namespace arfabric::proto::lsn {
namespace {

constexpr std::uint64_t kTop = 1ull << 63;

// Raw words hold bitmap bytes in wire order; big-endian order puts the
// draft's bit 0 (the leftmost bit of Figure 3) at the top.
std::uint64_t big_endian(std::uint64_t raw) {
  if constexpr (std::endian::native == std::endian::little) {
    return std::byteswap(raw);
  } else {
    return raw;
  }
}

// Highest congestion level whose Msg-type bit reads 0 ("not reachable and
// not congested at level N"); 0 when every bit is 1.
std::uint8_t level_of(const bool clear[4]) {
  for (std::uint8_t n = 3; n >= 1; --n)
    if (!clear[n]) return n;
  return 0;
}

bool truncated(const DecodeError& e) { return e.reason.starts_with("trunc"); }

}  // namespace

std::expected<Receiver, ConfigError> Receiver::create(const Config& config) {
  if (auto ok = validate(config); !ok) return std::unexpected(ok.error());
  return Receiver(config);
}

Receiver::Receiver(const Config& config)
    : codec_(config.codec), ranges_(range_count(config.num_devices)) {
  PortId max_port = 0;
  for (const PortConfig& p : config.ports) max_port = std::max(max_port, p.id);
  slot_.assign(std::size_t{max_port} + 1, kUnknown);
  std::uint32_t neighbours = 0;
  for (const PortConfig& p : config.ports) {
    slot_[p.id] = p.role == PortRole::trusted
                      ? static_cast<std::int32_t>(neighbours++)
                      : kUntrusted;
  }
  state_.assign(std::size_t{neighbours} * 4 * ranges_ * 4, ~0ull);
  absent_.assign(std::size_t{ranges_} * 4, 0);
  for (std::uint32_t r = 0; r < ranges_; ++r) {
    wire::lsn::Bitmap b;
    for (std::uint32_t i = 0; i < wire::lsn::kDevicesPerRange; ++i)
      b.set(i, r * 256 + i >= config.num_devices);
    std::memcpy(absent_.data() + r * 4, b.bytes.data(), b.bytes.size());
  }
  vetoes_.reserve(wire::lsn::kDevicesPerRange);
  congestion_.reserve(wire::lsn::kDevicesPerRange);
}

std::size_t Receiver::on_frame(PortId port, ByteSpan frame, Time /*now*/) {
  ++counters_.received;
  const std::int32_t n = neighbour(port);
  if (n < 0) {
    // §6: "dropped unconditionally" -- not even parsed.
    ++(n == kUntrusted ? counters_.dropped_untrusted
                       : counters_.dropped_unknown_port);
    return 0;
  }
  // wire::lsn::view accepts exactly what wire::lsn::parse accepts, without
  // building an LsnFrame; parse runs only to say why a frame is refused.
  const auto v = wire::lsn::view(frame, codec_);
  if (!v) {
    count_malformed(frame);
    return 0;
  }
  const std::uint32_t r = v->dev_range();
  const auto type = static_cast<std::uint32_t>(v->msg_type());
  std::uint64_t in[4];
  std::memcpy(in, v->bitmap(), sizeof in);
  if (r >= ranges_) {
    ++counters_.dropped_range;
    return 0;
  }
  const auto nb = static_cast<std::uint32_t>(n);
  const std::uint64_t* absent = absent_.data() + std::size_t{r} * 4;
  std::uint64_t* st = words(nb, type, r);
  std::uint64_t diff[4];
  std::uint64_t any = 0;
  for (int w = 0; w < 4; ++w) {
    in[w] |= absent[w];
    diff[w] = in[w] ^ st[w];
    any |= diff[w];
  }
  ++counters_.applied;
  if (any == 0) return 0;
  std::memcpy(st, in, sizeof in);
  return emit(nb, port, type, r, diff);
}

void Receiver::count_malformed(ByteSpan frame) {
  const auto parsed = wire::lsn::parse(frame, codec_);
  if (parsed) return;  // cannot happen: view() refused it (parse's check)
  const DecodeError& e = parsed.error();
  if (e.field == "lsn.fcs") {
    ++counters_.malformed_fcs;
  } else if (truncated(e)) {
    ++counters_.malformed_truncated;
  } else if (e.field == "lsn.type") {
    ++counters_.malformed_header_type;
  } else {
    ++counters_.malformed_code_point;
  }
}

std::size_t Receiver::emit(std::uint32_t n, PortId port, std::uint32_t type,
                           std::uint32_t r, const std::uint64_t* diff) {
  std::size_t records = 0;
  for (std::uint32_t w = 0; w < 4; ++w) {
    for (std::uint64_t be = big_endian(diff[w]); be != 0;) {
      const auto k = static_cast<std::uint32_t>(std::countl_zero(be));
      be &= ~(kTop >> k);
      const NodeId dest = r * 256 + w * 64 + k;
      ++counters_.bits_changed;
      if (type == 0) {
        vetoes_.push_back(
            VetoChange{port, dest, VetoSource::lsn, !bit(n, 0, dest)});
        ++records;
        continue;
      }
      bool clear[4] = {true, bit(n, 1, dest), bit(n, 2, dest), bit(n, 3, dest)};
      const std::uint8_t now_level = level_of(clear);
      clear[type] = !clear[type];  // the state before this frame
      if (level_of(clear) != now_level) {
        congestion_.push_back(
            CongestionChange{port, dest, VetoSource::lsn, now_level});
        ++records;
      }
    }
  }
  return records;
}

bool Receiver::bit(std::uint32_t n, std::uint32_t type, NodeId dest) const {
  const auto* bytes =
      reinterpret_cast<const std::uint8_t*>(words(n, type, dest / 256));
  const std::uint32_t i = dest % 256;
  return (bytes[i / 8] >> (7 - i % 8)) & 1;
}

std::uint8_t Receiver::level(std::uint32_t n, NodeId dest) const {
  const bool clear[4] = {true, bit(n, 1, dest), bit(n, 2, dest),
                         bit(n, 3, dest)};
  return level_of(clear);
}

bool Receiver::reachable(PortId port, NodeId destination) const {
  const std::int32_t n = neighbour(port);
  if (n < 0 || destination >= ranges_ * 256) return true;
  return bit(static_cast<std::uint32_t>(n), 0, destination);
}

std::uint8_t Receiver::congestion_level(PortId port, NodeId destination) const {
  const std::int32_t n = neighbour(port);
  if (n < 0 || destination >= ranges_ * 256) return 0;
  return level(static_cast<std::uint32_t>(n), destination);
}

}  // namespace arfabric::proto::lsn
