#include "cli/fare_lsr.h"

#include <arpa/inet.h>

#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <tuple>

#include "cli/json/isis_json.h"
#include "cli/link_layer.h"
#include "proto/fare/link_state.h"
#include "proto/fare/link_state_ospf.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/ipv6.h"
#include "wire/isis/frame.h"
#include "wire/ospf/ospfv2_lsa.h"
#include "wire/ospf/packet.h"

namespace arfabric::cli {
namespace {

namespace isis = wire::isis;
namespace ospf = wire::ospf;
using proto::fare::RouterKey;

constexpr std::uint16_t kEthertypeIpv4 = 0x0800;

std::optional<isis::SystemId> parse_system_id(const std::string& text) {
  // Three groups of four hex digits, dot-separated (ISO 10589 notation).
  if (text.size() != 14 || text[4] != '.' || text[9] != '.') return {};
  isis::SystemId id{};
  std::size_t byte = 0;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    if (text[i] == '.') ++i;
    const std::string pair = text.substr(i, 2);
    if (pair.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      return {};
    id[byte++] = static_cast<std::uint8_t>(std::stoul(pair, nullptr, 16));
  }
  return id;
}

// Dotted-quad IPv4 text, nothing before or after it.
std::optional<wire::Ipv4Address> parse_dotted_quad(const std::string& text) {
  wire::Ipv4Address a{};
  if (text.find('\0') != std::string::npos ||
      inet_pton(AF_INET, text.c_str(), a.data()) != 1)
    return {};
  return a;
}

// An OSPF area ID: a dotted quad, or a number up to 2^32 - 1.
std::optional<wire::Ipv4Address> parse_area(const std::string& text) {
  if (auto dotted = parse_dotted_quad(text)) return dotted;
  if (text.empty() || text.size() > 10 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return {};
  const std::uint64_t n = std::stoull(text);
  if (n > std::numeric_limits<std::uint32_t>::max()) return {};
  return proto::fare::ospf_router_id(n);
}

// As `arfabric decode` prints addresses (IPv6 in RFC 5952 text).
std::string prefix_text(const proto::fib::Prefix& p) {
  const std::string address =
      p.ipv6 ? wire::format_ipv6(p.address)
             : wire::format_ipv4(
                   {p.address[0], p.address[1], p.address[2], p.address[3]});
  return address + "/" + std::to_string(p.length);
}

nlohmann::json bandwidth(BitsPerSecond rate) {
  if (rate == proto::fare::kUnlimited) return "unlimited";
  return rate;
}

// A database read from a capture, and how its routes are printed.
struct Loaded {
  proto::fare::LinkStateDatabase db;
  RouterKey self = 0;
  std::function<std::string(RouterKey)> name;
  std::string inter_area_key;  // "up_down" (IS-IS) or "inter_area" (OSPF)
  std::string self_missing;    // the error when `self` is not in the database
};

// Counts what a reader skipped, with the first undecodable item.
struct Skipped {
  std::size_t undecodable = 0;
  std::string first_error;
  void undecoded(std::size_t frame, const DecodeError& e) {
    if (undecodable++ == 0)
      first_error = "frame " + std::to_string(frame) + ": " + e.to_string();
  }
};

// Frames the readers cannot look into, said once each kind: link types
// link_layer does not know, link-layer headers cut short, and raw-IP
// frames that hold no IPv4 or IPv6 packet.
struct LinkLayerSkips {
  std::size_t other_types = 0;
  int first_type = 0;
  Skipped cut, not_ip;

  // The frame's network-layer packet, or nothing (counted).
  std::optional<NetworkPacket> packet(std::size_t index,
                                      const sysdep::CapturedFrame& frame) {
    if (!known_link_type(frame.link_type)) {
      if (other_types++ == 0) first_type = frame.link_type;
      return std::nullopt;
    }
    auto net = network_packet(frame.link_type, frame.data);
    if (!net) {
      (net.error().field == "ip.version" ? not_ip : cut)
          .undecoded(index, net.error());
      return std::nullopt;
    }
    return std::move(*net);
  }

  void report(std::ostream& err) const {
    if (other_types > 0)
      err << "arfabric fare-lsr: skipped " << other_types
          << " frames of link types other than Ethernet, raw IP and Linux "
             "cooked (first: "
          << sysdep::link_type_name(first_type) << ")\n";
    if (cut.undecodable > 0)
      err << "arfabric fare-lsr: skipped " << cut.undecodable
          << " frames whose link-layer header is cut short (first: "
          << cut.first_error << ")\n";
    if (not_ip.undecodable > 0)
      err << "arfabric fare-lsr: skipped " << not_ip.undecodable
          << " raw-IP frames that hold no IPv4 or IPv6 packet (first: "
          << not_ip.first_error << ")\n";
  }
};

// Calls on_frame(index, frame) for every frame of the capture, `index`
// counting from 1, and returns the latest capture time among them;
// nullopt, said on `err`, when the file cannot be read.
template <class OnFrame>
std::optional<std::uint64_t> for_each_frame(sysdep::PcapReader& reader,
                                            std::ostream& err,
                                            OnFrame on_frame) {
  std::uint64_t last_ns = 0;
  for (std::size_t index = 1;; ++index) {
    auto frame = reader.next();
    if (!frame) {
      err << "arfabric fare-lsr: " << frame.error() << '\n';
      return std::nullopt;
    }
    if (!*frame) return last_ns;
    last_ns = std::max(last_ns, (*frame)->time_ns);
    on_frame(index, **frame);
  }
}

std::optional<Loaded> load_isis(const FareLsrOptions& options,
                                const isis::SystemId& self, int level,
                                sysdep::PcapReader& reader, std::ostream& err) {
  const std::uint8_t pdu_type =
      level == 1 ? isis::kPduTypeL1Lsp : isis::kPduTypeL2Lsp;
  // The newest of each LSP, (system ID, pseudonode, fragment) -> LSP and
  // when it was captured: the higher sequence number, or at the same one a
  // purge (ISO 10589 §7.3.16).
  struct Copy {
    isis::Lsp lsp;
    std::uint64_t captured_ns = 0;
  };
  std::map<std::tuple<isis::SystemId, std::uint8_t, std::uint8_t>, Copy> newest;
  std::size_t bad_checksum = 0, pseudonodes = 0;
  Skipped skipped;
  LinkLayerSkips link_skips;
  const auto last = for_each_frame(
      reader, err, [&](std::size_t index, const sysdep::CapturedFrame& frame) {
        // Ethernet, tagged or not, and cooked captures (`tcpdump -i any`).
        const auto net = link_skips.packet(index, frame);
        if (!net) return;
        const auto found = llc_frame(frame.link_type, frame.data, *net);
        if (!found) return;
        const ByteSpan llc = *found;
        auto pdu = isis::parse_isis_frame_payload(llc);
        if (!pdu) {
          // An IS-IS LSP of the level (LLC FE FE 03, PDU type at octet 4 of
          // the PDU) that does not decode: said, not silently passed over,
          // since an older copy would then stand.
          constexpr std::size_t kPduTypeAt = 3 + 4;
          if (llc.size() > kPduTypeAt && llc[0] == 0xfe && llc[1] == 0xfe &&
              llc[2] == 0x03 && (llc[kPduTypeAt] & 0x1f) == pdu_type)
            skipped.undecoded(index, pdu.error());
          return;
        }
        if (!pdu->lsp || pdu->header.pdu_type != pdu_type) return;
        const isis::ParsedLsp& parsed = *pdu->lsp;
        // A purge may carry checksum 0 (FRR's do), which passes for a purge
        // (ISO 10589 §7.3.16.4).
        const bool purge = parsed.lsp.remaining_lifetime == 0;
        if (!parsed.checksum_valid && !(purge && parsed.lsp.checksum == 0)) {
          ++bad_checksum;
          return;
        }
        const isis::LspId& id = parsed.lsp.lsp_id;
        if (id.pseudonode != 0) {
          ++pseudonodes;
          return;
        }
        const auto key = std::tuple{id.system_id, id.pseudonode, id.fragment};
        const auto it = newest.find(key);
        const bool newer =
            it == newest.end() ||
            parsed.lsp.sequence_number > it->second.lsp.sequence_number ||
            (parsed.lsp.sequence_number == it->second.lsp.sequence_number &&
             purge && it->second.lsp.remaining_lifetime != 0);
        if (newer) newest[key] = Copy{parsed.lsp, frame.time_ns};
      });
  if (!last) return std::nullopt;
  const std::uint64_t last_ns = *last;
  link_skips.report(err);
  if (bad_checksum > 0)
    err << "arfabric fare-lsr: skipped " << bad_checksum
        << " LSPs with a bad checksum\n";
  if (pseudonodes > 0)
    err << "arfabric fare-lsr: skipped " << pseudonodes
        << " pseudonode LSPs (LANs are not supported)\n";
  if (skipped.undecodable > 0)
    err << "arfabric fare-lsr: skipped " << skipped.undecodable
        << " LSPs that do not decode (first: " << skipped.first_error << ")\n";
  std::vector<isis::Lsp> lsps;
  for (auto& [key, copy] : newest) {
    // Purged, or its lifetime over by the capture's last frame: gone.
    const std::uint64_t expires =
        copy.captured_ns +
        std::uint64_t{copy.lsp.remaining_lifetime} * 1'000'000'000;
    if (copy.lsp.remaining_lifetime > 0 && expires > last_ns)
      lsps.push_back(std::move(copy.lsp));
  }
  if (lsps.empty()) {
    err << "arfabric fare-lsr: " << options.pcap_path << ": no level-" << level
        << " LSP\n";
    return std::nullopt;
  }
  auto db = proto::fare::database_from_isis(lsps);
  if (!db) {
    err << "arfabric fare-lsr: " << db.error().to_string() << '\n';
    return std::nullopt;
  }
  // database_from_isis leaves out a router without its fragment 0 (ISO
  // 10589 §7.2.5): a capture too short to hold it, or a purge of it.
  std::set<RouterKey> routers;
  for (const isis::Lsp& l : lsps)
    routers.insert(proto::fare::router_key(l.lsp_id.system_id));
  if (const std::size_t left_out = routers.size() - db->routers.size())
    err << "arfabric fare-lsr: left out " << left_out
        << " routers without a current fragment 0\n";
  return Loaded{.db = std::move(*db),
                .self = proto::fare::router_key(self),
                .name =
                    [](RouterKey k) {
                      return format_system_id(proto::fare::system_id(k));
                    },
                .inter_area_key = "up_down",
                .self_missing = options.self + " has no level-" +
                                std::to_string(level) + " LSP in " +
                                options.pcap_path};
}

// RFC 2328 §13.1: whether instance `a` of an LSA is newer than `b` (1),
// older (-1), or the same instance (0). The rule's last step, an age
// younger by over MaxAgeDiff, is left to the caller: of two copies of one
// instance the capture keeps the one that lives longer, which is what an
// age tells it.
constexpr std::uint16_t kMaxAge = 3600;
constexpr std::uint16_t kDoNotAge = 0x8000;  // RFC 1793

std::uint16_t age_of(const ospf::Ospfv2LsaHeader& h) {
  return std::min<std::uint16_t>(h.ls_age & ~kDoNotAge, kMaxAge);
}

int compare_instances(const ospf::Ospfv2LsaHeader& a,
                      const ospf::Ospfv2LsaHeader& b) {
  // Sequence numbers are signed (RFC 2328 §12.1.6).
  const auto sa = static_cast<std::int32_t>(a.sequence_number);
  const auto sb = static_cast<std::int32_t>(b.sequence_number);
  if (sa != sb) return sa > sb ? 1 : -1;
  if (a.checksum != b.checksum) return a.checksum > b.checksum ? 1 : -1;
  const bool a_max = age_of(a) == kMaxAge, b_max = age_of(b) == kMaxAge;
  if (a_max != b_max) return a_max ? 1 : -1;
  return 0;
}

// Why database_from_ospfv2 left LSAs (or parts) out, as said on stderr.
std::string note_text(proto::fare::OspfNoteKind kind) {
  using K = proto::fare::OspfNoteKind;
  switch (kind) {
    case K::lan:
      return "left out LANs (transit links, Network-LSAs: not supported)";
    case K::virtual_link:
      return "left out virtual links (not supported)";
    case K::external:
      return "ignored AS-external and NSSA LSAs (external routes are not "
             "supported)";
    case K::router_lsa_id:
      return "left out Router-LSAs whose link state ID is not their "
             "advertising router";
    case K::mask:
      return "left out networks whose mask is not contiguous";
    case K::summary_not_from_abr:
      return "ignored Summary-LSAs from routers without the B bit (not area "
             "border routers)";
    case K::summary_outside_backbone:
      return "ignored Summary-LSAs: --self is an area border router and the "
             "area is not the backbone (RFC 2328 §16.2)";
    case K::te_link_unmatched:
      return "ignored TE Link TLVs that name no point-to-point link of their "
             "router";
  }
  return "left out";
}

std::optional<Loaded> load_ospfv2(const FareLsrOptions& options,
                                  const wire::Ipv4Address& self,
                                  const wire::Ipv4Address& area,
                                  sysdep::PcapReader& reader,
                                  std::ostream& err) {
  struct Copy {
    ospf::Ospfv2Lsa lsa;
    std::size_t frame = 0;  // where it was read
    std::uint64_t captured_ns = 0;
    std::uint64_t expires_ns = 0;  // when its age reaches MaxAge
  };
  std::vector<Copy> copies;  // every LSA read, in file order
  std::map<std::tuple<std::uint8_t, wire::Ipv4Address, wire::Ipv4Address>, Copy>
      newest;
  std::size_t bad_packets = 0, bad_lsas = 0, fragments = 0;
  Skipped skipped;
  LinkLayerSkips link_skips;
  const auto last = for_each_frame(
      reader, err, [&](std::size_t index, const sysdep::CapturedFrame& frame) {
        const std::uint64_t now = frame.time_ns;
        const ByteSpan data = frame.data;
        const auto net = link_skips.packet(index, frame);
        if (!net || net->ethertype != kEthertypeIpv4) return;
        const ByteSpan packet = data.subspan(net->offset);
        auto ip = wire::parse_ipv4(packet);
        if (!ip) {
          // An OSPF packet whose IP header does not decode (a frame cut by the
          // capture's snap length, say): said, since an older copy of what it
          // held would stand.
          constexpr std::size_t kProtocolAt = 9;
          if (packet.size() > kProtocolAt &&
              packet[kProtocolAt] == ospf::kIpProtocolOspf)
            skipped.undecoded(index, ip.error());
          return;
        }
        if (ip->header.protocol != ospf::kIpProtocolOspf) return;
        if (ip->header.is_fragment()) {
          ++fragments;
          return;
        }
        auto parsed = ospf::parse_ospfv2_packet(ip->payload);
        if (!parsed) {
          skipped.undecoded(index, parsed.error());
          return;
        }
        if (!parsed->checksum_valid) {
          ++bad_packets;
          return;
        }
        if (parsed->header.type != ospf::kPacketLinkStateUpdate ||
            parsed->header.area_id != area)
          return;
        auto lsas =
            ospf::parse_ls_update(parsed->body, ospf::kOspfv2PacketHeaderSize);
        if (!lsas) {
          skipped.undecoded(index, lsas.error());
          return;
        }
        for (ByteSpan bytes : *lsas) {
          const auto at =
              static_cast<std::size_t>(bytes.data() - ip->payload.data());
          auto lsa = ospf::parse_ospfv2_lsa_decoded(bytes, at);
          if (!lsa) {
            skipped.undecoded(index, lsa.error());
            continue;
          }
          if (!lsa->checksum_valid) {
            ++bad_lsas;
            continue;
          }
          copies.push_back({std::move(*lsa), index, now});
        }
      });
  if (!last) return std::nullopt;
  const std::uint64_t last_ns = *last;
  // In capture time (interfaces' frames interleave out of order in a
  // file), the newest instance of each LSA.
  std::ranges::stable_sort(copies, {}, &Copy::captured_ns);
  for (Copy& copy : copies) {
    const ospf::Ospfv2LsaHeader& h = copy.lsa.header;
    const std::uint64_t now = copy.captured_ns;
    // At MaxAge it is flushed, DoNotAge or not; otherwise it ages to
    // MaxAge unless DoNotAge (RFC 1793) holds it.
    const bool max_age = age_of(h) == kMaxAge;
    copy.expires_ns =
        max_age ? now
        : h.ls_age & kDoNotAge
            ? std::numeric_limits<std::uint64_t>::max()
            : now + static_cast<std::uint64_t>(kMaxAge - age_of(h)) *
                        1'000'000'000;
    const auto key =
        std::tuple{h.ls_type, h.link_state_id, h.advertising_router};
    const auto it = newest.find(key);
    bool newer = it == newest.end();
    if (!newer) {
      const Copy& kept = it->second;
      const ospf::Ospfv2LsaHeader& k = kept.lsa.header;
      // A flushed or aged-out instance leaves the database (RFC 2328
      // §14): another instance originated since then replaces it at any
      // sequence number (a router that restarted begins again at the
      // first). Since then: its age is at most the time since it went,
      // plus a second a hop of flooding (InfTransDelay) across a fabric;
      // older copies still flooding about, and the gone one's own, do not.
      constexpr std::uint64_t kFloodingSlackSeconds = 4;
      const bool same_instance =
          h.sequence_number == k.sequence_number && h.checksum == k.checksum;
      const bool since_gone =
          kept.expires_ns <= now && !max_age && !same_instance &&
          age_of(h) <=
              (now - kept.expires_ns) / 1'000'000'000 + kFloodingSlackSeconds;
      const int order = compare_instances(h, k);
      newer = since_gone || order > 0 ||
              (order == 0 && copy.expires_ns > kept.expires_ns);
    }
    if (newer) newest[key] = std::move(copy);
  }
  link_skips.report(err);
  if (bad_packets > 0)
    err << "arfabric fare-lsr: skipped " << bad_packets
        << " OSPF packets with a bad checksum\n";
  if (bad_lsas > 0)
    err << "arfabric fare-lsr: skipped " << bad_lsas
        << " LSAs with a bad checksum\n";
  if (fragments > 0)
    err << "arfabric fare-lsr: skipped " << fragments
        << " IP fragments of OSPF packets (not reassembled)\n";
  if (skipped.undecodable > 0)
    err << "arfabric fare-lsr: skipped " << skipped.undecodable
        << " OSPF packets or LSAs that do not decode (first: "
        << skipped.first_error << ")\n";
  // Flushed (MaxAge), or aged out by the capture's last frame: gone.
  std::vector<ospf::Ospfv2Lsa> lsas;
  std::vector<std::size_t> frames;
  for (auto& [key, copy] : newest)
    if (copy.expires_ns > last_ns) {
      lsas.push_back(std::move(copy.lsa));
      frames.push_back(copy.frame);
    }
  const std::string area_text = wire::format_ipv4(area);
  if (lsas.empty()) {
    err << "arfabric fare-lsr: " << options.pcap_path << ": no LSA of area "
        << area_text << '\n';
    return std::nullopt;
  }
  const RouterKey self_key = proto::fare::router_key(self);
  auto db = proto::fare::database_from_ospfv2(
      lsas, {.self = self_key, .backbone = area == wire::Ipv4Address{}});
  if (!db) {
    err << "arfabric fare-lsr: " << db.error().to_string() << '\n';
    return std::nullopt;
  }
  // What was left out, by kind: in how many LSAs, and the one read first.
  struct KindSeen {
    std::set<std::size_t> lsas;
    const proto::fare::OspfNote* first = nullptr;
  };
  std::map<proto::fare::OspfNoteKind, KindSeen> kinds;
  for (const proto::fare::OspfNote& n : db->notes) {
    KindSeen& seen = kinds[n.kind];
    seen.lsas.insert(n.lsa);
    if (!seen.first || frames[n.lsa] < frames[seen.first->lsa]) seen.first = &n;
  }
  for (const auto& [kind, seen] : kinds) {
    const ospf::Ospfv2LsaHeader& h = lsas[seen.first->lsa].header;
    err << "arfabric fare-lsr: " << note_text(kind) << ": in "
        << seen.lsas.size() << " LSAs (first: frame " << frames[seen.first->lsa]
        << ", LS type " << int{h.ls_type} << ", link state ID "
        << wire::format_ipv4(h.link_state_id) << ", advertising router "
        << wire::format_ipv4(h.advertising_router)
        << (seen.first->detail.empty() ? "" : ": " + seen.first->detail)
        << ")\n";
  }
  // Routers that flood LSAs into the area (not the AS-scoped ones) but
  // have no Router-LSA the database could use.
  std::set<RouterKey> routers;
  for (const ospf::Ospfv2Lsa& l : lsas)
    if (l.header.ls_type != 5 && l.header.ls_type != ospf::kLsTypeOpaqueAs)
      routers.insert(proto::fare::router_key(l.header.advertising_router));
  if (const std::size_t left_out = routers.size() - db->database.routers.size())
    err << "arfabric fare-lsr: left out " << left_out
        << " routers without a usable Router-LSA\n";
  return Loaded{.db = std::move(db->database),
                .self = self_key,
                .name =
                    [](RouterKey k) {
                      return wire::format_ipv4(proto::fare::ospf_router_id(k));
                    },
                .inter_area_key = "inter_area",
                .self_missing = options.self + " has no Router-LSA in area " +
                                area_text + " in " + options.pcap_path};
}

}  // namespace

void add_fare_lsr_command(CLI::App& app, FareLsrOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "fare-lsr",
      "FARE over IS-IS or OSPFv2 (draft-xu-lsr-fare-04): the weighted routes "
      "a router computes from the LSPs or LSAs of a capture, one JSON object "
      "per route");
  cmd->add_option("-r,--read", options.pcap_path,
                  "pcap or pcapng file holding IS-IS LSPs (Ethernet or Linux "
                  "cooked) or OSPFv2 Link State Updates (Ethernet, raw IP or "
                  "Linux cooked)")
      ->required();
  cmd->add_option("--self", options.self,
                  "the computing router: an IS-IS system ID (0000.0000.0001) "
                  "or an OSPFv2 router ID (10.0.0.1)")
      ->required();
  cmd->add_option("--level", options.level, "IS-IS level (default 2)")
      ->check(CLI::IsMember({1, 2}));
  cmd->add_option("--area", options.area,
                  "OSPFv2 area, as 0.0.0.1 or 1 (default 0.0.0.0)");
  cmd->add_flag("--pretty", options.pretty, "indent the JSON");
}

int run_fare_lsr(const FareLsrOptions& options, std::ostream& out,
                 std::ostream& err) {
  const auto system_id = parse_system_id(options.self);
  const auto router_id = parse_dotted_quad(options.self);
  if (!system_id && !router_id) {
    err << "arfabric fare-lsr: --self: '" << options.self
        << "' is neither an IS-IS system ID (three groups of four hex "
           "digits, 0000.0000.0001) nor an OSPFv2 router ID (10.0.0.1)\n";
    return 1;
  }
  if (system_id && options.area) {
    err << "arfabric fare-lsr: --area is for OSPFv2, and --self "
        << options.self << " is an IS-IS system ID (use --level)\n";
    return 1;
  }
  if (router_id && options.level) {
    err << "arfabric fare-lsr: --level is for IS-IS, and --self "
        << options.self << " is an OSPFv2 router ID (use --area)\n";
    return 1;
  }
  std::optional<wire::Ipv4Address> area;
  if (router_id) {
    area = parse_area(options.area.value_or("0.0.0.0"));
    if (!area) {
      err << "arfabric fare-lsr: --area: '" << *options.area
          << "' is not an area ID (0.0.0.1, or a number up to "
             "4294967295)\n";
      return 1;
    }
  }
  auto reader = sysdep::PcapReader::open(options.pcap_path);
  if (!reader) {
    err << "arfabric fare-lsr: " << reader.error() << '\n';
    return 1;
  }
  const std::optional<Loaded> loaded =
      system_id ? load_isis(options, *system_id, options.level.value_or(2),
                            *reader, err)
                : load_ospfv2(options, *router_id, *area, *reader, err);
  if (!loaded) return 1;
  auto routes = proto::fare::compute_routes(loaded->db, loaded->self);
  if (!routes) {
    err << "arfabric fare-lsr: "
        << (routes.error().field == "self" ? loaded->self_missing
                                           : routes.error().to_string())
        << '\n';
    return 1;
  }
  for (const proto::fare::LinkStateRoute& r : *routes) {
    nlohmann::json hops = nlohmann::json::array();
    for (const proto::fare::WeightedFirstHop& h : r.first_hops)
      hops.push_back(
          {{"neighbor", loaded->name(h.neighbor)}, {"weight", h.weight}});
    nlohmann::json originators = nlohmann::json::array();
    for (RouterKey o : r.originators) originators.push_back(loaded->name(o));
    const char* fallback =
        r.fallback == proto::fare::WeightFallback::unknown_capacity
            ? "unknown_capacity"
        : r.fallback == proto::fare::WeightFallback::zero_total ? "zero_total"
                                                                : nullptr;
    nlohmann::json j = {{"prefix", prefix_text(r.prefix)},
                        {"metric", r.metric},
                        {"originators", originators},
                        {"weighted", r.weighted},
                        {"first_hops", hops},
                        {"path_bandwidth", bandwidth(r.path_bandwidth)},
                        {loaded->inter_area_key, r.inter_area}};
    if (fallback) j["fallback"] = fallback;
    out << j.dump(options.pretty ? 2 : -1) << '\n';
  }
  return out.good() ? 0 : 1;
}

}  // namespace arfabric::cli
