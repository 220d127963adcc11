// What `arfabric bgpctl` shows, as JSON built from the running engine:
// neighbours (session state, negotiated capabilities, counters, link
// bandwidth), the RIB (every path with its Path Bandwidth and RFC 10005
// Link Bandwidth communities decoded, and the installed multipath set with
// FARE weights) and the FIB as programmed. The same documents are the
// control socket's answers and the input of bgpctl's human rendering.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/config.h"
#include "proto/bgp/speaker.h"
#include "wire/fare/path_bandwidth.h"

namespace arfabric::daemon {

// One route as handed to the kernel: kernel weights 1..256.
struct FibMember {
  std::string gateway;
  std::string interface;
  std::uint32_t nexthop_id = 0;  // 0: not programmed (no interface)
  std::uint16_t kernel_weight = 0;
  BitsPerSecond fare_weight = 0;
};
struct FibRoute {
  std::string prefix;
  std::uint32_t group_id = 0;  // 0: a single next hop, no group
  std::vector<FibMember> members;
  bool programmed = false;  // the kernel accepted it
  std::string error;        // why not, when not
};

struct PeerView {
  const DaemonPeer* config = nullptr;  // nullptr: removed
  BitsPerSecond link_bandwidth = 0;
};

nlohmann::json neighbors_json(const proto::bgp::Speaker& speaker,
                              const std::vector<PeerView>& peers);
nlohmann::json rib_json(const proto::bgp::Speaker& speaker,
                        const std::vector<PeerView>& peers);
nlohmann::json fib_json(const std::vector<FibRoute>& routes);
// A Path Bandwidth community: transitive, router_id, valid, and its value
// as gbytes_per_second and bits_per_second when finite; JSON has no
// infinity or NaN, so those carry "special": "+inf", "-inf" or "nan"
// instead (+inf means no limit, docs/PROTOCOLS.md).
nlohmann::json path_bandwidth_json(const wire::fare::PathBandwidth& pb);

// A control-socket answer or a printed document: JSON text, any byte that
// is not UTF-8 (echoed from a request or a name) replaced by U+FFFD rather
// than throwing. `indent` as nlohmann::json::dump.
std::string dump_json(const nlohmann::json& doc, int indent = -1);

// Human-readable tables of the documents above, for bgpctl without --json.
// Unknown shapes print as JSON.
std::string render_neighbors(const nlohmann::json& doc);
std::string render_rib(const nlohmann::json& doc);
std::string render_fib(const nlohmann::json& doc);

}  // namespace arfabric::daemon
