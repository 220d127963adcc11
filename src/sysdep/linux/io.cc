#include "sysdep/linux/io.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace arfabric::sysdep {

namespace {

std::unexpected<SysError> fail(std::string call, int err = errno) {
  return std::unexpected(SysError{std::move(call), err});
}

socklen_t to_sockaddr(const InetAddress& a, sockaddr_storage& s) {
  std::memset(&s, 0, sizeof s);
  if (a.v6) {
    auto* in = reinterpret_cast<sockaddr_in6*>(&s);
    in->sin6_family = AF_INET6;
    in->sin6_port = htons(a.port);
    std::memcpy(&in->sin6_addr, a.bytes.data(), 16);
    in->sin6_scope_id = a.scope_id;
    return sizeof(sockaddr_in6);
  }
  auto* in = reinterpret_cast<sockaddr_in*>(&s);
  in->sin_family = AF_INET;
  in->sin_port = htons(a.port);
  std::memcpy(&in->sin_addr, a.bytes.data(), 4);
  return sizeof(sockaddr_in);
}

InetAddress from_sockaddr(const sockaddr_storage& s) {
  InetAddress a;
  if (s.ss_family == AF_INET6) {
    const auto* in = reinterpret_cast<const sockaddr_in6*>(&s);
    // An IPv4 peer reaching a dual-stack socket: report it as IPv4.
    if (IN6_IS_ADDR_V4MAPPED(&in->sin6_addr)) {
      std::memcpy(a.bytes.data(), in->sin6_addr.s6_addr + 12, 4);
    } else {
      a.v6 = true;
      std::memcpy(a.bytes.data(), &in->sin6_addr, 16);
      if (IN6_IS_ADDR_LINKLOCAL(&in->sin6_addr)) a.scope_id = in->sin6_scope_id;
    }
    a.port = ntohs(in->sin6_port);
  } else {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&s);
    std::memcpy(a.bytes.data(), &in->sin_addr, 4);
    a.port = ntohs(in->sin_port);
  }
  return a;
}

SysResult<Fd> tcp_socket(bool v6) {
  Fd fd(socket(v6 ? AF_INET6 : AF_INET,
               SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return fail("socket");
  const int one = 1;
  // BGP messages are whole records the engine already batches: send them
  // at once rather than waiting for Nagle's timer.
  setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // RFC 4271 section 5.1.1 / RFC 7938: control traffic is CS6.
  const int tos = 0xc0;
  if (v6) {
    setsockopt(fd.get(), IPPROTO_IPV6, IPV6_TCLASS, &tos, sizeof tos);
  } else {
    setsockopt(fd.get(), IPPROTO_IP, IP_TOS, &tos, sizeof tos);
  }
  return fd;
}

}  // namespace

std::string SysError::to_string() const {
  return call + ": " + std::strerror(err);
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Time monotonic_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ps(static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000'000 +
            static_cast<std::int64_t>(ts.tv_nsec) * 1'000);
}

std::string InetAddress::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf);
  if (!v6) return std::string(buf) + ":" + std::to_string(port);
  std::string host = buf;
  if (scope_id != 0) {
    char name[IF_NAMESIZE] = {};
    host += "%";
    host += if_indextoname(scope_id, name) ? std::string(name)
                                           : std::to_string(scope_id);
  }
  return "[" + host + "]:" + std::to_string(port);
}

SysResult<Fd> tcp_listen(const InetAddress& local, int backlog) {
  auto fd = tcp_socket(local.v6);
  if (!fd) return fd;
  const int one = 1;
  setsockopt(fd->get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (local.v6 && local.bytes == decltype(local.bytes){}) {
    // "::" takes IPv4 connections too, whatever net.ipv6.bindv6only says.
    const int zero = 0;
    setsockopt(fd->get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
  }
  sockaddr_storage s;
  const socklen_t len = to_sockaddr(local, s);
  if (bind(fd->get(), reinterpret_cast<sockaddr*>(&s), len) != 0) {
    return fail("bind(" + local.to_string() + ")");
  }
  if (listen(fd->get(), backlog) != 0) {
    return fail("listen(" + local.to_string() + ")");
  }
  return fd;
}

SysResult<Fd> tcp_connect(const InetAddress& remote,
                          const std::optional<InetAddress>& local) {
  auto fd = tcp_socket(remote.v6);
  if (!fd) return fd;
  sockaddr_storage s;
  if (local) {
    const int one = 1;
    // Outgoing and listening sockets share the local address.
    setsockopt(fd->get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const socklen_t len = to_sockaddr(*local, s);
    if (bind(fd->get(), reinterpret_cast<sockaddr*>(&s), len) != 0) {
      return fail("bind(" + local->to_string() + ")");
    }
  }
  const socklen_t len = to_sockaddr(remote, s);
  if (connect(fd->get(), reinterpret_cast<sockaddr*>(&s), len) != 0 &&
      errno != EINPROGRESS) {
    return fail("connect(" + remote.to_string() + ")");
  }
  return fd;
}

SysResult<void> connect_result(int fd, const InetAddress& remote) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
    return fail("getsockopt(SO_ERROR)");
  }
  if (err != 0) return fail("connect(" + remote.to_string() + ")", err);
  return {};
}

SysResult<std::pair<Fd, InetAddress>> tcp_accept(int listen_fd) {
  sockaddr_storage s{};
  socklen_t len = sizeof s;
  Fd fd(accept4(listen_fd, reinterpret_cast<sockaddr*>(&s), &len,
                SOCK_NONBLOCK | SOCK_CLOEXEC));
  if (!fd) return fail("accept");
  const int one = 1;
  setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return std::pair<Fd, InetAddress>{std::move(fd), from_sockaddr(s)};
}

SysResult<InetAddress> local_address(int fd) {
  sockaddr_storage s{};
  socklen_t len = sizeof s;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&s), &len) != 0) {
    return fail("getsockname");
  }
  return from_sockaddr(s);
}

SysResult<std::size_t> read_some(int fd, std::vector<std::uint8_t>& out) {
  const std::size_t old = out.size();
  out.resize(old + 65536);
  const ssize_t n = recv(fd, out.data() + old, 65536, 0);
  if (n < 0) {
    out.resize(old);
    return fail("recv");
  }
  out.resize(old + static_cast<std::size_t>(n));
  return static_cast<std::size_t>(n);
}

SysResult<std::size_t> write_some(int fd, std::span<const std::uint8_t> data) {
  const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    return fail("send");
  }
  return static_cast<std::size_t>(n);
}

bool same_file(int fd, const std::string& path) {
  struct stat open_file {};
  return ::fstat(fd, &open_file) == 0 &&
         file_id(path) == FileId{open_file.st_dev, open_file.st_ino};
}

namespace {

// The address of the Unix socket at `path`; nullopt when the path does not
// fit.
std::optional<sockaddr_un> unix_address(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path.size() >= sizeof a.sun_path) return std::nullopt;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return a;
}

}  // namespace

std::optional<FileId> file_id(const std::string& path) {
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0) return std::nullopt;
  return FileId{named.st_dev, named.st_ino};
}

SysResult<Fd> unix_listen(const std::string& path) {
  const auto address = unix_address(path);
  if (!address) return fail("unix_listen(" + path + ")", ENAMETOOLONG);
  sockaddr_un a = *address;
  Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return fail("socket(AF_UNIX)");
  // Replace only a socket nobody serves: a live one is another process's
  // (a second daemon given the same path), anything else the user's file.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return fail("unix_listen(" + path + "): the path is not a socket",
                  EEXIST);
    }
    // Non-blocking. Only ECONNREFUSED says nobody serves it: a server whose
    // backlog is full answers EAGAIN, a live datagram socket EPROTOTYPE.
    Fd probe(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!probe) return fail("socket(AF_UNIX)");
    if (connect(probe.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 ||
        errno != ECONNREFUSED) {
      return fail("unix_listen(" + path + "): a running process serves it",
                  EADDRINUSE);
    }
    ::unlink(path.c_str());
  }
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    return fail("bind(" + path + ")");
  }
  chmod(path.c_str(), 0600);
  if (listen(fd.get(), 16) != 0) return fail("listen(" + path + ")");
  return fd;
}

SysResult<Fd> unix_accept(int listen_fd) {
  Fd fd(accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
  if (!fd) return fail("accept(AF_UNIX)");
  return fd;
}

SysResult<Fd> unix_connect(const std::string& path) {
  const auto address = unix_address(path);
  if (!address) return fail("unix_connect(" + path + ")", ENAMETOOLONG);
  sockaddr_un a = *address;
  Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) return fail("socket(AF_UNIX)");
  if (connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    return fail("connect(" + path + ")");
  }
  return fd;
}

SysResult<Fd> unix_connect(const std::string& path, Time timeout) {
  const auto address = unix_address(path);
  if (!address) return fail("unix_connect(" + path + ")", ENAMETOOLONG);
  sockaddr_un a = *address;
  Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return fail("socket(AF_UNIX)");
  const Time deadline = monotonic_now() + timeout;
  // A Unix stream connect never completes later: it succeeds, fails, or
  // says EAGAIN while the server's backlog is full (the server is busy or
  // stopped), which only a retry can wait out.
  while (connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    if (errno != EAGAIN) return fail("connect(" + path + ")");
    if (monotonic_now() >= deadline) {
      return fail("connect(" + path + "): the backlog stayed full", ETIMEDOUT);
    }
    ::usleep(10'000);
  }
  return fd;
}

SysResult<Fd> signal_fd(std::span<const int> signals) {
  sigset_t set;
  sigemptyset(&set);
  for (int s : signals) sigaddset(&set, s);
  if (sigprocmask(SIG_BLOCK, &set, nullptr) != 0) return fail("sigprocmask");
  Fd fd(signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC));
  if (!fd) return fail("signalfd");
  return fd;
}

std::optional<int> read_signal(int fd) {
  signalfd_siginfo info{};
  if (::read(fd, &info, sizeof info) != static_cast<ssize_t>(sizeof info)) {
    return std::nullopt;
  }
  return static_cast<int>(info.ssi_signo);
}

SysResult<Timer> Timer::create() {
  Timer t;
  t.fd_ = Fd(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  if (!t.fd_) return fail("timerfd_create");
  return t;
}

void Timer::arm(Time at) {
  if (at == armed_) return;
  armed_ = at;
  itimerspec spec{};
  if (at != Time::max()) {
    // 0 would disarm: an already past deadline fires at the next tick.
    const std::int64_t ns_total = std::max<std::int64_t>(1, at.ps() / 1000);
    spec.it_value.tv_sec = ns_total / 1'000'000'000;
    spec.it_value.tv_nsec = ns_total % 1'000'000'000;
  }
  timerfd_settime(fd_.get(), TFD_TIMER_ABSTIME, &spec, nullptr);
}

void Timer::acknowledge() {
  std::uint64_t expirations = 0;
  if (::read(fd_.get(), &expirations, sizeof expirations) < 0) {
    // EAGAIN: nothing to clear.
  }
  armed_ = Time::max();
}

SysResult<Epoll> Epoll::create() {
  Epoll e;
  e.fd_ = Fd(epoll_create1(EPOLL_CLOEXEC));
  if (!e.fd_) return fail("epoll_create1");
  return e;
}

SysResult<void> Epoll::add(int fd, std::uint32_t events, std::uint64_t tag) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = tag;
  if (epoll_ctl(fd_.get(), EPOLL_CTL_ADD, fd, &ev) != 0) {
    return fail("epoll_ctl(ADD)");
  }
  return {};
}

SysResult<void> Epoll::modify(int fd, std::uint32_t events, std::uint64_t tag) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = tag;
  if (epoll_ctl(fd_.get(), EPOLL_CTL_MOD, fd, &ev) != 0) {
    return fail("epoll_ctl(MOD)");
  }
  return {};
}

void Epoll::remove(int fd) { epoll_ctl(fd_.get(), EPOLL_CTL_DEL, fd, nullptr); }

SysResult<std::vector<Epoll::Event>> Epoll::wait(int timeout_ms) {
  std::array<epoll_event, 64> events{};
  const int n = epoll_wait(fd_.get(), events.data(),
                           static_cast<int>(events.size()), timeout_ms);
  std::vector<Event> out;
  if (n < 0) {
    if (errno == EINTR) return out;
    return fail("epoll_wait");
  }
  for (int i = 0; i < n; ++i)
    out.push_back({events[i].data.u64, events[i].events});
  return out;
}

}  // namespace arfabric::sysdep
