#include "cli/fare_lsr.h"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <tuple>

#include "cli/json/isis_json.h"
#include "proto/fare/link_state.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/ipv6.h"
#include "wire/isis/frame.h"

namespace arfabric::cli {
namespace {

namespace isis = wire::isis;
using proto::fare::RouterKey;

constexpr int kDltEthernet = 1;

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

std::string system_id_of(RouterKey key) {
  return format_system_id(proto::fare::system_id(key));
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

}  // namespace

void add_fare_lsr_command(CLI::App& app, FareLsrOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "fare-lsr",
      "FARE over IS-IS (draft-xu-lsr-fare-04): the weighted routes a router "
      "computes from the LSPs of a capture, one JSON object per route");
  cmd->add_option("-r,--read", options.pcap_path,
                  "pcap or pcapng file of Ethernet frames holding IS-IS LSPs")
      ->required();
  cmd->add_option("--self", options.self,
                  "the computing router's system ID, as 0000.0000.0001")
      ->required();
  cmd->add_option("--level", options.level, "IS-IS level (default 2)")
      ->check(CLI::IsMember({1, 2}));
  cmd->add_flag("--pretty", options.pretty, "indent the JSON");
}

int run_fare_lsr(const FareLsrOptions& options, std::ostream& out,
                 std::ostream& err) {
  const auto self = parse_system_id(options.self);
  if (!self) {
    err << "arfabric fare-lsr: --self: '" << options.self
        << "' is not a system ID (three groups of four hex digits, "
           "0000.0000.0001)\n";
    return 1;
  }
  auto reader = sysdep::PcapReader::open(options.pcap_path);
  if (!reader) {
    err << "arfabric fare-lsr: " << reader.error() << '\n';
    return 1;
  }
  const std::uint8_t pdu_type =
      options.level == 1 ? isis::kPduTypeL1Lsp : isis::kPduTypeL2Lsp;
  // The newest of each LSP, (system ID, pseudonode, fragment) -> LSP and
  // when it was captured: the higher sequence number, or at the same one a
  // purge (ISO 10589 §7.3.16).
  struct Copy {
    isis::Lsp lsp;
    std::uint64_t captured_ns = 0;
  };
  std::map<std::tuple<isis::SystemId, std::uint8_t, std::uint8_t>, Copy> newest;
  std::size_t bad_checksum = 0, pseudonodes = 0, undecodable = 0;
  std::string first_error;
  std::uint64_t last_ns = 0;
  for (std::size_t index = 1;; ++index) {
    auto frame = reader->next();
    if (!frame) {
      err << "arfabric fare-lsr: " << frame.error() << '\n';
      return 1;
    }
    if (!*frame) break;
    last_ns = std::max(last_ns, (*frame)->time_ns);
    if ((*frame)->link_type != kDltEthernet) continue;
    auto eth = wire::parse_ethernet((*frame)->data);
    if (!eth || !eth->header.is_length()) continue;
    const ByteSpan llc = eth->payload.first(
        std::min<std::size_t>(eth->header.ethertype, eth->payload.size()));
    auto pdu = isis::parse_isis_frame_payload(llc);
    if (!pdu) {
      // An IS-IS LSP of the level (LLC FE FE 03, PDU type at octet 4 of
      // the PDU) that does not decode: said, not silently passed over,
      // since an older copy would then stand.
      constexpr std::size_t kPduTypeAt = 3 + 4;
      if (llc.size() > kPduTypeAt && llc[0] == 0xfe && llc[1] == 0xfe &&
          llc[2] == 0x03 && (llc[kPduTypeAt] & 0x1f) == pdu_type) {
        if (undecodable++ == 0)
          first_error =
              "frame " + std::to_string(index) + ": " + pdu.error().to_string();
      }
      continue;
    }
    if (!pdu->lsp || pdu->header.pdu_type != pdu_type) continue;
    const isis::ParsedLsp& parsed = *pdu->lsp;
    // A purge may carry checksum 0 (FRR's do), which passes for a purge
    // (ISO 10589 §7.3.16.4).
    const bool purge = parsed.lsp.remaining_lifetime == 0;
    if (!parsed.checksum_valid && !(purge && parsed.lsp.checksum == 0)) {
      ++bad_checksum;
      continue;
    }
    const isis::LspId& id = parsed.lsp.lsp_id;
    if (id.pseudonode != 0) {
      ++pseudonodes;
      continue;
    }
    const auto key = std::tuple{id.system_id, id.pseudonode, id.fragment};
    const auto it = newest.find(key);
    const bool newer =
        it == newest.end() ||
        parsed.lsp.sequence_number > it->second.lsp.sequence_number ||
        (parsed.lsp.sequence_number == it->second.lsp.sequence_number &&
         purge && it->second.lsp.remaining_lifetime != 0);
    if (newer) newest[key] = Copy{parsed.lsp, (*frame)->time_ns};
  }
  if (bad_checksum > 0)
    err << "arfabric fare-lsr: skipped " << bad_checksum
        << " LSPs with a bad checksum\n";
  if (pseudonodes > 0)
    err << "arfabric fare-lsr: skipped " << pseudonodes
        << " pseudonode LSPs (LANs are not supported)\n";
  if (undecodable > 0)
    err << "arfabric fare-lsr: skipped " << undecodable
        << " LSPs that do not decode (first: " << first_error << ")\n";
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
    err << "arfabric fare-lsr: " << options.pcap_path << ": no level-"
        << options.level << " LSP\n";
    return 1;
  }
  auto db = proto::fare::database_from_isis(lsps);
  if (!db) {
    err << "arfabric fare-lsr: " << db.error().to_string() << '\n';
    return 1;
  }
  // database_from_isis leaves out a router without its fragment 0 (ISO
  // 10589 §7.2.5): a capture too short to hold it, or a purge of it.
  std::set<RouterKey> routers;
  for (const isis::Lsp& l : lsps)
    routers.insert(proto::fare::router_key(l.lsp_id.system_id));
  if (const std::size_t left_out = routers.size() - db->routers.size())
    err << "arfabric fare-lsr: left out " << left_out
        << " routers without a current fragment 0\n";
  auto routes =
      proto::fare::compute_routes(*db, proto::fare::router_key(*self));
  if (!routes) {
    err << "arfabric fare-lsr: "
        << (routes.error().field == "self" ? options.self + " has no level-" +
                                                 std::to_string(options.level) +
                                                 " LSP in " + options.pcap_path
                                           : routes.error().to_string())
        << '\n';
    return 1;
  }
  for (const proto::fare::LinkStateRoute& r : *routes) {
    nlohmann::json hops = nlohmann::json::array();
    for (const proto::fare::WeightedFirstHop& h : r.first_hops)
      hops.push_back(
          {{"neighbor", system_id_of(h.neighbor)}, {"weight", h.weight}});
    nlohmann::json originators = nlohmann::json::array();
    for (RouterKey o : r.originators) originators.push_back(system_id_of(o));
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
                        {"up_down", r.inter_area}};
    if (fallback) j["fallback"] = fallback;
    out << j.dump(options.pretty ? 2 : -1) << '\n';
  }
  return out.good() ? 0 : 1;
}

}  // namespace arfabric::cli
