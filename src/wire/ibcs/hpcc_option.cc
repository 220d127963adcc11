#include "wire/ibcs/hpcc_option.h"

#include <string>

namespace arfabric::wire::ibcs {

std::expected<HpccOption, DecodeError> parse_hpcc_option(
    ByteSpan data, std::size_t base_offset, std::uint8_t type) {
  ByteReader r(data, base_offset);
  HpccOption o;
  o.type = ARF_TRY(r.u8("hpcc.type"));
  if (o.type != type) {
    return std::unexpected(r.error_at(base_offset, "hpcc.type",
                                      "option type " + std::to_string(o.type) +
                                          " is not " + std::to_string(type)));
  }
  const std::uint8_t length = ARF_TRY(r.u8("hpcc.length"));
  if (length != kHpccOptionLength) {
    return std::unexpected(
        r.error_at(base_offset + 1, "hpcc.length",
                   "length " + std::to_string(length) + " is not 8"));
  }
  const std::uint8_t version_flags = ARF_TRY(r.u8("hpcc.version"));
  o.version = version_flags >> 4;
  o.flags = version_flags & 0x0f;
  if (o.version != kHpccVersion) {
    return std::unexpected(
        r.error_at(base_offset + 2, "hpcc.version",
                   "version " + std::to_string(o.version) + " is not 1"));
  }
  o.locator = ARF_TRY(r.u8("hpcc.locator"));
  o.max_utilisation = ARF_TRY(r.u32("hpcc.max_utilisation"));
  return o;
}

std::expected<void, EncodeError> serialize(const HpccOption& o,
                                           ByteWriter& out) {
  if (o.version > 0x0f)
    return std::unexpected(EncodeError{"hpcc.version", "exceeds 4 bits"});
  if (o.flags > 0x0f)
    return std::unexpected(EncodeError{"hpcc.flags", "exceeds 4 bits"});
  out.u8(o.type);
  out.u8(kHpccOptionLength);
  out.u8(static_cast<std::uint8_t>(o.version << 4 | o.flags));
  out.u8(o.locator);
  out.u32(o.max_utilisation);
  return {};
}

}  // namespace arfabric::wire::ibcs
