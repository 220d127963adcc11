// Engines of the draft's example topologies, wired by real encoded bytes.
#pragma once

#include <gtest/gtest.h>

#include "proto/arn/arn_engine.h"
#include "wire/arn/arn_transport.h"

namespace arfabric::proto::arn::testing {

inline ArnEngine make(ArnConfig c) {
  auto e = ArnEngine::create(std::move(c));
  EXPECT_TRUE(e) << e.error().to_string();
  return std::move(*e);
}

// Figure 3: spine1 (ports 0 -> leaf1, 1 -> leaf2); leaf1 (ports 0 ->
// spine1, 1 -> spine2). leaf2 owns 10.0.2.0/24 and is node 2 at leaf1.
inline constexpr NodeId kLeaf2 = 2;
inline constexpr wire::Ipv4Address kLeaf1Addr = {10, 0, 1, 1};
inline constexpr wire::Ipv4Address kLeaf2Addr = {10, 0, 2, 1};

inline ArnConfig spine1_config() {
  ArnConfig c;
  c.node_id = 101;
  c.port_count = 2;
  c.router_address = {10, 255, 0, 1};
  c.monitored = {{.port = 1, .affected = {kLeaf2Addr}}};
  c.targets = {{.port = 0, .address = kLeaf1Addr}};
  return c;
}

inline ArnConfig leaf1_config() {
  ArnConfig c;
  c.node_id = 1;
  c.port_count = 3;
  c.router_address = kLeaf1Addr;
  c.destinations = {
      {.prefix = wire::Ipv4Address{10, 0, 2, 0}, .length = 24, .node = kLeaf2},
      {.prefix = wire::Ipv4Address{10, 0, 0, 0}, .length = 16, .node = 999}};
  return c;
}

inline wire::arn::ArnMessage parse_udp(const Transmit& t) {
  auto d = wire::arn::parse_ipv4_udp(t.bytes);
  EXPECT_TRUE(d) << d.error().to_string();
  EXPECT_TRUE(d->ip_checksum_valid);
  EXPECT_TRUE(d->udp_checksum_valid);
  EXPECT_EQ(d->ip.dscp, wire::arn::kDefaultDscp);  // high priority
  return d->message;
}

// Delivers every frame `from` has queued for `port` to `to`'s `arrival`.
inline std::size_t deliver(ArnEngine& from, PortId port, ArnEngine& to,
                           PortId arrival, Time now) {
  std::size_t n = 0;
  for (const Transmit& t : from.drain().transmits) {
    if (t.port != port) continue;
    to.on_message(arrival, t.bytes, now);
    ++n;
  }
  return n;
}

}  // namespace arfabric::proto::arn::testing
