#include "wire/lsn/lsn_frame.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <string>

namespace arfabric::wire::lsn {
namespace {

std::string hex16(std::uint16_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) s += kDigits[(v >> shift) & 0xf];
  return s;
}

}  // namespace

const char* to_string(MsgType type) {
  switch (type) {
    case MsgType::reachable:
      return "reachable";
    case MsgType::congestion_level_1:
      return "congestion_level_1";
    case MsgType::congestion_level_2:
      return "congestion_level_2";
    case MsgType::congestion_level_3:
      return "congestion_level_3";
  }
  return "invalid";
}

std::size_t Bitmap::count() const {
  std::size_t n = 0;
  for (std::uint8_t b : bytes) n += static_cast<std::size_t>(std::popcount(b));
  return n;
}

std::uint32_t ethernet_fcs(ByteSpan frame) {
  return static_cast<std::uint32_t>(
      crc32(0L, frame.data(), static_cast<uInt>(frame.size())));
}

namespace {

// The walk that explains why view() refused a frame, one error per check
// of view(); parse() runs it only then.
std::expected<void, DecodeError> explain(ByteSpan frame,
                                         const CodecOptions& options) {
  ByteSpan body = frame;
  if (options.fcs) {
    if (frame.size() < kFcsSize) {
      return std::unexpected(DecodeError{"lsn.fcs", 0,
                                         "frame of " +
                                             std::to_string(frame.size()) +
                                             " bytes cannot hold an FCS"});
    }
    body = frame.first(frame.size() - kFcsSize);
    const std::uint32_t expected = ethernet_fcs(body);
    const std::uint32_t received = detail::received_fcs(frame);
    if (received != expected) {
      return std::unexpected(DecodeError{
          "lsn.fcs", body.size(),
          "CRC-32 mismatch: frame carries " + std::to_string(received) +
              ", computed " + std::to_string(expected)});
    }
  }
  ByteReader r(body);
  (void)ARF_TRY(r.bytes(6, "lsn.destination"));
  (void)ARF_TRY(r.bytes(6, "lsn.source"));
  const std::uint16_t ethertype = ARF_TRY(r.u16("lsn.ethertype"));
  if (ethertype != options.ethertype) {
    return std::unexpected(r.error_at(
        kEtherTypeOffset, "lsn.ethertype",
        "expected " + hex16(options.ethertype) + ", got " + hex16(ethertype)));
  }
  const std::uint16_t opcode = ARF_TRY(r.u16("lsn.opcode"));
  if (opcode != options.opcode) {
    return std::unexpected(r.error_at(
        kOpcodeOffset, "lsn.opcode",
        "expected " + hex16(options.opcode) + ", got " + hex16(opcode)));
  }
  const std::uint8_t type = ARF_TRY(r.u8("lsn.type")) >> 4;
  if (type != kHeaderType) {
    return std::unexpected(
        r.error_at(kTypeOffset, "lsn.type",
                   "Header Type is " + std::to_string(type) + ", LSN uses 12"));
  }
  (void)ARF_TRY(r.u8("lsn.dev_range"));
  (void)ARF_TRY(r.bytes(32, "lsn.bitmap"));
  return {};
}

}  // namespace

std::expected<LsnFrame, DecodeError> parse(ByteSpan frame,
                                           const CodecOptions& options) {
  const auto v = view(frame, options);
  if (!v) {
    if (auto why = explain(frame, options); !why)
      return std::unexpected(std::move(why).error());
    return std::unexpected(
        DecodeError{"lsn.parse", 0,
                    "internal: view() refuses a frame the detailed walk "
                    "accepts (please report this frame)"});
  }
  const ByteSpan b = v->body;
  LsnFrame out;
  std::copy_n(b.begin(), 6, out.destination.begin());
  std::copy_n(b.begin() + 6, 6, out.source.begin());
  const std::uint8_t b0 = b[kTypeOffset];
  const std::uint8_t b1 = b[kDevRangeOffset];
  out.type = b0 >> 4;
  out.r = (b0 >> 3) & 1;
  out.msg_type = v->msg_type();
  out.reserved = static_cast<std::uint8_t>((b0 & 1) << 2 | b1 >> 6);
  out.dev_range = v->dev_range();
  std::copy_n(v->bitmap(), 32, out.bitmap.bytes.begin());
  return out;
}

std::expected<void, EncodeError> serialize(const LsnFrame& f, ByteWriter& out,
                                           const CodecOptions& options) {
  if (f.type > 15)
    return std::unexpected(EncodeError{"lsn.type", "exceeds 4 bits"});
  if (f.reserved > 7) {
    return std::unexpected(EncodeError{"lsn.reserved", "exceeds 3 bits"});
  }
  if (static_cast<std::uint8_t>(f.msg_type) > 3) {
    return std::unexpected(EncodeError{"lsn.msg_type", "exceeds 2 bits"});
  }
  if (f.dev_range > kMaxDevRange) {
    return std::unexpected(
        EncodeError{"lsn.dev_range", "value " + std::to_string(f.dev_range) +
                                         " exceeds the 6-bit field (max 63)"});
  }
  const std::size_t start = out.size();
  out.bytes(f.destination);
  out.bytes(f.source);
  out.u16(options.ethertype);
  out.u16(options.opcode);
  out.u8(static_cast<std::uint8_t>(f.type << 4 | (f.r ? 0x08 : 0) |
                                   static_cast<std::uint8_t>(f.msg_type) << 1 |
                                   f.reserved >> 2));
  out.u8(static_cast<std::uint8_t>((f.reserved & 3) << 6 | f.dev_range));
  out.bytes(f.bitmap.bytes);
  out.zeros(kFrameSize - (out.size() - start));
  if (options.fcs) {
    const std::uint32_t fcs =
        ethernet_fcs(ByteSpan(out.data()).subspan(start, kFrameSize));
    for (int i = 0; i < 4; ++i)
      out.u8(static_cast<std::uint8_t>(fcs >> (8 * i)));
  }
  return {};
}

std::size_t encoded_size(const LsnFrame&, const CodecOptions& options) {
  return kFrameSize + (options.fcs ? kFcsSize : 0);
}

}  // namespace arfabric::wire::lsn
