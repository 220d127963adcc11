#include "daemon/config.h"

#include <arpa/inet.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/quantity.h"
#include "common/suggest.h"
#include "common/text_file.h"
#include "common/utf8.h"
#include "common/yaml_documents.h"
#include "wire/bgp/nlri.h"

namespace arfabric::daemon {

namespace {

namespace bgp = proto::bgp;
using Result = std::expected<void, ConfigFileError>;

// Reads one YAML document with located errors. Every map is opened with
// the keys it allows so that a typo is an error, not a silent default.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  ConfigFileError error(const YAML::Node& n, std::string key,
                        std::string message) const {
    const YAML::Mark m = n.Mark();
    const bool known = !m.is_null() && m.line >= 0;
    return ConfigFileError{file_, known ? m.line + 1 : 0,
                           known ? m.column + 1 : 0, std::move(key),
                           std::move(message)};
  }

  Result check_map(const YAML::Node& n, const std::string& path,
                   const std::vector<std::string_view>& allowed) const {
    if (!n.IsMap()) {
      return std::unexpected(
          error(n, path.empty() ? "(top level)" : path, "expected a map"));
    }
    std::vector<std::string> seen;
    for (const auto& kv : n) {
      // A null, empty or structured key has no name of its own: the error
      // names the map it is in.
      if (!kv.first.IsScalar() || kv.first.Scalar().empty()) {
        return std::unexpected(error(kv.first,
                                     path.empty() ? "(top level)" : path,
                                     "a key must be a non-empty word"));
      }
      const std::string key = kv.first.Scalar();
      const std::string at = join(path, key);
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        return std::unexpected(error(kv.first, at, "repeated key"));
      }
      seen.push_back(key);
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string message = "unknown key";
        if (const auto best = suggest(key, allowed))
          message += " (did you mean '" + std::string(*best) + "'?)";
        return std::unexpected(error(kv.first, at, message));
      }
    }
    return {};
  }

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  std::expected<std::string, ConfigFileError> string(
      const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) {
      return std::unexpected(error(n, key, "expected a scalar value"));
    }
    return n.Scalar();
  }

  std::expected<std::uint64_t, ConfigFileError> uint(const YAML::Node& n,
                                                     const std::string& key,
                                                     std::uint64_t min,
                                                     std::uint64_t max) const {
    auto s = string(n, key);
    if (!s) return std::unexpected(s.error());
    std::uint64_t v = 0;
    int base = 10;
    std::string_view text = *s;
    if (text.starts_with("0x") || text.starts_with("0X")) {
      base = 16;
      text.remove_prefix(2);
    }
    const auto r =
        std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (text.empty() || r.ec != std::errc{} ||
        r.ptr != text.data() + text.size()) {
      return std::unexpected(
          error(n, key, "'" + *s + "' is not a non-negative integer"));
    }
    if (v < min || v > max) {
      return std::unexpected(error(n, key,
                                   std::to_string(v) + " is outside " +
                                       std::to_string(min) + ".." +
                                       std::to_string(max)));
    }
    return v;
  }

  std::expected<bool, ConfigFileError> boolean(const YAML::Node& n,
                                               const std::string& key) const {
    auto s = string(n, key);
    if (!s) return std::unexpected(s.error());
    if (*s == "true" || *s == "yes") return true;
    if (*s == "false" || *s == "no") return false;
    return std::unexpected(error(n, key, "expected true or false"));
  }

  std::expected<IpAddress, ConfigFileError> ip(const YAML::Node& n,
                                               const std::string& key) const {
    auto s = string(n, key);
    if (!s) return std::unexpected(s.error());
    auto a = parse_ip(*s);
    if (!a) return std::unexpected(error(n, key, a.error()));
    return *a;
  }

  std::expected<bgp::Destination, ConfigFileError> prefix(
      const YAML::Node& n, const std::string& key) const {
    auto s = string(n, key);
    if (!s) return std::unexpected(s.error());
    auto p = wire::bgp::prefix_from_string(*s);
    if (!p) {
      return std::unexpected(
          error(n, key, "'" + *s + "' is not a prefix like 10.1.0.0/24"));
    }
    // Bits past the length would be dropped when it is advertised: a typo
    // for another prefix, or for the address of a host.
    const auto address = parse_ip(s->substr(0, s->find('/')));
    if (address) {
      wire::bgp::Prefix network = *p;
      network.address = address->bytes;
      for (std::size_t bit = p->length; bit < 128; ++bit)
        network.address[bit / 8] &=
            static_cast<std::uint8_t>(~(0x80u >> (bit % 8)));
      if (network.address != address->bytes) {
        return std::unexpected(error(
            n, key,
            "'" + *s + "' has bits set past its length (did you mean " +
                wire::bgp::format_prefix(network, address->v6 ? 128 : 32) +
                "?)"));
      }
    }
    return bgp::destination_of(s->find(':') == std::string::npos
                                   ? wire::bgp::kAfiIpv4
                                   : wire::bgp::kAfiIpv6,
                               *p);
  }

  std::expected<proto::fare::Role, ConfigFileError> role(
      const YAML::Node& n, const std::string& key) const {
    auto s = string(n, key);
    if (!s) return std::unexpected(s.error());
    if (*s == "leaf") return proto::fare::Role::leaf;
    if (*s == "spine") return proto::fare::Role::spine;
    if (*s == "super-spine" || *s == "super_spine") {
      return proto::fare::Role::super_spine;
    }
    return std::unexpected(
        error(n, key, "'" + *s + "' is not leaf, spine or super-spine"));
  }

 private:
  std::string file_;
};

#define TRY(expr)                                                  \
  do {                                                             \
    if (auto r_ = (expr); !r_) return std::unexpected(r_.error()); \
  } while (0)
#define ASSIGN(lhs, expr)                                       \
  do {                                                          \
    auto v_ = (expr);                                           \
    if (!v_) return std::unexpected(v_.error());                \
    lhs = static_cast<std::remove_cvref_t<decltype(lhs)>>(*v_); \
  } while (0)

// What `a` is when no host's interface has it: "the unspecified
// address", "a multicast address", "the broadcast address", "a loopback
// address" (with `loopback`), or nothing.
std::optional<std::string> not_a_host_address(const IpAddress& a,
                                              bool loopback) {
  const auto& b = a.bytes;
  if (a.unspecified()) return "the unspecified address";
  if (!a.v6) {
    if (b[0] >= 224 && b[0] <= 239) return "a multicast address";
    if (b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255)
      return "the broadcast address";
    if (loopback && b[0] == 127) return "a loopback address";
  } else {
    if (b[0] == 0xff) return "a multicast address";
    if (loopback &&
        std::all_of(b.begin(), b.begin() + 15, [](auto x) { return x == 0; }) &&
        b[15] == 1)
      return "a loopback address";
  }
  return std::nullopt;
}

// Why `d` cannot be originated, if it cannot: inside a block whose
// addresses are no route's to advertise (multicast, loopback, link-local,
// IPv4-mapped IPv6).
std::optional<std::string> not_a_routable_prefix(const bgp::Destination& d) {
  struct Block {
    bool v6;
    std::array<std::uint8_t, 16> start;
    std::uint8_t length;
    const char* what;
  };
  static constexpr Block kBlocks[] = {
      {false, {224}, 4, "inside 224.0.0.0/4 (multicast)"},
      {false, {127}, 8, "inside 127.0.0.0/8 (loopback)"},
      {false, {169, 254}, 16, "inside 169.254.0.0/16 (link-local)"},
      {true, {0xff}, 8, "inside ff00::/8 (multicast)"},
      {true, {0xfe, 0x80}, 10, "inside fe80::/10 (link-local)"},
      {true,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff},
       96,
       "inside ::ffff:0:0/96 (IPv4-mapped: write the IPv4 prefix)"},
      {true,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
       128,
       "::1 (loopback)"},
      {true, {}, 128, ":: (unspecified)"},
  };
  const bool v6 = d.afi == wire::bgp::kAfiIpv6;
  for (const Block& b : kBlocks) {
    if (b.v6 != v6 || d.length < b.length) continue;
    bool inside = true;
    for (std::uint8_t bit = 0; bit < b.length && inside; ++bit) {
      const auto mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
      inside = (d.address[bit / 8] & mask) == (b.start[bit / 8] & mask);
    }
    if (inside) return std::string(b.what);
  }
  return std::nullopt;
}

std::expected<DaemonPeer, ConfigFileError> parse_peer(const Reader& r,
                                                      const YAML::Node& n,
                                                      const std::string& at) {
  TRY(r.check_map(n, at,
                  {"name", "address", "asn", "port", "local_address",
                   "next_hop_ipv6", "interface", "link_bandwidth", "role",
                   "passive", "families", "hold", "connect_retry", "mrai_ms"}));
  DaemonPeer p;
  if (!n["address"]) {
    return std::unexpected(
        r.error(n, Reader::join(at, "address"), "missing required key"));
  }
  ASSIGN(p.address, r.ip(n["address"], Reader::join(at, "address")));
  if (!n["asn"]) {
    return std::unexpected(
        r.error(n, Reader::join(at, "asn"), "missing required key"));
  }
  ASSIGN(p.asn, r.uint(n["asn"], Reader::join(at, "asn"), 1, 0xffffffffULL));
  if (n["name"]) {
    ASSIGN(p.name, r.string(n["name"], Reader::join(at, "name")));
    // It goes into log lines and bgpctl's tables as it is.
    if (std::any_of(p.name.begin(), p.name.end(),
                    [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; })) {
      return std::unexpected(
          r.error(n["name"], Reader::join(at, "name"),
                  "must be without control characters (a name is written "
                  "into log lines as it is)"));
    }
  }
  if (n["port"]) {
    ASSIGN(p.port, r.uint(n["port"], Reader::join(at, "port"), 1, 65535));
  }
  if (n["local_address"]) {
    ASSIGN(p.local_address,
           r.ip(n["local_address"], Reader::join(at, "local_address")));
    if (p.local_address->v6 != p.address.v6) {
      return std::unexpected(r.error(n["local_address"],
                                     Reader::join(at, "local_address"),
                                     "not of the peer address's family"));
    }
    if (auto what = not_a_host_address(*p.local_address, /*loopback=*/true)) {
      return std::unexpected(
          r.error(n["local_address"], Reader::join(at, "local_address"),
                  *what + ": our end of the session, and the NEXT_HOP the "
                          "peer gets, is an address of our interface"));
    }
  }
  if (n["next_hop_ipv6"]) {
    const std::string key = Reader::join(at, "next_hop_ipv6");
    ASSIGN(p.next_hop_ipv6, r.ip(n["next_hop_ipv6"], key));
    if (!p.next_hop_ipv6->v6) {
      return std::unexpected(
          r.error(n["next_hop_ipv6"], key, "not an IPv6 address"));
    }
    if (auto what = not_a_host_address(*p.next_hop_ipv6, /*loopback=*/true)) {
      return std::unexpected(
          r.error(n["next_hop_ipv6"], key,
                  *what + " is no next hop: give an address of our interface"));
    }
    if (p.next_hop_ipv6->link_local()) {
      return std::unexpected(r.error(
          n["next_hop_ipv6"], key,
          "link-local: this is the global next hop (RFC 2545 section 3); "
          "a link-local local_address is sent with it"));
    }
  }
  if (n["interface"]) {
    ASSIGN(p.interface,
           r.string(n["interface"], Reader::join(at, "interface")));
    // Linux's rules for a device name (dev_valid_name): 1 to 15 bytes, no
    // '/', ':' or white space, not "." or "..".
    const std::string& i = p.interface;
    if (i.empty() || i.size() > 15 || i == "." || i == ".." ||
        std::any_of(i.begin(), i.end(), [](unsigned char ch) {
          return ch == '/' || ch == ':' || ch <= 0x20 || ch == 0x7f;
        })) {
      return std::unexpected(
          r.error(n["interface"], Reader::join(at, "interface"),
                  "'" + i +
                      "' is no Linux interface name (1 to 15 characters, "
                      "no '/', ':' or white space, not '.' or '..')"));
    }
  }
  const auto without_link = [&](const char* key) {
    return std::unexpected(
        r.error(n[key], Reader::join(at, key),
                "a link-local address is one only on its link: give the "
                "peer's interface (" +
                    Reader::join(at, "interface") + ")"));
  };
  if (p.interface.empty() && p.address.link_local()) {
    return without_link("address");
  }
  if (p.interface.empty() && p.local_address && p.local_address->link_local()) {
    return without_link("local_address");
  }
  if (p.address.link_local() && !p.local_address) {
    return std::unexpected(r.error(
        n["address"], Reader::join(at, "address"),
        "a link-local peer needs local_address: our link-local address on "
        "its interface, the session's source and our IPv6 NEXT_HOP"));
  }
  if (!n["name"]) {
    // Peers may share a link-local address on different links.
    p.name = p.address.to_string();
    if (p.address.link_local()) p.name += "%" + p.interface;
  }
  if (n["link_bandwidth"]) {
    const std::string key = Reader::join(at, "link_bandwidth");
    std::string text;
    ASSIGN(text, r.string(n["link_bandwidth"], key));
    if (text == "interface") {
      if (p.interface.empty()) {
        return std::unexpected(r.error(n["link_bandwidth"], key,
                                       "'interface' needs the peer's "
                                       "interface key"));
      }
      p.bandwidth_from_interface = true;
    } else {
      // A bare number reads as bits per second, which no link runs at.
      if (!text.empty() &&
          std::all_of(text.begin(), text.end(), [](unsigned char ch) {
            return std::isdigit(ch) || ch == '.';
          })) {
        return std::unexpected(
            r.error(n["link_bandwidth"], key,
                    "'" + text +
                        "' has no unit: write it as 400G, 100M, 10K "
                        "(bits per second)"));
      }
      auto rate = parse_rate(text);
      if (!rate) {
        return std::unexpected(r.error(n["link_bandwidth"], key, rate.error()));
      }
      p.link_bandwidth = *rate;
    }
  } else if (!p.interface.empty()) {
    p.bandwidth_from_interface = true;
  } else {
    return std::unexpected(r.error(n, Reader::join(at, "link_bandwidth"),
                                   "missing: give a rate (\"400G\") or an "
                                   "interface to read the speed from"));
  }
  if (n["role"]) ASSIGN(p.role, r.role(n["role"], Reader::join(at, "role")));
  if (n["passive"]) {
    ASSIGN(p.passive, r.boolean(n["passive"], Reader::join(at, "passive")));
  }
  if (const YAML::Node f = n["families"]) {
    const std::string key = Reader::join(at, "families");
    if (!f.IsSequence() || f.size() == 0) {
      return std::unexpected(
          r.error(f, key, "expected a non-empty list of ipv4, ipv6"));
    }
    p.ipv4 = p.ipv6 = false;
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string k = key + "[" + std::to_string(i) + "]";
      std::string name;
      ASSIGN(name, r.string(f[i], k));
      bool& flag = name == "ipv4" ? p.ipv4 : p.ipv6;
      if (name != "ipv4" && name != "ipv6") {
        return std::unexpected(r.error(f[i], k, "not ipv4 or ipv6"));
      }
      if (flag) return std::unexpected(r.error(f[i], k, "listed twice"));
      flag = true;
    }
  }
  if (n["hold"]) {
    const std::string key = Reader::join(at, "hold");
    std::uint16_t hold = 0;
    ASSIGN(hold, r.uint(n["hold"], key, 0, 65535));
    if (hold == 1 || hold == 2) {
      return std::unexpected(
          r.error(n["hold"], key,
                  "must be 0 (no keepalives) or at least 3 (RFC 4271 "
                  "section 4.2)"));
    }
    p.hold_s = hold;
  }
  if (n["connect_retry"]) {
    ASSIGN(
        p.connect_retry_s,
        r.uint(n["connect_retry"], Reader::join(at, "connect_retry"), 1, 3600));
  }
  if (n["mrai_ms"]) {
    ASSIGN(p.mrai_ms,
           r.uint(n["mrai_ms"], Reader::join(at, "mrai_ms"), 0, 600000));
    p.mrai_set = true;
  }
  return p;
}

// Why `a` cannot be peer `p`'s address, if it cannot: an address no BGP
// speaker has (unspecified, broadcast, multicast), an IPv4-mapped IPv6
// address (the same peer as its IPv4 form), or our own side of the
// session.
std::optional<std::string> not_a_peer_address(const IpAddress& a,
                                              const DaemonConfig& c,
                                              const DaemonPeer& p) {
  const auto& b = a.bytes;
  if (auto what = not_a_host_address(a, /*loopback=*/false))
    return *what + " is no peer's";
  if (a.v6) {
    if (std::all_of(b.begin(), b.begin() + 10, [](auto x) { return x == 0; }) &&
        b[10] == 0xff && b[11] == 0xff) {
      return "an IPv4-mapped address: write the peer's IPv4 address, " +
             std::to_string(b[12]) + "." + std::to_string(b[13]) + "." +
             std::to_string(b[14]) + "." + std::to_string(b[15]);
    }
  }
  if (p.local_address && *p.local_address == a)
    return "our own local_address: a peer is the other end";
  if (c.listen_address == a) return "our own listen address";
  return std::nullopt;
}

// The peer key (under peers[i]) a SpeakerConfig field of validate() comes
// from.
std::string_view peer_key_of(std::string_view field) {
  static constexpr std::pair<std::string_view, std::string_view> kKeys[] = {
      {"session.remote_as", "asn"},
      {"session.hold_time_s", "hold"},
      {"session.connect_retry_time", "connect_retry"},
      {"next_hop_ipv4", "local_address"},
      {"next_hop_ipv6", "next_hop_ipv6"},
      {"mrai", "mrai_ms"},
      {"link_bandwidth", "link_bandwidth"},
  };
  for (const auto& [from, to] : kKeys)
    if (field == from) return to;
  return field;
}

std::expected<DaemonConfig, ConfigFileError> parse_root(
    const Reader& r, const YAML::Node& root, const std::string& file) {
  TRY(r.check_map(root, "",
                  {"asn", "router_id", "role", "listen", "control_socket",
                   "log_level", "prefixes", "multipath", "fare", "timers",
                   "fib", "interface_poll_ms", "peers"}));
  DaemonConfig c;
  c.file = file;
  if (!root["asn"]) {
    return std::unexpected(r.error(root, "asn", "missing required key"));
  }
  ASSIGN(c.asn, r.uint(root["asn"], "asn", 1, 0xffffffffULL));
  if (c.asn == 23456) {
    return std::unexpected(r.error(
        root["asn"], "asn", "23456 is AS_TRANS (RFC 6793), not assignable"));
  }
  if (!root["router_id"]) {
    return std::unexpected(r.error(root, "router_id", "missing required key"));
  }
  {
    IpAddress id;
    ASSIGN(id, r.ip(root["router_id"], "router_id"));
    if (id.v6 || id.unspecified()) {
      return std::unexpected(r.error(root["router_id"], "router_id",
                                     "must be a non-zero IPv4 address "
                                     "(RFC 6286)"));
    }
    std::copy_n(id.bytes.begin(), 4, c.router_id.begin());
  }
  if (root["role"]) ASSIGN(c.role, r.role(root["role"], "role"));
  if (const YAML::Node l = root["listen"]) {
    TRY(r.check_map(l, "listen", {"address", "port"}));
    if (l["address"]) {
      ASSIGN(c.listen_address, r.ip(l["address"], "listen.address"));
      // The unspecified address listens on every one; loopback is a
      // local test's.
      if (auto what = not_a_host_address(c.listen_address, false);
          what && !c.listen_address.unspecified()) {
        return std::unexpected(
            r.error(l["address"], "listen.address",
                    *what + ": listen on an address of ours, or on "
                            "0.0.0.0 or \"::\""));
      }
      if (c.listen_address.link_local()) {
        return std::unexpected(r.error(
            l["address"], "listen.address",
            "link-local: listen on \"::\" instead (each link-local peer's "
            "interface tells its connections apart)"));
      }
    }
    if (l["port"])
      ASSIGN(c.listen_port, r.uint(l["port"], "listen.port", 0, 65535));
  }
  if (root["control_socket"]) {
    ASSIGN(c.control_socket,
           r.string(root["control_socket"], "control_socket"));
    // sockaddr_un's sun_path holds 107 bytes and a NUL.
    if (c.control_socket.size() > 107) {
      return std::unexpected(
          r.error(root["control_socket"], "control_socket",
                  std::to_string(c.control_socket.size()) +
                      " bytes: a socket path holds at most 107 (sockaddr_un)"));
    }
  }
  if (const YAML::Node l = root["log_level"]) {
    std::string s;
    ASSIGN(s, r.string(l, "log_level"));
    if (s == "error")
      c.log_level = LogLevel::error;
    else if (s == "warning")
      c.log_level = LogLevel::warning;
    else if (s == "info")
      c.log_level = LogLevel::info;
    else if (s == "debug")
      c.log_level = LogLevel::debug;
    else {
      return std::unexpected(
          r.error(l, "log_level", "not error, warning, info or debug"));
    }
  }
  if (const YAML::Node p = root["prefixes"]) {
    if (!p.IsSequence()) {
      return std::unexpected(r.error(p, "prefixes", "expected a list"));
    }
    for (std::size_t i = 0; i < p.size(); ++i) {
      bgp::Destination d;
      const std::string at = "prefixes[" + std::to_string(i) + "]";
      ASSIGN(d, r.prefix(p[i], at));
      if (auto why = not_a_routable_prefix(d)) {
        return std::unexpected(
            r.error(p[i], at, *why + ": no route to originate"));
      }
      const auto same = std::find(c.prefixes.begin(), c.prefixes.end(), d);
      if (same != c.prefixes.end()) {
        return std::unexpected(
            r.error(p[i], at,
                    "the same prefix as prefixes[" +
                        std::to_string(same - c.prefixes.begin()) + "]"));
      }
      c.prefixes.push_back(d);
    }
  }
  if (const YAML::Node m = root["multipath"]) {
    TRY(r.check_map(m, "multipath", {"maximum_paths", "relax"}));
    if (m["maximum_paths"]) {
      ASSIGN(c.maximum_paths,
             r.uint(m["maximum_paths"], "multipath.maximum_paths", 1, 256));
    }
    if (m["relax"])
      ASSIGN(c.multipath_relax, r.boolean(m["relax"], "multipath.relax"));
  }
  if (const YAML::Node f = root["fare"]) {
    TRY(r.check_map(f, "fare",
                    {"enabled", "sub_type", "transitivity", "multihoming",
                     "super_spine_attach_link_ec",
                     "spine_lower_to_next_next_hop", "multihomed"}));
    if (f["enabled"])
      ASSIGN(c.fare_enabled, r.boolean(f["enabled"], "fare.enabled"));
    if (f["sub_type"]) {
      ASSIGN(c.fare.sub_type, r.uint(f["sub_type"], "fare.sub_type", 0, 255));
    }
    if (const YAML::Node t = f["transitivity"]) {
      std::string s;
      ASSIGN(s, r.string(t, "fare.transitivity"));
      if (s == "transitive" || s == "non-transitive") {
        c.fare.path_bandwidth_transitive = s == "transitive";
      } else {
        return std::unexpected(r.error(t, "fare.transitivity",
                                       "not transitive or non-transitive"));
      }
    }
    if (const YAML::Node m = f["multihoming"]) {
      std::string s;
      ASSIGN(s, r.string(m, "fare.multihoming"));
      if (s == "divide") {
        c.fare.multihoming =
            proto::fare::MultihomingRule::divide_path_bandwidth;
      } else if (s == "multiply") {
        c.fare.multihoming =
            proto::fare::MultihomingRule::multiply_link_bandwidth;
      } else {
        return std::unexpected(
            r.error(m, "fare.multihoming", "not divide or multiply"));
      }
    }
    if (f["super_spine_attach_link_ec"]) {
      ASSIGN(c.fare.super_spine_attach_link_ec,
             r.boolean(f["super_spine_attach_link_ec"],
                       "fare.super_spine_attach_link_ec"));
    }
    if (f["spine_lower_to_next_next_hop"]) {
      ASSIGN(c.fare.spine_lower_to_next_next_hop,
             r.boolean(f["spine_lower_to_next_next_hop"],
                       "fare.spine_lower_to_next_next_hop"));
    }
    if (const YAML::Node m = f["multihomed"]) {
      if (!m.IsSequence()) {
        return std::unexpected(
            r.error(m, "fare.multihomed", "expected a list"));
      }
      for (std::size_t i = 0; i < m.size(); ++i) {
        const std::string at = "fare.multihomed[" + std::to_string(i) + "]";
        TRY(r.check_map(m[i], at, {"prefix", "leaves"}));
        if (!m[i]["prefix"] || !m[i]["leaves"]) {
          return std::unexpected(
              r.error(m[i], at, "needs both prefix and leaves"));
        }
        bgp::Destination d;
        ASSIGN(d, r.prefix(m[i]["prefix"], at + ".prefix"));
        const auto same =
            std::find_if(c.multihomed.begin(), c.multihomed.end(),
                         [&](const auto& e) { return e.first == d; });
        if (same != c.multihomed.end()) {
          return std::unexpected(
              r.error(m[i]["prefix"], at + ".prefix",
                      "the same prefix as fare.multihomed[" +
                          std::to_string(same - c.multihomed.begin()) + "]"));
        }
        std::uint32_t leaves = 0;
        ASSIGN(leaves, r.uint(m[i]["leaves"], at + ".leaves", 1, 1u << 20));
        c.multihomed.emplace_back(d, leaves);
      }
    }
  }
  c.fare.role = c.role;
  if (const YAML::Node t = root["timers"]) {
    TRY(r.check_map(t, "timers",
                    {"hold", "connect_retry", "idle_hold", "mrai_ms"}));
    if (t["hold"]) {
      ASSIGN(c.hold_s, r.uint(t["hold"], "timers.hold", 0, 65535));
      if (c.hold_s == 1 || c.hold_s == 2) {
        return std::unexpected(r.error(t["hold"], "timers.hold",
                                       "must be 0 (no keepalives) or at "
                                       "least 3 (RFC 4271 section 4.2)"));
      }
    }
    if (t["connect_retry"]) {
      ASSIGN(c.connect_retry_s,
             r.uint(t["connect_retry"], "timers.connect_retry", 1, 3600));
    }
    if (t["idle_hold"]) {
      ASSIGN(c.idle_hold_s,
             r.uint(t["idle_hold"], "timers.idle_hold", 0, 3600));
    }
    if (t["mrai_ms"]) {
      ASSIGN(c.mrai_ms, r.uint(t["mrai_ms"], "timers.mrai_ms", 0, 600000));
    }
  }
  if (const YAML::Node f = root["fib"]) {
    TRY(r.check_map(f, "fib",
                    {"install", "remove_on_exit", "protocol", "metric"}));
    if (f["install"])
      ASSIGN(c.fib_install, r.boolean(f["install"], "fib.install"));
    if (f["remove_on_exit"]) {
      ASSIGN(c.fib_remove_on_exit,
             r.boolean(f["remove_on_exit"], "fib.remove_on_exit"));
    }
    if (f["protocol"]) {
      // 0..4 are the kernel's own (unspec, redirect, kernel, boot, static).
      ASSIGN(c.fib_protocol, r.uint(f["protocol"], "fib.protocol", 5, 255));
    }
    if (f["metric"]) {
      // 0 is the metric of connected and static IPv4 routes, which a
      // route of ours to the same prefix would replace.
      ASSIGN(c.fib_metric, r.uint(f["metric"], "fib.metric", 1, 0xffffffff));
    }
  }
  if (root["interface_poll_ms"]) {
    ASSIGN(c.interface_poll_ms,
           r.uint(root["interface_poll_ms"], "interface_poll_ms", 10, 3600000));
  }
  if (const YAML::Node peers = root["peers"]) {
    if (!peers.IsSequence()) {
      return std::unexpected(r.error(peers, "peers", "expected a list"));
    }
    for (std::size_t i = 0; i < peers.size(); ++i) {
      const std::string at = "peers[" + std::to_string(i) + "]";
      DaemonPeer p;
      ASSIGN(p, parse_peer(r, peers[i], at));
      if (auto why = not_a_peer_address(p.address, c, p)) {
        return std::unexpected(
            r.error(peers[i]["address"], at + ".address", *why));
      }
      if (p.name.empty()) {
        return std::unexpected(
            r.error(peers[i]["name"], at + ".name", "must not be empty"));
      }
      for (const DaemonPeer& q : c.peers) {
        if (same_neighbor(q, p)) {
          return std::unexpected(
              r.error(peers[i]["address"], at + ".address",
                      "peer " + q.name + " has the same address"));
        }
        if (q.name == p.name) {
          return std::unexpected(r.error(
              peers[i]["name"] ? peers[i]["name"] : peers[i]["address"],
              at + ".name",
              "peer '" + p.name +
                  "' is named twice (logs and bgpctl tell peers by name)"));
        }
      }
      if (p.asn == c.asn) {
        return std::unexpected(r.error(peers[i]["asn"], at + ".asn",
                                       "iBGP is not supported: the peer "
                                       "must be in another AS"));
      }
      // The IPv4 NEXT_HOP: local_address, else a specific IPv4 listen
      // address (not 0.0.0.0, nor "::", which are no address of ours).
      const bool listen_ipv4 =
          !c.listen_address.v6 && !c.listen_address.unspecified();
      if (!p.address.v6 && !p.local_address && !listen_ipv4) {
        return std::unexpected(
            r.error(peers[i], at + ".local_address",
                    "needed: it is our NEXT_HOP toward the peer (or set "
                    "listen.address to our IPv4 address)"));
      }
      c.peers.push_back(std::move(p));
    }
  }
  // The engine's own checks, reported at the nearest key.
  std::vector<BitsPerSecond> bw(c.peers.size(), 1);
  if (auto v = bgp::validate(speaker_config(c, bw)); !v) {
    const std::string& field = v.error().field;
    std::string key = field;
    YAML::Node at = root;
    if (field == "rib.fare.path_bandwidth_transitive") {
      key = "fare.transitivity";
      if (root["fare"]) at = root["fare"]["transitivity"];
    } else if (field.starts_with("rib.fare.")) {
      key = "fare." + field.substr(9);
      if (root["fare"]) at = root["fare"];
    } else if (field.starts_with("peers[")) {
      const std::size_t i = std::stoul(field.substr(6));
      at = root["peers"][i];
      const std::size_t dot = field.find("].");
      if (dot != std::string::npos) {
        const std::string_view peer_key =
            peer_key_of(std::string_view(field).substr(dot + 2));
        key = field.substr(0, dot + 1) + "." + std::string(peer_key);
        if (at[std::string(peer_key)]) at = at[std::string(peer_key)];
      }
    }
    return std::unexpected(r.error(at, key, v.error().reason));
  }
  return c;
}

#undef TRY
#undef ASSIGN

}  // namespace

std::string ConfigFileError::to_string() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  return s + ": " + key + ": " + message;
}

std::string_view log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::error:
      return "error";
    case LogLevel::warning:
      return "warning";
    case LogLevel::info:
      return "info";
    case LogLevel::debug:
      return "debug";
  }
  return "?";
}

std::string IpAddress::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf);
  return buf;
}

Bytes IpAddress::to_bytes() const {
  return Bytes(bytes.begin(), bytes.begin() + (v6 ? 16 : 4));
}

std::optional<IpAddress> IpAddress::from_bytes(ByteSpan b) {
  if (b.size() != 4 && b.size() != 16) return std::nullopt;
  IpAddress a;
  a.v6 = b.size() == 16;
  std::copy(b.begin(), b.end(), a.bytes.begin());
  return a;
}

std::expected<IpAddress, std::string> parse_ip(std::string_view text) {
  const std::string s(text);
  IpAddress a;
  // inet_pton reads a C string: it would ignore whatever follows a NUL
  // (which YAML's "\0" escape can put into a scalar).
  if (s.find('\0') == std::string::npos) {
    if (inet_pton(AF_INET, s.c_str(), a.bytes.data()) == 1) return a;
    if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) == 1) {
      a.v6 = true;
      return a;
    }
  }
  if (s.find('%') != std::string::npos) {
    return std::unexpected("'" + s +
                           "' is not an IPv4 or IPv6 address: a zone such as "
                           "%eth1 is not part of one (give a peer's link as "
                           "its interface)");
  }
  return std::unexpected("'" + s + "' is not an IPv4 or IPv6 address");
}

std::expected<DaemonConfig, ConfigFileError> load_config(
    const std::string& path) {
  auto text = read_file(path);
  if (!text) {
    return std::unexpected(ConfigFileError{path, 0, 0, "(file)",
                                           "cannot be read: " + text.error()});
  }
  return parse_config(*text, path);
}

std::expected<DaemonConfig, ConfigFileError> parse_config(
    std::string_view text, const std::string& file) {
  Reader r(file);
  if (const std::size_t bad = first_non_utf8(text);
      bad != std::string_view::npos) {
    const TextPosition at = position_of(text, bad);
    return std::unexpected(ConfigFileError{file, at.line, at.column, "(file)",
                                           why_not_utf8(text, bad) +
                                               ": the file must be UTF-8 "
                                               "text"});
  }
  if (const std::size_t bad = first_non_yaml_printable(text);
      bad != std::string_view::npos) {
    const TextPosition at = position_of(text, bad);
    return std::unexpected(ConfigFileError{file, at.line, at.column, "(file)",
                                           why_not_yaml_printable(text, bad)});
  }
  YAML::Node root;
  std::optional<YAML::Mark> second;
  try {
    root = load_first_document(text);
    // A document after the first that holds something (an empty one, as
    // a trailing '---' leaves, holds nothing to ignore).
    second = second_document(text);
  } catch (const YAML::Exception& e) {
    return std::unexpected(ConfigFileError{file, e.mark.line + 1,
                                           e.mark.column + 1, "(yaml)", e.msg});
  }
  if (second) {
    return std::unexpected(ConfigFileError{
        file, second->line + 1, second->column + 1, "(yaml)",
        "a second YAML document: the configuration is one (remove the '---' "
        "and what follows, or merge it into the first)"});
  }
  return parse_root(r, root, file);
}

bgp::PeerConfig peer_config(const DaemonConfig& config, const DaemonPeer& peer,
                            BitsPerSecond bandwidth) {
  bgp::PeerConfig pc;
  pc.name = peer.name;
  pc.session.remote_as = peer.asn;
  pc.session.passive = peer.passive;
  pc.session.hold_time_s = peer.hold_s.value_or(config.hold_s);
  pc.session.connect_retry_time =
      sec(peer.connect_retry_s ? peer.connect_retry_s : config.connect_retry_s);
  pc.session.idle_hold_time = sec(config.idle_hold_s);
  pc.session.families.clear();
  if (peer.ipv4) {
    pc.session.families.push_back(
        {wire::bgp::kAfiIpv4, wire::bgp::kSafiUnicast});
  }
  if (peer.ipv6) {
    pc.session.families.push_back(
        {wire::bgp::kAfiIpv6, wire::bgp::kSafiUnicast});
  }
  pc.role = peer.role;
  pc.link_bandwidth = bandwidth;
  if (peer.local_address && !peer.local_address->v6) {
    pc.next_hop_ipv4 = peer.local_address->to_bytes();
  } else if (!config.listen_address.v6 &&
             !config.listen_address.unspecified()) {
    pc.next_hop_ipv4 = config.listen_address.to_bytes();
  }
  if (peer.next_hop_ipv6) {
    pc.next_hop_ipv6 = peer.next_hop_ipv6->to_bytes();
    // The peer shares the link of a link-local session: the link-local
    // address goes with the global one (RFC 2545 section 3).
    if (peer.local_address && peer.local_address->link_local()) {
      const Bytes link_local = peer.local_address->to_bytes();
      pc.next_hop_ipv6.insert(pc.next_hop_ipv6.end(), link_local.begin(),
                              link_local.end());
    }
  } else if (peer.local_address && peer.local_address->v6) {
    pc.next_hop_ipv6 = peer.local_address->to_bytes();
  }
  pc.mrai = ms(peer.mrai_set ? peer.mrai_ms : config.mrai_ms);
  // Lower addresses win the last tie-break, as routers usually do.
  std::uint32_t rank = 0;
  for (int i = 0; i < 4; ++i) {
    rank = (rank << 8) | peer.address.bytes[peer.address.v6 ? 12 + i : i];
  }
  pc.address_rank = rank;
  return pc;
}

std::vector<std::string> peer_warnings(const DaemonPeer& p,
                                       const DaemonConfig& config) {
  std::vector<std::string> out;
  const std::string peer = "peer " + p.name + ": ";
  const IpAddress& listen = config.listen_address;
  const bool listen_any = listen.unspecified();
  std::string why;
  if (config.listen_port == 0) {
    if (p.passive) why = "nothing listens (listen.port 0)";
  } else if (p.address.v6 && !listen.v6) {
    why = "the listening socket is IPv4 (set listen.address \"::\" for both)";
  } else if (!p.address.v6 && listen.v6 && !listen_any) {
    why = "the listening socket is IPv6 only (\"::\" takes both)";
  } else if (!listen_any && p.local_address && *p.local_address != listen) {
    why = "it connects to our local_address " + p.local_address->to_string() +
          ", and we listen on " + listen.to_string() + " only";
  }
  if (!why.empty()) {
    out.push_back(peer + "cannot connect to us: " + why +
                  (p.passive
                       ? "; it is passive, so its session never comes up"
                       : "; only our connections to it bring the session up"));
  }
  const bgp::PeerConfig engine = peer_config(config, p, 0);
  const bool one_family = p.ipv4 != p.ipv6;
  if (p.ipv4 && engine.next_hop_ipv4.empty() && (p.address.v6 || one_family)) {
    out.push_back(peer +
                  "IPv4 routes are not sent to it: an IPv6 peer's IPv4 "
                  "NEXT_HOP is an IPv4 listen.address, and there is none "
                  "(IPv4 over an IPv6 next hop, RFC 8950, is not supported; "
                  "families: [ipv6] stops offering IPv4)");
  }
  if (p.ipv6 && engine.next_hop_ipv6.empty() && (p.address.v6 || one_family)) {
    out.push_back(peer +
                  "IPv6 routes are not sent to it: give it next_hop_ipv6 or "
                  "an IPv6 local_address");
  }
  return out;
}

std::vector<std::string> peer_warnings(const DaemonConfig& config) {
  std::vector<std::string> out;
  for (const DaemonPeer& p : config.peers) {
    for (std::string& w : peer_warnings(p, config)) out.push_back(std::move(w));
  }
  return out;
}

bgp::SpeakerConfig speaker_config(const DaemonConfig& config,
                                  const std::vector<BitsPerSecond>& bandwidth) {
  bgp::SpeakerConfig sc;
  sc.local_as = config.asn;
  sc.router_id = config.router_id;
  for (std::size_t i = 0; i < config.peers.size(); ++i) {
    sc.peers.push_back(peer_config(config, config.peers[i],
                                   i < bandwidth.size() ? bandwidth[i] : 0));
  }
  sc.networks = config.prefixes;
  sc.multihomed = config.multihomed;
  // Not programming the kernel, nothing reads FibUpdates: bgpctl shows the
  // RIB's installed sets instead (fib.h).
  sc.fib_updates = config.fib_install;
  sc.rib.maximum_paths = config.maximum_paths;
  sc.rib.multipath_relax = config.multipath_relax;
  sc.rib.fare_enabled = config.fare_enabled;
  sc.rib.fare = config.fare;
  sc.rib.fare.role = config.role;
  return sc;
}

}  // namespace arfabric::daemon
