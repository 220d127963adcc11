#include "daemon/fib.h"

#include <algorithm>

#include "sysdep/linux/interface.h"

namespace arfabric::daemon {

namespace bgp = proto::bgp;

namespace {

std::string gateway_text(const Bytes& b) {
  return IpAddress::from_bytes(b).value_or(IpAddress{}).to_string();
}

// The address the kernel routes through, always with the peer's
// interface: of an IPv6 global + link-local pair (32 bytes) the link-local
// one, which RFC 2545 section 3 sends only when the peer shares our link,
// so it is always on it (the global one may be a loopback address of an
// unnumbered link, which the kernel cannot route through), as FRR does;
// the global one when the second half is not link-local (:: or another
// address: nothing the kernel could use as a gateway).
Bytes gateway_bytes(const bgp::NextHopAddress& next_hop) {
  const ByteSpan bytes = next_hop;
  if (bytes.size() != 32) return Bytes(bytes.begin(), bytes.end());
  const auto second = IpAddress::from_bytes(bytes.subspan(16));
  const ByteSpan gateway =
      second->link_local() ? bytes.subspan(16) : bytes.first(16);
  return Bytes(gateway.begin(), gateway.end());
}

Bytes destination_bytes(const bgp::Destination& d) {
  return Bytes(d.address.begin(),
               d.address.begin() + (d.afi == wire::bgp::kAfiIpv6 ? 16 : 4));
}

}  // namespace

std::vector<std::uint16_t> kernel_weights(
    const std::vector<BitsPerSecond>& fare_weights) {
  const BitsPerSecond max =
      fare_weights.empty()
          ? 0
          : *std::max_element(fare_weights.begin(), fare_weights.end());
  std::vector<std::uint16_t> out;
  for (BitsPerSecond w : fare_weights) {
    if (max == 0) {
      out.push_back(1);
    } else if (w == 0) {
      out.push_back(0);
    } else {
      // Rounded to nearest so that 1:2 becomes 128:256 exactly.
      const auto scaled = static_cast<std::uint16_t>(
          (static_cast<unsigned __int128>(w) * 256 + max / 2) / max);
      out.push_back(std::clamp<std::uint16_t>(scaled, 1, 256));
    }
  }
  return out;
}

Fib::Fib(Logger& log, std::unique_ptr<sysdep::Rtnetlink> kernel,
         std::uint8_t protocol, std::uint32_t metric)
    : log_(&log),
      kernel_(std::move(kernel)),
      protocol_(protocol),
      metric_(metric),
      // Ids from a range of our own, away from ids other daemons (FRR's
      // zebra starts low) pick.
      next_id_(0x0af00000) {}

std::uint32_t Fib::fresh_id() {
  while (key_of_.contains(next_id_) || next_id_ == 0) ++next_id_;
  return next_id_++;
}

std::expected<std::uint32_t, sysdep::SysError> Fib::acquire(
    const NexthopKey& key, std::vector<std::uint32_t>& created) {
  auto it = nexthops_.find(key);
  if (it != nexthops_.end()) {
    ++it->second.users;
    return it->second.id;
  }
  const std::uint32_t id = fresh_id();
  if (auto r = kernel_->set_nexthop(id, key.gateway, key.ifindex, protocol_);
      !r) {
    return std::unexpected(r.error());
  }
  nexthops_[key] = Nexthop{id, 1};
  key_of_[id] = key;
  created.push_back(id);
  return id;
}

void Fib::release(std::uint32_t id) {
  auto k = key_of_.find(id);
  if (k == key_of_.end()) return;
  auto it = nexthops_.find(k->second);
  if (--it->second.users > 0) return;
  // ENOENT: the kernel already deleted it with its device.
  if (auto r = kernel_->delete_nexthop(id); !r && r.error().err != ENOENT) {
    log_->warning("fib: " + r.error().to_string());
  }
  nexthops_.erase(it);
  key_of_.erase(k);
}

void Fib::remove(Installed& route) {
  if (!kernel_ || !route.view.programmed) return;
  const Bytes dst = destination_bytes(route.destination);
  if (auto r = kernel_->delete_route(dst, route.destination.length, protocol_,
                                     metric_);
      !r && r.error().err != ESRCH) {
    log_->warning("fib: delete " + route.view.prefix + ": " +
                  r.error().to_string());
  }
  if (auto r = kernel_->delete_nexthop(route.view.group_id);
      !r && r.error().err != ENOENT) {
    log_->warning("fib: " + r.error().to_string());
  }
  key_of_.erase(route.view.group_id);
  for (std::uint32_t id : route.member_ids) release(id);
  route.view.programmed = false;
}

FibRoute fib_view(const bgp::Destination& destination,
                  const std::vector<bgp::NextHopWeight>& next_hops,
                  const std::vector<std::string>& devices) {
  FibRoute view;
  view.prefix = bgp::format_destination(destination);
  std::vector<BitsPerSecond> fare;
  for (const auto& h : next_hops) fare.push_back(h.weight);
  const std::vector<std::uint16_t> weights = kernel_weights(fare);
  for (std::size_t i = 0; i < next_hops.size(); ++i) {
    const auto& h = next_hops[i];
    FibMember m;
    m.gateway = gateway_text(gateway_bytes(h.next_hop));
    m.interface = i < devices.size() ? devices[i] : "";
    m.kernel_weight = weights[i];
    m.fare_weight = h.weight;
    view.members.push_back(std::move(m));
  }
  return view;
}

void Fib::apply(const bgp::FibUpdate& update,
                const std::vector<std::string>& devices) {
  if (!kernel_) return;
  const bgp::Destination& d = update.destination;
  auto old = routes_.find(d);
  if (update.next_hops.empty()) {
    if (old != routes_.end()) {
      remove(old->second);
      routes_.erase(old);
    }
    return;
  }
  Installed next;
  next.destination = d;
  next.update = update;
  next.devices = devices;
  next.view = fib_view(d, update.next_hops, devices);
  const bool complete =
      std::none_of(next.view.members.begin(), next.view.members.end(),
                   [](const FibMember& m) { return m.interface.empty(); });
  if (!complete) {
    next.view.error = "a next hop's peer has no interface configured";
    if (old != routes_.end()) remove(old->second);
    routes_[d] = std::move(next);
    return;
  }
  // Make the new state under fresh ids, then swap the route.
  std::vector<std::uint32_t> created;
  std::vector<std::uint32_t> acquired;
  std::vector<sysdep::GroupMember> group;
  auto rollback = [&](const sysdep::SysError& e) {
    for (std::uint32_t id : acquired) release(id);
    next.view.error = e.to_string();
    log_->error("fib: " + next.view.prefix + ": " + e.to_string() +
                " (previous route kept)");
    if (old != routes_.end()) {
      old->second.view.error = next.view.error;
    } else {
      next.member_ids.clear();
      routes_[d] = std::move(next);
    }
  };
  for (std::size_t i = 0; i < next.view.members.size(); ++i) {
    FibMember& m = next.view.members[i];
    if (m.kernel_weight == 0) continue;  // link down: not a member
    const unsigned ifindex = sysdep::interface_index(m.interface);
    if (ifindex == 0) {
      rollback(sysdep::SysError{"if_nametoindex(" + m.interface + ")", ENODEV});
      return;
    }
    const auto& h = update.next_hops[i];
    auto id = acquire(NexthopKey{gateway_bytes(h.next_hop), ifindex}, created);
    if (!id) {
      rollback(id.error());
      return;
    }
    acquired.push_back(*id);
    m.nexthop_id = *id;
    group.push_back({*id, m.kernel_weight});
  }
  const std::uint32_t group_id = fresh_id();
  if (auto r = kernel_->set_group(group_id, group, protocol_); !r) {
    rollback(r.error());
    return;
  }
  key_of_[group_id] = NexthopKey{};  // reserves the id
  if (auto r = kernel_->set_route(destination_bytes(d), d.length, group_id,
                                  protocol_, metric_);
      !r) {
    (void)kernel_->delete_nexthop(group_id);
    key_of_.erase(group_id);
    rollback(r.error());
    return;
  }
  next.view.group_id = group_id;
  next.view.programmed = true;
  next.member_ids = std::move(acquired);
  if (old != routes_.end()) {
    // The route already points at the new group: retire the old one.
    Installed previous = std::move(old->second);
    if (previous.view.programmed) {
      (void)kernel_->delete_nexthop(previous.view.group_id);
      key_of_.erase(previous.view.group_id);
      for (std::uint32_t id : previous.member_ids) release(id);
    }
  }
  routes_[d] = std::move(next);
}

void Fib::refresh(const std::string& interface) {
  if (!kernel_) return;
  std::vector<std::pair<bgp::FibUpdate, std::vector<std::string>>> redo;
  for (auto it = routes_.begin(); it != routes_.end();) {
    const auto& members = it->second.view.members;
    const bool uses = std::any_of(
        members.begin(), members.end(),
        [&](const FibMember& m) { return m.interface == interface; });
    if (!uses) {
      ++it;
      continue;
    }
    redo.emplace_back(it->second.update, it->second.devices);
    remove(it->second);
    it = routes_.erase(it);
  }
  if (!redo.empty()) {
    log_->info("fib: interface " + interface + " flapped, reprogramming " +
               std::to_string(redo.size()) + " routes");
  }
  for (const auto& [update, devices] : redo) apply(update, devices);
}

void Fib::remove_all() {
  for (auto& [d, route] : routes_) remove(route);
  routes_.clear();
}

std::size_t Fib::sweep() {
  if (!kernel_) return 0;
  auto ids = kernel_->nexthops_of(protocol_);
  if (!ids) {
    log_->warning("fib: " + ids.error().to_string());
    return 0;
  }
  std::size_t removed = 0;
  for (const std::uint32_t id : *ids) {
    // A group whose members went first may be gone already.
    if (auto r = kernel_->delete_nexthop(id); r) {
      ++removed;
    } else if (r.error().err != ENOENT) {
      log_->warning("fib: " + r.error().to_string());
    }
  }
  return removed;
}

std::vector<FibRoute> Fib::routes() const {
  std::vector<FibRoute> out;
  for (const auto& [d, r] : routes_) out.push_back(r.view);
  return out;
}

}  // namespace arfabric::daemon
