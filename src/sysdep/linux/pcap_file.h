// Reading and writing capture files through libpcap.
//
// PcapWriter writes Ethernet (DLT_EN10MB) frames with nanosecond timestamps
// to a classic pcap file that tshark and Wireshark read. PcapReader reads
// pcap and pcapng files and hands back each frame with its link type.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>

#include "common/bytes.h"

struct pcap;
struct pcap_dumper;

namespace arfabric::sysdep {

class PcapWriter {
 public:
  // Errors: the file cannot be created (message names the path and reason).
  static std::expected<PcapWriter, std::string> open(const std::string& path);
  PcapWriter(PcapWriter&&) noexcept;
  PcapWriter& operator=(PcapWriter&&) noexcept;
  ~PcapWriter();

  void write(ByteSpan frame, std::uint64_t time_ns);
  // Flushes buffered frames to the file. Errors: a write or the flush
  // failed (a full disk), since the file was opened: the path and reason.
  std::expected<void, std::string> flush();

 private:
  PcapWriter() = default;
  std::string path_;
  pcap* handle_ = nullptr;
  pcap_dumper* dumper_ = nullptr;
};

struct CapturedFrame {
  int link_type = 0;  // DLT_* value, 1 for Ethernet
  std::uint64_t time_ns = 0;
  Bytes data;  // as captured: cut short when the capture's snaplen was
  std::size_t original_length = 0;  // on the wire; above data.size() if cut
};

// libpcap's name for a DLT_* value ("RAW", "LINUX_SLL2"); "unknown" when
// it has none.
std::string link_type_name(int link_type);

class PcapReader {
 public:
  // Errors: missing, unreadable or not a pcap/pcapng file (names the path).
  static std::expected<PcapReader, std::string> open(const std::string& path);
  PcapReader(PcapReader&&) noexcept;
  PcapReader& operator=(PcapReader&&) noexcept;
  ~PcapReader();

  // The next frame, std::nullopt at the end. Errors: a damaged file.
  std::expected<std::optional<CapturedFrame>, std::string> next();

 private:
  PcapReader() = default;
  pcap* handle_ = nullptr;
  std::string path_;
};

}  // namespace arfabric::sysdep
