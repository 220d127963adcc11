// `arfabric bgpd`: the sans-I/O BGP speaker (src/proto/bgp) on real TCP
// sockets and a real monotonic clock (issue 6).
//
// One thread, one epoll set: the listening socket, each peer connection, the
// control socket and its clients, a CLOCK_MONOTONIC timerfd armed at the
// engine's next_deadline() (or the next interface-speed poll) and a
// signalfd (SIGTERM/SIGINT stop, SIGHUP reloads). Every event is handed to
// the engine with monotonic_now(); then the engine's outputs are drained:
// connect/send/close requests act on sockets, FIB updates go to the kernel
// (fib.h), peer status changes are logged. This is the same shape as the
// simulator's host (src/sim/bgp_control.cc), with sockets instead of links.
//
// Connections get ids from a counter (never reused), so bytes of a closed
// connection can never reach a newer one. An incoming connection is matched
// to a peer by its source address; unknown sources are closed at once.
// A control client that has not sent its whole request within
// kControlRequestTimeout is dropped, so idle clients cannot hold the
// daemon's descriptors; when accept() runs out of them (EMFILE) the
// waiting connection is accepted on a spare descriptor and closed (a
// warning each time) instead of spinning on a readable listening socket.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "daemon/config.h"
#include "daemon/fib.h"
#include "daemon/log.h"
#include "daemon/status.h"
#include "proto/bgp/speaker.h"
#include "sysdep/linux/io.h"

namespace arfabric::daemon {

class Bgpd {
 public:
  // Opens the listening, control, timer and signal descriptors and builds
  // the engine. Errors (as a message naming what failed): the configuration
  // fails the engine's checks, a socket cannot be bound (address not local,
  // port in use), the FIB cannot be opened when fib.install is set.
  static std::expected<std::unique_ptr<Bgpd>, std::string> create(
      DaemonConfig config, Logger& log);
  ~Bgpd();

  // Runs until SIGTERM/SIGINT (or request_stop()), then sends NOTIFICATION
  // Cease to every peer, flushes the sockets (at most one second), removes
  // our kernel routes when configured, and returns 0; 1 after a fatal
  // error (epoll failing).
  int run();
  void request_stop() { stop_requested_ = true; }

  // Re-reads the configuration file (SIGHUP): peers added or removed,
  // link bandwidths and originated prefixes changed take effect without
  // touching the other sessions; a peer whose session parameters changed
  // is restarted. Global settings (asn, router_id, role, listen, fare,
  // multipath, timers) need a restart and are only warned about. Returns
  // the warnings (also logged): settings that need a restart, peers the
  // engine refused. Errors: the file does not load (the running
  // configuration stays).
  std::expected<std::vector<std::string>, std::string> reload();

  const proto::bgp::Speaker& speaker() const { return *speaker_; }

 private:
  struct Peer {
    std::optional<DaemonPeer> config;  // nullopt: removed
    BitsPerSecond bandwidth = 0;
    proto::bgp::ConnectionId connecting = 0;  // pending outgoing attempt
    bool link_down = false;  // its interface lost carrier: session stopped
    std::uint64_t carrier_changes = 0;  // at the last poll
    // Why the last outgoing connection failed, logged as a warning once
    // per change (cleared when the session is established).
    std::string connect_error;
  };
  enum class ConnKind : std::uint8_t { bgp, control };
  static constexpr Time kControlRequestTimeout = sec(10);
  struct Conn {
    ConnKind kind = ConnKind::bgp;
    sysdep::Fd fd;
    proto::bgp::PeerId peer = 0;
    bool connecting = false;     // outgoing, not yet writable
    sysdep::InetAddress remote;  // outgoing: where it connects to
    bool closing = false;        // close once `out` is flushed
    std::vector<std::uint8_t> out;
    std::size_t out_offset = 0;
    std::vector<std::uint8_t> in;  // control: the request line
    bool want_write = false;
    Time opened;  // control: when accepted (an idle client is dropped)
  };

  Bgpd(DaemonConfig config, Logger& log);
  std::expected<void, std::string> open_descriptors();

  // Engine time counts from the daemon's start (plus one second, so that
  // no deadline is ever at or below zero): Time spans 106 days of
  // picoseconds, less than a machine's uptime may be.
  Time now() const { return sysdep::monotonic_now() - epoch_; }
  BitsPerSecond bandwidth_of(const DaemonPeer& p) const;
  void pump();
  void arm_timer();
  void handle_event(std::uint64_t tag, std::uint32_t events);
  void on_timer();
  void on_signal();
  void on_accept();
  void on_control_accept();
  void on_connection(proto::bgp::ConnectionId id, std::uint32_t events);
  void on_control_client(proto::bgp::ConnectionId id, std::uint32_t events);
  // Logs a failed outgoing connection: a warning when the reason is new.
  void log_connect_failure(proto::bgp::PeerId peer, const std::string& error);
  void start_connect(proto::bgp::PeerId peer);
  void send(proto::bgp::ConnectionId id, std::span<const std::uint8_t> bytes);
  // Writes what the socket takes; false when the connection died.
  bool flush(proto::bgp::ConnectionId id);
  void update_interest(proto::bgp::ConnectionId id);
  // Closes without telling the engine (it asked, or it never knew).
  void drop(proto::bgp::ConnectionId id);
  // The peer closed or the socket failed: the engine hears on_closed.
  void lost(proto::bgp::ConnectionId id, const std::string& why);
  void poll_interfaces();
  // The device toward `peer` ("" when none is configured).
  std::string interface_of(proto::bgp::PeerId peer) const;
  // The FIB as bgpctl shows it: as programmed, or from the RIB when the
  // kernel is not programmed.
  std::vector<FibRoute> fib_routes() const;
  std::string control_answer(const std::string& request);
  std::vector<PeerView> peer_views() const;
  void shutdown();

  DaemonConfig config_;
  Logger* log_;
  std::unique_ptr<proto::bgp::Speaker> speaker_;
  std::vector<Peer> peers_;  // by PeerId
  std::unique_ptr<Fib> fib_;
  // Set when stopping with fib.remove_on_exit false: the withdrawals that
  // stopping the sessions makes leave the kernel's routes alone.
  bool fib_frozen_ = false;
  sysdep::Epoll epoll_;
  sysdep::Timer timer_;
  sysdep::Fd signals_, listen_, control_;
  // A descriptor kept in reserve: when accept() fails for want of
  // descriptors (EMFILE), it is closed to accept and close the waiting
  // connection, which otherwise keeps the listening socket readable and
  // the loop spinning.
  sysdep::Fd spare_;
  void shed_waiting_connection(int listen_fd, const char* what);
  // When the oldest control client without a whole request is dropped.
  Time control_deadline() const;
  void drop_idle_control_clients(Time now);
  std::optional<sysdep::FileId> control_file_;  // the socket file made
  std::unordered_map<proto::bgp::ConnectionId, Conn> conns_;
  proto::bgp::ConnectionId next_id_ = 1;
  Time epoch_ = sysdep::monotonic_now() - sec(1);
  Time next_poll_ = Time::max();
  bool stop_requested_ = false;
};

}  // namespace arfabric::daemon
