#include "wire/bgp/nlri.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>
#include <string>

namespace arfabric::wire::bgp {

std::optional<Prefix> prefix_from_string(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string addr = text.substr(0, slash);
  int len = -1;
  const char* first = text.data() + slash + 1;
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, len);
  if (ec != std::errc() || end != last) return std::nullopt;
  Prefix p;
  std::array<std::uint8_t, 16> buf{};
  int max = 32;
  if (inet_pton(AF_INET, addr.c_str(), buf.data()) != 1) {
    if (inet_pton(AF_INET6, addr.c_str(), buf.data()) != 1) return std::nullopt;
    max = 128;
  }
  if (len < 0 || len > max) return std::nullopt;
  p.length = static_cast<std::uint8_t>(len);
  std::memcpy(p.address.data(), buf.data(), p.byte_length());
  return p;
}

std::string format_prefix(const Prefix& p, std::uint8_t max_bits) {
  char text[INET6_ADDRSTRLEN] = {};
  if (max_bits <= 32) {
    inet_ntop(AF_INET, p.address.data(), text, sizeof text);
  } else {
    inet_ntop(AF_INET6, p.address.data(), text, sizeof text);
  }
  return std::string(text) + "/" + std::to_string(p.length);
}

std::expected<std::vector<Prefix>, BgpError> parse_prefixes(
    ByteReader r, std::uint8_t max_bits, bool add_path, std::string_view field,
    std::uint8_t subcode) {
  // Reads use the bare sub-field name and the caller's prefix is added only
  // on error: building "field.sub" strings per prefix dominated parse time.
  auto fail = [&](DecodeError e) {
    e.field = std::string(field) + "." + e.field;
    return std::unexpected(
        session_reset(std::move(e), error_code::kUpdateMessage, subcode));
  };
  std::vector<Prefix> out;
  out.reserve(r.remaining() / (add_path ? 6 : 2));
  while (!r.empty()) {
    Prefix p;
    if (add_path) {
      auto id = r.u32("path_id");
      if (!id) return fail(id.error());
      p.path_id = *id;
    }
    const std::size_t at = r.offset();
    auto len = r.u8("prefix_length");
    if (!len) return fail(len.error());
    if (*len > max_bits) {
      return fail(r.error_at(at, "prefix_length",
                             "prefix length " + std::to_string(*len) +
                                 " exceeds " + std::to_string(max_bits)));
    }
    p.length = *len;
    auto bytes = r.bytes(p.byte_length(), "prefix");
    if (!bytes) return fail(bytes.error());
    std::memcpy(p.address.data(), bytes->data(), bytes->size());
    out.push_back(p);
  }
  return out;
}

std::expected<void, EncodeError> serialize_prefixes(
    const std::vector<Prefix>& prefixes, std::uint8_t max_bits, bool add_path,
    ByteWriter& out) {
  for (const Prefix& p : prefixes) {
    if (p.length > max_bits) {
      return std::unexpected(EncodeError{
          "prefix.length", "length " + std::to_string(p.length) + " exceeds " +
                               std::to_string(max_bits)});
    }
    if (add_path) {
      out.u32(p.path_id.value_or(0));
    } else if (p.path_id) {
      return std::unexpected(
          EncodeError{"prefix.path_id", "path ID without negotiated ADD-PATH"});
    }
    out.u8(p.length);
    out.bytes(ByteSpan(p.address.data(), p.byte_length()));
  }
  return {};
}

std::size_t encoded_size(const std::vector<Prefix>& prefixes, bool add_path) {
  std::size_t n = 0;
  for (const Prefix& p : prefixes) n += (add_path ? 5 : 1) + p.byte_length();
  return n;
}

}  // namespace arfabric::wire::bgp
