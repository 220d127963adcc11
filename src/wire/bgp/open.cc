#include "wire/bgp/open.h"

#include <string>

#include "wire/bgp/header.h"
#include "wire/bgp/message_util.h"

namespace arfabric::wire::bgp {
namespace {

BgpError open_error(DecodeError e, std::uint8_t sub, Bytes data = {}) {
  return session_reset(std::move(e), error_code::kOpenMessage, sub,
                       std::move(data));
}

std::size_t param_value_size(const OptionalParameter& p) {
  if (p.type != kParamCapabilities) return p.raw.size();
  std::size_t n = 0;
  for (const Capability& c : p.capabilities) n += encoded_size(c);
  return n;
}

bool needs_extended(const Open& open) {
  if (open.extended_parameters) return true;
  std::size_t total = 0;
  for (const OptionalParameter& p : open.parameters) {
    const std::size_t n = param_value_size(p);
    if (n > 255) return true;
    total += 2 + n;
  }
  return total > 255;
}

}  // namespace

std::vector<Capability> Open::capabilities() const {
  std::vector<Capability> out;
  for (const OptionalParameter& p : parameters) {
    if (p.type != kParamCapabilities) continue;
    out.insert(out.end(), p.capabilities.begin(), p.capabilities.end());
  }
  return out;
}

std::optional<std::uint32_t> Open::four_octet_as() const {
  for (const Capability& c : capabilities()) {
    if (auto* v = std::get_if<FourOctetAsCapability>(&c.value)) return v->asn;
  }
  return std::nullopt;
}

std::expected<Open, BgpError> parse_open_body(ByteReader body) {
  Open o;
  auto unspecific = [](DecodeError e) {
    return open_error(std::move(e), subcode::kUnspecific);
  };
  const std::size_t version_at = body.offset();
  o.version = ARF_TRY(lift(body.u8("bgp.open.version"),
                           error_code::kOpenMessage, subcode::kUnspecific));
  if (o.version != 4) {
    return std::unexpected(open_error(
        body.error_at(version_at, "bgp.open.version",
                      "version " + std::to_string(o.version) + ", only 4"),
        subcode::kUnsupportedVersion, {0, 4}));
  }
  o.my_as = ARF_TRY(lift(body.u16("bgp.open.my_as"), error_code::kOpenMessage,
                         subcode::kUnspecific));
  const std::size_t hold_at = body.offset();
  o.hold_time = ARF_TRY(lift(body.u16("bgp.open.hold_time"),
                             error_code::kOpenMessage, subcode::kUnspecific));
  if (o.hold_time == 1 || o.hold_time == 2) {
    return std::unexpected(
        open_error(body.error_at(hold_at, "bgp.open.hold_time",
                                 "hold time " + std::to_string(o.hold_time) +
                                     " (must be 0 or at least 3)"),
                   subcode::kUnacceptableHoldTime));
  }
  const std::size_t id_at = body.offset();
  auto id = ARF_TRY(lift(body.bytes(4, "bgp.open.identifier"),
                         error_code::kOpenMessage, subcode::kUnspecific));
  std::copy(id.begin(), id.end(), o.identifier.begin());
  if (o.identifier == Ipv4Address{}) {
    return std::unexpected(open_error(
        body.error_at(id_at, "bgp.open.identifier", "BGP Identifier 0"),
        subcode::kBadBgpIdentifier));
  }
  const std::size_t len_at = body.offset();
  std::size_t params_len =
      ARF_TRY(lift(body.u8("bgp.open.optional_parameters_length"),
                   error_code::kOpenMessage, subcode::kUnspecific));
  // RFC 9072 section 2: Non-Ext OP Len 255 followed by Non-Ext OP Type 255.
  {
    ByteReader peek = body;
    auto t = peek.u8("x");
    if (params_len == 255 && t && *t == 255) {
      o.extended_parameters = true;
      body.u8("bgp.open.non_ext_op_type");
      params_len =
          ARF_TRY(lift(body.u16("bgp.open.extended_optional_parameters_length"),
                       error_code::kOpenMessage, subcode::kUnspecific));
    }
  }
  auto params = body.sub(params_len, "bgp.open.optional_parameters");
  if (!params) {
    return std::unexpected(unspecific(body.error_at(
        len_at, "bgp.open.optional_parameters_length",
        "length " + std::to_string(params_len) + " overruns the message")));
  }
  if (!body.empty()) {
    return std::unexpected(unspecific(body.error(
        "bgp.open.optional_parameters",
        std::to_string(body.remaining()) + " bytes after the parameters")));
  }
  while (!params->empty()) {
    OptionalParameter p;
    p.type = ARF_TRY(lift(params->u8("bgp.open.parameter.type"),
                          error_code::kOpenMessage, subcode::kUnspecific));
    const std::size_t n =
        o.extended_parameters
            ? ARF_TRY(lift(params->u16("bgp.open.parameter.length"),
                           error_code::kOpenMessage, subcode::kUnspecific))
            : ARF_TRY(lift(params->u8("bgp.open.parameter.length"),
                           error_code::kOpenMessage, subcode::kUnspecific));
    ByteReader value =
        ARF_TRY(lift(params->sub(n, "bgp.open.parameter.value"),
                     error_code::kOpenMessage, subcode::kUnspecific));
    if (p.type == kParamCapabilities) {
      p.capabilities = ARF_TRY(parse_capabilities(value));
    } else {
      const ByteSpan raw = value.rest();
      p.raw.assign(raw.begin(), raw.end());
    }
    o.parameters.push_back(std::move(p));
  }
  return o;
}

std::expected<Open, BgpError> parse_open(ByteSpan message,
                                         const ParseOptions& options) {
  ByteReader body = ARF_TRY(message_body(message, MessageType::open, options));
  return parse_open_body(body);
}

std::expected<void, EncodeError> serialize(const Open& open, ByteWriter& out) {
  const std::size_t start = out.size();
  auto fail = [&](EncodeError e) {
    out.truncate(start);
    return std::unexpected(std::move(e));
  };
  const bool ext = needs_extended(open);
  serialize(Header{0, static_cast<std::uint8_t>(MessageType::open)}, out);
  out.u8(open.version);
  out.u16(open.my_as);
  out.u16(open.hold_time);
  out.bytes(open.identifier);
  std::size_t len_at;
  if (ext) {
    out.u8(255);
    out.u8(255);
    len_at = out.size();
    out.u16(0);
  } else {
    len_at = out.size();
    out.u8(0);
  }
  const std::size_t params_start = out.size();
  for (const OptionalParameter& p : open.parameters) {
    if (p.type == kParamCapabilities && !p.raw.empty()) {
      return fail(EncodeError{"open.parameter.raw",
                              "raw bytes in a Capabilities parameter"});
    }
    if (p.type != kParamCapabilities && !p.capabilities.empty()) {
      return fail(EncodeError{"open.parameter.capabilities",
                              "capabilities in a non-Capabilities parameter"});
    }
    const std::size_t n = param_value_size(p);
    if (n > (ext ? 0xffffu : 0xffu)) {
      return fail(EncodeError{"open.parameter", "parameter value too long"});
    }
    out.u8(p.type);
    if (ext) {
      out.u16(static_cast<std::uint16_t>(n));
    } else {
      out.u8(static_cast<std::uint8_t>(n));
    }
    if (p.type != kParamCapabilities) {
      out.bytes(p.raw);
      continue;
    }
    for (const Capability& c : p.capabilities) {
      if (auto r = serialize(c, out); !r) return fail(r.error());
    }
  }
  const std::size_t params_len = out.size() - params_start;
  const std::size_t total = out.size() - start;
  if (total > 4096) {
    return fail(EncodeError{
        "open", "message of " + std::to_string(total) + " bytes exceeds 4096"});
  }
  if (ext) {
    out.patch_u16(len_at, static_cast<std::uint16_t>(params_len));
  } else {
    out.patch_u8(len_at, static_cast<std::uint8_t>(params_len));
  }
  out.patch_u16(start + kMarkerSize, static_cast<std::uint16_t>(total));
  return {};
}

std::size_t encoded_size(const Open& open) {
  const bool ext = needs_extended(open);
  std::size_t n = kHeaderSize + 10 + (ext ? 3 : 0);
  for (const OptionalParameter& p : open.parameters) {
    n += (ext ? 3 : 2) + param_value_size(p);
  }
  return n;
}

SessionCodecOptions negotiate(const Open& local, const Open& remote) {
  SessionCodecOptions o;
  o.four_octet_as = local.four_octet_as() && remote.four_octet_as();
  auto has_ext = [](const Open& open) {
    for (const Capability& c : open.capabilities()) {
      if (c.code == capability_code::kExtendedMessage) return true;
    }
    return false;
  };
  o.extended_message = has_ext(local) && has_ext(remote);
  auto add_path = [](const Open& open) {
    std::vector<AddPathCapability::Entry> out;
    for (const Capability& c : open.capabilities()) {
      if (auto* v = std::get_if<AddPathCapability>(&c.value)) {
        out.insert(out.end(), v->entries.begin(), v->entries.end());
      }
    }
    return out;
  };
  const auto remote_entries = add_path(remote);
  for (const auto& l : add_path(local)) {
    if (!(l.send_receive & 1)) continue;
    for (const auto& r : remote_entries) {
      if (r.family == l.family && (r.send_receive & 2) &&
          !o.has_add_path(l.family)) {
        o.add_path.push_back(l.family);
      }
    }
  }
  return o;
}

}  // namespace arfabric::wire::bgp
