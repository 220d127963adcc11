#include "wire/bgp/update.h"

#include <algorithm>
#include <array>
#include <string>

#include "common/hex.h"
#include "wire/bgp/header.h"
#include "wire/bgp/message_util.h"

namespace arfabric::wire::bgp {
namespace {

const AfiSafi kIpv4Unicast{kAfiIpv4, kSafiUnicast};

std::string hex_byte(std::uint8_t b) { return "0x" + to_hex(ByteSpan(&b, 1)); }

BgpError soft_error(DecodeError decode, std::uint8_t sub, Rfc7606Action action,
                    std::uint8_t type, ByteSpan attribute,
                    AfiSafi family = {}) {
  return BgpError{std::move(decode),
                  error_code::kUpdateMessage,
                  sub,
                  Bytes(attribute.begin(), attribute.end()),
                  action,
                  type,
                  family};
}

// Parses the Path Attributes field into `result`; returns a hard error only
// for the session-reset cases.
std::expected<void, BgpError> parse_attributes(ByteReader r,
                                               const ParseOptions& options,
                                               UpdateParseResult& result) {
  Update& u = result.update;
  std::array<bool, 256> seen{};
  while (!r.empty()) {
    const std::size_t start = r.offset();
    const ByteSpan rest_view = [&] {
      ByteReader copy = r;
      return copy.rest();
    }();
    // RFC 7606 section 4: not even room for flags, type and length, or a
    // length past the end: treat-as-withdraw and keep the rest raw.
    auto keep_tail = [&](std::string_view field, std::string reason) {
      u.attribute_tail.assign(rest_view.begin(), rest_view.end());
      result.attribute_errors.push_back(
          soft_error(DecodeError{std::string(field), start, std::move(reason)},
                     subcode::kAttributeLengthError,
                     Rfc7606Action::treat_as_withdraw, 0, rest_view));
      r.rest();
    };
    const std::uint8_t flags = rest_view[0];
    const bool ext = flags & attr_flag::kExtendedLength;
    if (rest_view.size() < (ext ? 4u : 3u)) {
      keep_tail("bgp.update.attribute",
                std::to_string(rest_view.size()) +
                    " bytes left, too few for an attribute header");
      break;
    }
    r.u8("bgp.update.attribute.flags");
    const std::uint8_t type = *r.u8("bgp.update.attribute.type");
    const std::size_t len = ext ? *r.u16("bgp.update.attribute.length")
                                : *r.u8("bgp.update.attribute.length");
    if (len > r.remaining()) {
      keep_tail("bgp.update.attribute.length",
                "attribute " + std::to_string(type) + " length " +
                    std::to_string(len) + " overruns the path attributes (" +
                    std::to_string(r.remaining()) + " bytes left)");
      break;
    }
    const std::size_t header_len = r.offset() - start;
    const ByteSpan whole = rest_view.first(header_len + len);
    ByteReader value = *r.sub(len, "bgp.update.attribute.value");
    const ByteSpan value_bytes = whole.subspan(header_len);
    PathAttribute attr{
        flags, type,
        RawAttribute{Bytes(value_bytes.begin(), value_bytes.end())}};
    const AttributeSpec* spec = find_attribute_spec(type);
    const std::string name(attribute_name(type));

    if (seen[type]) {
      // RFC 7606 section 3(g).
      if (type == attr_type::kMpReachNlri ||
          type == attr_type::kMpUnreachNlri) {
        return std::unexpected(BgpError{
            DecodeError{"bgp.update.attribute.type", start + 1,
                        "duplicate " + name},
            error_code::kUpdateMessage, subcode::kMalformedAttributeList,
            Bytes{}, Rfc7606Action::session_reset, type});
      }
      result.attribute_errors.push_back(
          soft_error(DecodeError{"bgp.update.attribute.type", start + 1,
                                 "duplicate " + name + " discarded"},
                     subcode::kMalformedAttributeList,
                     Rfc7606Action::attribute_discard, type, whole));
      u.attributes.push_back(std::move(attr));
      continue;
    }
    seen[type] = true;

    if (!spec) {
      if (!(flags & attr_flag::kOptional)) {
        // RFC 4271 section 6.3; RFC 7606 does not revise this case.
        return std::unexpected(BgpError{
            DecodeError{
                "bgp.update.attribute.type", start + 1,
                "unrecognized well-known attribute " + std::to_string(type)},
            error_code::kUpdateMessage,
            subcode::kUnrecognizedWellKnownAttribute,
            Bytes(whole.begin(), whole.end()), Rfc7606Action::session_reset,
            type});
      }
      u.attributes.push_back(std::move(attr));
      continue;
    }

    // RFC 7606 section 3(c): only the Optional and Transitive bits count.
    const std::uint8_t ot =
        flags & (attr_flag::kOptional | attr_flag::kTransitive);
    const bool flags_bad = ot != spec->flags;
    auto parsed = spec->parse(value, options);
    if (!parsed) {
      AttributeFault& f = parsed.error();
      Rfc7606Action action = f.action.value_or(spec->malformed_action);
      if (flags_bad)
        action = std::max(action, Rfc7606Action::treat_as_withdraw);
      BgpError e = soft_error(std::move(f.decode), f.subcode, action, type,
                              whole, f.family);
      if (action == Rfc7606Action::session_reset) return std::unexpected(e);
      result.attribute_errors.push_back(std::move(e));
    } else {
      attr.value = *std::move(parsed);
      if (flags_bad) {
        result.attribute_errors.push_back(
            soft_error(DecodeError{"bgp.update.attribute.flags", start,
                                   name + " flags " + hex_byte(flags) +
                                       " conflict with Optional/Transitive " +
                                       hex_byte(spec->flags)},
                       subcode::kAttributeFlagsError,
                       Rfc7606Action::treat_as_withdraw, type, whole));
      }
    }
    u.attributes.push_back(std::move(attr));
  }
  return {};
}

bool has_reachable_mp(const Update& u) {
  const PathAttribute* a = u.find(attr_type::kMpReachNlri);
  if (!a) return false;
  if (auto* m = std::get_if<MpReachNlri>(&a->value)) {
    return !m->nlri.empty() || !m->raw_nlri.empty();
  }
  return true;  // malformed: already reported
}

}  // namespace

const PathAttribute* Update::find(std::uint8_t type) const {
  for (const PathAttribute& a : attributes) {
    if (a.type == type) return &a;
  }
  return nullptr;
}

std::expected<UpdateParseResult, BgpError> parse_update_body(
    ByteReader body, const ParseOptions& options) {
  UpdateParseResult result;
  const bool add_path = options.has_add_path(kIpv4Unicast);
  const std::size_t wlen_at = body.offset();
  const std::uint16_t wlen = ARF_TRY(
      lift(body.u16("bgp.update.withdrawn_routes_length"),
           error_code::kUpdateMessage, subcode::kMalformedAttributeList));
  auto withdrawn = body.sub(wlen, "bgp.update.withdrawn_routes");
  if (!withdrawn) {
    return std::unexpected(session_reset(
        body.error_at(wlen_at, "bgp.update.withdrawn_routes_length",
                      "length " + std::to_string(wlen) + " overruns message"),
        error_code::kUpdateMessage, subcode::kMalformedAttributeList));
  }
  result.update.withdrawn = ARF_TRY(
      parse_prefixes(*withdrawn, 32, add_path, "bgp.update.withdrawn_routes",
                     subcode::kInvalidNetworkField));
  const std::size_t alen_at = body.offset();
  const std::uint16_t alen = ARF_TRY(
      lift(body.u16("bgp.update.total_path_attribute_length"),
           error_code::kUpdateMessage, subcode::kMalformedAttributeList));
  auto attrs = body.sub(alen, "bgp.update.path_attributes");
  if (!attrs) {
    return std::unexpected(session_reset(
        body.error_at(alen_at, "bgp.update.total_path_attribute_length",
                      "length " + std::to_string(alen) + " overruns message"),
        error_code::kUpdateMessage, subcode::kMalformedAttributeList));
  }
  ARF_TRY(parse_attributes(*attrs, options, result));
  result.update.nlri = ARF_TRY(parse_prefixes(
      body, 32, add_path, "bgp.update.nlri", subcode::kInvalidNetworkField));

  // RFC 7606 section 3(f): missing well-known mandatory attributes.
  const Update& u = result.update;
  std::vector<std::uint8_t> required;
  if (!u.attribute_tail.empty()) {
    // Section 4 already asks for treat-as-withdraw, and the unparsed tail
    // may hold the "missing" attributes: reporting them would be noise.
  } else if (!u.nlri.empty()) {
    required = {attr_type::kOrigin, attr_type::kAsPath, attr_type::kNextHop};
  } else if (has_reachable_mp(u)) {
    // RFC 4760 section 3: NEXT_HOP is not needed with MP_REACH_NLRI only.
    required = {attr_type::kOrigin, attr_type::kAsPath};
  }
  for (std::uint8_t t : required) {
    if (u.find(t)) continue;
    result.attribute_errors.push_back(BgpError{
        DecodeError{
            "bgp.update.path_attributes", alen_at,
            "missing well-known mandatory " + std::string(attribute_name(t))},
        error_code::kUpdateMessage, subcode::kMissingWellKnownAttribute,
        Bytes{t}, Rfc7606Action::treat_as_withdraw, t});
  }
  for (const BgpError& e : result.attribute_errors) {
    result.worst = result.worst ? std::max(*result.worst, e.action) : e.action;
  }
  return result;
}

std::expected<UpdateParseResult, BgpError> parse_update(
    ByteSpan message, const ParseOptions& options) {
  ByteReader body =
      ARF_TRY(message_body(message, MessageType::update, options));
  return parse_update_body(body, options);
}

std::expected<void, EncodeError> serialize(const Update& update,
                                           const SessionCodecOptions& options,
                                           ByteWriter& out) {
  const std::size_t start = out.size();
  auto fail = [&](EncodeError e) {
    out.truncate(start);
    return std::unexpected(std::move(e));
  };
  const bool add_path = options.has_add_path(kIpv4Unicast);
  serialize(Header{0, static_cast<std::uint8_t>(MessageType::update)}, out);
  const std::size_t wlen_at = out.size();
  out.u16(0);
  if (auto r = serialize_prefixes(update.withdrawn, 32, add_path, out); !r) {
    return fail(r.error());
  }
  const std::size_t wlen = out.size() - wlen_at - 2;
  const std::size_t alen_at = out.size();
  out.u16(0);
  for (const PathAttribute& a : update.attributes) {
    if (auto r = serialize(a, options, out); !r) return fail(r.error());
  }
  out.bytes(update.attribute_tail);
  const std::size_t alen = out.size() - alen_at - 2;
  if (auto r = serialize_prefixes(update.nlri, 32, add_path, out); !r) {
    return fail(r.error());
  }
  const std::size_t total = out.size() - start;
  if (total > options.max_message_length()) {
    return fail(EncodeError{
        "update", "message of " + std::to_string(total) + " bytes exceeds " +
                      std::to_string(options.max_message_length())});
  }
  out.patch_u16(wlen_at, static_cast<std::uint16_t>(wlen));
  out.patch_u16(alen_at, static_cast<std::uint16_t>(alen));
  out.patch_u16(start + kMarkerSize, static_cast<std::uint16_t>(total));
  return {};
}

std::size_t encoded_size(const Update& update,
                         const SessionCodecOptions& options) {
  const bool add_path = options.has_add_path(kIpv4Unicast);
  std::size_t n = kHeaderSize + 4 + encoded_size(update.withdrawn, add_path) +
                  update.attribute_tail.size() +
                  encoded_size(update.nlri, add_path);
  for (const PathAttribute& a : update.attributes) {
    n += encoded_size(a, options);
  }
  return n;
}

}  // namespace arfabric::wire::bgp
