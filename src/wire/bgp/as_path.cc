#include "wire/bgp/as_path.h"

#include <string>

namespace arfabric::wire::bgp {

std::expected<AsPath, DecodeError> parse_as_path(ByteReader r,
                                                 std::size_t asn_size,
                                                 std::string_view field) {
  // Field names are built only on error: this runs for every UPDATE.
  auto error = [&](std::size_t at, const char* sub, std::string reason) {
    return std::unexpected(
        r.error_at(at, std::string(field) + "." + sub, std::move(reason)));
  };
  AsPath path;
  while (!r.empty()) {
    AsPathSegment seg;
    const std::size_t at = r.offset();
    if (r.remaining() < 2) {
      return error(
          at, r.remaining() == 0 ? "segment_type" : "segment_length",
          "truncated: need 2 bytes, have " + std::to_string(r.remaining()));
    }
    seg.type = *r.u8("segment_type");
    if (seg.type < 1 || seg.type > 4) {
      return error(at, "segment_type",
                   "unknown segment type " + std::to_string(seg.type));
    }
    const std::size_t count_at = r.offset();
    const std::uint8_t count = *r.u8("segment_length");
    if (count == 0) return error(count_at, "segment_length", "empty segment");
    if (r.remaining() < count * asn_size) {
      return error(count_at, "segment_length",
                   std::to_string(count) + " ASNs overrun the attribute (" +
                       std::to_string(r.remaining()) + " bytes left)");
    }
    seg.asns.reserve(count);
    // Cannot fail: the length was checked above.
    for (std::size_t i = 0; i < count; ++i) {
      seg.asns.push_back(asn_size == 4 ? *r.u32("asn") : *r.u16("asn"));
    }
    path.segments.push_back(std::move(seg));
  }
  return path;
}

std::expected<void, EncodeError> serialize(const AsPath& path,
                                           std::size_t asn_size,
                                           ByteWriter& out) {
  for (const AsPathSegment& seg : path.segments) {
    if (seg.asns.empty() || seg.asns.size() > 255) {
      return std::unexpected(
          EncodeError{"as_path.segment", "segment holds " +
                                             std::to_string(seg.asns.size()) +
                                             " ASNs; must be 1..255"});
    }
    out.u8(seg.type);
    out.u8(static_cast<std::uint8_t>(seg.asns.size()));
    for (std::uint32_t asn : seg.asns) {
      if (asn_size == 4) {
        out.u32(asn);
      } else if (asn > 0xffff) {
        return std::unexpected(EncodeError{
            "as_path.asn",
            "ASN " + std::to_string(asn) + " does not fit 2 octets"});
      } else {
        out.u16(static_cast<std::uint16_t>(asn));
      }
    }
  }
  return {};
}

std::size_t encoded_size(const AsPath& path, std::size_t asn_size) {
  std::size_t n = 0;
  for (const AsPathSegment& seg : path.segments) {
    n += 2 + seg.asns.size() * asn_size;
  }
  return n;
}

std::string format_as_path(const AsPath& path) {
  std::string s;
  for (const AsPathSegment& seg : path.segments) {
    if (!s.empty()) s += ' ';
    const bool set = seg.type == segment_type::kAsSet ||
                     seg.type == segment_type::kConfedSet;
    const bool confed = seg.type == segment_type::kConfedSequence ||
                        seg.type == segment_type::kConfedSet;
    if (confed) s += '(';
    if (set) s += '{';
    for (std::size_t i = 0; i < seg.asns.size(); ++i) {
      if (i) s += set ? "," : " ";
      s += std::to_string(seg.asns[i]);
    }
    if (set) s += '}';
    if (confed) s += ')';
  }
  return s;
}

}  // namespace arfabric::wire::bgp
