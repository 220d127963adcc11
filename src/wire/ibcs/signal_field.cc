#include "wire/ibcs/signal_field.h"

#include <optional>
#include <string>

#include "wire/inet/checksum.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace arfabric::wire::ibcs {
namespace {

// Layout shared by the detailed walk (locate_detailed, with its errors) and
// the per-packet walk (try_locate): both read these offsets and build the
// SignalField with the same functions, so they cannot disagree on where a
// field is, only on whether a frame is accepted -- which the tests and
// fuzz/ibcs_fuzz.cc check, and locate() reports as "ibcs.locate".
constexpr std::size_t kMacBytes = 12;  // destination + source
constexpr std::size_t kTagBytes = 4;   // 802.1Q or CSIG: TPID + 2
constexpr std::size_t kIpv4MinHeader = 20;
constexpr std::size_t kIpv4TotalLength = 2;  // offsets in the IPv4 header
constexpr std::size_t kIpv4Fragment = 6;
constexpr std::size_t kIpv4Protocol = 9;
constexpr std::size_t kIpv4Checksum = 10;
constexpr std::size_t kUdpDestinationPort = 2;  // offsets in the UDP header
constexpr std::size_t kUdpLength = 4;
constexpr std::size_t kUdpChecksum = 6;
constexpr std::size_t kCsigControl = 2;      // offset in the CSIG tag
constexpr std::size_t kHpccVersionByte = 2;  // offsets in the HPCC option
constexpr std::size_t kHpccMetric = 4;
constexpr std::size_t kShimMetric = 1;  // offset in the UDP shim

// The signal-type entry for `code`, or nullptr. By pointer: the
// csig_signal_type()/udp_signal_type() optionals copy a 48-byte entry (with
// its names) per packet, a third of the per-packet locate cost.
template <typename Table>
const typename Table::value_type* find_type(const Table& table,
                                            std::uint8_t code) {
  for (const auto& entry : table)
    if (entry.code == code) return &entry;
  return nullptr;
}

SignalField csig_field(std::size_t tag_at, std::uint8_t signal_type,
                       const CsigSignalType& type) {
  SignalField f;
  f.binding = Binding::csig_l2;
  f.offset = tag_at + kCsigControl;
  f.size = 2;
  f.mask = 0x0f80;  // the 5-bit signal value of the control word
  f.shift = 7;
  f.signal_type = signal_type;
  f.op = type.op;
  f.uninitialized = type.uninitialized;
  f.max_value = kCsigMaxSignalValue;
  return f;
}

SignalField hpcc_field(std::size_t option_at, std::size_t ip_at) {
  SignalField f;
  f.binding = Binding::hpcc_int;
  f.offset = option_at + kHpccMetric;
  f.size = 4;
  f.mask = 0xffffffff;
  f.shift = 0;
  f.op = ExtremumOp::max;
  f.uninitialized = 0;
  f.max_value = 0xffffffff;
  f.checksums[0] = {ip_at + kIpv4Checksum, ip_at, false};
  f.checksum_count = 1;
  return f;
}

SignalField udp_field(std::size_t udp_at, std::uint8_t signal_type,
                      const UdpSignalType& type) {
  SignalField f;
  f.binding = Binding::ipv4_udp;
  f.offset = udp_at + kUdpHeaderSize + kShimMetric;
  f.size = 4;
  f.mask = 0xffffffff;
  f.shift = 0;
  f.signal_type = signal_type;
  f.op = type.op;
  f.uninitialized = type.uninitialized;
  f.max_value = 0xffffffff;
  f.checksums[0] = {udp_at + kUdpChecksum, udp_at, true};
  f.checksum_count = 1;
  return f;
}

struct L2 {
  std::uint16_t ethertype = 0;
  std::size_t ethertype_offset = 0;
  std::size_t l3_offset = 0;
  std::optional<std::size_t> csig_offset;  // where the CSIG TPID is
};

// Walks the MAC addresses, VLAN tags (is_vlan_tpid: QinQ too) and up to
// one CSIG tag, in any order, to the EtherType of the L3 payload.
std::expected<L2, DecodeError> walk_l2(ByteSpan frame,
                                       const BindingConfig& config) {
  ByteReader r(frame);
  (void)ARF_TRY(r.bytes(6, "eth.destination"));
  (void)ARF_TRY(r.bytes(6, "eth.source"));
  L2 out;
  for (;;) {
    const std::size_t at = r.offset();
    const std::uint16_t type = ARF_TRY(r.u16("eth.ethertype"));
    if (is_vlan_tpid(type)) {
      (void)ARF_TRY(r.u16("eth.vlan.tci"));
      continue;
    }
    if (type == config.csig_ethertype && !out.csig_offset) {
      out.csig_offset = at;
      (void)ARF_TRY(r.u16("csig.control"));
      continue;
    }
    out.ethertype = type;
    out.ethertype_offset = at;
    out.l3_offset = r.offset();
    return out;
  }
}

struct Ip {
  std::size_t offset = 0;
  std::size_t header_length = 0;
  std::size_t total_length = 0;
  std::uint8_t protocol = 0;
  std::uint16_t fragment_offset = 0;
};

// The IPv4 header fields the bindings need, checked like parse_ipv4() but
// without copying the options.
std::expected<Ip, DecodeError> walk_ipv4(ByteSpan frame, const L2& l2) {
  if (l2.ethertype != kEtherTypeIpv4) {
    return std::unexpected(DecodeError{
        "eth.ethertype", l2.ethertype_offset,
        "EtherType " + std::to_string(l2.ethertype) + " is not IPv4"});
  }
  Ip ip;
  ip.offset = l2.l3_offset;
  const ByteSpan data = frame.subspan(ip.offset);
  ByteReader r(data, ip.offset);
  const std::uint8_t version_ihl = ARF_TRY(r.u8("ipv4.version"));
  if (version_ihl >> 4 != 4) {
    return std::unexpected(
        r.error_at(ip.offset, "ipv4.version",
                   "expected 4, got " + std::to_string(version_ihl >> 4)));
  }
  ip.header_length = (version_ihl & 0x0f) * 4u;
  if (ip.header_length < kIpv4MinHeader || ip.header_length > data.size()) {
    return std::unexpected(
        r.error_at(ip.offset, "ipv4.ihl",
                   "header length " + std::to_string(ip.header_length) +
                       " is outside 20.." + std::to_string(data.size())));
  }
  (void)ARF_TRY(r.u8("ipv4.tos"));
  ip.total_length = ARF_TRY(r.u16("ipv4.total_length"));
  if (ip.total_length < ip.header_length || ip.total_length > data.size()) {
    return std::unexpected(
        r.error_at(ip.offset + kIpv4TotalLength, "ipv4.total_length",
                   "total length " + std::to_string(ip.total_length) +
                       " does not fit between the header and the " +
                       std::to_string(data.size()) + " bytes available"));
  }
  (void)ARF_TRY(r.u16("ipv4.identification"));
  ip.fragment_offset = ARF_TRY(r.u16("ipv4.fragment_offset")) & 0x1fff;
  (void)ARF_TRY(r.u8("ipv4.ttl"));
  ip.protocol = ARF_TRY(r.u8("ipv4.protocol"));
  return ip;
}

std::expected<SignalField, DecodeError> locate_csig(
    ByteSpan frame, const BindingConfig& config) {
  const L2 l2 = ARF_TRY(walk_l2(frame, config));
  if (!l2.csig_offset) {
    return std::unexpected(DecodeError{
        "eth.ethertype", l2.ethertype_offset,
        "no CSIG tag (TPID " + std::to_string(config.csig_ethertype) + ")"});
  }
  const std::size_t at = *l2.csig_offset;
  const CsigTag tag =
      ARF_TRY(parse_csig_tag(frame.subspan(at), at, config.csig_ethertype));
  const auto* type = find_type(kCsigSignalTypes, tag.signal_type);
  if (!type) {
    return std::unexpected(DecodeError{
        "csig.signal_type", at + kCsigControl,
        "signal type " + std::to_string(tag.signal_type) + " is unassigned"});
  }
  return csig_field(at, tag.signal_type, *type);
}

std::expected<SignalField, DecodeError> locate_hpcc(
    ByteSpan frame, const BindingConfig& config) {
  const L2 l2 = ARF_TRY(walk_l2(frame, config));
  const Ip ip = ARF_TRY(walk_ipv4(frame, l2));
  const std::size_t end = ip.offset + ip.header_length;
  std::size_t p = ip.offset + kIpv4MinHeader;
  while (p < end) {
    const std::uint8_t type = frame[p];
    if (type == 0) break;  // End of Option List
    if (type == 1) {       // No Operation
      ++p;
      continue;
    }
    const std::size_t length = p + 1 < end ? frame[p + 1] : 0;
    if (length < 2 || length > end - p) {
      return std::unexpected(DecodeError{
          "ipv4.options", p,
          "option " + std::to_string(type) + " has a length of " +
              std::to_string(length) + " that does not fit the header"});
    }
    if (type == config.hpcc_option_type) {
      (void)ARF_TRY(parse_hpcc_option(frame.subspan(p, length), p, type));
      return hpcc_field(p, ip.offset);
    }
    p += length;
  }
  return std::unexpected(DecodeError{
      "ipv4.options", ip.offset + kIpv4MinHeader,
      "no HPCC option (type " + std::to_string(config.hpcc_option_type) + ")"});
}

std::expected<SignalField, DecodeError> locate_udp(
    ByteSpan frame, const BindingConfig& config) {
  const L2 l2 = ARF_TRY(walk_l2(frame, config));
  const Ip ip = ARF_TRY(walk_ipv4(frame, l2));
  if (ip.protocol != kIpProtoUdp) {
    return std::unexpected(
        DecodeError{"ipv4.protocol", ip.offset + kIpv4Protocol,
                    "protocol " + std::to_string(ip.protocol) + " is not UDP"});
  }
  if (ip.fragment_offset != 0) {
    return std::unexpected(
        DecodeError{"ipv4.fragment_offset", ip.offset + kIpv4Fragment,
                    "a non-first fragment carries no UDP header"});
  }
  const std::size_t udp = ip.offset + ip.header_length;
  const ByteSpan segment =
      frame.subspan(udp, ip.total_length - ip.header_length);
  ByteReader r(segment, udp);
  (void)ARF_TRY(r.u16("udp.source_port"));
  const std::uint16_t port = ARF_TRY(r.u16("udp.destination_port"));
  const std::uint16_t length = ARF_TRY(r.u16("udp.length"));
  (void)ARF_TRY(r.u16("udp.checksum"));
  if (length < kUdpHeaderSize || length > segment.size()) {
    return std::unexpected(r.error_at(udp + kUdpLength, "udp.length",
                                      "length " + std::to_string(length) +
                                          " is outside 8.." +
                                          std::to_string(segment.size())));
  }
  if (port != config.udp_port) {
    return std::unexpected(
        DecodeError{"udp.destination_port", udp + kUdpDestinationPort,
                    "port " + std::to_string(port) + " is not the IBCS port " +
                        std::to_string(config.udp_port)});
  }
  const std::size_t shim_at = udp + kUdpHeaderSize;
  const UdpShim shim = ARF_TRY(parse_udp_shim(
      segment.subspan(kUdpHeaderSize, length - kUdpHeaderSize), shim_at));
  const auto* type = find_type(kUdpSignalTypes, shim.signal_type);
  if (!type) {
    return std::unexpected(DecodeError{
        "ibcs_udp.signal_type", shim_at,
        "signal type " + std::to_string(shim.signal_type) + " is unknown"});
  }
  return udp_field(udp, shim.signal_type, *type);
}

// --- The per-packet walk: the same acceptance as the detailed walk above,
// reading bytes directly. Every `return std::nullopt` / `false` corresponds
// to one error of the detailed walk.

struct FastL2 {
  std::uint16_t ethertype = 0;
  std::size_t l3_offset = 0;
  std::size_t csig_offset = 0;
  bool csig = false;
};

bool fast_l2(ByteSpan frame, const BindingConfig& config, FastL2& out) {
  std::size_t p = kMacBytes;
  for (;;) {
    if (frame.size() < p + 2) return false;
    const std::uint16_t type = load_be16(frame, p);
    const bool vlan = is_vlan_tpid(type);
    const bool csig = !vlan && type == config.csig_ethertype && !out.csig;
    if (!vlan && !csig) {
      out.ethertype = type;
      out.l3_offset = p + 2;
      return true;
    }
    if (frame.size() < p + kTagBytes) return false;  // TCI / control
    if (csig) {
      out.csig = true;
      out.csig_offset = p;
    }
    p += kTagBytes;
  }
}

struct FastIp {
  std::size_t offset = 0;
  std::size_t header_length = 0;
  std::size_t total_length = 0;
};

bool fast_ipv4(ByteSpan frame, const FastL2& l2, FastIp& ip) {
  if (l2.ethertype != kEtherTypeIpv4) return false;
  ip.offset = l2.l3_offset;
  const std::size_t available = frame.size() - ip.offset;
  if (available < 1 || frame[ip.offset] >> 4 != 4) return false;
  ip.header_length = (frame[ip.offset] & 0x0f) * 4u;
  if (ip.header_length < kIpv4MinHeader || ip.header_length > available)
    return false;
  ip.total_length = load_be16(frame, ip.offset + kIpv4TotalLength);
  return ip.total_length >= ip.header_length && ip.total_length <= available;
}

std::optional<SignalField> try_csig(ByteSpan frame,
                                    const BindingConfig& config) {
  FastL2 l2;
  if (!fast_l2(frame, config, l2) || !l2.csig) return std::nullopt;
  const std::size_t at = l2.csig_offset;
  const auto code =
      static_cast<std::uint8_t>(load_be16(frame, at + kCsigControl) >> 13);
  const auto* type = find_type(kCsigSignalTypes, code);
  if (!type) return std::nullopt;
  return csig_field(at, code, *type);
}

std::optional<SignalField> try_hpcc(ByteSpan frame,
                                    const BindingConfig& config) {
  FastL2 l2;
  FastIp ip;
  if (!fast_l2(frame, config, l2) || !fast_ipv4(frame, l2, ip))
    return std::nullopt;
  const std::size_t end = ip.offset + ip.header_length;
  std::size_t p = ip.offset + kIpv4MinHeader;
  while (p < end) {
    const std::uint8_t type = frame[p];
    if (type == 0) break;  // End of Option List
    if (type == 1) {       // No Operation
      ++p;
      continue;
    }
    const std::size_t length = p + 1 < end ? frame[p + 1] : 0;
    if (length < 2 || length > end - p) return std::nullopt;
    if (type == config.hpcc_option_type) {
      if (length != kHpccOptionLength ||
          frame[p + kHpccVersionByte] >> 4 != kHpccVersion)
        return std::nullopt;
      return hpcc_field(p, ip.offset);
    }
    p += length;
  }
  return std::nullopt;
}

std::optional<SignalField> try_udp(ByteSpan frame,
                                   const BindingConfig& config) {
  FastL2 l2;
  FastIp ip;
  if (!fast_l2(frame, config, l2) || !fast_ipv4(frame, l2, ip) ||
      frame[ip.offset + kIpv4Protocol] != kIpProtoUdp ||
      (load_be16(frame, ip.offset + kIpv4Fragment) & 0x1fff) != 0)
    return std::nullopt;
  const std::size_t udp = ip.offset + ip.header_length;
  const std::size_t segment = ip.total_length - ip.header_length;
  if (segment < kUdpHeaderSize) return std::nullopt;
  const std::size_t length = load_be16(frame, udp + kUdpLength);
  if (length < kUdpHeaderSize || length > segment ||
      load_be16(frame, udp + kUdpDestinationPort) != config.udp_port ||
      length - kUdpHeaderSize < kUdpShimSize)
    return std::nullopt;
  const std::uint8_t version_type = frame[udp + kUdpHeaderSize];
  if (version_type >> 4 != kUdpShimVersion) return std::nullopt;
  const auto code = static_cast<std::uint8_t>(version_type & 0x0f);
  const auto* type = find_type(kUdpSignalTypes, code);
  if (!type) return std::nullopt;
  return udp_field(udp, code, *type);
}

bool field_in(std::size_t frame_size, const SignalField& f) {
  return (f.size == 2 || f.size == 4) && f.offset <= frame_size &&
         frame_size - f.offset >= f.size;
}

// update_checksum_bytes() for the field's 2 or 4 big-endian bytes, read
// from the words instead of byte arrays: the same 16-bit words in the same
// order, so the result is bit-identical (including which of 0x0000 / 0xFFFF
// stands for zero). At an odd offset the first byte is the low half of its
// word and the last byte the high half of the next.
std::uint16_t update_field_sum(std::uint16_t sum, bool odd, std::size_t size,
                               std::uint32_t o, std::uint32_t n) {
  const auto step = [&sum](std::uint32_t m, std::uint32_t m_new) {
    if (m != m_new) {
      sum = update_checksum(sum, static_cast<std::uint16_t>(m),
                            static_cast<std::uint16_t>(m_new));
    }
  };
  if (!odd) {
    if (size == 4) step(o >> 16, n >> 16);
    step(o & 0xffff, n & 0xffff);
    return sum;
  }
  const auto top = static_cast<unsigned>(8 * (size - 1));  // the first byte
  step(o >> top & 0xff, n >> top & 0xff);
  if (size == 4) step(o >> 8 & 0xffff, n >> 8 & 0xffff);
  step((o & 0xff) << 8, (n & 0xff) << 8);
  return sum;
}

std::uint32_t load(const std::uint8_t* p, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

// Errors of read/rewrite, built out of line: inlined, their strings widen
// the per-packet functions' stack frames and cost every call.
[[gnu::cold, gnu::noinline]] DecodeError field_error(const SignalField& f,
                                                     const char* reason) {
  return DecodeError{"ibcs.field", f.offset, reason};
}
[[gnu::cold, gnu::noinline]] DecodeError value_error(const SignalField& f,
                                                     std::uint32_t value) {
  return DecodeError{"ibcs.metric", f.offset,
                     "value " + std::to_string(value) +
                         " exceeds the field maximum " +
                         std::to_string(f.max_value)};
}
[[gnu::cold, gnu::noinline]] DecodeError checksum_error(const SignalField& f,
                                                        std::size_t i) {
  return DecodeError{
      "ibcs.field", f.offset,
      "checksum " + std::to_string(i) + " is outside the frame or misplaced"};
}

}  // namespace

std::optional<SignalField> try_locate(Binding binding, ByteSpan frame,
                                      const BindingConfig& config) {
  switch (binding) {
    case Binding::csig_l2:
      return try_csig(frame, config);
    case Binding::hpcc_int:
      return try_hpcc(frame, config);
    case Binding::ipv4_udp:
      return try_udp(frame, config);
  }
  return std::nullopt;
}

std::expected<SignalField, DecodeError> locate(Binding binding, ByteSpan frame,
                                               const BindingConfig& config) {
  if (auto field = try_locate(binding, frame, config)) return *field;
  auto explained = detail::locate_detailed(binding, frame, config);
  if (!explained) return std::unexpected(std::move(explained).error());
  return std::unexpected(
      DecodeError{"ibcs.locate", explained->offset,
                  "internal: the per-packet walk refuses a field the "
                  "detailed walk accepts (please report this frame)"});
}

namespace detail {

std::expected<SignalField, DecodeError> locate_detailed(
    Binding binding, ByteSpan frame, const BindingConfig& config) {
  switch (binding) {
    case Binding::csig_l2:
      return locate_csig(frame, config);
    case Binding::hpcc_int:
      return locate_hpcc(frame, config);
    case Binding::ipv4_udp:
      return locate_udp(frame, config);
  }
  return std::unexpected(DecodeError{"ibcs.binding", 0, "unknown binding"});
}

}  // namespace detail

std::expected<std::uint32_t, DecodeError> read_metric(
    ByteSpan frame, const SignalField& field) {
  if (!field_in(frame.size(), field))
    return std::unexpected(field_error(field, "outside the frame"));
  const std::uint32_t word = load(frame.data() + field.offset, field.size);
  return (word & field.mask) >> field.shift;
}

std::expected<void, DecodeError> rewrite_metric(std::span<std::uint8_t> frame,
                                                const SignalField& field,
                                                std::uint32_t new_value) {
  // Validate everything first: nothing is written unless all of it holds.
  if (!field_in(frame.size(), field))
    return std::unexpected(field_error(field, "outside the frame"));
  const std::uint64_t shifted = std::uint64_t{new_value} << field.shift;
  if (new_value > field.max_value || (shifted & ~std::uint64_t{field.mask})) {
    return std::unexpected(value_error(field, new_value));
  }
  if (field.checksum_count > field.checksums.size())
    return std::unexpected(field_error(field, "bad checksum count"));
  for (std::size_t i = 0; i < field.checksum_count; ++i) {
    const ChecksumCover& c = field.checksums[i];
    const bool in_frame = c.checksum_offset <= frame.size() &&
                          frame.size() - c.checksum_offset >= 2;
    const bool overlaps = c.checksum_offset < field.offset + field.size &&
                          field.offset < c.checksum_offset + 2;
    if (!in_frame || overlaps || c.region_offset > field.offset) {
      return std::unexpected(checksum_error(field, i));
    }
  }

  std::uint8_t* p = frame.data() + field.offset;
  const std::uint32_t old_word = load(p, field.size);
  const std::uint32_t new_word =
      (old_word & ~field.mask) | static_cast<std::uint32_t>(shifted);
  if (new_word == old_word) return {};
  std::array<std::uint16_t, 2> sums{};
  for (std::size_t i = 0; i < field.checksum_count; ++i) {
    const ChecksumCover& c = field.checksums[i];
    const std::uint8_t* q = frame.data() + c.checksum_offset;
    const std::uint16_t stored = static_cast<std::uint16_t>(q[0] << 8 | q[1]);
    if (c.zero_means_absent && stored == 0) {
      sums[i] = 0;  // no checksum was sent; none is invented
      continue;
    }
    const bool odd = (field.offset - c.region_offset) % 2 != 0;
    std::uint16_t sum =
        update_field_sum(stored, odd, field.size, old_word, new_word);
    if (c.zero_means_absent && sum == 0) sum = 0xffff;  // RFC 768
    sums[i] = sum;
  }

  // Commit: nothing below can fail.
  for (std::size_t i = 0; i < field.checksum_count; ++i) {
    std::uint8_t* q = frame.data() + field.checksums[i].checksum_offset;
    q[0] = static_cast<std::uint8_t>(sums[i] >> 8);
    q[1] = static_cast<std::uint8_t>(sums[i]);
  }
  for (std::size_t i = 0; i < field.size; ++i)
    p[i] = static_cast<std::uint8_t>(new_word >> (8 * (field.size - 1 - i)));
  return {};
}

}  // namespace arfabric::wire::ibcs
