#include "wire/ibcs/signal_field.h"

#include <optional>
#include <string>

#include "wire/inet/checksum.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace arfabric::wire::ibcs {
namespace {

constexpr std::size_t kIpv4MinHeader = 20;

struct L2 {
  std::uint16_t ethertype = 0;
  std::size_t ethertype_offset = 0;
  std::size_t l3_offset = 0;
  std::optional<std::size_t> csig_offset;  // where the CSIG TPID is
};

// Walks the MAC addresses and up to one 802.1Q tag and one CSIG tag, in
// either order, to the EtherType of the L3 payload.
std::expected<L2, DecodeError> walk_l2(ByteSpan frame,
                                       const BindingConfig& config) {
  ByteReader r(frame);
  (void)ARF_TRY(r.bytes(6, "eth.destination"));
  (void)ARF_TRY(r.bytes(6, "eth.source"));
  L2 out;
  bool vlan_seen = false;
  for (;;) {
    const std::size_t at = r.offset();
    const std::uint16_t type = ARF_TRY(r.u16("eth.ethertype"));
    if (type == kEtherTypeVlan && !vlan_seen) {
      vlan_seen = true;
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
        r.error_at(ip.offset + 2, "ipv4.total_length",
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
  const auto type = csig_signal_type(tag.signal_type);
  if (!type) {
    return std::unexpected(DecodeError{
        "csig.signal_type", at + 2,
        "signal type " + std::to_string(tag.signal_type) + " is unassigned"});
  }
  SignalField f;
  f.binding = Binding::csig_l2;
  f.offset = at + 2;
  f.size = 2;
  f.mask = 0x0f80;
  f.shift = 7;
  f.signal_type = tag.signal_type;
  f.op = type->op;
  f.uninitialized = type->uninitialized;
  f.max_value = kCsigMaxSignalValue;
  return f;
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
      SignalField f;
      f.binding = Binding::hpcc_int;
      f.offset = p + 4;
      f.size = 4;
      f.mask = 0xffffffff;
      f.shift = 0;
      f.op = ExtremumOp::max;
      f.uninitialized = 0;
      f.max_value = 0xffffffff;
      f.checksums[0] = {ip.offset + 10, ip.offset, false};
      f.checksum_count = 1;
      return f;
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
        DecodeError{"ipv4.protocol", ip.offset + 9,
                    "protocol " + std::to_string(ip.protocol) + " is not UDP"});
  }
  if (ip.fragment_offset != 0) {
    return std::unexpected(
        DecodeError{"ipv4.fragment_offset", ip.offset + 6,
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
    return std::unexpected(r.error_at(udp + 4, "udp.length",
                                      "length " + std::to_string(length) +
                                          " is outside 8.." +
                                          std::to_string(segment.size())));
  }
  if (port != config.udp_port) {
    return std::unexpected(DecodeError{"udp.destination_port", udp + 2,
                                       "port " + std::to_string(port) +
                                           " is not the IBCS port " +
                                           std::to_string(config.udp_port)});
  }
  const std::size_t shim_at = udp + kUdpHeaderSize;
  const UdpShim shim = ARF_TRY(parse_udp_shim(
      segment.subspan(kUdpHeaderSize, length - kUdpHeaderSize), shim_at));
  const auto type = udp_signal_type(shim.signal_type);
  if (!type) {
    return std::unexpected(DecodeError{
        "ibcs_udp.signal_type", shim_at,
        "signal type " + std::to_string(shim.signal_type) + " is unknown"});
  }
  SignalField f;
  f.binding = Binding::ipv4_udp;
  f.offset = shim_at + 1;
  f.size = 4;
  f.mask = 0xffffffff;
  f.shift = 0;
  f.signal_type = shim.signal_type;
  f.op = type->op;
  f.uninitialized = type->uninitialized;
  f.max_value = 0xffffffff;
  f.checksums[0] = {udp + 6, udp, true};
  f.checksum_count = 1;
  return f;
}

bool field_in(std::size_t frame_size, const SignalField& f) {
  return (f.size == 2 || f.size == 4) && f.offset <= frame_size &&
         frame_size - f.offset >= f.size;
}

std::uint32_t load(const std::uint8_t* p, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

DecodeError field_error(const SignalField& f, std::string reason) {
  return DecodeError{"ibcs.field", f.offset, std::move(reason)};
}

}  // namespace

std::expected<SignalField, DecodeError> locate(Binding binding, ByteSpan frame,
                                               const BindingConfig& config) {
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
    return std::unexpected(DecodeError{"ibcs.metric", field.offset,
                                       "value " + std::to_string(new_value) +
                                           " exceeds the field maximum " +
                                           std::to_string(field.max_value)});
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
      return std::unexpected(
          field_error(field, "checksum " + std::to_string(i) +
                                 " is outside the frame or misplaced"));
    }
  }

  std::uint8_t* p = frame.data() + field.offset;
  const std::uint32_t old_word = load(p, field.size);
  const std::uint32_t new_word =
      (old_word & ~field.mask) | static_cast<std::uint32_t>(shifted);
  if (new_word == old_word) return {};
  std::array<std::uint8_t, 4> old_bytes{};
  std::array<std::uint8_t, 4> new_bytes{};
  for (std::size_t i = 0; i < field.size; ++i) {
    const int bits = static_cast<int>(8 * (field.size - 1 - i));
    old_bytes[i] = static_cast<std::uint8_t>(old_word >> bits);
    new_bytes[i] = static_cast<std::uint8_t>(new_word >> bits);
  }
  const ByteSpan old_span(old_bytes.data(), field.size);
  const ByteSpan new_span(new_bytes.data(), field.size);

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
    std::uint16_t sum = update_checksum_bytes(stored, odd, old_span, new_span);
    if (c.zero_means_absent && sum == 0) sum = 0xffff;  // RFC 768
    sums[i] = sum;
  }

  // Commit: nothing below can fail.
  for (std::size_t i = 0; i < field.checksum_count; ++i) {
    std::uint8_t* q = frame.data() + field.checksums[i].checksum_offset;
    q[0] = static_cast<std::uint8_t>(sums[i] >> 8);
    q[1] = static_cast<std::uint8_t>(sums[i]);
  }
  for (std::size_t i = 0; i < field.size; ++i) p[i] = new_bytes[i];
  return {};
}

}  // namespace arfabric::wire::ibcs
