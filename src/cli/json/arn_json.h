// JSON form of ARN messages and their transports for `arfabric decode`.
#pragma once

#include <nlohmann/json.hpp>

#include "wire/arn/arn_message.h"
#include "wire/arn/arn_transport.h"

namespace arfabric::cli {

nlohmann::json to_json(const wire::arn::ArnMessage& message);
nlohmann::json to_json(const wire::arn::ArnL2Frame& frame);
nlohmann::json to_json(const wire::arn::ArnDatagram& datagram);

}  // namespace arfabric::cli
