// Internal helper shared by the per-message parsers: checks the header of a
// whole message and returns a reader over its body.
#pragma once

#include <expected>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/header.h"
#include "wire/bgp/options.h"

namespace arfabric::wire::bgp {

// Errors: header errors (parse_header); a type other than `type` (1/3);
// a header length beyond `message` (1/2).
std::expected<ByteReader, BgpError> message_body(ByteSpan message,
                                                 MessageType type,
                                                 const ParseOptions& options);

}  // namespace arfabric::wire::bgp
