#include "cli/decode.h"

#include <algorithm>
#include <iostream>
#include <optional>

#include "cli/json/arn_json.h"
#include "cli/json/bgp_json.h"
#include "cli/json/error_json.h"
#include "cli/json/ibcs_json.h"
#include "cli/json/isis_json.h"
#include "cli/json/lsn_json.h"
#include "cli/json/ospf_json.h"
#include "cli/link_layer.h"
#include "common/hex.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/ipv6.h"
#include "wire/inet/tcp.h"
#include "wire/inet/udp.h"
#include "wire/ospf/packet.h"

namespace arfabric::cli {
namespace {

using cli::error_json;  // the DecodeError form, next to this overload

nlohmann::json error_json(const std::string& field, const std::string& reason) {
  return error_json(DecodeError{field, 0, reason});
}

void print(std::ostream& out, const nlohmann::json& j, bool pretty) {
  // Bytes of the input echoed in a message need not be UTF-8.
  out << j.dump(pretty ? 2 : -1, ' ', false,
                nlohmann::json::error_handler_t::replace)
      << '\n';
}

std::uint16_t opcode_of(ByteSpan payload) {
  return payload.size() >= 2 ? load_be16(payload, 0) : 0;
}

// BGP messages in a TCP segment to or from the BGP port, if the segment
// is one and carries any; else nothing. `l4` is the segment's offset in
// the frame.
std::optional<nlohmann::json> decode_bgp_segment(ByteSpan segment,
                                                 std::size_t l4,
                                                 const std::string& source,
                                                 const std::string& destination,
                                                 const DecodeOptions& options,
                                                 nlohmann::json& error) {
  auto tcp = wire::parse_tcp(segment, l4);
  if (!tcp) {
    error = error_json(tcp.error());
    return std::nullopt;
  }
  const bool bgp = tcp->header.source_port == options.bgp_port ||
                   tcp->header.destination_port == options.bgp_port;
  if (!bgp || tcp->payload.empty()) return std::nullopt;
  return nlohmann::json{
      {"protocol", "bgp"},
      {"source", source},
      {"destination", destination},
      {"source_port", tcp->header.source_port},
      {"destination_port", tcp->header.destination_port},
      {"messages",
       bgp_messages_to_json(tcp->payload,
                            l4 + (segment.size() - tcp->payload.size()))}};
}

// An IP header's length field: where it is, how long the fixed header
// is, and whether the length counts that header (IPv4's Total Length) or
// not (IPv6's Payload Length).
struct IpLengthField {
  std::size_t at;
  std::size_t header;
  bool counts_header;
};
constexpr IpLengthField kIpv4TotalLength{2, 20, true};
constexpr IpLengthField kIpv6PayloadLength{4, wire::kIpv6HeaderBytes, false};

// A frame the capture cut short (its snaplen) holds less of the IP packet
// at `offset` than its `length` field says. Returns a copy of `frame`
// whose field says what was kept, so that the headers and every whole
// message inside are decoded (the cut one is an error at the end);
// nothing when the frame was not cut, the field asks for no more than is
// there, or more than the whole frame on the wire held (the packet is
// then malformed, as reported).
std::optional<Bytes> kept_by_capture(ByteSpan frame, std::size_t offset,
                                     IpLengthField length,
                                     const DecodeOptions& options) {
  const std::size_t wire = options.cut_from_length;
  // Not cut (0), or nothing the captured frame could have been cut from.
  if (wire <= frame.size() || frame.size() < offset + length.header) {
    return {};
  }
  const std::size_t said = load_be16(frame, offset + length.at);
  const std::size_t uncounted = length.counts_header ? 0 : length.header;
  const std::size_t kept = frame.size() - offset - uncounted;
  if (said <= kept || said > wire - offset - uncounted) return {};
  Bytes patched(frame.begin(), frame.end());
  patched[offset + length.at] = static_cast<std::uint8_t>(kept >> 8);
  patched[offset + length.at + 1] = static_cast<std::uint8_t>(kept);
  return patched;
}

nlohmann::json decode_ipv4(ByteSpan frame, std::size_t offset,
                           const DecodeOptions& options) {
  auto ip = wire::parse_ipv4(frame.subspan(offset), offset);
  std::optional<Bytes> patched;
  if (!ip && ip.error().field == "ipv4.total_length" &&
      (patched = kept_by_capture(frame, offset, kIpv4TotalLength, options))) {
    frame = *patched;
    ip = wire::parse_ipv4(frame.subspan(offset), offset);
  }
  if (!ip) return error_json(ip.error());
  const std::size_t l4 = offset + wire::encoded_size(ip->header);
  const std::string source = wire::format_ipv4(ip->header.source);
  const std::string destination = wire::format_ipv4(ip->header.destination);
  if (ip->header.protocol == wire::kIpProtoUdp) {
    auto udp = wire::parse_udp(ip->payload, l4);
    if (!udp) return error_json(udp.error());
    if (udp->header.destination_port == options.arn_udp.port) {
      auto d = wire::arn::parse_ipv4_udp(
          frame.subspan(offset, ip->header.total_length), options.arn_udp,
          offset);
      if (!d) return error_json(d.error());
      return to_json(*d);
    }
  }
  if (ip->header.protocol == wire::kIpProtoTcp) {
    nlohmann::json error;
    auto bgp = decode_bgp_segment(ip->payload, l4, source, destination, options,
                                  error);
    if (bgp) return *bgp;
    if (!error.is_null()) return error;
  }
  // OSPFv2 (IP protocol 89, RFC 2328 A.1), unless a fragment: the LSAs
  // FARE over OSPF reads.
  if (ip->header.protocol == wire::ospf::kIpProtocolOspf &&
      !ip->header.is_fragment()) {
    nlohmann::json j = ospfv2_packet_to_json(ip->payload, l4);
    if (j.contains("error")) return j;
    j["source"] = source;
    j["destination"] = destination;
    return j;
  }
  return {{"protocol", "ipv4"},
          {"source", source},
          {"destination", destination},
          {"ip_protocol", ip->header.protocol},
          {"payload", to_hex(ip->payload)}};
}

// IPv6: BGP sessions over IPv6 (a TCP segment right after the fixed
// header; extension headers are not walked). ARN and the IBCS bindings
// are IPv4 here.
nlohmann::json decode_ipv6(ByteSpan frame, std::size_t offset,
                           const DecodeOptions& options) {
  auto ip = wire::parse_ipv6(frame.subspan(offset), offset);
  std::optional<Bytes> patched;
  if (!ip && ip.error().field == "ipv6.payload_length" &&
      (patched = kept_by_capture(frame, offset, kIpv6PayloadLength, options))) {
    frame = *patched;
    ip = wire::parse_ipv6(frame.subspan(offset), offset);
  }
  if (!ip) return error_json(ip.error());
  const std::size_t l4 = offset + wire::kIpv6HeaderBytes;
  const std::string source = wire::format_ipv6(ip->header.source);
  const std::string destination = wire::format_ipv6(ip->header.destination);
  if (ip->header.next_header == wire::kIpProtoTcp) {
    nlohmann::json error;
    auto bgp = decode_bgp_segment(ip->payload, l4, source, destination, options,
                                  error);
    if (bgp) return *bgp;
    if (!error.is_null()) return error;
  }
  return {{"protocol", "ipv6"},
          {"source", source},
          {"destination", destination},
          {"next_header", ip->header.next_header},
          {"payload", to_hex(ip->payload)}};
}

// Link types (libpcap's DLT_ values) decoded here; cli/link_layer knows
// them all.
constexpr int kDltEthernet = 1;
constexpr int kDltLinuxSll = 113;   // tcpdump -i any, libpcap < 1.10
constexpr int kDltLinuxSll2 = 276;  // tcpdump -i any, libpcap >= 1.10

// The VLAN tags of a frame, outermost first, as "vlan" and, inside it,
// "inner_vlans" (the TPID shown where it is not 802.1Q's). Other tags
// stepped over (a CSIG tag) are shown by what reads them.
void add_vlans(nlohmann::json& j, const std::vector<LinkTag>& tags) {
  nlohmann::json vlans = nlohmann::json::array();
  for (const LinkTag& tag : tags) {
    if (!wire::is_vlan_tpid(tag.tpid)) continue;
    nlohmann::json v = {{"id", tag.tci & 0x0fff}, {"priority", tag.tci >> 13}};
    if (tag.tpid != wire::kEtherTypeVlan) v["tpid"] = tag.tpid;
    vlans.push_back(std::move(v));
  }
  if (vlans.empty()) return;
  j["vlan"] = vlans[0];
  if (vlans.size() > 1) {
    vlans.erase(vlans.begin());
    j["inner_vlans"] = std::move(vlans);
  }
}

// An IS-IS PDU in an LLC frame at `offset` in the frame (ISO 10589
// §8.4.8), if its LLC header says OSI.
std::optional<nlohmann::json> decode_isis_llc(ByteSpan llc,
                                              std::size_t offset) {
  if (llc.size() < 3 || llc[0] != 0xfe || llc[1] != 0xfe || llc[2] != 0x03)
    return std::nullopt;
  nlohmann::json j = isis_pdu_to_json(llc);
  // The IS-IS decoder counts from the LLC header; report frame offsets.
  if (j.contains("error")) {
    j["error"]["offset"] = j["error"]["offset"].get<std::size_t>() + offset;
  }
  return j;
}

// The packet the link layer carries: IPv4 and IPv6 in any link type,
// IS-IS in an LLC frame (llc_frame). Nothing for anything else.
std::optional<nlohmann::json> decode_network_packet(
    int link_type, ByteSpan frame, const NetworkPacket& net,
    const DecodeOptions& options) {
  if (net.ethertype == wire::kEtherTypeIpv4)
    return decode_ipv4(frame, net.offset, options);
  if (net.ethertype == wire::kEtherTypeIpv6)
    return decode_ipv6(frame, net.offset, options);
  if (const auto llc = llc_frame(link_type, frame, net))
    return decode_isis_llc(*llc, net.offset);
  return std::nullopt;
}

// An Ethernet frame (no FCS) that is neither LSN nor ARN.
nlohmann::json decode_other_frame(ByteSpan body,
                                  const wire::EthernetHeader& eth,
                                  const DecodeOptions& options) {
  auto net = network_packet(kDltEthernet, body, options.ibcs.csig_ethertype);
  if (!net) return error_json(net.error());
  nlohmann::json j;
  if (auto decoded = decode_network_packet(kDltEthernet, body, *net, options)) {
    j = std::move(*decoded);
  } else {
    j = {{"protocol", "unknown"},
         {"eth",
          {{"destination", wire::format_mac(eth.destination)},
           {"source", wire::format_mac(eth.source)},
           {"ethertype", net->ethertype}}},
         {"payload", to_hex(body.subspan(net->offset))}};
  }
  nlohmann::json ibcs = decode_ibcs_frame(body, options.ibcs);
  if (!ibcs.empty()) j["ibcs"] = std::move(ibcs);
  add_vlans(j, net->tags);
  return j;
}

// A frame of a link type other than Ethernet: raw IP, or a Linux cooked
// capture (`tcpdump -i any`), whose header is shown as "sll" or "sll2".
// LSN and ARN frames need their Ethernet header, which a cooked capture
// does not keep.
nlohmann::json decode_captured_packet(int link_type, ByteSpan frame,
                                      const DecodeOptions& options) {
  auto net = network_packet(link_type, frame, options.ibcs.csig_ethertype);
  if (!net) return error_json(net.error());
  nlohmann::json j;
  if (auto decoded = decode_network_packet(link_type, frame, *net, options)) {
    j = std::move(*decoded);
  } else {
    j = {{"protocol", "unknown"},
         {"ethertype", net->ethertype},
         {"payload", to_hex(frame.subspan(net->offset))}};
  }
  if (link_type == kDltLinuxSll) {
    j["sll"] = {{"protocol", load_be16(frame, 14)},
                {"packet_type", load_be16(frame, 0)}};
  } else if (link_type == kDltLinuxSll2) {
    j["sll2"] = {{"protocol", load_be16(frame, 0)}, {"packet_type", frame[10]}};
  }
  add_vlans(j, net->tags);
  return j;
}

}  // namespace

nlohmann::json decode_link_frame(int link_type, ByteSpan frame,
                                 const DecodeOptions& options) {
  if (link_type == kDltEthernet) return decode_ethernet_frame(frame, options);
  return decode_captured_packet(link_type, frame, options);
}

void add_decode_command(CLI::App& app, DecodeOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "decode",
      "Decode LSN, ARN, BGP, IS-IS and OSPFv2 frames, and IBCS signals in "
      "IPv4 packets, from hex lines on stdin or from a pcap file into JSON, "
      "one object per frame");
  cmd->add_option("-r,--read", options.pcap_path, "pcap or pcapng file to read")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--pretty", options.pretty, "indent the JSON output");
  cmd->add_flag("--fcs", options.fcs,
                "frames end with the 4-byte Ethernet FCS");
  cmd->add_option("--lsn-ethertype", options.lsn.ethertype,
                  "EtherType of LSN frames (draft TBD1)")
      ->capture_default_str();
  cmd->add_option("--lsn-opcode", options.lsn.opcode,
                  "OpCode of LSN frames (TBD2)")
      ->capture_default_str();
  cmd->add_option("--arn-port", options.arn_udp.port,
                  "UDP port of ARN messages")
      ->capture_default_str();
  cmd->add_option("--arn-ethertype", options.arn_l2.ethertype,
                  "EtherType of raw-Ethernet ARN frames")
      ->capture_default_str();
  cmd->add_option("--bgp-port", options.bgp_port, "TCP port of BGP sessions")
      ->capture_default_str();
  cmd->add_option("--csig-ethertype", options.ibcs.csig_ethertype,
                  "TPID of the CSIG L2 tag (IBCS)")
      ->capture_default_str();
  // A byte: its default is shown as a number, not as a character.
  cmd->add_option("--hpcc-option", options.ibcs.hpcc_option_type,
                  "IPv4 option type of the HPCC max-utilisation field (IBCS)")
      ->default_str(std::to_string(options.ibcs.hpcc_option_type));
  cmd->add_option("--ibcs-udp-port", options.ibcs.udp_port,
                  "UDP port of the IBCS shim")
      ->capture_default_str();
}

nlohmann::json decode_ethernet_frame(ByteSpan frame,
                                     const DecodeOptions& options) {
  // An FCS belongs to LSN frames' codec; other protocols just drop it. A
  // frame the capture cut short has lost it.
  const bool fcs = options.fcs && options.cut_from_length == 0;
  ByteSpan body = frame;
  if (fcs) {
    if (frame.size() < 4)
      return error_json("eth.fcs", "frame shorter than an FCS");
    body = frame.first(frame.size() - 4);
  }
  auto eth = wire::parse_ethernet(body);
  if (!eth) return error_json(eth.error());
  const std::uint16_t type = eth->header.ethertype;
  if (type == options.lsn.ethertype &&
      opcode_of(eth->payload) == options.lsn.opcode && !eth->header.vlan_tci) {
    wire::lsn::CodecOptions lsn = options.lsn;
    lsn.fcs = fcs;
    auto f = wire::lsn::parse(frame, lsn);
    if (!f) return error_json(f.error());
    return to_json(*f);
  }
  if (type == options.arn_l2.ethertype && !eth->header.vlan_tci) {
    auto f = wire::arn::parse_l2(body, options.arn_l2);
    if (!f) return error_json(f.error());
    return to_json(*f);
  }
  return decode_other_frame(body, eth->header, options);
}

nlohmann::json decode_hex_frame(ByteSpan bytes, const DecodeOptions& options) {
  // A bare BGP message starts with its 16-byte all-ones marker, which no
  // Ethernet frame we decode starts with (it would be a broadcast DA
  // followed by a broadcast SA).
  const bool bgp_marker =
      bytes.size() >= 16 && std::all_of(bytes.begin(), bytes.begin() + 16,
                                        [](auto b) { return b == 0xff; });
  if (bgp_marker)
    return {{"protocol", "bgp"}, {"messages", bgp_messages_to_json(bytes)}};
  return decode_ethernet_frame(bytes, options);
}

std::optional<std::string> csig_tpid_problem(const DecodeOptions& options) {
  const std::uint16_t tpid = options.ibcs.csig_ethertype;
  const auto taken = [&](const std::string& what) {
    return "--csig-ethertype " + to_hex16(tpid) + " is " + what +
           ": the CSIG tag needs a TPID no other frame starts with";
  };
  if (const auto why = wire::ibcs::csig_tpid_problem(tpid)) return taken(*why);
  if (tpid == options.lsn.ethertype)
    return taken("LSN's EtherType (--lsn-ethertype)");
  if (tpid == options.arn_l2.ethertype)
    return taken("ARN's EtherType (--arn-ethertype)");
  return std::nullopt;
}

int run_decode(const DecodeOptions& options, std::istream& in,
               std::ostream& out) {
  if (const auto why = csig_tpid_problem(options)) {
    std::cerr << "arfabric decode: " << *why << '\n';
    return 1;
  }
  if (!options.pcap_path.empty()) {
    auto reader = sysdep::PcapReader::open(options.pcap_path);
    if (!reader) {
      std::cerr << "arfabric decode: " << reader.error() << '\n';
      return 1;
    }
    for (std::size_t index = 1;; ++index) {
      auto frame = reader->next();
      if (!frame) {
        std::cerr << "arfabric decode: " << frame.error() << '\n';
        return 1;
      }
      if (!*frame) break;
      const bool cut = (*frame)->original_length > (*frame)->data.size();
      DecodeOptions frame_options = options;
      frame_options.cut_from_length = cut ? (*frame)->original_length : 0;
      nlohmann::json j =
          decode_link_frame((*frame)->link_type, (*frame)->data, frame_options);
      if (cut) {
        j["truncated"] = {{"captured", (*frame)->data.size()},
                          {"length", (*frame)->original_length}};
      }
      j["frame"] = index;
      print(out, j, options.pretty);
    }
    return 0;
  }
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    // A '#' starts a comment, on a line of its own or after the hex.
    line.erase(std::min(line.find('#'), line.size()));
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto bytes = from_hex(line);
    // The error is in the text, not in a frame: no frame offset.
    nlohmann::json j =
        bytes ? decode_hex_frame(*bytes, options)
              : nlohmann::json{
                    {"error", {{"field", "hex"}, {"reason", bytes.error()}}}};
    j["line"] = line_number;
    print(out, j, options.pretty);
  }
  return 0;
}

}  // namespace arfabric::cli
