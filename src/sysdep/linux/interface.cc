#include "sysdep/linux/interface.h"

#include <net/if.h>

#include <fstream>

namespace arfabric::sysdep {

std::optional<BitsPerSecond> interface_speed(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  std::ifstream in("/sys/class/net/" + name + "/speed");
  long long mbits = 0;
  if (!(in >> mbits) || mbits <= 0) return std::nullopt;
  return static_cast<BitsPerSecond>(mbits) * 1'000'000;
}

bool interface_running(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return false;
  // Reading carrier of an administratively down interface fails (EINVAL).
  std::ifstream in("/sys/class/net/" + name + "/carrier");
  int carrier = 0;
  return (in >> carrier) && carrier == 1;
}

std::uint64_t interface_carrier_changes(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return 0;
  std::ifstream in("/sys/class/net/" + name + "/carrier_changes");
  std::uint64_t changes = 0;
  return (in >> changes) ? changes : 0;
}

unsigned interface_index(const std::string& name) {
  return if_nametoindex(name.c_str());
}

}  // namespace arfabric::sysdep
