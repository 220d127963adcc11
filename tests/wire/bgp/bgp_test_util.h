// Test helpers for the BGP codec: rapidcheck generators of valid messages
// (called inside a property, they draw with operator*) and hex helpers.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/hex.h"
#include "wire/bgp/message.h"

namespace arfabric::wire::bgp::testing {

inline Bytes hex(std::string_view text) { return *from_hex(text); }

inline std::uint8_t u8() { return *rc::gen::arbitrary<std::uint8_t>(); }
inline std::uint16_t u16() { return *rc::gen::arbitrary<std::uint16_t>(); }
inline std::uint32_t u32() { return *rc::gen::arbitrary<std::uint32_t>(); }
inline std::size_t count(int max) {
  return static_cast<std::size_t>(*rc::gen::inRange(0, max + 1));
}
inline Bytes raw_bytes(int max) {
  Bytes b(count(max));
  for (auto& x : b) x = u8();
  return b;
}

inline Prefix gen_prefix(std::uint8_t max_bits, bool add_path) {
  Prefix p;
  if (add_path) p.path_id = u32();
  p.length = static_cast<std::uint8_t>(*rc::gen::inRange(0, max_bits + 1));
  for (std::size_t i = 0; i < p.byte_length(); ++i) p.address[i] = u8();
  return p;
}
inline std::vector<Prefix> gen_prefixes(std::uint8_t max_bits, bool add_path,
                                        int max) {
  std::vector<Prefix> v(count(max));
  for (auto& p : v) p = gen_prefix(max_bits, add_path);
  return v;
}

inline AsPath gen_as_path(bool four) {
  AsPath path;
  path.segments.resize(count(3));
  for (auto& s : path.segments) {
    s.type = static_cast<std::uint8_t>(*rc::gen::inRange(1, 5));
    s.asns.resize(1 + count(5));
    for (auto& a : s.asns) a = four ? u32() : u16();
  }
  return path;
}

inline SessionCodecOptions gen_options() {
  SessionCodecOptions o;
  o.four_octet_as = *rc::gen::arbitrary<bool>();
  o.extended_message = true;  // room for any generated UPDATE
  if (*rc::gen::arbitrary<bool>()) o.add_path.push_back({kAfiIpv4, 1});
  if (*rc::gen::arbitrary<bool>()) o.add_path.push_back({kAfiIpv6, 1});
  return o;
}

inline AttributeValue gen_value(std::uint8_t type,
                                const SessionCodecOptions& o) {
  switch (type) {
    case attr_type::kOrigin:
      return Origin{static_cast<OriginValue>(*rc::gen::inRange(0, 3))};
    case attr_type::kAsPath:
      return gen_as_path(o.four_octet_as);
    case attr_type::kAs4Path:
      return gen_as_path(true);
    case attr_type::kNextHop:
      return NextHop{{u8(), u8(), u8(), u8()}};
    case attr_type::kMed:
      return Med{u32()};
    case attr_type::kLocalPref:
      return LocalPref{u32()};
    case attr_type::kAtomicAggregate:
      return AtomicAggregate{};
    case attr_type::kAggregator:
      return Aggregator{o.four_octet_as ? u32() : u16(),
                        {u8(), u8(), u8(), u8()}};
    case attr_type::kAs4Aggregator:
      return Aggregator{u32(), {u8(), u8(), u8(), u8()}};
    case attr_type::kCommunities: {
      Communities c;
      c.values.resize(1 + count(4));
      for (auto& v : c.values) v = u32();
      return c;
    }
    case attr_type::kExtendedCommunities: {
      ExtendedCommunities c;
      c.values.resize(1 + count(4));
      for (auto& v : c.values) {
        for (auto& b : v.bytes) b = u8();
      }
      return c;
    }
    case attr_type::kMpReachNlri: {
      MpReachNlri m;
      const int kind = *rc::gen::inRange(0, 3);
      if (kind == 0) {
        m.family = {kAfiIpv6, 1};
        m.next_hop = Bytes(*rc::gen::element<std::size_t>(16, 32), 0x20);
        m.nlri = gen_prefixes(128, o.has_add_path(m.family), 4);
      } else if (kind == 1) {
        m.family = {kAfiIpv4, 1};
        m.next_hop = {10, 0, 0, u8()};
        m.nlri = gen_prefixes(32, o.has_add_path(m.family), 4);
      } else {
        m.family = {25, 70};  // L2VPN EVPN: kept raw
        m.next_hop = raw_bytes(8);
        m.raw_nlri = raw_bytes(20);
      }
      return m;
    }
    case attr_type::kMpUnreachNlri: {
      MpUnreachNlri m;
      if (*rc::gen::arbitrary<bool>()) {
        m.family = {kAfiIpv6, 1};
        m.withdrawn = gen_prefixes(128, o.has_add_path(m.family), 4);
      } else {
        m.family = {kAfiIpv4, 128};  // VPNv4: kept raw
        m.raw_withdrawn = raw_bytes(20);
      }
      return m;
    }
  }
  return RawAttribute{raw_bytes(300)};
}

inline Update gen_update(const SessionCodecOptions& o) {
  Update u;
  const bool ap4 = o.has_add_path({kAfiIpv4, 1});
  u.withdrawn = gen_prefixes(32, ap4, 4);
  u.nlri = gen_prefixes(32, ap4, 4);
  // Distinct type codes: known ones in wire order, then unknown optional.
  std::vector<std::uint8_t> types;
  for (const AttributeSpec& s : attribute_registry()) {
    if (*rc::gen::arbitrary<bool>()) types.push_back(s.type);
  }
  // The mandatory ones whenever NLRI are announced, so no error is expected.
  for (std::uint8_t t :
       {attr_type::kOrigin, attr_type::kAsPath, attr_type::kNextHop}) {
    if (std::find(types.begin(), types.end(), t) == types.end()) {
      types.push_back(t);
    }
  }
  for (std::uint8_t t : {std::uint8_t{99}, std::uint8_t{200}}) {
    if (*rc::gen::arbitrary<bool>()) types.push_back(t);
  }
  for (std::uint8_t t : types) {
    PathAttribute a = make_attribute(t, gen_value(t, o));
    if (!find_attribute_spec(t)) {
      a.flags = *rc::gen::element<std::uint8_t>(0x80, 0xc0, 0xe0);
    }
    if (*rc::gen::arbitrary<bool>()) a.flags |= attr_flag::kExtendedLength;
    // Serialization sets Extended Length itself for long values.
    if (encoded_size(a, o) > 3 + 255) a.flags |= attr_flag::kExtendedLength;
    u.attributes.push_back(std::move(a));
  }
  return u;
}

inline Capability gen_capability() {
  switch (*rc::gen::inRange(0, 7)) {
    case 0:
      return {1, MultiprotocolCapability{{u16(), u8()}, u8()}};
    case 1:
      return {2, RouteRefreshCapability{}};
    case 2:
      return {6, ExtendedMessageCapability{}};
    case 3:
      return {65, FourOctetAsCapability{u32()}};
    case 4: {
      AddPathCapability c;
      c.entries.resize(count(3));
      for (auto& e : c.entries) e = {{u16(), u8()}, u8()};
      return {69, c};
    }
    case 5: {
      GracefulRestartCapability c;
      c.flags = u8() & 0x0f;
      c.restart_time = u16() & 0x0fff;
      c.entries.resize(count(3));
      for (auto& e : c.entries) e = {{u16(), u8()}, u8()};
      return {64, c};
    }
  }
  return {*rc::gen::element<std::uint8_t>(5, 70, 73, 128, 200),
          RawCapability{raw_bytes(10)}};
}

inline Open gen_open() {
  Open o;
  o.my_as = u16();
  o.hold_time = *rc::gen::element<std::uint16_t>(0, 3, 90, 180, 65535);
  o.identifier = {u8(), u8(), u8(), static_cast<std::uint8_t>(1 + u8() % 255)};
  o.extended_parameters = *rc::gen::arbitrary<bool>();
  o.parameters.resize(count(3));
  for (auto& p : o.parameters) {
    if (*rc::gen::arbitrary<bool>()) {
      p.type = kParamCapabilities;
      p.capabilities.resize(count(4));
      for (auto& c : p.capabilities) c = gen_capability();
    } else {
      p.type = *rc::gen::element<std::uint8_t>(1, 3, 100);
      p.raw = raw_bytes(12);
    }
  }
  return o;
}

}  // namespace arfabric::wire::bgp::testing
