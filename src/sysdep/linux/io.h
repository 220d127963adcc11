// Linux I/O primitives for the daemon (issue 6): file descriptors, the
// monotonic clock, non-blocking TCP and Unix stream sockets, and one epoll
// set with a timerfd and a signalfd. Thin wrappers: every call that can
// fail returns std::expected with the call name and errno, and nothing
// here knows about BGP. The event loop itself lives in src/daemon.
#pragma once

#include <array>
#include <csignal>
#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/units.h"

struct epoll_event;

namespace arfabric::sysdep {

struct SysError {
  std::string call;  // "connect(10.0.0.2:179)"
  int err = 0;       // errno
  std::string to_string() const;
};
template <typename T>
using SysResult = std::expected<T, SysError>;

// Owns a file descriptor; closes it on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int f = fd_;
    fd_ = -1;
    return f;
  }
  void reset();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// CLOCK_MONOTONIC as engine Time (picoseconds since an arbitrary epoch):
// never jumps with the wall clock.
Time monotonic_now();

struct InetAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};  // IPv4 in the first 4
  std::uint16_t port = 0;
  // IPv6 link-local (fe80::/10): the index of the interface the address
  // is on (sin6_scope_id); 0 for every other address.
  std::uint32_t scope_id = 0;
  bool same_host(const InetAddress& o) const {
    return v6 == o.v6 && bytes == o.bytes && scope_id == o.scope_id;
  }
  // "10.0.0.1:179", "[2001:db8::1]:179", "[fe80::1%eth1]:179" (the
  // interface's index when it has no name now).
  std::string to_string() const;
};

// A non-blocking listening TCP socket with SO_REUSEADDR; on "::" it takes
// IPv4 connections too (IPV6_V6ONLY off). Errors: socket, bind (address
// not local, port in use) or listen failing.
SysResult<Fd> tcp_listen(const InetAddress& local, int backlog = 64);
// Starts a non-blocking connect, bound to `local` (port 0: any) when given;
// completion is reported by writability, then connect_result(). Errors:
// socket, bind or an immediate connect failure (not EINPROGRESS).
SysResult<Fd> tcp_connect(const InetAddress& remote,
                          const std::optional<InetAddress>& local);
// The outcome of a non-blocking connect to `remote` (SO_ERROR). Errors:
// the connect's errno (ECONNREFUSED, ETIMEDOUT, ...), named with `remote`.
SysResult<void> connect_result(int fd, const InetAddress& remote);
// Accepts one connection, non-blocking. Errors: EAGAIN when none is
// waiting, else accept4's errno.
SysResult<std::pair<Fd, InetAddress>> tcp_accept(int listen_fd);
SysResult<InetAddress> local_address(int fd);

// Reads what is available into `out` (appended). Returns the count, 0 at
// end of stream. Errors: EAGAIN when nothing is there, else recv's errno.
SysResult<std::size_t> read_some(int fd, std::vector<std::uint8_t>& out);
// Writes as much as the socket takes without blocking (MSG_NOSIGNAL).
// Returns the count, possibly 0. Errors: send's errno other than EAGAIN.
SysResult<std::size_t> write_some(int fd, std::span<const std::uint8_t> data);

// Whether `path` names the file open as `fd` (the same device and inode).
bool same_file(int fd, const std::string& path);
// Which file `path` names now (device and inode), to tell later whether it
// still names it; nullopt when it names nothing.
struct FileId {
  std::uint64_t device = 0, inode = 0;
  bool operator==(const FileId&) const = default;
};
std::optional<FileId> file_id(const std::string& path);

// A Unix stream socket at `path`, mode 0600. A socket file nobody serves
// (left by a process that died) is replaced. Errors: path too long;
// EEXIST when `path` is something other than a socket (it is left alone);
// EADDRINUSE when a process serves the socket there (another daemon);
// socket, bind, listen.
SysResult<Fd> unix_listen(const std::string& path);
// Accepts one client of a unix_listen() socket, non-blocking. Errors:
// EAGAIN when none is waiting, else accept4's errno.
SysResult<Fd> unix_accept(int listen_fd);
// A blocking connection to `path`. Errors: path too long, socket, connect.
SysResult<Fd> unix_connect(const std::string& path);
// A non-blocking connection to `path`, waiting at most `timeout` for room
// in the server's backlog. Errors: path too long, socket, connect;
// ETIMEDOUT when the backlog stayed full.
SysResult<Fd> unix_connect(const std::string& path, Time timeout);

// Blocks `signals` for the process and returns a signalfd for them.
// Errors: sigprocmask or signalfd failing.
SysResult<Fd> signal_fd(std::span<const int> signals);
// The next signal number from a signalfd, or nullopt when none is pending.
std::optional<int> read_signal(int signal_fd);

// A CLOCK_MONOTONIC timerfd and its absolute deadline.
class Timer {
 public:
  // Errors: timerfd_create failing.
  static SysResult<Timer> create();
  // Fires at `at` (monotonic_now() scale); Time::max() disarms.
  void arm(Time at);
  // Clears the expiry count after a wakeup.
  void acknowledge();
  int fd() const { return fd_.get(); }

 private:
  Fd fd_;
  Time armed_ = Time::max();
};

// One epoll set. Tags are chosen by the caller and handed back on events.
class Epoll {
 public:
  // Errors: epoll_create1 failing.
  static SysResult<Epoll> create();
  // Errors: epoll_ctl's errno.
  SysResult<void> add(int fd, std::uint32_t events, std::uint64_t tag);
  SysResult<void> modify(int fd, std::uint32_t events, std::uint64_t tag);
  void remove(int fd);
  struct Event {
    std::uint64_t tag = 0;
    std::uint32_t events = 0;
  };
  // Waits up to `timeout_ms` (-1: forever). EINTR gives no events.
  // Errors: epoll_wait's errno other than EINTR.
  SysResult<std::vector<Event>> wait(int timeout_ms);

 private:
  Fd fd_;
};

}  // namespace arfabric::sysdep
