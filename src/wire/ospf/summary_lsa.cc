#include "wire/ospf/summary_lsa.h"

#include <string>

namespace arfabric::wire::ospf {
namespace {

constexpr std::uint32_t kMax24 = 0xFFFFFF;

EncodeError too_large(std::string field, std::uint32_t metric) {
  return EncodeError{std::move(field), "metric " + std::to_string(metric) +
                                           " exceeds 24 bits (max 16777215)"};
}

}  // namespace

std::expected<SummaryLsa, DecodeError> parse_summary_lsa_body(
    ByteSpan body, std::size_t base_offset) {
  ByteReader r(body, base_offset);
  SummaryLsa lsa;
  lsa.network_mask = ARF_TRY(r.array<4>("ospf.summary_lsa.network_mask"));
  lsa.reserved = ARF_TRY(r.u8("ospf.summary_lsa.reserved"));
  lsa.metric = ARF_TRY(r.u24("ospf.summary_lsa.metric"));
  while (!r.empty()) {
    SummaryTosMetric m;
    m.tos = ARF_TRY(r.u8("ospf.summary_lsa.tos.tos"));
    m.metric = ARF_TRY(r.u24("ospf.summary_lsa.tos.metric"));
    lsa.tos.push_back(m);
  }
  return lsa;
}

std::expected<void, EncodeError> serialize_summary_lsa_body(
    const SummaryLsa& lsa, ByteWriter& out) {
  if (lsa.metric > kMax24)
    return std::unexpected(too_large("ospf.summary_lsa.metric", lsa.metric));
  for (std::size_t i = 0; i < lsa.tos.size(); ++i)
    if (lsa.tos[i].metric > kMax24)
      return std::unexpected(
          too_large("ospf.summary_lsa.tos[" + std::to_string(i) + "].metric",
                    lsa.tos[i].metric));
  out.bytes(lsa.network_mask);
  out.u8(lsa.reserved);
  out.u24(lsa.metric);
  for (const SummaryTosMetric& m : lsa.tos) {
    out.u8(m.tos);
    out.u24(m.metric);
  }
  return {};
}

std::size_t encoded_size(const SummaryLsa& lsa) {
  return 8 + 4 * lsa.tos.size();
}

}  // namespace arfabric::wire::ospf
