#include "wire/ospf/ospfv2_lsa.h"

#include <string>

#include "common/overloaded.h"

namespace arfabric::wire::ospf {
namespace {

enum class BodyKind { router, summary, te, extended_prefix, undecoded };

BodyKind kind_of(const Ospfv2LsaHeader& h) {
  if (h.ls_type == kLsTypeRouter) return BodyKind::router;
  if (h.ls_type == kLsTypeSummaryNetwork || h.ls_type == kLsTypeSummaryAsbr)
    return BodyKind::summary;
  if (h.is_opaque() && h.opaque_type() == kOpaqueTypeTe) return BodyKind::te;
  if (h.is_opaque() && h.opaque_type() == kOpaqueTypeExtendedPrefix)
    return BodyKind::extended_prefix;
  return BodyKind::undecoded;
}

BodyKind kind_of(const Ospfv2LsaBody& body) {
  return std::visit(
      Overloaded{
          [](const RouterLsa&) { return BodyKind::router; },
          [](const SummaryLsa&) { return BodyKind::summary; },
          [](const TeLsa&) { return BodyKind::te; },
          [](const ExtendedPrefixLsa&) { return BodyKind::extended_prefix; },
          [](const UndecodedLsaBody&) { return BodyKind::undecoded; }},
      body);
}

}  // namespace

std::expected<Ospfv2Lsa, DecodeError> parse_ospfv2_lsa_decoded(
    ByteSpan data, std::size_t base_offset, const CodecOptions& options) {
  auto parsed = parse_ospfv2_lsa(data, base_offset);
  if (!parsed) return std::unexpected(parsed.error());
  Ospfv2Lsa lsa;
  lsa.header = parsed->header;
  lsa.checksum_valid = parsed->checksum_valid;
  const ByteSpan body = parsed->body;
  const std::size_t at = base_offset + kLsaHeaderSize;
  switch (kind_of(lsa.header)) {
    case BodyKind::router:
      lsa.body = ARF_TRY(parse_router_lsa_body(body, at));
      break;
    case BodyKind::summary:
      lsa.body = ARF_TRY(parse_summary_lsa_body(body, at));
      break;
    case BodyKind::te:
      lsa.body = TeLsa{ARF_TRY(parse_te_lsa_body(body, at))};
      break;
    case BodyKind::extended_prefix:
      lsa.body = ExtendedPrefixLsa{
          ARF_TRY(parse_extended_prefix_lsa_body(body, at, options))};
      break;
    case BodyKind::undecoded:
      lsa.body = UndecodedLsaBody{Bytes(body.begin(), body.end())};
      break;
  }
  return lsa;
}

std::expected<void, EncodeError> serialize_ospfv2_lsa(
    const Ospfv2Lsa& lsa, ByteWriter& out, const CodecOptions& options) {
  if (kind_of(lsa.body) != kind_of(lsa.header))
    return std::unexpected(EncodeError{
        "ospf.lsa.body", "the body's type does not match LS type " +
                             std::to_string(lsa.header.ls_type) +
                             " (opaque type " +
                             std::to_string(lsa.header.opaque_type()) + ")"});
  ByteWriter body;
  ARF_TRY(std::visit(
      Overloaded{
          [&](const RouterLsa& b) {
            return serialize_router_lsa_body(b, body);
          },
          [&](const SummaryLsa& b) {
            return serialize_summary_lsa_body(b, body);
          },
          [&](const TeLsa& b) { return serialize_te_lsa_body(b.tlvs, body); },
          [&](const ExtendedPrefixLsa& b) {
            return serialize_extended_prefix_lsa_body(b.tlvs, body, options);
          },
          [&](const UndecodedLsaBody& b) -> std::expected<void, EncodeError> {
            body.bytes(b.body);
            return {};
          }},
      lsa.body));
  return serialize_ospfv2_lsa(lsa.header, body.data(), out);
}

}  // namespace arfabric::wire::ospf
