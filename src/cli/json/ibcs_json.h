// JSON for the IBCS bindings (wire/ibcs), for `arfabric decode`.
#pragma once

#include <nlohmann/json.hpp>

#include "common/bytes.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/ibcs/hpcc_option.h"
#include "wire/ibcs/signal_field.h"
#include "wire/ibcs/udp_shim.h"

namespace arfabric::cli {

nlohmann::json to_json(const wire::ibcs::CsigTag& tag);
nlohmann::json to_json(const wire::ibcs::HpccOption& option);
nlohmann::json to_json(const wire::ibcs::UdpShim& shim);

// Entry point: every IBCS field found in an Ethernet frame (without FCS),
// one object per binding present, in kBindings order:
//   {"binding", "offset", "signal_type", "signal", "operator",
//    "uninitialized", "metric", "is_uninitialized", "tag": {...}}
// An empty array when the frame carries no IBCS field. Never fails: a
// binding whose header is absent or malformed is left out (the SUF would
// forward such a frame opaquely, draft sec. 5.1).
nlohmann::json decode_ibcs_frame(ByteSpan frame,
                                 const wire::ibcs::BindingConfig& config = {});

}  // namespace arfabric::cli
