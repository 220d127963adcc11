// JSON form of an LSN frame for `arfabric decode`.
#pragma once

#include <nlohmann/json.hpp>

#include "wire/lsn/lsn_frame.h"

namespace arfabric::cli {

// {"protocol":"lsn","source":..., "msg_type":..., "dev_range":..,
//  "devices":[first,last], "bitmap":hex, "set_bits":n, "clear"|"set": [ids]}
// The Global Node IDs whose bit has the rarer value are listed: "clear"
// (bit 0: unreachable for Msg-type 0) when most bits are set, else "set".
nlohmann::json to_json(const wire::lsn::LsnFrame& frame);

}  // namespace arfabric::cli
