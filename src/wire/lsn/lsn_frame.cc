#include "wire/lsn/lsn_frame.h"

#include <zlib.h>

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

std::expected<LsnFrame, DecodeError> parse(ByteSpan frame,
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
    const ByteSpan fcs = frame.last(kFcsSize);
    const std::uint32_t received =
        std::uint32_t{fcs[0]} | std::uint32_t{fcs[1]} << 8 |
        std::uint32_t{fcs[2]} << 16 | std::uint32_t{fcs[3]} << 24;
    if (received != expected) {
      return std::unexpected(DecodeError{
          "lsn.fcs", body.size(),
          "CRC-32 mismatch: frame carries " + std::to_string(received) +
              ", computed " + std::to_string(expected)});
    }
  }
  ByteReader r(body);
  LsnFrame out;
  auto da = ARF_TRY(r.bytes(6, "lsn.destination"));
  std::copy(da.begin(), da.end(), out.destination.begin());
  auto sa = ARF_TRY(r.bytes(6, "lsn.source"));
  std::copy(sa.begin(), sa.end(), out.source.begin());
  const std::uint16_t ethertype = ARF_TRY(r.u16("lsn.ethertype"));
  if (ethertype != options.ethertype) {
    return std::unexpected(r.error_at(
        12, "lsn.ethertype",
        "expected " + hex16(options.ethertype) + ", got " + hex16(ethertype)));
  }
  const std::uint16_t opcode = ARF_TRY(r.u16("lsn.opcode"));
  if (opcode != options.opcode) {
    return std::unexpected(r.error_at(
        14, "lsn.opcode",
        "expected " + hex16(options.opcode) + ", got " + hex16(opcode)));
  }
  const std::uint8_t b0 = ARF_TRY(r.u8("lsn.type"));
  out.type = b0 >> 4;
  if (out.type != kHeaderType) {
    return std::unexpected(r.error_at(
        16, "lsn.type",
        "Header Type is " + std::to_string(out.type) + ", LSN uses 12"));
  }
  const std::uint8_t b1 = ARF_TRY(r.u8("lsn.dev_range"));
  out.r = (b0 >> 3) & 1;
  out.msg_type = static_cast<MsgType>((b0 >> 1) & 3);
  out.reserved = static_cast<std::uint8_t>((b0 & 1) << 2 | b1 >> 6);
  out.dev_range = b1 & 0x3f;
  auto bitmap = ARF_TRY(r.bytes(32, "lsn.bitmap"));
  std::copy(bitmap.begin(), bitmap.end(), out.bitmap.bytes.begin());
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
