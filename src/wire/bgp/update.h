// UPDATE message (RFC 4271 section 4.3) with RFC 7606 error handling.
//
// Parsing an UPDATE does not stop at the first malformed attribute: RFC 7606
// asks the receiver to keep the session up and either drop the attribute
// (attribute-discard), withdraw the UPDATE's prefixes (treat-as-withdraw) or
// disable the AFI/SAFI. parse_update therefore returns the whole decoded
// UPDATE together with the list of those non-fatal errors; only errors that
// demand a session reset are a hard std::unexpected. Malformed, duplicate
// and unknown attributes stay in `attributes` as RawAttribute, so the
// message re-serializes byte-exact; the caller applies the actions.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/nlri.h"
#include "wire/bgp/options.h"
#include "wire/bgp/path_attribute.h"

namespace arfabric::wire::bgp {

struct Update {
  std::vector<Prefix> withdrawn;  // IPv4 unicast Withdrawn Routes field
  std::vector<PathAttribute> attributes;
  // RFC 7606 section 4: when an attribute's length overruns the Total Path
  // Attribute Length, the bytes from that attribute on are kept here.
  Bytes attribute_tail;
  std::vector<Prefix> nlri;  // IPv4 unicast NLRI field

  // The first attribute of `type` (RFC 7606 section 3(g): later duplicates
  // are discarded), or nullptr.
  const PathAttribute* find(std::uint8_t type) const;
  // Its typed value when it parsed as T, else nullptr.
  template <typename T>
  const T* get(std::uint8_t type) const {
    const PathAttribute* a = find(type);
    return a ? std::get_if<T>(&a->value) : nullptr;
  }
  bool operator==(const Update&) const = default;
};

struct UpdateParseResult {
  Update update;
  // Non-fatal RFC 7606 errors, in wire order; none has session_reset.
  std::vector<BgpError> attribute_errors;
  // The most severe action among attribute_errors (nullopt: none).
  std::optional<Rfc7606Action> worst;
};

// Parses a whole UPDATE message (header included).
// Hard errors (session_reset): header errors (see parse_header) or a type
// other than UPDATE; Withdrawn Routes Length or Total Path Attribute Length
// past the message (3/1, RFC 4271 section 6.3); a malformed prefix in
// Withdrawn Routes or NLRI (3/10, RFC 7606 section 5.3); MP_REACH_NLRI or
// MP_UNREACH_NLRI twice (3/1, RFC 7606 section 3(g)); an unrecognized
// well-known attribute (3/2, RFC 4271 section 6.3); an MP attribute too
// short to name its AFI/SAFI. Every other attribute problem lands in
// attribute_errors with its RFC 7606 action.
std::expected<UpdateParseResult, BgpError> parse_update(
    ByteSpan message, const ParseOptions& options = {});

// The same for the body only (after the 19-byte header); `body` carries the
// absolute offsets.
std::expected<UpdateParseResult, BgpError> parse_update_body(
    ByteReader body, const ParseOptions& options);

// Writes the whole message, header included. Errors: encoding errors of an
// attribute or prefix, or a message longer than options allow (4096, or
// 65535 with extended_message).
std::expected<void, EncodeError> serialize(const Update& update,
                                           const SessionCodecOptions& options,
                                           ByteWriter& out);
std::size_t encoded_size(const Update& update,
                         const SessionCodecOptions& options);

}  // namespace arfabric::wire::bgp
