// Network interface facts the daemon reads from the kernel: the speed a
// link reports (sysfs /sys/class/net/IF/speed, what `ethtool` shows) and
// the interface index for routes. Kept tiny: the daemon polls speeds at a
// configured interval and feeds changes to the engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/units.h"

namespace arfabric::sysdep {

// The speed `name` reports, in bit/s; nullopt when the interface does not
// exist, is down (the kernel then refuses the read), or reports an unknown
// speed (-1 or 0, as virtual interfaces without a speed do).
std::optional<BitsPerSecond> interface_speed(const std::string& name);

// Whether `name` has carrier (/sys/class/net/IF/carrier is 1). False when
// it is administratively down, has no carrier (a veth whose peer is down)
// or does not exist.
bool interface_running(const std::string& name);

// How many times `name` gained or lost carrier since it was created
// (/sys/class/net/IF/carrier_changes); 0 when unknown. A change between two
// polls means the link flapped even if it is up at both: the kernel then
// has deleted the nexthop objects that used it.
std::uint64_t interface_carrier_changes(const std::string& name);

// The ifindex of `name`; 0 when there is no such interface.
unsigned interface_index(const std::string& name);

}  // namespace arfabric::sysdep
