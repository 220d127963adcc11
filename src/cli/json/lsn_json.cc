#include "cli/json/lsn_json.h"

#include "common/hex.h"

namespace arfabric::cli {

nlohmann::json to_json(const wire::lsn::LsnFrame& f) {
  nlohmann::json clear = nlohmann::json::array();
  for (std::size_t i = 0; i < wire::lsn::kDevicesPerRange; ++i) {
    if (!f.bitmap.test(i)) clear.push_back(f.device_id(i));
  }
  return {{"protocol", "lsn"},
          {"destination", wire::format_mac(f.destination)},
          {"source", wire::format_mac(f.source)},
          {"type", f.type},
          {"r", f.r},
          {"msg_type", wire::lsn::to_string(f.msg_type)},
          {"reserved", f.reserved},
          {"dev_range", f.dev_range},
          {"devices", {f.device_id(0), f.device_id(255)}},
          {"bitmap", to_hex(f.bitmap.bytes)},
          {"set_bits", f.bitmap.count()},
          {"clear", clear}};
}

}  // namespace arfabric::cli
