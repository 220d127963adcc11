// IBCS signal fields: find a packet's P_Metric for one wire binding, read
// it, and rewrite it atomically with its checksums
// (draft-tian-ccwg-ibcs-datapath-processing-00).
//
// The SUF engine (proto/ibcs) runs, per packet and per egress port (in
// pseudo-code; `tighter` is the engine's MIN/MAX comparison):
//
//   auto field = locate(binding, frame, config);     // Phase 1 (sec. 5.1)
//   if (!field) forward unchanged;                   // absent: bypass
//   ... routing and ECMP hashing on the unmodified frame (sec. 5.2) ...
//   uint32_t p = *read_metric(frame, *field);        // Phase 3 (sec. 5.3)
//   if (p == field->uninitialized || tighter(l, p, field->op))
//     rewrite_metric(frame, *field, l);
//
// A SignalField is a small value describing where the metric bits are and
// which Internet checksums cover them; it holds no pointer into the frame.
// read_metric() and rewrite_metric() do no heap allocation on success.
// rewrite_metric() validates everything before it writes, so it either
// updates the metric and every covering checksum or leaves the buffer
// untouched (sec. 6.1 "Atomicity").
//
// Frames start at the Ethernet destination MAC address, without FCS. VLAN
// tags (802.1Q, and QinQ's 802.1ad or 0x9100) are skipped; for the IPv4
// bindings one CSIG tag (any position where an EtherType is expected) is
// skipped too, so bindings can stack.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string_view>

#include "common/bytes.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/ibcs/hpcc_option.h"
#include "wire/ibcs/operator.h"
#include "wire/ibcs/udp_shim.h"

namespace arfabric::wire::ibcs {

enum class Binding : std::uint8_t {
  csig_l2,   // CSIG compact L2 tag, signal value (csig_tag.h)
  hpcc_int,  // max-utilisation IPv4 option (hpcc_option.h)
  ipv4_udp,  // shim at the start of a UDP payload (udp_shim.h)
};

// The code points each binding leaves to configuration, with their
// documented defaults (docs/PROTOCOLS.md, IBCS).
struct BindingConfig {
  std::uint16_t csig_ethertype = kDefaultCsigEtherType;
  std::uint8_t hpcc_option_type = kDefaultHpccOptionType;
  std::uint16_t udp_port = kDefaultIbcsUdpPort;
};

// Per-binding metadata for the binding's primary signal. Bindings whose
// header carries a signal type (CSIG, the UDP shim) can carry others: the
// SignalField that locate() returns always has the operator and
// UNINITIALIZED value of the signal actually present.
struct BindingInfo {
  Binding binding;
  std::string_view name;
  std::string_view carriage;
  std::string_view signal;
  ExtremumOp op;
  std::uint32_t uninitialized;
  std::uint32_t max_value;  // largest value the field can hold
  bool checksummed;         // whether a rewrite updates a checksum
};

inline constexpr std::array<BindingInfo, 3> kBindings = {{
    {Binding::csig_l2, "csig_l2", "CSIG compact L2 tag",
     "minimum available bandwidth (quantized, 5 bits)", ExtremumOp::min,
     kCsigMaxSignalValue, kCsigMaxSignalValue, false},
    {Binding::hpcc_int, "hpcc_int", "IPv4 option",
     "maximum link utilisation (Q16.16)", ExtremumOp::max, 0, 0xffffffff, true},
    {Binding::ipv4_udp, "ipv4_udp", "UDP payload shim",
     "minimum available bandwidth (Mb/s)", ExtremumOp::min, 0xffffffff,
     0xffffffff, true},
}};

constexpr const BindingInfo& binding_info(Binding b) {
  return kBindings[static_cast<std::size_t>(b)];
}
constexpr std::string_view to_string(Binding b) { return binding_info(b).name; }

// One Internet checksum that covers the metric bytes.
struct ChecksumCover {
  std::size_t checksum_offset = 0;  // the 16-bit checksum field in the frame
  std::size_t region_offset = 0;    // first byte of the summed region; words
                                    // are aligned to it
  bool zero_means_absent = false;   // UDP over IPv4 (RFC 768)
  bool operator==(const ChecksumCover&) const = default;
};

struct SignalField {
  Binding binding = Binding::csig_l2;
  std::size_t offset = 0;  // first frame byte that holds metric bits
  std::uint8_t size = 0;   // bytes holding metric bits: 2 or 4
  std::uint32_t mask = 0;  // metric bits in those bytes read big-endian
  std::uint8_t shift = 0;  // position of the metric's least significant bit
  std::uint8_t signal_type = 0;
  ExtremumOp op = ExtremumOp::min;
  std::uint32_t uninitialized = 0;
  std::uint32_t max_value = 0;
  std::array<ChecksumCover, 2> checksums{};
  std::uint8_t checksum_count = 0;
  bool operator==(const SignalField&) const = default;
};

// Finds the binding's field in an Ethernet frame. Errors (all mean "bypass
// the SUF, forward opaquely", draft sec. 5.1): truncation of any header on
// the way; "eth.ethertype" when the frame does not carry the binding's
// header (no CSIG tag, not IPv4); "csig.signal_type" for an unassigned
// CSIG signal type; "ipv4.version", "ipv4.ihl", "ipv4.total_length";
// "ipv4.options" when no HPCC option is present or an option's length is
// malformed; "hpcc.length"/"hpcc.version" for a malformed HPCC option;
// "ipv4.protocol" not UDP; "ipv4.fragment_offset" for a non-first
// fragment; "udp.length"; "udp.destination_port" not config.udp_port;
// "ibcs_udp.version"/"ibcs_udp.signal_type" for a bad or unknown shim.
//
// Success is decided by try_locate() alone (below), so locate() and the
// per-packet path accept exactly the same frames and return the same
// field; the detailed walk runs only to explain a refusal.
std::expected<SignalField, DecodeError> locate(
    Binding binding, ByteSpan frame, const BindingConfig& config = {});

// The per-packet form of locate(): the same frames accepted, the same field
// returned, but a refusal is just nullopt -- no DecodeError, no string, no
// allocation (draft sec. 5.1 only needs "recognised or not"). Use locate()
// when the reason matters (arfabric decode).
std::optional<SignalField> try_locate(Binding binding, ByteSpan frame,
                                      const BindingConfig& config = {});

namespace detail {
// The detailed walk behind locate()'s errors, on its own, for the tests and
// the fuzz target that check it accepts exactly what try_locate() accepts.
// locate() reports "ibcs.locate" if they ever disagree on a frame.
std::expected<SignalField, DecodeError> locate_detailed(
    Binding binding, ByteSpan frame, const BindingConfig& config = {});
}  // namespace detail

// The P_Metric. Error: "ibcs.field" when the field lies outside `frame`.
std::expected<std::uint32_t, DecodeError> read_metric(ByteSpan frame,
                                                      const SignalField& field);

// Writes new_value into the field and updates every covering checksum with
// RFC 1624 eqn. 3. A UDP checksum of 0 (absent) stays 0, and a computed 0
// is written as 0xFFFF (RFC 768). Writing the current value leaves the
// frame byte-identical. Errors, raised before anything is written:
// "ibcs.metric" when new_value exceeds field.max_value; "ibcs.field" when
// the field or a checksum lies outside `frame`, or a checksum overlaps the
// field or starts after it.
std::expected<void, DecodeError> rewrite_metric(std::span<std::uint8_t> frame,
                                                const SignalField& field,
                                                std::uint32_t new_value);

}  // namespace arfabric::wire::ibcs
