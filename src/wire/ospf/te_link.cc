#include "wire/ospf/te_link.h"

#include <string>

#include "common/overloaded.h"

namespace arfabric::wire::ospf {
namespace {

DecodeError wrong_length(const TlvView& t, std::string_view field,
                         std::string_view want) {
  return DecodeError{std::string(field), t.offset + 2,
                     "length " + std::to_string(t.value.remaining()) +
                         ", want " + std::string(want)};
}

std::expected<std::vector<Ipv4Address>, DecodeError> read_addresses(
    const TlvView& t, std::string_view field) {
  if (t.value.remaining() == 0 || t.value.remaining() % 4 != 0)
    return std::unexpected(
        wrong_length(t, "ospf.te.link.sub_tlv.length", "a multiple of 4"));
  ByteReader v = t.value;
  std::vector<Ipv4Address> out;
  while (!v.empty()) out.push_back(ARF_TRY(v.array<4>(field)));
  return out;
}

std::expected<TeLinkTlv, DecodeError> parse_link(ByteReader r) {
  TeLinkTlv link;
  while (!r.empty()) {
    TlvView t = ARF_TRY(read_tlv(r, "ospf.te.link.sub_tlv"));
    auto need = [&](std::size_t n) -> std::expected<void, DecodeError> {
      if (t.value.remaining() != n)
        return std::unexpected(
            wrong_length(t, "ospf.te.link.sub_tlv.length", std::to_string(n)));
      return {};
    };
    switch (t.type) {
      case kLinkSubTlvLinkType:
        ARF_TRY(need(1));
        link.sub_tlvs.push_back(
            LinkTypeSubTlv{ARF_TRY(t.value.u8("ospf.te.link.link_type"))});
        break;
      case kLinkSubTlvLinkId:
        ARF_TRY(need(4));
        link.sub_tlvs.push_back(
            LinkIdSubTlv{ARF_TRY(t.value.array<4>("ospf.te.link.link_id"))});
        break;
      case kLinkSubTlvLocalAddress:
        link.sub_tlvs.push_back(LocalAddressSubTlv{
            ARF_TRY(read_addresses(t, "ospf.te.link.local_address"))});
        break;
      case kLinkSubTlvRemoteAddress:
        link.sub_tlvs.push_back(RemoteAddressSubTlv{
            ARF_TRY(read_addresses(t, "ospf.te.link.remote_address"))});
        break;
      case kLinkSubTlvMaxBandwidth:
        ARF_TRY(need(4));
        link.sub_tlvs.push_back(MaxBandwidthSubTlv{
            {ARF_TRY(t.value.u32("ospf.te.link.max_bandwidth"))}});
        break;
      default: {
        ByteSpan v = t.value.rest();
        link.sub_tlvs.push_back(RawTlv{t.type, Bytes(v.begin(), v.end())});
      }
    }
  }
  return link;
}

bool is_decoded_link_sub_tlv(std::uint16_t type) {
  return type == kLinkSubTlvLinkType || type == kLinkSubTlvLinkId ||
         type == kLinkSubTlvLocalAddress || type == kLinkSubTlvRemoteAddress ||
         type == kLinkSubTlvMaxBandwidth;
}

std::expected<void, EncodeError> write_addresses(
    std::uint16_t type, const std::vector<Ipv4Address>& addresses,
    ByteWriter& out, std::string_view field) {
  if (addresses.empty())
    return std::unexpected(
        EncodeError{std::string(field), "needs at least one address"});
  return write_tlv_with(type, out, field,
                        [&]() -> std::expected<void, EncodeError> {
                          for (const Ipv4Address& a : addresses) out.bytes(a);
                          return {};
                        });
}

std::expected<void, EncodeError> write_link_sub_tlv(const LinkSubTlv& s,
                                                    ByteWriter& out) {
  return std::visit(
      Overloaded{
          [&](const LinkTypeSubTlv& t) {
            const std::uint8_t v[] = {t.link_type};
            return write_tlv(kLinkSubTlvLinkType, v, out,
                             "ospf.te.link.link_type");
          },
          [&](const LinkIdSubTlv& t) {
            return write_tlv(kLinkSubTlvLinkId, t.link_id, out,
                             "ospf.te.link.link_id");
          },
          [&](const LocalAddressSubTlv& t) {
            return write_addresses(kLinkSubTlvLocalAddress, t.addresses, out,
                                   "ospf.te.link.local_address");
          },
          [&](const RemoteAddressSubTlv& t) {
            return write_addresses(kLinkSubTlvRemoteAddress, t.addresses, out,
                                   "ospf.te.link.remote_address");
          },
          [&](const MaxBandwidthSubTlv& t) -> std::expected<void, EncodeError> {
            out.u16(kLinkSubTlvMaxBandwidth);
            out.u16(4);
            out.u32(t.bandwidth.bits);
            return {};
          },
          [&](const RawTlv& t) -> std::expected<void, EncodeError> {
            if (is_decoded_link_sub_tlv(t.type))
              return std::unexpected(EncodeError{
                  "ospf.te.link.sub_tlv",
                  "raw sub-TLV uses decoded type " + std::to_string(t.type)});
            return write_tlv(t.type, t.value, out, "ospf.te.link.sub_tlv");
          },
      },
      s);
}

std::size_t link_sub_tlv_size(const LinkSubTlv& s) {
  return std::visit(
      Overloaded{
          [](const LinkTypeSubTlv&) -> std::size_t { return 8; },
          [](const LinkIdSubTlv&) -> std::size_t { return 8; },
          [](const LocalAddressSubTlv& t) {
            return 4 + 4 * t.addresses.size();
          },
          [](const RemoteAddressSubTlv& t) {
            return 4 + 4 * t.addresses.size();
          },
          [](const MaxBandwidthSubTlv&) -> std::size_t { return 8; },
          [](const RawTlv& t) { return 4 + padded(t.value.size()); },
      },
      s);
}

}  // namespace

std::expected<std::vector<TeTlv>, DecodeError> parse_te_lsa_body(
    ByteSpan body, std::size_t base_offset) {
  ByteReader r(body, base_offset);
  std::vector<TeTlv> out;
  while (!r.empty()) {
    TlvView t = ARF_TRY(read_tlv(r, "ospf.te.tlv"));
    if (t.type == kTeTlvRouterAddress) {
      if (t.value.remaining() != 4)
        return std::unexpected(
            wrong_length(t, "ospf.te.router_address.length", "4"));
      out.push_back(TeRouterAddressTlv{
          ARF_TRY(t.value.array<4>("ospf.te.router_address"))});
    } else if (t.type == kTeTlvLink) {
      out.push_back(ARF_TRY(parse_link(t.value)));
    } else {
      ByteSpan v = t.value.rest();
      out.push_back(RawTlv{t.type, Bytes(v.begin(), v.end())});
    }
  }
  return out;
}

std::expected<void, EncodeError> serialize_te_lsa_body(
    const std::vector<TeTlv>& tlvs, ByteWriter& out) {
  const std::size_t start = out.size();
  for (const TeTlv& tlv : tlvs) {
    auto ok = std::visit(
        Overloaded{
            [&](const TeRouterAddressTlv& t) {
              return write_tlv(kTeTlvRouterAddress, t.address, out,
                               "ospf.te.router_address");
            },
            [&](const TeLinkTlv& t) {
              return write_tlv_with(kTeTlvLink, out, "ospf.te.link",
                                    [&]() -> std::expected<void, EncodeError> {
                                      for (const LinkSubTlv& s : t.sub_tlvs)
                                        ARF_TRY(write_link_sub_tlv(s, out));
                                      return {};
                                    });
            },
            [&](const RawTlv& t) -> std::expected<void, EncodeError> {
              if (t.type == kTeTlvRouterAddress || t.type == kTeTlvLink)
                return std::unexpected(EncodeError{
                    "ospf.te.tlv",
                    "raw TLV uses decoded type " + std::to_string(t.type)});
              return write_tlv(t.type, t.value, out, "ospf.te.tlv");
            },
        },
        tlv);
    if (!ok) {
      out.truncate(start);
      return std::unexpected(ok.error());
    }
  }
  return {};
}

std::size_t encoded_size(const std::vector<TeTlv>& tlvs) {
  std::size_t n = 0;
  for (const TeTlv& tlv : tlvs) {
    n += std::visit(
        Overloaded{
            [](const TeRouterAddressTlv&) -> std::size_t { return 8; },
            [](const TeLinkTlv& t) {
              std::size_t s = 4;
              for (const LinkSubTlv& sub : t.sub_tlvs)
                s += link_sub_tlv_size(sub);
              return s;
            },
            [](const RawTlv& t) { return 4 + padded(t.value.size()); },
        },
        tlv);
  }
  return n;
}

const MaxBandwidthSubTlv* find_max_bandwidth(const TeLinkTlv& link) {
  for (const LinkSubTlv& s : link.sub_tlvs)
    if (const auto* bw = std::get_if<MaxBandwidthSubTlv>(&s)) return bw;
  return nullptr;
}

}  // namespace arfabric::wire::ospf
