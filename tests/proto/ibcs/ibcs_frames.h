// Frames for the SUF engine tests, built with the wire encoders.
#pragma once

#include "common/bytes.h"
#include "proto/fib/forwarding_types.h"
#include "wire/ibcs/csig_tag.h"
#include "wire/ibcs/frames.h"

namespace arfabric::testing {

// Inserts a CSIG tag after the MAC addresses of an untagged frame.
inline Bytes with_csig(const Bytes& frame, const wire::ibcs::CsigTag& tag) {
  ByteWriter w;
  w.bytes(ByteSpan(frame).first(12));
  (void)wire::ibcs::serialize(tag, w);
  w.bytes(ByteSpan(frame).subspan(12));
  return w.take();
}

inline Bytes udp_shim_frame(std::uint32_t metric, std::uint8_t type = 0,
                            bool zero_checksum = false) {
  const Bytes payload = shim_bytes({.signal_type = type, .metric = metric},
                                   Bytes{'d', 'a', 't', 'a'});
  return ipv4_udp_frame({}, wire::ibcs::kDefaultIbcsUdpPort, payload,
                        {10, 0, 0, 1}, {10, 0, 0, 2}, zero_checksum);
}

inline Bytes hpcc_frame(std::uint32_t utilisation) {
  return ipv4_udp_frame(hpcc_option_bytes({.max_utilisation = utilisation}),
                        4791, Bytes{1, 2, 3, 4, 5, 6, 7, 8});
}

inline Bytes csig_udp_frame(std::uint8_t value, std::uint8_t type = 0) {
  return with_csig(ipv4_udp_frame({}, 4791, Bytes(20, 0xab)),
                   {.signal_type = type, .signal_value = value});
}

// A stand-in for the FIB's ECMP hash: FNV-1a over the 5-tuple.
inline std::uint64_t flow_hash(const proto::FlowKey& k) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint8_t b) { h = (h ^ b) * 1099511628211ull; };
  for (auto b : k.source) mix(b);
  for (auto b : k.destination) mix(b);
  mix(static_cast<std::uint8_t>(k.source_port >> 8));
  mix(static_cast<std::uint8_t>(k.source_port));
  mix(static_cast<std::uint8_t>(k.destination_port >> 8));
  mix(static_cast<std::uint8_t>(k.destination_port));
  mix(k.protocol);
  return h;
}

}  // namespace arfabric::testing
