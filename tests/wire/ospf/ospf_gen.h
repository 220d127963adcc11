// rapidcheck generators for the OSPF TLV codecs (shared by the OSPF tests).
#pragma once

#include <rapidcheck.h>

#include <algorithm>

#include "wire/ospf/extended_prefix.h"
#include "wire/ospf/ospfv3_prefix.h"
#include "wire/ospf/te_link.h"

namespace arfabric::wire::ospf::testing {

inline Bytes gen_bytes(int max) {
  const int n = *rc::gen::inRange(0, max + 1);
  return *rc::gen::container<Bytes>(n, rc::gen::arbitrary<std::uint8_t>());
}

inline std::uint16_t gen_type_except(std::vector<std::uint16_t> taken) {
  return *rc::gen::suchThat(
      rc::gen::arbitrary<std::uint16_t>(), [taken](std::uint16_t t) {
        return std::find(taken.begin(), taken.end(), t) == taken.end();
      });
}

inline std::vector<PrefixSubTlv> gen_prefix_sub_tlvs(std::uint16_t bw_type) {
  std::vector<PrefixSubTlv> v;
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) {
    if (*rc::gen::arbitrary<bool>())
      v.push_back(PathBandwidthSubTlv{{*rc::gen::arbitrary<std::uint32_t>()}});
    else
      v.push_back(RawTlv{gen_type_except({bw_type}), gen_bytes(9)});
  }
  return v;
}

inline std::vector<Ipv4Address> gen_addresses() {
  const int n = *rc::gen::inRange(1, 4);
  std::vector<Ipv4Address> v;
  for (int i = 0; i < n; ++i) v.push_back(*rc::gen::arbitrary<Ipv4Address>());
  return v;
}

inline std::vector<TeTlv> gen_te_body() {
  std::vector<TeTlv> out;
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) {
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        out.push_back(TeRouterAddressTlv{*rc::gen::arbitrary<Ipv4Address>()});
        break;
      case 1: {
        TeLinkTlv link;
        const int subs = *rc::gen::inRange(0, 6);
        for (int j = 0; j < subs; ++j) {
          switch (*rc::gen::inRange(0, 6)) {
            case 0:
              link.sub_tlvs.push_back(
                  LinkTypeSubTlv{*rc::gen::arbitrary<std::uint8_t>()});
              break;
            case 1:
              link.sub_tlvs.push_back(
                  LinkIdSubTlv{*rc::gen::arbitrary<Ipv4Address>()});
              break;
            case 2:
              link.sub_tlvs.push_back(LocalAddressSubTlv{gen_addresses()});
              break;
            case 3:
              link.sub_tlvs.push_back(RemoteAddressSubTlv{gen_addresses()});
              break;
            case 4:
              link.sub_tlvs.push_back(
                  MaxBandwidthSubTlv{{*rc::gen::arbitrary<std::uint32_t>()}});
              break;
            default:
              link.sub_tlvs.push_back(
                  RawTlv{gen_type_except({1, 2, 3, 4, 6}), gen_bytes(9)});
          }
        }
        out.push_back(std::move(link));
        break;
      }
      default:
        out.push_back(RawTlv{gen_type_except({1, 2}), gen_bytes(9)});
    }
  }
  return out;
}

inline std::vector<ExtendedPrefixLsaTlv> gen_ext_prefix_body() {
  std::vector<ExtendedPrefixLsaTlv> out;
  const int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) {
    if (*rc::gen::inRange(0, 3) > 0) {
      ExtendedPrefixTlv p;
      p.route_type = *rc::gen::arbitrary<std::uint8_t>();
      p.prefix_length = static_cast<std::uint8_t>(*rc::gen::inRange(0, 33));
      p.flags = *rc::gen::arbitrary<std::uint8_t>();
      p.prefix = *rc::gen::arbitrary<Ipv4Address>();
      p.sub_tlvs = gen_prefix_sub_tlvs(kDefaultOspfv2PathBandwidthSubTlvType);
      out.push_back(std::move(p));
    } else {
      out.push_back(
          RawTlv{gen_type_except({kTlvExtendedPrefix}), gen_bytes(9)});
    }
  }
  return out;
}

inline Ospfv3Prefix gen_v3_prefix() {
  Ospfv3Prefix p;
  p.prefix_length = static_cast<std::uint8_t>(*rc::gen::inRange(0, 129));
  p.prefix_options = *rc::gen::arbitrary<std::uint8_t>();
  p.reserved = *rc::gen::arbitrary<std::uint16_t>();
  for (std::size_t i = 0; i < (p.prefix_length + 31u) / 32 * 4; ++i)
    p.address[i] = *rc::gen::arbitrary<std::uint8_t>();
  return p;
}

inline std::vector<Ospfv3Tlv> gen_v3_tlvs() {
  std::vector<Ospfv3Tlv> out;
  const int n = *rc::gen::inRange(0, 4);
  const std::uint16_t bw = kDefaultOspfv3PathBandwidthSubTlvType;
  for (int i = 0; i < n; ++i) {
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        out.push_back(
            InterAreaPrefixTlv{*rc::gen::arbitrary<std::uint8_t>(),
                               *rc::gen::inRange<std::uint32_t>(0, 0x1000000),
                               gen_v3_prefix(), gen_prefix_sub_tlvs(bw)});
        break;
      case 1:
        out.push_back(
            ExternalPrefixTlv{*rc::gen::arbitrary<std::uint8_t>(),
                              *rc::gen::inRange<std::uint32_t>(0, 0x1000000),
                              gen_v3_prefix(), gen_prefix_sub_tlvs(bw)});
        break;
      case 2:
        out.push_back(IntraAreaPrefixTlv{*rc::gen::arbitrary<std::uint16_t>(),
                                         *rc::gen::arbitrary<std::uint16_t>(),
                                         gen_v3_prefix(),
                                         gen_prefix_sub_tlvs(bw)});
        break;
      default:
        out.push_back(RawTlv{gen_type_except({3, 5, 6}), gen_bytes(9)});
    }
  }
  return out;
}

}  // namespace arfabric::wire::ospf::testing
