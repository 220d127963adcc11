#include "sysdep/linux/rtnetlink.h"

#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

namespace arfabric::sysdep {

namespace {

// Builds one netlink message: header, family header, then attributes,
// each aligned to 4 bytes as NLA_ALIGN requires.
class Message {
 public:
  Message(std::uint16_t type, std::uint16_t flags, const void* header,
          std::size_t header_size) {
    bytes_.resize(NLMSG_HDRLEN);
    auto* h = reinterpret_cast<nlmsghdr*>(bytes_.data());
    h->nlmsg_type = type;
    h->nlmsg_flags =
        static_cast<std::uint16_t>(flags | NLM_F_REQUEST | NLM_F_ACK);
    append(header, header_size);
  }
  void attribute(std::uint16_t type, const void* data, std::size_t size) {
    nlattr a{};
    a.nla_type = type;
    a.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + size);
    append(&a, sizeof a);
    append(data, size);
  }
  template <typename T>
  void attribute(std::uint16_t type, const T& v) {
    attribute(type, &v, sizeof v);
  }
  void flag(std::uint16_t type) { attribute(type, nullptr, 0); }
  std::vector<std::uint8_t> finish(std::uint32_t seq) {
    auto* h = reinterpret_cast<nlmsghdr*>(bytes_.data());
    h->nlmsg_len = static_cast<std::uint32_t>(bytes_.size());
    h->nlmsg_seq = seq;
    return std::move(bytes_);
  }

 private:
  void append(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    if (size) bytes_.insert(bytes_.end(), p, p + size);
    bytes_.resize(NLMSG_ALIGN(bytes_.size()), 0);
  }
  std::vector<std::uint8_t> bytes_;
};

std::unexpected<SysError> fail(std::string call, int err) {
  return std::unexpected(SysError{std::move(call), err});
}

}  // namespace

SysResult<Rtnetlink> Rtnetlink::open() {
  Rtnetlink r;
  r.fd_ = Fd(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
  if (!r.fd_) return fail("socket(NETLINK_ROUTE)", errno);
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (bind(r.fd_.get(), reinterpret_cast<sockaddr*>(&local), sizeof local) !=
      0) {
    return fail("bind(NETLINK_ROUTE)", errno);
  }
  // Extended ACKs name the offending attribute in the kernel log message.
  const int one = 1;
  setsockopt(r.fd_.get(), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof one);
  return r;
}

SysResult<void> Rtnetlink::request(std::vector<std::uint8_t> message,
                                   const std::string& what) {
  return exchange(std::move(message), what, [](const nlmsghdr&) {});
}

SysResult<void> Rtnetlink::exchange(
    std::vector<std::uint8_t> message, const std::string& what,
    const std::function<void(const nlmsghdr&)>& each) {
  const std::uint32_t seq =
      reinterpret_cast<nlmsghdr*>(message.data())->nlmsg_seq;
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (sendto(fd_.get(), message.data(), message.size(), 0,
             reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) < 0) {
    return fail(what, errno);
  }
  std::vector<std::uint8_t> buf(65536);
  for (;;) {
    const ssize_t n = recv(fd_.get(), buf.data(), buf.size(), 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(what, errno);
    }
    // NLMSG_OK/NLMSG_NEXT spelled out with one unsigned length (the macros
    // compare int with __u32): a message must fit in what is left, and the
    // next starts at its aligned end.
    const auto received = static_cast<std::size_t>(n);
    for (std::size_t at = 0, size = 0; at + sizeof(nlmsghdr) <= received;
         at += NLMSG_ALIGN(size)) {
      const auto* h = reinterpret_cast<const nlmsghdr*>(buf.data() + at);
      size = h->nlmsg_len;
      if (size < sizeof(nlmsghdr) || size > received - at) break;
      if (h->nlmsg_seq != seq) continue;           // a stale answer
      if (h->nlmsg_type == NLMSG_DONE) return {};  // a dump's end
      if (h->nlmsg_type == NLMSG_ERROR) {
        const auto* e = static_cast<const nlmsgerr*>(NLMSG_DATA(h));
        if (e->error == 0) return {};
        return fail(what, -e->error);
      }
      each(*h);
    }
  }
}

SysResult<void> Rtnetlink::set_nexthop(std::uint32_t id, const Bytes& gateway,
                                       unsigned ifindex,
                                       std::uint8_t protocol) {
  nhmsg nh{};
  nh.nh_family = gateway.size() == 16 ? AF_INET6 : AF_INET;
  nh.nh_protocol = protocol;
  Message m(RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_REPLACE, &nh, sizeof nh);
  m.attribute(NHA_ID, id);
  m.attribute(NHA_OIF, static_cast<std::uint32_t>(ifindex));
  m.attribute(NHA_GATEWAY, gateway.data(), gateway.size());
  return request(m.finish(seq_++), "RTM_NEWNEXTHOP " + std::to_string(id));
}

SysResult<void> Rtnetlink::set_group(std::uint32_t id,
                                     std::span<const GroupMember> members,
                                     std::uint8_t protocol) {
  nhmsg nh{};
  nh.nh_family = AF_UNSPEC;
  nh.nh_protocol = protocol;
  Message m(RTM_NEWNEXTHOP, NLM_F_CREATE | NLM_F_REPLACE, &nh, sizeof nh);
  m.attribute(NHA_ID, id);
  std::vector<nexthop_grp> group;
  for (const GroupMember& g : members) {
    if (g.weight < 1 || g.weight > 256) {
      return fail("RTM_NEWNEXTHOP group " + std::to_string(id), EINVAL);
    }
    nexthop_grp e{};
    e.id = g.id;
    e.weight = static_cast<std::uint8_t>(g.weight - 1);
    group.push_back(e);
  }
  m.attribute(NHA_GROUP, group.data(), group.size() * sizeof(nexthop_grp));
  return request(m.finish(seq_++),
                 "RTM_NEWNEXTHOP group " + std::to_string(id));
}

SysResult<void> Rtnetlink::delete_nexthop(std::uint32_t id) {
  nhmsg nh{};
  Message m(RTM_DELNEXTHOP, 0, &nh, sizeof nh);
  m.attribute(NHA_ID, id);
  return request(m.finish(seq_++), "RTM_DELNEXTHOP " + std::to_string(id));
}

SysResult<std::vector<std::uint32_t>> Rtnetlink::nexthops_of(
    std::uint8_t protocol) {
  nhmsg nh{};
  nh.nh_family = AF_UNSPEC;
  Message m(RTM_GETNEXTHOP, NLM_F_DUMP, &nh, sizeof nh);
  std::vector<std::uint32_t> ids;
  const auto each = [&](const nlmsghdr& h) {
    const std::size_t size = h.nlmsg_len;
    if (h.nlmsg_type != RTM_NEWNEXTHOP || size < NLMSG_HDRLEN + sizeof(nhmsg))
      return;
    const auto* body = static_cast<const nhmsg*>(NLMSG_DATA(&h));
    if (body->nh_protocol != protocol) return;
    // The attributes after the nhmsg, each aligned to 4 bytes.
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&h);
    for (std::size_t a = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nhmsg));
         a + NLA_HDRLEN <= size;) {
      const auto* attr = reinterpret_cast<const nlattr*>(bytes + a);
      if (attr->nla_len < NLA_HDRLEN || attr->nla_len > size - a) break;
      if (attr->nla_type == NHA_ID &&
          attr->nla_len >= NLA_HDRLEN + sizeof(std::uint32_t)) {
        std::uint32_t id = 0;
        std::memcpy(&id, bytes + a + NLA_HDRLEN, sizeof id);
        ids.push_back(id);
      }
      a += NLA_ALIGN(attr->nla_len);
    }
  };
  if (auto r = exchange(m.finish(seq_++), "RTM_GETNEXTHOP dump", each); !r)
    return std::unexpected(r.error());
  return ids;
}

SysResult<void> Rtnetlink::set_route(const Bytes& address, std::uint8_t length,
                                     std::uint32_t nexthop_id,
                                     std::uint8_t protocol,
                                     std::uint32_t metric) {
  rtmsg rt{};
  rt.rtm_family = address.size() == 16 ? AF_INET6 : AF_INET;
  rt.rtm_dst_len = length;
  rt.rtm_table = RT_TABLE_MAIN;
  rt.rtm_protocol = protocol;
  rt.rtm_scope = RT_SCOPE_UNIVERSE;
  rt.rtm_type = RTN_UNICAST;
  Message m(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, &rt, sizeof rt);
  m.attribute(RTA_DST, address.data(), address.size());
  m.attribute(RTA_PRIORITY, metric);
  m.attribute(RTA_NH_ID, nexthop_id);
  return request(m.finish(seq_++), "RTM_NEWROUTE");
}

SysResult<void> Rtnetlink::delete_route(const Bytes& address,
                                        std::uint8_t length,
                                        std::uint8_t protocol,
                                        std::uint32_t metric) {
  rtmsg rt{};
  rt.rtm_family = address.size() == 16 ? AF_INET6 : AF_INET;
  rt.rtm_dst_len = length;
  rt.rtm_table = RT_TABLE_MAIN;
  rt.rtm_protocol = protocol;
  rt.rtm_scope = RT_SCOPE_NOWHERE;
  Message m(RTM_DELROUTE, 0, &rt, sizeof rt);
  m.attribute(RTA_DST, address.data(), address.size());
  m.attribute(RTA_PRIORITY, metric);
  return request(m.finish(seq_++), "RTM_DELROUTE");
}

}  // namespace arfabric::sysdep
