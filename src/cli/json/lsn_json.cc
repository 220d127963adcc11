#include "cli/json/lsn_json.h"

#include "common/hex.h"

namespace arfabric::cli {

nlohmann::json to_json(const wire::lsn::LsnFrame& f) {
  // List whichever bit value is rarer: a reachability bitmap is mostly ones,
  // a congestion bitmap may be mostly zeros.
  const std::size_t set = f.bitmap.count();
  const bool list_clear = set >= wire::lsn::kDevicesPerRange / 2;
  nlohmann::json ids = nlohmann::json::array();
  for (std::size_t i = 0; i < wire::lsn::kDevicesPerRange; ++i) {
    if (f.bitmap.test(i) != list_clear) ids.push_back(f.device_id(i));
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
          {"set_bits", set},
          {list_clear ? "clear" : "set", ids}};
}

}  // namespace arfabric::cli
