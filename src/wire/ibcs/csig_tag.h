// CSIG compact L2 tag (draft-ravi-ippm-csig-01), the first IBCS binding.
//
// The tag sits between the MAC addresses (or an 802.1Q tag) and the next
// EtherType, like a VLAN tag: a 16-bit TPID followed by a 16-bit control
// word. The control word is, most significant bit first:
//
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5
//   +-----+-+---------+-------------+
//   |  T  |R|    S    |     LM      |
//   +-----+-+---------+-------------+
//   T  signal type (3 bits, kCsigSignalTypes)
//   R  reserved (1 bit; carried and re-serialized, never interpreted)
//   S  signal value (5 bits): a quantized bucket index, larger = more of
//      the signal (more bandwidth, more delay)
//   LM locator metadata (7 bits): set by the hop that last replaced S
//
// The draft leaves the TPID "TBD": it is configurable, default
// kDefaultCsigEtherType. The 8-byte "wide" tag is not implemented.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "wire/ibcs/operator.h"

namespace arfabric::wire::ibcs {

// IEEE Std 802 "Local Experimental EtherType 2" (arfabric's raw-Ethernet ARN
// uses Local Experimental 1, 0x88B5): free for experiments on a
// closed fabric, which is where the draft's CSIG domain lives.
inline constexpr std::uint16_t kDefaultCsigEtherType = 0x88b6;
inline constexpr std::size_t kCsigTagSize = 4;
inline constexpr std::uint8_t kCsigMaxSignalValue = 0x1f;
inline constexpr std::uint8_t kCsigMaxLocator = 0x7f;

struct CsigSignalType {
  std::uint8_t code;
  std::string_view name;
  std::string_view description;
  ExtremumOp op;
  std::uint8_t uninitialized;  // MIN: all ones, MAX: zero
};

// Signal types 0..3 and their aggregation function; 4..7 are unassigned.
inline constexpr std::array<CsigSignalType, 4> kCsigSignalTypes = {{
    {0, "abw", "minimum available bandwidth", ExtremumOp::min,
     kCsigMaxSignalValue},
    {1, "abw_c", "minimum available bandwidth / capacity", ExtremumOp::min,
     kCsigMaxSignalValue},
    {2, "delay", "maximum per-hop delay", ExtremumOp::max, 0},
    {3, "nqd", "maximum normalized queue depth", ExtremumOp::max, 0},
}};

// nullopt for an unassigned signal type.
constexpr std::optional<CsigSignalType> csig_signal_type(std::uint8_t code) {
  for (const CsigSignalType& t : kCsigSignalTypes)
    if (t.code == code) return t;
  return std::nullopt;
}

struct CsigTag {
  std::uint16_t tpid = kDefaultCsigEtherType;
  std::uint8_t signal_type = 0;       // 3 bits
  std::uint8_t reserved = 0;          // 1 bit
  std::uint8_t signal_value = 0;      // 5 bits
  std::uint8_t locator_metadata = 0;  // 7 bits
  bool operator==(const CsigTag&) const = default;
};

// Parses the 4 tag bytes starting at the TPID. Errors: truncation of
// "csig.tpid" or "csig.control"; "csig.tpid" when the TPID is not `tpid`.
// An unassigned signal type is not an error here (it is kept); locate()
// refuses it.
std::expected<CsigTag, DecodeError> parse_csig_tag(
    ByteSpan data, std::size_t base_offset = 0,
    std::uint16_t tpid = kDefaultCsigEtherType);

// Why `tpid` cannot be the CSIG tag's TPID, or nothing: frames that start
// with it at the tag's place would be read both ways. Below 0x0600 (an
// 802.3 length, or neither a length nor an EtherType), a VLAN tag's TPID
// (wire::is_vlan_tpid: the walkers step over VLAN tags first, and would
// never find the CSIG tag), or the EtherType of IPv4, IPv6 or ARP (the
// walkers of every binding step over a CSIG tag, so an IPv4 EtherType
// taken for one hides every IPv4 packet): "a VLAN tag's TPID", "IPv4's
// EtherType".
std::optional<std::string> csig_tpid_problem(std::uint16_t tpid);

// Errors: "csig.signal_type" over 3 bits, "csig.reserved" over 1 bit,
// "csig.signal_value" over 5 bits, "csig.locator_metadata" over 7 bits.
std::expected<void, EncodeError> serialize(const CsigTag& tag, ByteWriter& out);
constexpr std::size_t encoded_size(const CsigTag&) { return kCsigTagSize; }

// Linear quantization of a signal into a bucket index, saturating at the
// top bucket: bucket = (value - base) / step, clamped to 0..max_bucket.
// The draft leaves quantization to the deployment; for the compact tag the
// top bucket (31) doubles as "at least this much" and as UNINITIALIZED for
// MIN signals, which is consistent: no hop can report more.
constexpr std::uint32_t quantize_linear(std::uint64_t value, std::uint64_t base,
                                        std::uint64_t step,
                                        std::uint32_t max_bucket) {
  if (step == 0 || value <= base) return 0;
  const std::uint64_t bucket = (value - base) / step;
  return bucket > max_bucket ? max_bucket : static_cast<std::uint32_t>(bucket);
}

}  // namespace arfabric::wire::ibcs
