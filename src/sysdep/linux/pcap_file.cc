#include "sysdep/linux/pcap_file.h"

#include <pcap/pcap.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

namespace arfabric::sysdep {

std::expected<PcapWriter, std::string> PcapWriter::open(
    const std::string& path) {
  PcapWriter w;
  w.path_ = path;
  w.handle_ = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
                                                   PCAP_TSTAMP_PRECISION_NANO);
  if (!w.handle_)
    return std::unexpected("cannot create a pcap handle for " + path);
  w.dumper_ = pcap_dump_open(w.handle_, path.c_str());
  if (!w.dumper_) {
    // libpcap's message names the file itself ("<path>: <reason>") when
    // the file could not be opened.
    std::string_view why = pcap_geterr(w.handle_);
    if (why.starts_with(path + ": ")) why.remove_prefix(path.size() + 2);
    return std::unexpected("cannot write " + path + ": " + std::string(why));
  }
  return w;
}

PcapWriter::PcapWriter(PcapWriter&& o) noexcept
    : path_(std::move(o.path_)),
      handle_(std::exchange(o.handle_, nullptr)),
      dumper_(std::exchange(o.dumper_, nullptr)) {}

PcapWriter& PcapWriter::operator=(PcapWriter&& o) noexcept {
  std::swap(path_, o.path_);
  std::swap(handle_, o.handle_);
  std::swap(dumper_, o.dumper_);
  return *this;
}

PcapWriter::~PcapWriter() {
  if (dumper_) pcap_dump_close(dumper_);
  if (handle_) pcap_close(handle_);
}

void PcapWriter::write(ByteSpan frame, std::uint64_t time_ns) {
  pcap_pkthdr header{};
  header.ts.tv_sec = static_cast<time_t>(time_ns / 1'000'000'000);
  // With nanosecond precision libpcap stores tv_usec as nanoseconds.
  header.ts.tv_usec = static_cast<suseconds_t>(time_ns % 1'000'000'000);
  header.caplen = static_cast<bpf_u_int32>(frame.size());
  header.len = header.caplen;
  pcap_dump(reinterpret_cast<u_char*>(dumper_), &header, frame.data());
}

std::expected<void, std::string> PcapWriter::flush() {
  // A write that failed (a full disk) sets the stream's error flag, which
  // stays set; the flush's own failure sets errno.
  errno = 0;
  const bool flushed = pcap_dump_flush(dumper_) == 0;
  if (flushed && !std::ferror(pcap_dump_file(dumper_))) return {};
  return std::unexpected("cannot write " + path_ + ": " +
                         (errno != 0 ? std::strerror(errno) : "I/O error"));
}

std::expected<PcapReader, std::string> PcapReader::open(
    const std::string& path) {
  PcapReader r;
  r.path_ = path;
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  r.handle_ = pcap_open_offline_with_tstamp_precision(
      path.c_str(), PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!r.handle_) return std::unexpected("cannot read " + path + ": " + errbuf);
  return r;
}

PcapReader::PcapReader(PcapReader&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)), path_(std::move(o.path_)) {}

PcapReader& PcapReader::operator=(PcapReader&& o) noexcept {
  std::swap(handle_, o.handle_);
  std::swap(path_, o.path_);
  return *this;
}

PcapReader::~PcapReader() {
  if (handle_) pcap_close(handle_);
}

std::expected<std::optional<CapturedFrame>, std::string> PcapReader::next() {
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  const int rc = pcap_next_ex(handle_, &header, &data);
  if (rc == PCAP_ERROR_BREAK) return std::nullopt;
  if (rc != 1) return std::unexpected(path_ + ": " + pcap_geterr(handle_));
  CapturedFrame f;
  f.link_type = pcap_datalink(handle_);
  f.time_ns = static_cast<std::uint64_t>(header->ts.tv_sec) * 1'000'000'000 +
              static_cast<std::uint64_t>(header->ts.tv_usec);
  f.data.assign(data, data + header->caplen);
  f.original_length = std::max<std::size_t>(header->len, header->caplen);
  return f;
}

std::string link_type_name(int link_type) {
  const char* name = pcap_datalink_val_to_name(link_type);
  return name ? name : "unknown";
}

}  // namespace arfabric::sysdep
