#include "daemon/bgpd.h"

#include <fcntl.h>
#include <sys/epoll.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "common/overloaded.h"
#include "sysdep/linux/interface.h"

namespace arfabric::daemon {

namespace bgp = proto::bgp;

namespace {

// epoll tags: small constants for the fixed descriptors, connection ids
// above them.
constexpr std::uint64_t kTagSignal = 1;
constexpr std::uint64_t kTagTimer = 2;
constexpr std::uint64_t kTagListen = 3;
constexpr std::uint64_t kTagControl = 4;
constexpr std::uint64_t kTagConnection = 16;

sysdep::InetAddress inet(const IpAddress& a, std::uint16_t port) {
  sysdep::InetAddress s;
  s.v6 = a.v6;
  s.bytes = a.bytes;
  s.port = port;
  return s;
}

// `a` on a peer's side of the session: a link-local address is scoped to
// the peer's interface (the configuration requires one), whose index is
// read now: 0 while no interface of that name exists.
sysdep::InetAddress scoped_inet(const IpAddress& a, std::uint16_t port,
                                const DaemonPeer& peer) {
  sysdep::InetAddress s = inet(a, port);
  if (a.link_local()) s.scope_id = sysdep::interface_index(peer.interface);
  return s;
}

// Session parameters whose change needs the session restarted; link
// bandwidth and the name do not. Timers are compared as the running
// session has them: a peer's own value, else `globals`' (a reload does not
// apply changed global timers to running sessions), so spelling out the
// value a peer inherits changes nothing.
bool same_session(const DaemonPeer& a, const DaemonPeer& b,
                  const DaemonConfig& globals) {
  DaemonPeer x = a, y = b;
  x.name = y.name;
  x.link_bandwidth = y.link_bandwidth;
  x.bandwidth_from_interface = y.bandwidth_from_interface;
  // A session from a link-local local_address runs over its interface:
  // another one is another link.
  const auto bound_to_link = [](const DaemonPeer& p) {
    return p.local_address && p.local_address->link_local();
  };
  if (!bound_to_link(a) && !bound_to_link(b)) x.interface = y.interface;
  for (DaemonPeer* p : {&x, &y}) {
    p->hold_s = p->hold_s.value_or(globals.hold_s);
    if (p->connect_retry_s == 0) p->connect_retry_s = globals.connect_retry_s;
    if (!p->mrai_set) p->mrai_ms = globals.mrai_ms;
    p->mrai_set = true;
  }
  return x == y;
}

}  // namespace

Bgpd::Bgpd(DaemonConfig config, Logger& log)
    : config_(std::move(config)), log_(&log) {}

Bgpd::~Bgpd() = default;

BitsPerSecond Bgpd::bandwidth_of(const DaemonPeer& p) const {
  if (!p.bandwidth_from_interface) return p.link_bandwidth;
  // Down or unknown speed counts as 0: FARE then gives the path no weight.
  return sysdep::interface_speed(p.interface).value_or(0);
}

std::expected<std::unique_ptr<Bgpd>, std::string> Bgpd::create(
    DaemonConfig config, Logger& log) {
  std::unique_ptr<Bgpd> d(new Bgpd(std::move(config), log));
  std::vector<BitsPerSecond> bandwidth;
  for (const DaemonPeer& p : d->config_.peers) {
    bandwidth.push_back(d->bandwidth_of(p));
    d->peers_.push_back(Peer{p, bandwidth.back(), 0, false,
                             sysdep::interface_carrier_changes(p.interface),
                             ""});
  }
  bgp::SpeakerConfig sc = speaker_config(d->config_, bandwidth);
  if (auto v = bgp::validate(sc); !v) {
    return std::unexpected("configuration: " + v.error().to_string());
  }
  d->speaker_ = std::make_unique<bgp::Speaker>(std::move(sc));
  std::unique_ptr<sysdep::Rtnetlink> kernel;
  if (d->config_.fib_install) {
    auto nl = sysdep::Rtnetlink::open();
    if (!nl) return std::unexpected("fib: " + nl.error().to_string());
    kernel = std::make_unique<sysdep::Rtnetlink>(std::move(*nl));
  }
  d->fib_ = std::make_unique<Fib>(
      log, std::move(kernel), d->config_.fib_protocol, d->config_.fib_metric);
  if (auto r = d->open_descriptors(); !r) return std::unexpected(r.error());
  // Only now that the port, socket and pid file are ours: a second daemon
  // refused for them must not sweep the first one's routes.
  if (const std::size_t left = d->fib_->sweep()) {
    log.info("bgpd: removed " + std::to_string(left) +
             " nexthop objects (and their routes) an earlier run left");
  }
  return d;
}

std::expected<void, std::string> Bgpd::open_descriptors() {
  spare_ = sysdep::Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  auto ep = sysdep::Epoll::create();
  if (!ep) return std::unexpected(ep.error().to_string());
  epoll_ = std::move(*ep);
  auto timer = sysdep::Timer::create();
  if (!timer) return std::unexpected(timer.error().to_string());
  timer_ = std::move(*timer);
  const int signals[] = {SIGTERM, SIGINT, SIGHUP};
  auto sig = sysdep::signal_fd(signals);
  if (!sig) return std::unexpected(sig.error().to_string());
  signals_ = std::move(*sig);
  (void)epoll_.add(signals_.get(), EPOLLIN, kTagSignal);
  (void)epoll_.add(timer_.fd(), EPOLLIN, kTagTimer);
  if (config_.listen_port != 0) {
    auto l =
        sysdep::tcp_listen(inet(config_.listen_address, config_.listen_port));
    if (!l) return std::unexpected("listen: " + l.error().to_string());
    listen_ = std::move(*l);
    (void)epoll_.add(listen_.get(), EPOLLIN, kTagListen);
  }
  if (!config_.control_socket.empty()) {
    auto c = sysdep::unix_listen(config_.control_socket);
    if (!c) return std::unexpected("control socket: " + c.error().to_string());
    control_ = std::move(*c);
    control_file_ = sysdep::file_id(config_.control_socket);
    (void)epoll_.add(control_.get(), EPOLLIN, kTagControl);
  }
  return {};
}

int Bgpd::run() {
  log_->info(
      "bgpd: AS " + std::to_string(config_.asn) + ", router id " +
      wire::format_ipv4(config_.router_id) + ", " +
      std::to_string(config_.peers.size()) +
      (config_.peers.size() == 1 ? " peer" : " peers") + ", listening on " +
      (config_.listen_port
           ? inet(config_.listen_address, config_.listen_port).to_string()
           : std::string("nothing")));
  for (const std::string& w : peer_warnings(config_)) log_->warning(w);
  speaker_->start(now());
  pump();
  next_poll_ = now() + ms(config_.interface_poll_ms);
  while (!stop_requested_) {
    arm_timer();
    auto events = epoll_.wait(-1);
    if (!events) {
      log_->error("bgpd: " + events.error().to_string());
      return 1;
    }
    for (const auto& e : *events) {
      handle_event(e.tag, e.events);
      if (stop_requested_) break;
    }
    pump();
  }
  shutdown();
  return 0;
}

void Bgpd::arm_timer() {
  const Time at =
      std::min({speaker_->next_deadline(), next_poll_, control_deadline()});
  timer_.arm(at == Time::max() ? at : at + epoch_);
}

void Bgpd::handle_event(std::uint64_t tag, std::uint32_t events) {
  switch (tag) {
    case kTagSignal:
      on_signal();
      return;
    case kTagTimer:
      timer_.acknowledge();
      on_timer();
      return;
    case kTagListen:
      on_accept();
      return;
    case kTagControl:
      on_control_accept();
      return;
    default:
      break;
  }
  const auto id = static_cast<bgp::ConnectionId>(tag - kTagConnection);
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  if (it->second.kind == ConnKind::control) {
    on_control_client(id, events);
  } else {
    on_connection(id, events);
  }
}

void Bgpd::on_signal() {
  while (auto s = sysdep::read_signal(signals_.get())) {
    if (*s == SIGHUP) {
      log_->info("bgpd: SIGHUP, reloading " + config_.file);
      if (auto r = reload(); !r) {
        log_->error("bgpd: reload failed, configuration unchanged: " +
                    r.error());
      }
    } else {
      log_->info(std::string("bgpd: ") +
                 (*s == SIGTERM ? "SIGTERM" : "SIGINT") + ", stopping");
      stop_requested_ = true;
    }
  }
}

void Bgpd::on_timer() {
  const Time t = now();
  if (t >= next_poll_) {
    poll_interfaces();
    next_poll_ = t + ms(config_.interface_poll_ms);
  }
  if (speaker_->next_deadline() <= t) speaker_->on_timer(t);
  if (control_deadline() <= t) drop_idle_control_clients(t);
}

void Bgpd::poll_interfaces() {
  for (bgp::PeerId id = 0; id < peers_.size(); ++id) {
    Peer& p = peers_[id];
    if (!p.config || p.config->interface.empty()) continue;
    // A directly connected peer is unreachable once its link loses carrier:
    // stop the session at once rather than waiting for the hold timer (FRR
    // calls this fast-external-failover), and start it when carrier returns.
    const bool running = sysdep::interface_running(p.config->interface);
    const std::uint64_t changes =
        sysdep::interface_carrier_changes(p.config->interface);
    const bool flapped = changes != p.carrier_changes;
    p.carrier_changes = changes;
    if (!running && !p.link_down) {
      p.link_down = true;
      // A name that is no interface (a typo, or one not created yet) says
      // so: "down" would send the user looking at a cable.
      const bool exists = sysdep::interface_index(p.config->interface) != 0;
      log_->warning(
          "peer " + p.config->name + ": interface " + p.config->interface +
          (exists ? " down" : " does not exist") + ", stopping the session");
      speaker_->stop_peer(id, now());
    } else if (running && p.link_down) {
      p.link_down = false;
      log_->info("peer " + p.config->name + ": interface " +
                 p.config->interface + " up, starting the session");
      speaker_->start_peer(id, now());
    }
    if (running && flapped) {
      // The kernel deleted the nexthops over the interface when it went
      // down, possibly between two polls: program them again.
      fib_->refresh(p.config->interface);
    }
    if (!p.config->bandwidth_from_interface) continue;
    const BitsPerSecond bw = bandwidth_of(*p.config);
    if (bw == p.bandwidth) continue;
    log_->info("peer " + p.config->name + ": interface " + p.config->interface +
               " speed " + std::to_string(p.bandwidth) + " -> " +
               std::to_string(bw) + " b/s");
    p.bandwidth = bw;
    speaker_->set_link_bandwidth(id, bw, now());
  }
}

void Bgpd::pump() {
  auto& outputs = speaker_->outputs();
  while (!outputs.empty()) {
    std::vector<bgp::SpeakerOutput> batch;
    batch.swap(outputs);
    for (bgp::SpeakerOutput& o : batch) {
      std::visit(
          Overloaded{
              [&](bgp::ConnectRequest& c) { start_connect(c.peer); },
              [&](bgp::SendRequest& s) { send(s.connection, s.bytes); },
              [&](bgp::CloseRequest& c) {
                auto it = conns_.find(c.connection);
                if (it == conns_.end()) return;
                it->second.closing = true;
                if (flush(c.connection) &&
                    it->second.out_offset == it->second.out.size()) {
                  drop(c.connection);
                }
              },
              [&](bgp::FibUpdate& f) {
                if (fib_frozen_) return;
                fib_->apply_with(
                    f, [&](bgp::PeerId peer) { return interface_of(peer); });
              },
              [&](bgp::PeerStatus& s) {
                const std::string name = speaker_->config().peers[s.peer].name;
                if (s.established) {
                  log_->info("peer " + name + ": Established");
                  if (s.peer < peers_.size()) peers_[s.peer].connect_error = "";
                } else {
                  log_->warning("peer " + name + ": down: " + s.reason);
                }
              },
          },
          o);
    }
  }
}

void Bgpd::log_connect_failure(bgp::PeerId peer, const std::string& error) {
  Peer& p = peers_[peer];
  const std::string text = "peer " + p.config->name + ": connect: " + error;
  // Attempts repeat every connect_retry: a new reason is a warning (a
  // local_address on no interface fails here, every time), a repeat is
  // for debugging.
  if (error != p.connect_error) {
    p.connect_error = error;
    log_->warning(text);
  } else {
    log_->debug(text);
  }
}

void Bgpd::start_connect(bgp::PeerId peer) {
  Peer& p = peers_[peer];
  if (!p.config) return;
  if (p.connecting != 0) drop(p.connecting);  // abandon the older attempt
  std::optional<sysdep::InetAddress> local;
  if (p.config->local_address) {
    local = scoped_inet(*p.config->local_address, 0, *p.config);
  }
  const sysdep::InetAddress remote =
      scoped_inet(p.config->address, p.config->port, *p.config);
  if ((p.config->address.link_local() && remote.scope_id == 0) ||
      (local && p.config->local_address->link_local() &&
       local->scope_id == 0)) {
    log_connect_failure(peer, "interface " + p.config->interface +
                                  " of a link-local address does not exist");
    speaker_->on_connect_failed(peer, now());
    return;
  }
  auto fd = sysdep::tcp_connect(remote, local);
  if (!fd) {
    log_connect_failure(peer, fd.error().to_string());
    speaker_->on_connect_failed(peer, now());
    return;
  }
  const bgp::ConnectionId id = next_id_++;
  Conn c;
  c.fd = std::move(*fd);
  c.peer = peer;
  c.connecting = true;
  c.remote = remote;
  (void)epoll_.add(c.fd.get(), EPOLLOUT, kTagConnection + id);
  conns_.emplace(id, std::move(c));
  p.connecting = id;
}

void Bgpd::on_accept() {
  for (;;) {
    auto a = sysdep::tcp_accept(listen_.get());
    if (!a) {
      const int err = a.error().err;
      if (err == EMFILE || err == ENFILE) {
        shed_waiting_connection(listen_.get(), "BGP connection");
      } else if (err != EAGAIN && err != EWOULDBLOCK) {
        log_->warning("bgpd: " + a.error().to_string());
      }
      return;
    }
    auto& [fd, from] = *a;
    std::optional<bgp::PeerId> peer;
    for (bgp::PeerId id = 0; id < peers_.size(); ++id) {
      const auto& cfg = peers_[id].config;
      if (cfg && scoped_inet(cfg->address, 0, *cfg).same_host(from)) peer = id;
    }
    if (!peer) {
      log_->info("bgpd: connection from unknown " + from.to_string() +
                 " refused");
      continue;  // fd closes here
    }
    const bgp::ConnectionId id = next_id_++;
    Conn c;
    c.fd = std::move(fd);
    c.peer = *peer;
    (void)epoll_.add(c.fd.get(), EPOLLIN, kTagConnection + id);
    conns_.emplace(id, std::move(c));
    log_->debug("peer " + peers_[*peer].config->name + ": incoming from " +
                from.to_string());
    speaker_->on_connected(*peer, id, bgp::Direction::incoming, now());
    pump();
  }
}

void Bgpd::on_connection(bgp::ConnectionId id, std::uint32_t events) {
  Conn& c = conns_.at(id);
  if (c.connecting) {
    const bgp::PeerId peer = c.peer;
    peers_[peer].connecting = 0;
    auto r = sysdep::connect_result(c.fd.get(), c.remote);
    if (!r) {
      log_connect_failure(peer, r.error().to_string());
      drop(id);
      speaker_->on_connect_failed(peer, now());
      return;
    }
    c.connecting = false;
    c.want_write = false;
    (void)epoll_.modify(c.fd.get(), EPOLLIN, kTagConnection + id);
    speaker_->on_connected(peer, id, bgp::Direction::outgoing, now());
    return;
  }
  if (events & EPOLLOUT) {
    if (!flush(id)) return;
    auto it = conns_.find(id);
    if (it == conns_.end()) return;
    if (it->second.closing && it->second.out_offset == it->second.out.size()) {
      drop(id);
      return;
    }
  }
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
    std::vector<std::uint8_t> buf;
    for (;;) {
      auto it = conns_.find(id);
      if (it == conns_.end()) return;
      buf.clear();
      auto n = sysdep::read_some(it->second.fd.get(), buf);
      if (!n) {
        if (n.error().err == EAGAIN || n.error().err == EWOULDBLOCK) return;
        lost(id, n.error().to_string());
        return;
      }
      if (*n == 0) {
        lost(id, "closed by the peer");
        return;
      }
      // A connection the engine asked to close may still deliver bytes;
      // the engine ignores unknown connections, so hand them over anyway.
      speaker_->on_bytes(it->second.peer, id, buf, now());
      pump();
    }
  }
}

void Bgpd::send(bgp::ConnectionId id, std::span<const std::uint8_t> bytes) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  if (c.out_offset == c.out.size()) {
    c.out.clear();
    c.out_offset = 0;
  }
  c.out.insert(c.out.end(), bytes.begin(), bytes.end());
  flush(id);
}

bool Bgpd::flush(bgp::ConnectionId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return false;
  Conn& c = it->second;
  if (c.connecting) return true;
  while (c.out_offset < c.out.size()) {
    auto n =
        sysdep::write_some(c.fd.get(), std::span(c.out).subspan(c.out_offset));
    if (!n) {
      lost(id, n.error().to_string());
      return false;
    }
    if (*n == 0) break;
    c.out_offset += *n;
  }
  if (c.out_offset == c.out.size()) {
    c.out.clear();
    c.out_offset = 0;
  }
  update_interest(id);
  return true;
}

void Bgpd::update_interest(bgp::ConnectionId id) {
  Conn& c = conns_.at(id);
  if (c.connecting) return;  // waiting for writability already
  const bool want = c.out_offset < c.out.size();
  if (want == c.want_write) return;
  c.want_write = want;
  (void)epoll_.modify(c.fd.get(), EPOLLIN | (want ? EPOLLOUT : 0u),
                      kTagConnection + id);
}

void Bgpd::drop(bgp::ConnectionId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  epoll_.remove(it->second.fd.get());
  if (it->second.kind == ConnKind::bgp &&
      peers_[it->second.peer].connecting == id) {
    peers_[it->second.peer].connecting = 0;
  }
  conns_.erase(it);
}

void Bgpd::lost(bgp::ConnectionId id, const std::string& why) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  const bgp::PeerId peer = it->second.peer;
  const ConnKind kind = it->second.kind;
  const bool told = !it->second.closing;
  drop(id);
  if (kind != ConnKind::bgp || !told) return;
  log_->debug("peer " + speaker_->config().peers[peer].name + ": connection " +
              std::to_string(id) + " lost: " + why);
  speaker_->on_closed(peer, id, now());
}

void Bgpd::on_control_accept() {
  for (;;) {
    auto a = sysdep::unix_accept(control_.get());
    if (!a) {
      if (a.error().err == EMFILE || a.error().err == ENFILE)
        shed_waiting_connection(control_.get(), "bgpctl connection");
      return;
    }
    const bgp::ConnectionId id = next_id_++;
    Conn c;
    c.kind = ConnKind::control;
    c.fd = std::move(*a);
    c.opened = now();
    (void)epoll_.add(c.fd.get(), EPOLLIN, kTagConnection + id);
    conns_.emplace(id, std::move(c));
  }
}

void Bgpd::shed_waiting_connection(int listen_fd, const char* what) {
  log_->warning(std::string("bgpd: out of file descriptors: a ") + what +
                " refused");
  spare_.reset();
  // Accepted only to be closed: the listening socket stops being readable.
  if (listen_fd == control_.get())
    (void)sysdep::unix_accept(listen_fd);
  else
    (void)sysdep::tcp_accept(listen_fd);
  spare_ = sysdep::Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
}

Time Bgpd::control_deadline() const {
  Time oldest = Time::max();
  for (const auto& [id, c] : conns_) {
    if (c.kind == ConnKind::control && !c.closing)
      oldest = std::min(oldest, c.opened);
  }
  return oldest == Time::max() ? oldest : oldest + kControlRequestTimeout;
}

void Bgpd::drop_idle_control_clients(Time t) {
  std::vector<bgp::ConnectionId> idle;
  for (const auto& [id, c] : conns_) {
    if (c.kind == ConnKind::control && !c.closing &&
        c.opened + kControlRequestTimeout <= t)
      idle.push_back(id);
  }
  for (const bgp::ConnectionId id : idle) drop(id);
}

void Bgpd::on_control_client(bgp::ConnectionId id, std::uint32_t events) {
  Conn& c = conns_.at(id);
  if (c.closing) {
    if (flush(id) && conns_.contains(id) &&
        conns_.at(id).out_offset == conns_.at(id).out.size()) {
      drop(id);
    }
    return;
  }
  if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
  auto n = sysdep::read_some(c.fd.get(), c.in);
  if (!n || *n == 0 || c.in.size() > 4096) {
    if (!n && (n.error().err == EAGAIN)) return;
    drop(id);
    return;
  }
  const auto nl = std::find(c.in.begin(), c.in.end(), '\n');
  if (nl == c.in.end()) return;
  const std::string request(c.in.begin(), nl);
  const std::string answer = control_answer(request) + "\n";
  c.closing = true;
  send(id, std::span(reinterpret_cast<const std::uint8_t*>(answer.data()),
                     answer.size()));
  if (conns_.contains(id) &&
      conns_.at(id).out_offset == conns_.at(id).out.size()) {
    drop(id);
  }
}

std::vector<PeerView> Bgpd::peer_views() const {
  std::vector<PeerView> v;
  for (const Peer& p : peers_) {
    v.push_back(PeerView{p.config ? &*p.config : nullptr, p.bandwidth});
  }
  return v;
}

std::string Bgpd::interface_of(bgp::PeerId peer) const {
  return peer < peers_.size() && peers_[peer].config ? peers_[peer].config->interface : std::string();
}

std::vector<FibRoute> Bgpd::fib_routes() const {
  if (fib_->programs_kernel()) return fib_->routes();
  // Not programming the kernel, the Fib keeps nothing: the RIB's installed
  // sets are the routes.
  std::vector<std::pair<bgp::Destination, FibRoute>> routes;
  speaker_->rib().for_each([&](std::uint32_t, const bgp::RibEntry& e) {
    if (e.installed.empty()) return;
    std::vector<std::string> devices;
    for (const auto& h : e.installed) devices.push_back(interface_of(h.peer));
    routes.emplace_back(e.destination,
                        fib_view(e.destination, e.installed, devices));
  });
  std::sort(routes.begin(), routes.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<FibRoute> out;
  out.reserve(routes.size());
  for (auto& [d, r] : routes) out.push_back(std::move(r));
  return out;
}

std::string Bgpd::control_answer(const std::string& request) {
  if (request == "neighbors") {
    return dump_json(neighbors_json(*speaker_, peer_views()));
  }
  if (request == "rib") return dump_json(rib_json(*speaker_, peer_views()));
  if (request == "fib") return dump_json(fib_json(fib_routes()));
  if (request == "reload") {
    log_->info("bgpd: bgpctl reload, reloading " + config_.file);
    auto r = reload();
    if (!r) {
      log_->error("bgpd: reload failed, configuration unchanged: " + r.error());
    }
    return dump_json(
        nlohmann::json{{"reloaded", bool(r)},
                       {"file", config_.file},
                       {"warnings", r ? *r : std::vector<std::string>{}},
                       {"error", r ? std::string() : r.error()}});
  }
  return dump_json(
      nlohmann::json{{"error", "unknown request '" + request +
                                   "' (neighbors, rib, fib, reload)"}});
}

std::expected<std::vector<std::string>, std::string> Bgpd::reload() {
  auto loaded = load_config(config_.file);
  if (!loaded) return std::unexpected(loaded.error().to_string());
  DaemonConfig next = std::move(*loaded);
  std::vector<std::string> warnings;
  auto warn = [&](std::string text) {
    log_->warning("reload: " + text);
    warnings.push_back(std::move(text));
  };
  auto differs = [&](bool changed, const char* what) {
    if (changed) {
      warn(std::string(what) +
           " changed; it takes effect only after a restart");
    }
  };
  differs(next.asn != config_.asn, "asn");
  differs(next.router_id != config_.router_id, "router_id");
  differs(next.role != config_.role, "role");
  differs(next.listen_address != config_.listen_address ||
              next.listen_port != config_.listen_port,
          "listen");
  differs(next.control_socket != config_.control_socket, "control_socket");
  differs(next.maximum_paths != config_.maximum_paths ||
              next.multipath_relax != config_.multipath_relax,
          "multipath");
  differs(next.fare_enabled != config_.fare_enabled ||
              next.fare.sub_type != config_.fare.sub_type ||
              next.fare.multihoming != config_.fare.multihoming ||
              next.fare.path_bandwidth_transitive !=
                  config_.fare.path_bandwidth_transitive ||
              next.fare.super_spine_attach_link_ec !=
                  config_.fare.super_spine_attach_link_ec ||
              next.fare.spine_lower_to_next_next_hop !=
                  config_.fare.spine_lower_to_next_next_hop ||
              next.multihomed != config_.multihomed,
          "fare");
  differs(next.fib_install != config_.fib_install ||
              next.fib_protocol != config_.fib_protocol ||
              next.fib_metric != config_.fib_metric,
          "fib");
  // The command line's --log-level outlives a reload.
  if (config_.log_level_fixed) {
    next.log_level = config_.log_level;
    next.log_level_fixed = true;
  }
  log_->set_level(next.log_level);
  const Time t = now();
  // Peers, matched by address (and a link-local one's interface).
  std::vector<std::string> removed;  // names, to tell a peer that moved
  for (bgp::PeerId id = 0; id < peers_.size(); ++id) {
    Peer& p = peers_[id];
    if (!p.config) continue;
    auto it = std::find_if(
        next.peers.begin(), next.peers.end(),
        [&](const DaemonPeer& n) { return same_neighbor(n, *p.config); });
    if (it == next.peers.end() || !same_session(*it, *p.config, config_)) {
      if (it == next.peers.end()) {
        log_->info("reload: peer " + p.config->name + " removed");
        removed.push_back(p.config->name);
      } else {
        warn("peer " + p.config->name +
             ": its session settings changed; the session restarts");
      }
      speaker_->remove_peer(id, t);
      p.config.reset();
      pump();
      continue;
    }
    p.config = *it;
    const BitsPerSecond bw = bandwidth_of(*it);
    if (bw != p.bandwidth) {
      log_->info("reload: peer " + it->name + " link bandwidth " +
                 std::to_string(p.bandwidth) + " -> " + std::to_string(bw));
      p.bandwidth = bw;
      speaker_->set_link_bandwidth(id, bw, t);
    }
  }
  // The timers and next hops of new peers come from the new global values.
  DaemonConfig globals = config_;
  globals.hold_s = next.hold_s;
  globals.connect_retry_s = next.connect_retry_s;
  globals.idle_hold_s = next.idle_hold_s;
  globals.mrai_ms = next.mrai_ms;
  for (const DaemonPeer& n : next.peers) {
    const bool present = std::any_of(
        peers_.begin(), peers_.end(),
        [&](const Peer& p) { return p.config && same_neighbor(*p.config, n); });
    if (present) continue;
    const BitsPerSecond bw = bandwidth_of(n);
    auto id = speaker_->add_peer(peer_config(globals, n, bw), t);
    if (!id) {
      warn("peer " + n.name + " not added: " + id.error().to_string());
      continue;
    }
    peers_.resize(*id + 1);
    peers_[*id] = Peer{
        n, bw, 0, false, sysdep::interface_carrier_changes(n.interface), ""};
    log_->info("reload: peer " + n.name + " added");
    // A link-local peer given another interface is another neighbour (the
    // same address on another link), but to whoever edited the file it
    // is the same peer, whose session restarts.
    if (std::find(removed.begin(), removed.end(), n.name) != removed.end()) {
      warn("peer " + n.name +
           ": its address or link changed; the session restarts");
    }
    for (std::string& w : peer_warnings(n, globals)) warn(std::move(w));
  }
  // Originated prefixes.
  for (const bgp::Destination& d : config_.prefixes) {
    if (std::find(next.prefixes.begin(), next.prefixes.end(), d) ==
        next.prefixes.end()) {
      speaker_->withdraw_origin(d, t);
    }
  }
  for (const bgp::Destination& d : next.prefixes) {
    if (std::find(config_.prefixes.begin(), config_.prefixes.end(), d) ==
        config_.prefixes.end()) {
      speaker_->originate(d, t);
    }
  }
  // Keep what could not change.
  next.asn = config_.asn;
  next.router_id = config_.router_id;
  next.role = config_.role;
  next.listen_address = config_.listen_address;
  next.listen_port = config_.listen_port;
  next.control_socket = config_.control_socket;
  next.fib_install = config_.fib_install;
  next.fib_protocol = config_.fib_protocol;
  next.fib_metric = config_.fib_metric;
  // So that the next reload compares with what runs, not with what this
  // file asked for (a change warned of and undone warned again).
  next.maximum_paths = config_.maximum_paths;
  next.multipath_relax = config_.multipath_relax;
  next.fare_enabled = config_.fare_enabled;
  next.fare = config_.fare;
  next.multihomed = config_.multihomed;
  config_ = std::move(next);
  pump();
  return warnings;
}

void Bgpd::shutdown() {
  // Stopping the sessions withdraws every route; with remove_on_exit
  // false the kernel keeps them (the next start sweeps them: Fib::sweep).
  fib_frozen_ = !config_.fib_remove_on_exit;
  speaker_->stop(now());  // NOTIFICATION Cease to every peer
  pump();
  // Give the NOTIFICATIONs up to a second to leave.
  const Time deadline = now() + sec(1);
  auto pending = [&] {
    for (const auto& [id, c] : conns_) {
      if (c.kind == ConnKind::bgp && c.out_offset < c.out.size()) return true;
    }
    return false;
  };
  while (pending() && now() < deadline) {
    auto events = epoll_.wait(50);
    if (!events) break;
    for (const auto& e : *events) {
      if (e.tag >= kTagConnection) {
        const auto id = static_cast<bgp::ConnectionId>(e.tag - kTagConnection);
        if (conns_.contains(id) && (e.events & EPOLLOUT)) flush(id);
      }
    }
  }
  conns_.clear();
  if (config_.fib_remove_on_exit) {
    fib_->remove_all();
  } else {
    log_->info("bgpd: leaving " + std::to_string(fib_->size()) +
               " routes in the kernel (fib.remove_on_exit false)");
  }
  // Only the socket file this daemon made: if someone removed it, another
  // daemon may have made its own there since.
  if (!config_.control_socket.empty() && control_file_ &&
      sysdep::file_id(config_.control_socket) == control_file_) {
    ::unlink(config_.control_socket.c_str());
  }
  log_->info("bgpd: stopped");
}

}  // namespace arfabric::daemon
