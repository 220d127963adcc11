// LSN reception, draft-camarillo-rtgwg-lsn-00 §3.2.3 and §6.
//
// Per neighbour (= trusted port) and per Msg-type the receiver keeps a
// bitmap over all Global Node IDs; a received frame's 256 bits are overlaid
// on its Dev-Range (§3.2.3 "State Aggregation") and every bit that changed
// becomes a record for the host to apply to the FIB:
//   Msg-type 0, 1 -> 0: VetoChange{port, dest, lsn, vetoed = true};
//               0 -> 1: VetoChange{..., vetoed = false} (the FIB latches the
//               veto until routing re-installs the path, §4.2; the receiver
//               only reports);
//   Msg-types 1..3: CongestionChange{port, dest, lsn, level} when the
//               highest level N whose bit reads 0 changes (0 = none).
// Initial state: every bit 1 (reachable, not congested), so nothing is
// vetoed until a neighbour says 0 — a neighbour that never speaks LSN
// leaves routing alone.
//
// Cost: the frame's four 64-bit words are XORed with the stored ones; a
// frame without changes (the periodic refresh) costs that compare and the
// header check of wire::lsn::view. Changed bits are walked with countl_zero
// (bit 0 of the range is the most significant bit of the first big-endian word,
// Figure 3).
//
// §6: frames on untrusted (host-facing) ports are dropped and counted before
// any byte is parsed.
#pragma once

#include <cstdint>
#include <expected>
#include <vector>

#include "common/bytes.h"
#include "common/units.h"
#include "proto/fib/forwarding_types.h"
#include "proto/lsn/lsn_config.h"

namespace arfabric::proto::lsn {

struct ReceiverCounters {
  std::uint64_t received = 0;           // every on_frame call
  std::uint64_t applied = 0;            // parsed and overlaid (changed or not)
  std::uint64_t dropped_untrusted = 0;  // §6, before parsing
  std::uint64_t dropped_unknown_port = 0;  // port not in the configuration
  std::uint64_t dropped_range = 0;  // Dev-Range beyond the fabric's devices
  // wire::lsn::parse failures by reason.
  std::uint64_t malformed_truncated = 0;
  std::uint64_t malformed_code_point = 0;   // EtherType / OpCode mismatch
  std::uint64_t malformed_header_type = 0;  // Type != 12
  std::uint64_t malformed_fcs = 0;
  std::uint64_t bits_changed = 0;
  std::uint64_t malformed() const {
    return malformed_truncated + malformed_code_point + malformed_header_type +
           malformed_fcs;
  }
};

class Receiver {
 public:
  // Errors: those of validate(config).
  static std::expected<Receiver, ConfigError> create(const Config& config);

  // Processes one received Ethernet frame (from the DA; with FCS when
  // config.codec.fcs). Never fails: a frame that is dropped or malformed is
  // counted in counters() and produces no record. Records are appended to
  // veto_changes() / congestion_changes(). Returns the number of records
  // appended.
  std::size_t on_frame(PortId port, ByteSpan frame, Time now);

  // Records since the last clear_outputs(), in frame and bit order. The
  // vectors keep their capacity, so a host that clears after each frame
  // allocates nothing in steady state.
  const std::vector<VetoChange>& veto_changes() const { return vetoes_; }
  const std::vector<CongestionChange>& congestion_changes() const {
    return congestion_;
  }
  void clear_outputs() {
    vetoes_.clear();
    congestion_.clear();
  }

  // Current state for (neighbour port, destination). Unknown or untrusted
  // ports and destinations >= num_devices read as reachable / level 0.
  bool reachable(PortId port, NodeId destination) const;
  std::uint8_t congestion_level(PortId port, NodeId destination) const;
  const ReceiverCounters& counters() const { return counters_; }

 private:
  static constexpr std::int32_t kUnknown = -2;
  static constexpr std::int32_t kUntrusted = -1;

  explicit Receiver(const Config& config);
  // First of the four words of (neighbour, Msg-type, range); words hold the
  // bitmap bytes as received (memcpy), so a compare needs no byte swap.
  std::uint64_t* words(std::uint32_t n, std::uint32_t type, std::uint32_t r) {
    return state_.data() + ((std::size_t{n} * 4 + type) * ranges_ + r) * 4;
  }
  const std::uint64_t* words(std::uint32_t n, std::uint32_t type,
                             std::uint32_t r) const {
    return state_.data() + ((std::size_t{n} * 4 + type) * ranges_ + r) * 4;
  }
  bool bit(std::uint32_t n, std::uint32_t type, NodeId dest) const;
  std::uint8_t level(std::uint32_t n, NodeId dest) const;
  std::int32_t neighbour(PortId port) const {
    return port < slot_.size() ? slot_[port] : kUnknown;
  }
  // Parses a refused frame for its reason and counts it. Out of line and
  // cold: parse()'s result and error strings would otherwise widen
  // on_frame's stack frame, which costs every frame (measured inline: a
  // frame with one change took 26 ns instead of 22).
  [[gnu::noinline, gnu::cold]] void count_malformed(ByteSpan frame);
  std::size_t emit(std::uint32_t n, PortId port, std::uint32_t type,
                   std::uint32_t r, const std::uint64_t* diff);

  wire::lsn::CodecOptions codec_;
  std::uint32_t ranges_ = 0;
  std::vector<std::int32_t> slot_;  // PortId -> neighbour index or kUn*
  std::vector<std::uint64_t> state_;
  // Per range, the bits of IDs >= num_devices (raw byte order): forced to 1
  // so that padding bits of the last range never produce records.
  std::vector<std::uint64_t> absent_;
  std::vector<VetoChange> vetoes_;
  std::vector<CongestionChange> congestion_;
  ReceiverCounters counters_;
};

}  // namespace arfabric::proto::lsn
