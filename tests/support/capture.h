// Test support: wrap encoded messages in Ethernet/IPv4/TCP or UDP frames,
// write them to a pcap and decode that pcap with tshark (an independent
// decoder) into JSON, so tests can compare tshark's fields with ours.
//
// tshark is a required test dependency (scripts/setup installs it): when it
// is missing, run_tshark() fails the calling test instead of skipping it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "sysdep/linux/pcap_file.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/tcp.h"
#include "wire/inet/udp.h"

namespace arfabric::testing {

inline wire::EthernetHeader test_ethernet(std::uint16_t ethertype) {
  return {.destination = {0x02, 0, 0, 0, 0, 0x02},
          .source = {0x02, 0, 0, 0, 0, 0x01},
          .vlan_tci = std::nullopt,
          .ethertype = ethertype};
}

inline wire::Ipv4Header test_ipv4(std::uint8_t protocol) {
  wire::Ipv4Header ip;
  ip.protocol = protocol;
  ip.source = {10, 0, 0, 1};
  ip.destination = {10, 0, 0, 2};
  return ip;
}

// An Ethernet/IPv4/TCP frame from 10.0.0.1:src_port to 10.0.0.2:dst_port.
inline Bytes tcp_frame(ByteSpan payload, std::uint32_t sequence = 1,
                       std::uint16_t src_port = 40000,
                       std::uint16_t dst_port = 179) {
  ByteWriter tcp;
  wire::TcpHeader th;
  th.source_port = src_port;
  th.destination_port = dst_port;
  th.sequence = sequence;
  wire::Ipv4Header ip = test_ipv4(wire::kIpProtoTcp);
  EXPECT_TRUE(wire::serialize_tcp_ipv4(th, ip, payload, tcp));
  ByteWriter out;
  wire::serialize(test_ethernet(wire::kEtherTypeIpv4), out);
  EXPECT_TRUE(wire::serialize(ip, tcp.size(), out));
  out.bytes(tcp.data());
  return out.take();
}

// An Ethernet/IPv4/UDP frame from 10.0.0.1:src_port to 10.0.0.2:dst_port.
inline Bytes udp_frame(ByteSpan payload, std::uint16_t dst_port,
                       std::uint16_t src_port = 40000, std::uint8_t dscp = 0) {
  wire::Ipv4Header ip = test_ipv4(wire::kIpProtoUdp);
  ip.dscp = dscp;
  ByteWriter udp;
  wire::UdpHeader uh{.source_port = src_port, .destination_port = dst_port};
  EXPECT_TRUE(wire::serialize_udp_ipv4(uh, ip, payload, udp));
  ByteWriter out;
  wire::serialize(test_ethernet(wire::kEtherTypeIpv4), out);
  EXPECT_TRUE(wire::serialize(ip, udp.size(), out));
  out.bytes(udp.data());
  return out.take();
}

// A fresh path under the test temp directory.
inline std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("arfabric-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// temp_path(name) with nothing there: a file or directory an earlier run
// of this name left is removed.
inline std::filesystem::path fresh_temp_path(const std::string& name) {
  const std::filesystem::path p = temp_path(name);
  std::filesystem::remove_all(p);
  return p;
}

inline void write_pcap(const std::string& path,
                       const std::vector<Bytes>& frames) {
  auto writer = sysdep::PcapWriter::open(path);
  ASSERT_TRUE(writer) << writer.error();
  std::uint64_t t = 1'000'000'000;
  for (const Bytes& f : frames) writer->write(f, t += 1000);
  if (auto flushed = writer->flush(); !flushed)
    ADD_FAILURE() << flushed.error();
}

// A classic little-endian pcap of one link type, each record with the
// length it had on the wire (at least its captured bytes).
inline void write_pcap_file(
    const std::string& path, std::uint32_t link_type,
    const std::vector<std::pair<Bytes, std::uint32_t>>& frames) {
  Bytes b;
  const auto le32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  const auto le16 = [&](std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v));
    b.push_back(static_cast<std::uint8_t>(v >> 8));
  };
  le32(0xa1b2c3d4);  // microsecond timestamps
  le16(2);
  le16(4);
  le32(0);
  le32(0);
  le32(65535);  // snaplen
  le32(link_type);
  for (const auto& [data, length] : frames) {
    le32(1);
    le32(0);
    le32(static_cast<std::uint32_t>(data.size()));
    le32(std::max<std::uint32_t>(length,
                                 static_cast<std::uint32_t>(data.size())));
    b.insert(b.end(), data.begin(), data.end());
  }
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()),
             static_cast<std::streamsize>(b.size()));
}

// Runs `tshark -r pcap -T json [extra]` and returns the parsed array, one
// element per frame. Fails the test (not skip) when tshark cannot run.
inline nlohmann::json run_tshark(const std::string& pcap,
                                 const std::string& extra_args = "") {
  const std::string cmd =
      "tshark -n -r '" + pcap + "' -T json " + extra_args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "cannot run: " << cmd;
    return nlohmann::json::array();
  }
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = ::pclose(p);
  if (status != 0 || out.empty()) {
    ADD_FAILURE() << "tshark failed (status " << status
                  << "); is it installed? scripts/setup installs it. Command: "
                  << cmd;
    return nlohmann::json::array();
  }
  return nlohmann::json::parse(out);
}

// The "layers" object of frame i of tshark's JSON output.
inline const nlohmann::json& tshark_layers(const nlohmann::json& frames,
                                           std::size_t i) {
  return frames.at(i).at("_source").at("layers");
}

// Every value of field `key` anywhere in tshark's JSON `j`, in document
// order, as text (arrays from --no-duplicate-keys are flattened). tshark
// nests fields in subtrees whose shape varies by dissector, so tests look
// fields up by name rather than by path.
inline void collect_tshark_values(const nlohmann::json& j,
                                  const std::string& key,
                                  std::vector<std::string>& out) {
  auto text = [](const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == key) {
        if (it.value().is_array()) {
          for (const nlohmann::json& v : it.value()) out.push_back(text(v));
        } else {
          out.push_back(text(it.value()));
        }
      } else {
        collect_tshark_values(it.value(), key, out);
      }
    }
  } else if (j.is_array()) {
    for (const nlohmann::json& v : j) collect_tshark_values(v, key, out);
  }
}

inline std::vector<std::string> tshark_values(const nlohmann::json& j,
                                              const std::string& key) {
  std::vector<std::string> out;
  collect_tshark_values(j, key, out);
  return out;
}

}  // namespace arfabric::testing
