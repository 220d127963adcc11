// Configurations shared by the LSN engine tests: a spine that originates
// for its leaves and a leaf that receives from its spines.
#pragma once

#include "proto/lsn/lsn_config.h"

namespace arfabric::proto::lsn::testing {

// Spine_A of draft-camarillo-rtgwg-lsn-00 §4: port i + 1 faces leaf i
// (Global Node ID i), for `leaves` leaves; all ports trusted.
inline Config spine_config(std::uint32_t leaves,
                           wire::MacAddress mac = {0x02, 0, 0, 0, 0x0a, 0x01}) {
  Config c;
  c.node_mac = mac;
  c.num_devices = leaves;
  for (std::uint32_t i = 0; i < leaves; ++i) {
    const auto port = static_cast<PortId>(i + 1);
    c.ports.push_back(PortConfig{port, PortRole::trusted});
    c.attached.push_back(Attachment{i, port});
  }
  return c;
}

// A leaf with `spines` trusted spine-facing ports 1..spines and `hosts`
// untrusted host-facing ports 1001..1000+hosts; it originates nothing.
inline Config leaf_config(std::uint32_t spines, std::uint32_t devices,
                          std::uint32_t hosts = 0) {
  Config c;
  c.node_mac = {0x02, 0, 0, 0, 0x0b, 0x00};
  c.num_devices = devices;
  for (std::uint32_t i = 1; i <= spines; ++i)
    c.ports.push_back(PortConfig{static_cast<PortId>(i), PortRole::trusted});
  for (std::uint32_t i = 1; i <= hosts; ++i) {
    c.ports.push_back(
        PortConfig{static_cast<PortId>(1000 + i), PortRole::untrusted});
  }
  return c;
}

}  // namespace arfabric::proto::lsn::testing
