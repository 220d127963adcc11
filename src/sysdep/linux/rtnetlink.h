// rtnetlink for the daemon's FIB (issue 6): nexthop objects, weighted
// nexthop groups (RTM_NEWNEXTHOP, Linux 5.3+) and routes that point at them
// (RTA_NH_ID). Requests are synchronous: each is sent with NLM_F_ACK and the
// kernel's answer read before returning, so a caller knows exactly what the
// kernel holds after every call.
//
// NHA_GROUP entries carry weight - 1 in one byte: weights are 1..256.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "sysdep/linux/io.h"

struct nlmsghdr;

namespace arfabric::sysdep {

struct GroupMember {
  std::uint32_t id = 0;
  std::uint16_t weight = 1;  // 1..256
};

class Rtnetlink {
 public:
  // A NETLINK_ROUTE socket. Errors: socket or bind failing (no
  // CAP_NET_ADMIN is only detected by the first change).
  static SysResult<Rtnetlink> open();

  // Creates or replaces nexthop `id`: `gateway` (4 or 16 bytes) via
  // interface `ifindex`. Errors: the kernel's (ENODEV, ENETUNREACH when the
  // gateway is not on the link, EPERM without CAP_NET_ADMIN).
  SysResult<void> set_nexthop(std::uint32_t id, const Bytes& gateway,
                              unsigned ifindex, std::uint8_t protocol);
  // Creates or replaces group `id`. Errors: the kernel's (EINVAL for an
  // unknown member or a weight outside 1..256).
  SysResult<void> set_group(std::uint32_t id,
                            std::span<const GroupMember> members,
                            std::uint8_t protocol);
  // Errors: the kernel's (ENOENT when absent).
  SysResult<void> delete_nexthop(std::uint32_t id);

  // The ids of the nexthop objects (members and groups) of `protocol`, by
  // a dump. Errors: the kernel's (EINVAL before Linux 5.3).
  SysResult<std::vector<std::uint32_t>> nexthops_of(std::uint8_t protocol);

  // Creates or replaces the route to `address`/`length` (4 or 16 bytes of
  // address) of `metric` in the main table, pointing at nexthop (group)
  // `nexthop_id`. The metric is part of a route's identity, so another
  // protocol's route to the same prefix with another metric (a connected
  // one, at 0) is neither replaced nor deleted. Errors: the kernel's.
  SysResult<void> set_route(const Bytes& address, std::uint8_t length,
                            std::uint32_t nexthop_id, std::uint8_t protocol,
                            std::uint32_t metric);
  SysResult<void> delete_route(const Bytes& address, std::uint8_t length,
                               std::uint8_t protocol, std::uint32_t metric);

 private:
  // Sends a request that the kernel acknowledges. Errors: the kernel's.
  SysResult<void> request(std::vector<std::uint8_t> message,
                          const std::string& what);
  // Sends `message` and reads the kernel's answers to it until its ACK,
  // error or (a dump's) end, handing every other answer to `each`.
  SysResult<void> exchange(std::vector<std::uint8_t> message,
                           const std::string& what,
                           const std::function<void(const nlmsghdr&)>& each);
  Fd fd_;
  std::uint32_t seq_ = 1;
};

}  // namespace arfabric::sysdep
