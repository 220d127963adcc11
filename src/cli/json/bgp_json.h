// JSON for `arfabric decode`: BGP messages as found in one TCP segment.
//
// The session's negotiated capabilities are unknown to a decoder, so two
// of them are guessed per UPDATE, as Wireshark does:
//  - 4-octet AS: the UPDATE is parsed with 4-octet ASNs first; if AS_PATH
//    or AGGREGATOR then reports an error and a 2-octet parse does not, the
//    2-octet reading is used ("four_octet_as" in the output says which).
//  - ADD-PATH: parsed without path IDs first; if that fails hard (NLRI do
//    not parse) and a parse with path IDs for IPv4/IPv6 unicast succeeds,
//    that one is used ("add_path": true).
// The maximum message length is taken as 65535 (RFC 8654) so that large
// UPDATEs are shown rather than rejected.
#pragma once

#include <nlohmann/json.hpp>

#include "common/bytes.h"
#include "wire/bgp/error.h"
#include "wire/bgp/message.h"

namespace arfabric::cli {

// Decodes one or more concatenated BGP messages into a JSON array with one
// object per message. A message that fails to parse becomes
// {"error": {"field", "offset", "reason", "notification": {"code",
// "subcode", ...}, "rfc7606": "..."}}; decoding continues after it when its
// header gave a usable length, and stops otherwise. Never fails. Error
// offsets are counted from `base_offset` (the stream's position in a frame).
nlohmann::json bgp_messages_to_json(ByteSpan stream,
                                    std::size_t base_offset = 0);

// Pieces, for callers that parsed messages themselves.
nlohmann::json bgp_error_to_json(const wire::bgp::BgpError& error);
nlohmann::json bgp_message_to_json(
    const wire::bgp::Message& message,
    const wire::bgp::SessionCodecOptions& options);

}  // namespace arfabric::cli
