// `arfabric decode`: prints one JSON object per frame read from hex text on
// stdin or from a pcap/pcapng file. Recognised: LSN and ARN frames, ARN over
// UDP, BGP messages inside TCP segments (IPv4 or IPv6), IS-IS PDUs, IBCS
// signal fields (CSIG tag, HPCC IPv4 option, UDP shim; listed under "ibcs"
// on any other frame), and bare BGP messages or Ethernet frames given as hex
// lines. A pcap may hold Ethernet frames, raw IP packets or Linux cooked
// (SLL, SLL2) frames (cli/link_layer); of the last two, IPv4, IPv6 and
// IS-IS are decoded. VLAN tags (802.1Q, 802.1ad, stacked) and a CSIG tag
// are stepped over to the packet inside. A
// malformed frame prints a JSON object with "error" (field, offset, reason)
// and decoding goes on with the next; a frame cut by the capture's snaplen
// also carries "truncated", and what it kept is decoded up to the cut.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/bytes.h"
#include "wire/arn/arn_transport.h"
#include "wire/ibcs/signal_field.h"
#include "wire/lsn/lsn_frame.h"

namespace arfabric::cli {

struct DecodeOptions {
  std::string pcap_path;  // empty: read hex lines from stdin
  bool pretty = false;
  bool fcs = false;  // frames end with the Ethernet FCS
  wire::lsn::CodecOptions lsn;
  wire::arn::UdpOptions arn_udp;
  wire::arn::L2Options arn_l2;
  wire::ibcs::BindingConfig ibcs;
  std::uint16_t bgp_port = 179;
  // Per frame: its length on the wire when the capture cut it short (its
  // snaplen); 0 when it was not cut. An IP length that runs past what was
  // kept, but not past this, is then taken as what was kept, so that the
  // headers and whole messages inside are decoded (the cut message is an
  // error); a cut frame has no FCS to drop (--fcs).
  std::size_t cut_from_length = 0;
};

void add_decode_command(CLI::App& app, DecodeOptions& options);

// Why the CSIG TPID cannot be told from other frames, if so: an 802.3
// length, a VLAN TPID, or the EtherType of IPv4, IPv6, ARP, LSN or
// raw-Ethernet ARN.
std::optional<std::string> csig_tpid_problem(const DecodeOptions& options);

// Returns 0 when input could be read (even if some frames are malformed),
// 1 when the input itself cannot be read or csig_tpid_problem() finds one.
int run_decode(const DecodeOptions& options, std::istream& in,
               std::ostream& out);

// Decodes one Ethernet frame (without FCS unless it is an LSN frame that
// carries one) into JSON. Never fails: errors become {"error": {...}}.
nlohmann::json decode_ethernet_frame(ByteSpan frame,
                                     const DecodeOptions& options = {});

// Decodes one captured frame of libpcap link type (DLT) `link_type`:
// Ethernet (1), raw IP (12, 101, 228, 229) or Linux cooked (113, 276).
// Never fails: errors, another link type included ("pcap.link_type"),
// become {"error": {...}}.
nlohmann::json decode_link_frame(int link_type, ByteSpan frame,
                                 const DecodeOptions& options = {});

// Decodes one hex line: a bare BGP message stream (starts with the 16-byte
// marker) or an Ethernet frame.
nlohmann::json decode_hex_frame(ByteSpan bytes,
                                const DecodeOptions& options = {});

}  // namespace arfabric::cli
