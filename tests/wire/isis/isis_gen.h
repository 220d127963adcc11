// rapidcheck generators for IS-IS TLVs and LSPs (shared by the IS-IS tests).
// Sizes stay small enough that every generated TLV fits its 255-byte value.
#pragma once

#include <rapidcheck.h>

#include <algorithm>

#include "wire/isis/lsp.h"

namespace arfabric::wire::isis::testing {

inline rc::Gen<Bytes> gen_bytes(int max) {
  return rc::gen::exec([max] {
    const int n = *rc::gen::inRange(0, max + 1);
    return *rc::gen::container<Bytes>(n, rc::gen::arbitrary<std::uint8_t>());
  });
}

// A type code not in `taken`.
inline rc::Gen<std::uint8_t> gen_type_except(std::vector<std::uint8_t> taken) {
  return rc::gen::suchThat(
      rc::gen::arbitrary<std::uint8_t>(), [taken](std::uint8_t t) {
        return std::find(taken.begin(), taken.end(), t) == taken.end();
      });
}

template <std::size_t N>
std::array<std::uint8_t, N> gen_prefix_bytes(int length) {
  std::array<std::uint8_t, N> a{};
  for (int i = 0; i < (length + 7) / 8; ++i)
    a[i] = *rc::gen::arbitrary<std::uint8_t>();
  return a;
}

inline rc::Gen<std::vector<PrefixSubTlv>> gen_prefix_sub_tlvs() {
  return rc::gen::exec([] {
    std::vector<PrefixSubTlv> v;
    const int n = *rc::gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) {
      switch (*rc::gen::inRange(0, 3)) {
        case 0:
          v.push_back(
              PathBandwidthSubTlv{{*rc::gen::arbitrary<std::uint32_t>()}});
          break;
        case 1:
          v.push_back(PrefixAttributeFlagsSubTlv{*gen_bytes(2)});
          break;
        default:
          v.push_back(
              RawTlv{*gen_type_except({kSubTlvPrefixAttributeFlags,
                                       kDefaultPathBandwidthSubTlvType}),
                     *gen_bytes(8)});
      }
    }
    return v;
  });
}

inline rc::Gen<std::optional<std::vector<PrefixSubTlv>>> gen_optional_subs() {
  return rc::gen::exec([] {
    std::optional<std::vector<PrefixSubTlv>> o;
    if (*rc::gen::arbitrary<bool>()) o = *gen_prefix_sub_tlvs();
    return o;
  });
}

inline rc::Gen<Ipv4Prefix> gen_ipv4_prefix() {
  return rc::gen::exec([] {
    Ipv4Prefix p;
    p.metric = *rc::gen::arbitrary<std::uint32_t>();
    p.up_down = *rc::gen::arbitrary<bool>();
    p.prefix_length = static_cast<std::uint8_t>(*rc::gen::inRange(0, 33));
    p.prefix = gen_prefix_bytes<4>(p.prefix_length);
    p.sub_tlvs = *gen_optional_subs();
    return p;
  });
}

inline rc::Gen<Ipv6Prefix> gen_ipv6_prefix() {
  return rc::gen::exec([] {
    Ipv6Prefix p;
    p.metric = *rc::gen::arbitrary<std::uint32_t>();
    p.up_down = *rc::gen::arbitrary<bool>();
    p.external = *rc::gen::arbitrary<bool>();
    p.reserved_flags = static_cast<std::uint8_t>(*rc::gen::inRange(0, 32));
    p.prefix_length = static_cast<std::uint8_t>(*rc::gen::inRange(0, 129));
    p.prefix = gen_prefix_bytes<16>(p.prefix_length);
    p.sub_tlvs = *gen_optional_subs();
    return p;
  });
}

template <class T>
std::vector<T> gen_some(const rc::Gen<T>& g, int max) {
  const int n = *rc::gen::inRange(0, max + 1);
  std::vector<T> v;
  for (int i = 0; i < n; ++i) v.push_back(*g);
  return v;
}

inline rc::Gen<IsNeighbor> gen_is_neighbor() {
  return rc::gen::exec([] {
    IsNeighbor n;
    n.system_id = *rc::gen::arbitrary<SystemId>();
    n.pseudonode = *rc::gen::arbitrary<std::uint8_t>();
    n.metric = *rc::gen::inRange<std::uint32_t>(0, 0x1000000);
    const int subs = *rc::gen::inRange(0, 4);
    for (int i = 0; i < subs; ++i) {
      switch (*rc::gen::inRange(0, 4)) {
        case 0:
          n.sub_tlvs.push_back(
              Ipv4InterfaceAddressSubTlv{*rc::gen::arbitrary<Ipv4Address>()});
          break;
        case 1:
          n.sub_tlvs.push_back(
              Ipv4NeighborAddressSubTlv{*rc::gen::arbitrary<Ipv4Address>()});
          break;
        case 2:
          n.sub_tlvs.push_back(
              MaxLinkBandwidthSubTlv{{*rc::gen::arbitrary<std::uint32_t>()}});
          break;
        default:
          n.sub_tlvs.push_back(
              RawTlv{*gen_type_except({kSubTlvIpv4InterfaceAddress,
                                       kSubTlvIpv4NeighborAddress,
                                       kSubTlvMaxLinkBandwidth}),
                     *gen_bytes(8)});
      }
    }
    return n;
  });
}

inline rc::Gen<Tlv> gen_tlv() {
  return rc::gen::exec([]() -> Tlv {
    switch (*rc::gen::inRange(0, 9)) {
      case 0:
        return ProtocolsSupportedTlv{*gen_bytes(6)};
      case 1: {
        IpInterfaceAddressTlv t;
        t.addresses = gen_some(rc::gen::arbitrary<Ipv4Address>(), 5);
        return t;
      }
      case 2: {
        const Bytes b = *gen_bytes(30);
        return DynamicHostnameTlv{std::string(b.begin(), b.end())};
      }
      case 3:
        return ExtendedIsReachTlv{gen_some(gen_is_neighbor(), 3)};
      case 4:
        return ExtendedIpReachTlv{gen_some(gen_ipv4_prefix(), 3)};
      case 5: {
        MtIpReachTlv t;
        t.mt_reserved = static_cast<std::uint8_t>(*rc::gen::inRange(0, 16));
        t.mt_id = static_cast<std::uint16_t>(*rc::gen::inRange(0, 4096));
        t.prefixes = gen_some(gen_ipv4_prefix(), 3);
        return t;
      }
      case 6:
        return Ipv6ReachTlv{gen_some(gen_ipv6_prefix(), 3)};
      case 7: {
        MtIpv6ReachTlv t;
        t.mt_reserved = static_cast<std::uint8_t>(*rc::gen::inRange(0, 16));
        t.mt_id = static_cast<std::uint16_t>(*rc::gen::inRange(0, 4096));
        t.prefixes = gen_some(gen_ipv6_prefix(), 2);
        return t;
      }
      default:
        return RawTlv{
            *gen_type_except({kTlvExtendedIsReach, kTlvProtocolsSupported,
                              kTlvIpInterfaceAddress, kTlvExtendedIpReach,
                              kTlvDynamicHostname, kTlvMtIpReach, kTlvIpv6Reach,
                              kTlvMtIpv6Reach}),
            *gen_bytes(40)};
    }
  });
}

inline rc::Gen<Lsp> gen_lsp() {
  return rc::gen::exec([] {
    Lsp lsp;
    lsp.header.pdu_type = *rc::gen::element(kPduTypeL1Lsp, kPduTypeL2Lsp);
    lsp.header.id_length = *rc::gen::element<std::uint8_t>(0, 6);
    lsp.header.max_area_addresses = *rc::gen::arbitrary<std::uint8_t>();
    lsp.remaining_lifetime = *rc::gen::arbitrary<std::uint16_t>();
    lsp.lsp_id.system_id = *rc::gen::arbitrary<SystemId>();
    lsp.lsp_id.pseudonode = *rc::gen::arbitrary<std::uint8_t>();
    lsp.lsp_id.fragment = *rc::gen::arbitrary<std::uint8_t>();
    lsp.sequence_number = *rc::gen::arbitrary<std::uint32_t>();
    lsp.flags = *rc::gen::arbitrary<std::uint8_t>();
    lsp.tlvs = gen_some(gen_tlv(), 6);
    return lsp;
  });
}

}  // namespace arfabric::wire::isis::testing
