// The daemon's FIB: the engine's FibUpdates turned into Linux weighted ECMP
// (issue 6 "FIB"). Each destination gets its own nexthop group (weights
// differ per destination), whose members are nexthop objects shared by
// (gateway, interface). Kernel weights are the FARE weights scaled so the
// largest is 256 and no live path rounds below 1 (NHA_GROUP carries
// weight - 1 in a byte).
//
// Never half-programmed: a change first creates what it needs under fresh
// ids (members, then the group), then swaps the route to the new group in
// one RTM_NEWROUTE replace, and only then deletes what the old route used.
// When any step fails, what this change created is deleted again and the
// old route stays as it was; the route is reported with the error.
//
// Without a kernel (fib.install false) nothing is kept here: the engine's
// RIB already holds every installed set, and bgpd shows the FIB from there
// (fib_view), so a million routes do not cost a second copy.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/log.h"
#include "daemon/status.h"
#include "proto/bgp/speaker.h"
#include "sysdep/linux/rtnetlink.h"

namespace arfabric::daemon {

// Scales FARE weights (bit/s, 0 = link down) to kernel weights 1..256:
// the largest becomes 256, every non-zero weight at least 1, zeros stay 0
// (the member is left out). All zero: every member gets 1 (equal split is
// better than no route while the engine still installs one).
std::vector<std::uint16_t> kernel_weights(
    const std::vector<BitsPerSecond>& fare_weights);

// How `next_hops` to `destination` look as kernel routes (prefix, gateways,
// devices, weights scaled by kernel_weights), before any programming:
// nexthop ids 0, programmed false. `devices[i]` is the device toward
// next_hops[i] ("" when unknown).
FibRoute fib_view(const proto::bgp::Destination& destination,
                  const std::vector<proto::bgp::NextHopWeight>& next_hops,
                  const std::vector<std::string>& devices);

class Fib {
 public:
  // `kernel` nullptr: nothing is programmed or kept (see above).
  Fib(Logger& log, std::unique_ptr<sysdep::Rtnetlink> kernel,
      std::uint8_t protocol, std::uint32_t metric);

  bool programs_kernel() const { return kernel_ != nullptr; }

  // `interface_of(peer)` names the device toward a peer ("" when unknown:
  // the route is recorded but cannot be programmed).
  template <typename InterfaceOf>
  void apply_with(const proto::bgp::FibUpdate& update,
                  InterfaceOf&& interface_of) {
    if (!kernel_) return;
    std::vector<std::string> devices;
    for (const auto& h : update.next_hops)
      devices.push_back(interface_of(h.peer));
    apply(update, devices);
  }
  void apply(const proto::bgp::FibUpdate& update,
             const std::vector<std::string>& devices);
  // Programs again every route with a member on `interface`: the kernel
  // deletes nexthop objects whose device goes down, and does not bring
  // them back when it comes up.
  void refresh(const std::string& interface);
  // Deletes every route, group and nexthop this FIB programmed (exit).
  void remove_all();
  // Deletes the nexthop objects of our protocol that an earlier run left
  // (killed, or fib.remove_on_exit false), and with them the kernel's
  // routes through them, before this run programs its own: their ids
  // would otherwise be taken over by ours. Returns how many; errors are
  // logged.
  std::size_t sweep();
  // The routes asked for (programmed or with their error); empty without a
  // kernel.
  std::vector<FibRoute> routes() const;
  std::size_t size() const { return routes_.size(); }

 private:
  struct Installed {
    FibRoute view;
    proto::bgp::FibUpdate update;  // what was asked, for refresh()
    std::vector<std::string> devices;
    std::vector<std::uint32_t> member_ids;  // programmed nexthop objects
    proto::bgp::Destination destination;
  };
  struct NexthopKey {
    Bytes gateway;
    unsigned ifindex = 0;
    auto operator<=>(const NexthopKey&) const = default;
  };
  struct Nexthop {
    std::uint32_t id = 0;
    std::uint32_t users = 0;
  };

  // The id of the member for `key`, created when new; `created` collects
  // the ids this change made (for rollback).
  std::expected<std::uint32_t, sysdep::SysError> acquire(
      const NexthopKey& key, std::vector<std::uint32_t>& created);
  void release(std::uint32_t id);
  std::uint32_t fresh_id();
  void remove(Installed& route);

  Logger* log_;
  std::unique_ptr<sysdep::Rtnetlink> kernel_;
  std::uint8_t protocol_;
  std::uint32_t metric_;
  std::map<proto::bgp::Destination, Installed> routes_;
  std::map<NexthopKey, Nexthop> nexthops_;
  std::map<std::uint32_t, NexthopKey> key_of_;
  std::uint32_t next_id_;
};

}  // namespace arfabric::daemon
