#include "wire/arn/arn_message.h"

#include <string>

namespace arfabric::wire::arn {
namespace {

constexpr std::size_t kHeaderSize = 4;

std::size_t five_tuple_size(const FiveTuple& t) {
  return 4 + 2 * t.address_size() + 4;
}

// Field names per 5-tuple parameter, built once: error paths name the
// parameter, and the success path must not build strings.
struct TupleFields {
  std::string_view opcode, source, destination, source_port, destination_port;
};
constexpr TupleFields kFlowFields = {
    "arn.flow.opcode", "arn.flow.source", "arn.flow.destination",
    "arn.flow.source_port", "arn.flow.destination_port"};
constexpr TupleFields kInnerFlowFields = {
    "arn.inner_flow.opcode", "arn.inner_flow.source",
    "arn.inner_flow.destination", "arn.inner_flow.source_port",
    "arn.inner_flow.destination_port"};

std::expected<FiveTuple, DecodeError> parse_five_tuple(
    ByteReader& r, const TupleFields& name) {
  FiveTuple t;
  const std::size_t at = r.offset();
  const std::uint32_t word = ARF_TRY(r.u32(name.opcode));
  const std::uint8_t opcode = static_cast<std::uint8_t>(word >> 28);
  if (opcode != 1 && opcode != 2) {
    return std::unexpected(r.error_at(at, name.opcode,
                                      "Opcode " + std::to_string(opcode) +
                                          " is neither 1 (IPv4) nor 2 (IPv6)"));
  }
  t.family = static_cast<AddressFamily>(opcode);
  t.mask = static_cast<std::uint8_t>(word >> 23 & 0x1f);
  t.reserved = static_cast<std::uint16_t>(word >> 8 & 0x7fff);
  t.protocol = static_cast<std::uint8_t>(word);
  auto src = ARF_TRY(r.bytes(t.address_size(), name.source));
  std::copy(src.begin(), src.end(), t.source.begin());
  auto dst = ARF_TRY(r.bytes(t.address_size(), name.destination));
  std::copy(dst.begin(), dst.end(), t.destination.begin());
  t.source_port = ARF_TRY(r.u16(name.source_port));
  t.destination_port = ARF_TRY(r.u16(name.destination_port));
  return t;
}

std::expected<void, EncodeError> serialize_five_tuple(const FiveTuple& t,
                                                      const std::string& name,
                                                      ByteWriter& out) {
  if (t.family != AddressFamily::ipv4 && t.family != AddressFamily::ipv6) {
    return std::unexpected(
        EncodeError{name + ".family", "neither IPv4 nor IPv6"});
  }
  if (t.mask > kMaskAll) {
    return std::unexpected(EncodeError{name + ".mask", "exceeds 5 bits"});
  }
  if (t.reserved > 0x7fff) {
    return std::unexpected(EncodeError{name + ".reserved", "exceeds 15 bits"});
  }
  out.u32(std::uint32_t{static_cast<std::uint8_t>(t.family)} << 28 |
          std::uint32_t{t.mask} << 23 | std::uint32_t{t.reserved} << 8 |
          t.protocol);
  out.bytes(ByteSpan(t.source).first(t.address_size()));
  out.bytes(ByteSpan(t.destination).first(t.address_size()));
  out.u16(t.source_port);
  out.u16(t.destination_port);
  return {};
}

}  // namespace

const char* to_string(ArnType type) {
  switch (type) {
    case ArnType::congestion_detected:
      return "congestion_detected";
    case ArnType::congestion_eliminated:
      return "congestion_eliminated";
    case ArnType::failure_detected:
      return "failure_detected";
    case ArnType::failure_eliminated:
      return "failure_eliminated";
  }
  return "invalid";
}

std::uint8_t ArnMessage::para_type() const {
  return static_cast<std::uint8_t>(
      (flow ? kParaFlow : 0) | (path_id ? kParaPathId : 0) |
      (inner_flow ? kParaInnerFlow : 0) | reserved_para_bits);
}

std::expected<ArnMessage, DecodeError> parse(ByteSpan message,
                                             std::size_t base_offset) {
  ByteReader r(message, base_offset);
  ArnMessage m;
  const std::uint8_t type = ARF_TRY(r.u8("arn.type"));
  if (type < 1 || type > 4) {
    return std::unexpected(
        r.error_at(base_offset, "arn.type",
                   "Type " + std::to_string(type) + " is not one of 1..4"));
  }
  m.type = static_cast<ArnType>(type);
  const std::uint8_t version = ARF_TRY(r.u8("arn.version"));
  m.version = version >> 4;
  m.reserved = version & 0x0f;
  if (m.version != kVersion) {
    return std::unexpected(r.error_at(
        base_offset + 1, "arn.version",
        "unsupported version " + std::to_string(m.version) + " (expected 0)"));
  }
  m.metric = ARF_TRY(r.u8("arn.metric"));
  const std::uint8_t para = ARF_TRY(r.u8("arn.para_type"));
  m.reserved_para_bits = para & static_cast<std::uint8_t>(~kParaKnown);
  if (para & kParaFlow) m.flow = ARF_TRY(parse_five_tuple(r, kFlowFields));
  if (para & kParaPathId) m.path_id = ARF_TRY(r.u32("arn.path_id"));
  if (para & kParaInnerFlow) {
    m.inner_flow = ARF_TRY(parse_five_tuple(r, kInnerFlowFields));
  }
  if (!r.empty()) {
    if (m.reserved_para_bits == 0) {
      return std::unexpected(
          r.error("arn.parameters", std::to_string(r.remaining()) +
                                        " bytes follow the parameters that "
                                        "Para-Type announces"));
    }
    ByteSpan rest = r.rest();
    m.unknown_parameters.assign(rest.begin(), rest.end());
  }
  return m;
}

std::expected<void, EncodeError> serialize(const ArnMessage& m,
                                           ByteWriter& out) {
  const auto type = static_cast<std::uint8_t>(m.type);
  if (type < 1 || type > 4) {
    return std::unexpected(EncodeError{"arn.type", "not one of 1..4"});
  }
  if (m.version > 15)
    return std::unexpected(EncodeError{"arn.version", "exceeds 4 bits"});
  if (m.reserved > 15) {
    return std::unexpected(EncodeError{"arn.reserved", "exceeds 4 bits"});
  }
  if (m.reserved_para_bits & kParaKnown) {
    return std::unexpected(EncodeError{
        "arn.reserved_para_bits", "overlaps the bits of known parameters"});
  }
  if (!m.unknown_parameters.empty() && m.reserved_para_bits == 0) {
    return std::unexpected(
        EncodeError{"arn.unknown_parameters",
                    "present but no reserved Para-Type bit is set"});
  }
  const std::size_t start = out.size();
  out.u8(type);
  out.u8(static_cast<std::uint8_t>(m.version << 4 | m.reserved));
  out.u8(m.metric);
  out.u8(m.para_type());
  if (m.flow) {
    if (auto ok = serialize_five_tuple(*m.flow, "arn.flow", out); !ok) {
      out.truncate(start);
      return ok;
    }
  }
  if (m.path_id) out.u32(*m.path_id);
  if (m.inner_flow) {
    if (auto ok = serialize_five_tuple(*m.inner_flow, "arn.inner_flow", out);
        !ok) {
      out.truncate(start);
      return ok;
    }
  }
  out.bytes(m.unknown_parameters);
  return {};
}

std::size_t encoded_size(const ArnMessage& m) {
  return kHeaderSize + (m.flow ? five_tuple_size(*m.flow) : 0) +
         (m.path_id ? 4 : 0) +
         (m.inner_flow ? five_tuple_size(*m.inner_flow) : 0) +
         m.unknown_parameters.size();
}

}  // namespace arfabric::wire::arn
