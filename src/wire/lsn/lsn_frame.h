// The Lightspeed Notification (LSN) frame, draft-camarillo-rtgwg-lsn-00 §3.1.
//
// The whole Ethernet frame is the message: DA 01-80-C2-00-00-01, SA,
// EtherType TBD1 (0x8808 MAC Control) and OpCode TBD2 (0x5AA5), then the
// 34-byte LSN payload (Figure 2):
//
//   byte 0: Type (4 bits, 12) | R (1) | Msg-type (2) | Rsv high bit
//   byte 1: Rsv low 2 bits | Dev-Range (6 bits, 0..63)
//   bytes 2..33: Reachable-Devices-Bitmap, 256 bits
//
// then zero padding to the 60-byte Ethernet minimum and, optionally, the FCS
// (CRC-32, sent least significant byte first). Bit i of the bitmap describes
// Global Node ID Dev-Range * 256 + i and is bit (7 - i % 8) of byte i / 8:
// the leftmost bit of Figure 3 is device 0 (docs/PROTOCOLS.md).
//
// R and Rsv "MUST be set to zero upon transmission and ignored upon
// receival": parsing keeps them as received (so a capture can show them and
// round-trips byte-exact), and engines originate frames with them zero.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>

#include "common/bytes.h"
#include "wire/inet/ethernet.h"

namespace arfabric::wire::lsn {

inline constexpr MacAddress kDestination = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
inline constexpr std::uint16_t kDefaultEtherType = 0x8808;  // TBD1
inline constexpr std::uint16_t kDefaultOpcode = 0x5aa5;     // TBD2
inline constexpr std::uint8_t kHeaderType = 12;
inline constexpr std::size_t kPayloadSize = 34;
inline constexpr std::size_t kDevicesPerRange = 256;
inline constexpr std::uint8_t kMaxDevRange = 63;
// Frame length without FCS: header, opcode and payload padded to 60 bytes.
inline constexpr std::size_t kFrameSize = kEthernetMinFrameSize;
inline constexpr std::size_t kFcsSize = 4;
// What one frame takes of a link: the frame, its FCS, and the preamble
// (8 bytes) and inter-frame gap (12) around it.
inline constexpr std::size_t kWireSize = kFrameSize + kFcsSize + 20;

// Msg-type values (§3.1). Levels 1..3 are implementation specific; see
// docs/PROTOCOLS.md for what arfabric makes of them.
enum class MsgType : std::uint8_t {
  reachable = 0,
  congestion_level_1 = 1,
  congestion_level_2 = 2,
  congestion_level_3 = 3,
};

const char* to_string(MsgType type);

// The code points the draft leaves TBD, and whether frames carry an FCS.
struct CodecOptions {
  std::uint16_t ethertype = kDefaultEtherType;
  std::uint16_t opcode = kDefaultOpcode;
  bool fcs = false;  // true: the last 4 bytes are the FCS, verified on parse
};

struct Bitmap {
  std::array<std::uint8_t, 32> bytes{};

  bool test(std::size_t index) const {
    return (bytes[index / 8] >> (7 - index % 8)) & 1;
  }
  void set(std::size_t index, bool value) {
    const auto mask = static_cast<std::uint8_t>(1u << (7 - index % 8));
    bytes[index / 8] =
        value ? (bytes[index / 8] | mask)
              : static_cast<std::uint8_t>(bytes[index / 8] & ~mask);
  }
  void fill(bool value) { bytes.fill(value ? 0xff : 0x00); }
  std::size_t count() const;
  bool operator==(const Bitmap&) const = default;
};

struct LsnFrame {
  MacAddress destination = kDestination;
  MacAddress source{};
  std::uint8_t type = kHeaderType;  // 4 bits
  bool r = false;                   // reserved bit, as received
  MsgType msg_type = MsgType::reachable;
  std::uint8_t reserved = 0;   // 3 bits, as received
  std::uint8_t dev_range = 0;  // 6 bits: devices dev_range*256 .. +255
  Bitmap bitmap;

  // Global Node ID of bitmap bit i.
  std::uint32_t device_id(std::size_t bit) const {
    return std::uint32_t{dev_range} * kDevicesPerRange +
           static_cast<std::uint32_t>(bit);
  }
  bool operator==(const LsnFrame&) const = default;
};

// Byte offsets in the frame (from the destination MAC), shared by view()
// and parse() so the two cannot read different bytes.
inline constexpr std::size_t kEtherTypeOffset = 12;
inline constexpr std::size_t kOpcodeOffset = 14;
inline constexpr std::size_t kTypeOffset = 16;      // Type | R | Msg-type | Rsv
inline constexpr std::size_t kDevRangeOffset = 17;  // Rsv | Dev-Range
inline constexpr std::size_t kBitmapOffset = 18;
inline constexpr std::size_t kMinFrameSize = kBitmapOffset + 32;  // 50

// A frame that parse() accepts, read in place: what a receiver needs per
// frame, without building an LsnFrame or, on refusal, a DecodeError.
// `frame` must outlive the view.
struct FrameView {
  ByteSpan body;  // the frame without its FCS; at least kMinFrameSize bytes

  MsgType msg_type() const {
    return static_cast<MsgType>((body[kTypeOffset] >> 1) & 3);
  }
  std::uint8_t dev_range() const { return body[kDevRangeOffset] & 0x3f; }
  // The 32 Reachable-Devices-Bitmap bytes, in wire order.
  const std::uint8_t* bitmap() const { return body.data() + kBitmapOffset; }
};

// The Ethernet FCS (CRC-32 of IEEE 802.3) of `frame`.
std::uint32_t ethernet_fcs(ByteSpan frame);

namespace detail {
// The frame's last 4 bytes as an FCS (sent least significant byte first).
inline std::uint32_t received_fcs(ByteSpan frame) {
  const ByteSpan fcs = frame.last(kFcsSize);
  return std::uint32_t{fcs[0]} | std::uint32_t{fcs[1]} << 8 |
         std::uint32_t{fcs[2]} << 16 | std::uint32_t{fcs[3]} << 24;
}
}  // namespace detail

// parse()'s acceptance without its errors: a view exactly when parse()
// succeeds (parse() takes its success from here), nullopt exactly when it
// fails. Checks the FCS when options.fcs. No allocation; inline, because a
// receiver runs it on every frame.
inline std::optional<FrameView> view(ByteSpan frame,
                                     const CodecOptions& options = {}) {
  ByteSpan body = frame;
  if (options.fcs) {
    if (frame.size() < kFcsSize) return std::nullopt;
    body = frame.first(frame.size() - kFcsSize);
  }
  // Padding, R and Rsv are not looked at (receivers ignore them).
  if (body.size() < kMinFrameSize ||
      load_be16(body, kEtherTypeOffset) != options.ethertype ||
      load_be16(body, kOpcodeOffset) != options.opcode ||
      body[kTypeOffset] >> 4 != kHeaderType) {
    return std::nullopt;
  }
  // Last: the CRC is the expensive check.
  if (options.fcs && detail::received_fcs(frame) != ethernet_fcs(body))
    return std::nullopt;
  return FrameView{body};
}

// Parses a whole Ethernet frame (starting at the destination MAC).
// Errors (field names):
//   lsn.destination, lsn.source, lsn.ethertype, lsn.opcode, lsn.type,
//   lsn.dev_range, lsn.bitmap: truncated;
//   lsn.ethertype / lsn.opcode: not the configured code point;
//   lsn.type: Header Type is not 12;
//   lsn.fcs: frame too short to hold an FCS, or the CRC-32 does not match.
// Padding after the bitmap is not checked (receivers ignore it).
std::expected<LsnFrame, DecodeError> parse(ByteSpan frame,
                                           const CodecOptions& options = {});

// Writes the frame padded to 60 bytes, plus the FCS when options.fcs.
// Errors: lsn.type > 15, lsn.reserved > 7, lsn.dev_range > 63,
// lsn.msg_type > 3.
std::expected<void, EncodeError> serialize(const LsnFrame& frame,
                                           ByteWriter& out,
                                           const CodecOptions& options = {});
std::size_t encoded_size(const LsnFrame& frame,
                         const CodecOptions& options = {});

}  // namespace arfabric::wire::lsn
