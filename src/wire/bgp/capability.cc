#include "wire/bgp/capability.h"

#include <array>
#include <string>

namespace arfabric::wire::bgp {
namespace {

struct CapabilityName {
  std::uint8_t code;
  std::string_view name;
};

constexpr std::array<CapabilityName, 10> kNames = {{
    {1, "Multiprotocol Extensions"},
    {2, "Route Refresh"},
    {5, "Extended Next Hop Encoding"},
    {6, "Extended Message"},
    {64, "Graceful Restart"},
    {65, "4-octet AS Number"},
    {69, "ADD-PATH"},
    {70, "Enhanced Route Refresh"},
    {73, "FQDN"},
    {128, "Route Refresh (Cisco)"},
}};

std::expected<CapabilityValue, std::string> parse_value(std::uint8_t code,
                                                        ByteReader r) {
  const std::size_t n = r.remaining();
  auto need = [&](bool ok,
                  std::string_view want) -> std::expected<void, std::string> {
    if (ok) return {};
    return std::unexpected("length " + std::to_string(n) + ", expected " +
                           std::string(want));
  };
  switch (code) {
    case capability_code::kMultiprotocol: {
      ARF_TRY(need(n == 4, "4"));
      MultiprotocolCapability c;
      c.family.afi = *r.u16("afi");
      c.reserved = *r.u8("reserved");
      c.family.safi = *r.u8("safi");
      return c;
    }
    case capability_code::kRouteRefresh:
      ARF_TRY(need(n == 0, "0"));
      return RouteRefreshCapability{};
    case capability_code::kExtendedMessage:
      ARF_TRY(need(n == 0, "0"));
      return ExtendedMessageCapability{};
    case capability_code::kFourOctetAs:
      ARF_TRY(need(n == 4, "4"));
      return FourOctetAsCapability{*r.u32("asn")};
    case capability_code::kAddPath: {
      ARF_TRY(need(n % 4 == 0, "a multiple of 4"));
      AddPathCapability c;
      while (!r.empty()) {
        AddPathCapability::Entry e;
        e.family.afi = *r.u16("afi");
        e.family.safi = *r.u8("safi");
        e.send_receive = *r.u8("send_receive");
        c.entries.push_back(e);
      }
      return c;
    }
    case capability_code::kGracefulRestart: {
      ARF_TRY(need(n >= 2 && (n - 2) % 4 == 0, "2 + a multiple of 4"));
      GracefulRestartCapability c;
      const std::uint16_t v = *r.u16("flags_time");
      c.flags = static_cast<std::uint8_t>(v >> 12);
      c.restart_time = v & 0x0fff;
      while (!r.empty()) {
        GracefulRestartCapability::Entry e;
        e.family.afi = *r.u16("afi");
        e.family.safi = *r.u8("safi");
        e.flags = *r.u8("flags");
        c.entries.push_back(e);
      }
      return c;
    }
  }
  const ByteSpan rest = r.rest();
  return RawCapability{Bytes(rest.begin(), rest.end())};
}

std::size_t value_size(const Capability& c) {
  return std::visit(
      [](const auto& v) -> std::size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, RawCapability>) return v.value.size();
        if constexpr (std::is_same_v<T, MultiprotocolCapability>) return 4;
        if constexpr (std::is_same_v<T, FourOctetAsCapability>) return 4;
        if constexpr (std::is_same_v<T, AddPathCapability>) {
          return 4 * v.entries.size();
        }
        if constexpr (std::is_same_v<T, GracefulRestartCapability>) {
          return 2 + 4 * v.entries.size();
        }
        return 0;
      },
      c.value);
}

std::size_t expected_index(std::uint8_t code) {
  switch (code) {
    case capability_code::kMultiprotocol:
      return 1;
    case capability_code::kRouteRefresh:
      return 2;
    case capability_code::kExtendedMessage:
      return 3;
    case capability_code::kFourOctetAs:
      return 4;
    case capability_code::kAddPath:
      return 5;
    case capability_code::kGracefulRestart:
      return 6;
  }
  return 0;
}

}  // namespace

std::string_view capability_name(std::uint8_t code) {
  for (const CapabilityName& n : kNames) {
    if (n.code == code) return n.name;
  }
  return "unknown";
}

std::expected<std::vector<Capability>, BgpError> parse_capabilities(
    ByteReader r) {
  std::vector<Capability> out;
  auto fail = [](DecodeError e) {
    return std::unexpected(session_reset(std::move(e), error_code::kOpenMessage,
                                         subcode::kUnspecific));
  };
  while (!r.empty()) {
    Capability c;
    auto code = r.u8("bgp.open.capability.code");
    if (!code) return fail(code.error());
    c.code = *code;
    auto len = r.u8("bgp.open.capability.length");
    if (!len) return fail(len.error());
    const std::size_t at = r.offset();
    auto value = r.sub(*len, "bgp.open.capability.value");
    if (!value) return fail(value.error());
    auto v = parse_value(c.code, *value);
    if (!v) {
      return fail(
          DecodeError{"bgp.open.capability.value", at,
                      std::string(capability_name(c.code)) + ": " + v.error()});
    }
    c.value = *std::move(v);
    out.push_back(std::move(c));
  }
  return out;
}

std::expected<void, EncodeError> serialize(const Capability& c,
                                           ByteWriter& out) {
  if (c.value.index() != 0 && c.value.index() != expected_index(c.code)) {
    return std::unexpected(EncodeError{
        "capability.value",
        "value does not match capability code " + std::to_string(c.code)});
  }
  if (auto* gr = std::get_if<GracefulRestartCapability>(&c.value)) {
    if (gr->flags > 0x0f || gr->restart_time > 0x0fff) {
      return std::unexpected(
          EncodeError{"capability.graceful_restart",
                      "flags exceed 4 bits or restart time exceeds 12 bits"});
    }
  }
  const std::size_t len = value_size(c);
  if (len > 255) {
    return std::unexpected(
        EncodeError{"capability.value", "longer than 255 bytes"});
  }
  out.u8(c.code);
  out.u8(static_cast<std::uint8_t>(len));
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, RawCapability>) {
          out.bytes(v.value);
        } else if constexpr (std::is_same_v<T, MultiprotocolCapability>) {
          out.u16(v.family.afi);
          out.u8(v.reserved);
          out.u8(v.family.safi);
        } else if constexpr (std::is_same_v<T, FourOctetAsCapability>) {
          out.u32(v.asn);
        } else if constexpr (std::is_same_v<T, AddPathCapability>) {
          for (const auto& e : v.entries) {
            out.u16(e.family.afi);
            out.u8(e.family.safi);
            out.u8(e.send_receive);
          }
        } else if constexpr (std::is_same_v<T, GracefulRestartCapability>) {
          out.u16(static_cast<std::uint16_t>((v.flags & 0x0f) << 12 |
                                             (v.restart_time & 0x0fff)));
          for (const auto& e : v.entries) {
            out.u16(e.family.afi);
            out.u8(e.family.safi);
            out.u8(e.flags);
          }
        }
      },
      c.value);
  return {};
}

std::size_t encoded_size(const Capability& c) { return 2 + value_size(c); }

}  // namespace arfabric::wire::bgp
