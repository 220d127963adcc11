#include "cli/decode.h"

#include <iostream>

#include "common/hex.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"

namespace arfabric::cli {
namespace {

nlohmann::json error_json(const DecodeError& e) {
  return {{"error",
           {{"field", e.field}, {"offset", e.offset}, {"reason", e.reason}}}};
}

void print(std::ostream& out, const nlohmann::json& j, bool pretty) {
  out << (pretty ? j.dump(2) : j.dump()) << '\n';
}

}  // namespace

void add_decode_command(CLI::App& app, DecodeOptions& options) {
  CLI::App* cmd =
      app.add_subcommand("decode",
                         "Decode LSN, ARN, BGP and IS-IS frames from hex lines "
                         "on stdin or from a pcap file "
                         "into JSON, one object per frame");
  cmd->add_option("-r,--read", options.pcap_path, "pcap or pcapng file to read")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--pretty", options.pretty, "indent the JSON output");
}

nlohmann::json decode_ethernet_frame(ByteSpan frame) {
  auto eth = wire::parse_ethernet(frame);
  if (!eth) return error_json(eth.error());
  nlohmann::json j = {
      {"eth",
       {{"destination", wire::format_mac(eth->header.destination)},
        {"source", wire::format_mac(eth->header.source)},
        {"ethertype", eth->header.ethertype}}}};
  j["protocol"] = "unknown";
  j["payload"] = to_hex(eth->payload);
  return j;
}

nlohmann::json decode_hex_frame(ByteSpan bytes) {
  return decode_ethernet_frame(bytes);
}

int run_decode(const DecodeOptions& options, std::istream& in,
               std::ostream& out) {
  if (!options.pcap_path.empty()) {
    auto reader = sysdep::PcapReader::open(options.pcap_path);
    if (!reader) {
      std::cerr << "arfabric decode: " << reader.error() << '\n';
      return 1;
    }
    for (std::size_t index = 0;; ++index) {
      auto frame = reader->next();
      if (!frame) {
        std::cerr << "arfabric decode: " << frame.error() << '\n';
        return 1;
      }
      if (!*frame) break;
      nlohmann::json j;
      if ((*frame)->link_type != 1) {
        j = {{"error",
              {{"field", "pcap.link_type"},
               {"offset", 0},
               {"reason", "link type " + std::to_string((*frame)->link_type) +
                              " is not Ethernet"}}}};
      } else {
        j = decode_ethernet_frame((*frame)->data);
      }
      j["frame"] = index;
      print(out, j, options.pretty);
    }
    return 0;
  }
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#')
      continue;
    nlohmann::json j;
    auto bytes = from_hex(line);
    if (!bytes) {
      j = {{"error",
            {{"field", "hex"}, {"offset", 0}, {"reason", bytes.error()}}}};
    } else {
      j = decode_hex_frame(*bytes);
    }
    j["line"] = line_number;
    print(out, j, options.pretty);
  }
  return 0;
}

}  // namespace arfabric::cli
