// libFuzzer target: the ARN engine (proto::arn::ArnEngine) driven by a
// hostile sequence of inputs. The input is a list of operations, each a
// byte naming it followed by its arguments: messages as raw bytes or
// built from fuzzed fields and encoded (so that most pass the checksums
// and reach the receiver's tables, relays and the per-target queues),
// link and queue measurements, set_flows(), set_next_hops(),
// set_local_alternatives(), set_refill_interval() (a target's bucket
// slowed or sped up, or 0 refused) and time passing with on_timer() at
// each deadline. Buckets, queues and the received-conditions table are
// small so that they fill.
// Invariants: no crash, sanitizer report or leak; after on_timer(now) the
// next deadline is later than now (a queue left with messages but no
// deadline, or a deadline that never moves, would break it); every
// message the engine counts as sent is one transmit it handed out.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "operation_reader.h"
#include "proto/arn/arn_engine.h"
#include "wire/arn/arn_transport.h"

using namespace arfabric;
using namespace arfabric::proto;
using namespace arfabric::proto::arn;
namespace wa = arfabric::wire::arn;

namespace {

constexpr PortId kPorts = 4;

IpAddress leaf_address(std::uint8_t leaf) {
  return wire::Ipv4Address{10, 0, static_cast<std::uint8_t>(leaf % 4), 1};
}

ArnConfig config() {
  ArnConfig c;
  c.node_id = 7;
  c.port_count = kPorts;
  c.router_address = {10, 255, 0, 7};
  c.monitored = {{.port = 1, .affected = {leaf_address(1), leaf_address(2)}},
                 {.port = 2, .affected = {leaf_address(3)}}};
  for (PortId p = 0; p < kPorts; ++p)
    c.targets.push_back({.port = p, .address = {10, 255, 0, std::uint8_t(p)}});
  c.repeat_interval = us(20);
  c.elimination_repeats = 2;
  c.bucket_capacity = 2;
  c.refill_interval = us(3);
  c.max_waiting_relays = 4;
  for (std::uint8_t leaf = 0; leaf < 4; ++leaf)
    c.destinations.push_back(
        {.prefix = leaf_address(leaf), .length = 24, .node = leaf});
  c.hold_time = us(50);
  c.max_entries = 8;
  return c;
}

wa::FiveTuple tuple(OperationReader& in) {
  wa::FiveTuple f;
  const std::uint8_t shape = in.byte();
  f.family = shape & 1 ? wa::AddressFamily::ipv6 : wa::AddressFamily::ipv4;
  f.mask = static_cast<std::uint8_t>(in.byte() & wa::kMaskAll);
  f.protocol = in.byte();
  f.destination = leaf_address(in.byte()).bytes;
  f.source[3] = in.byte();
  f.source_port = static_cast<std::uint16_t>(in.byte());
  f.destination_port = static_cast<std::uint16_t>(in.byte());
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  auto created = ArnEngine::create(config());
  if (!created) __builtin_trap();
  ArnEngine& engine = *created;
  OperationReader in(data, size);
  Time now = us(1);
  std::uint64_t transmits = 0;
  while (!in.done()) {
    const std::uint8_t op = in.byte();
    const PortId port = static_cast<PortId>(in.byte() % kPorts);
    switch (op % 9) {
      case 0:  // a raw packet
        engine.on_message(port, in.bytes(in.byte()), now);
        break;
      case 1: {  // an encoded message of fuzzed fields
        wa::ArnMessage m;
        m.type = static_cast<wa::ArnType>(1 + in.byte() % 4);
        m.metric = in.byte();
        const std::uint8_t present = in.byte();
        if (present & 1) m.path_id = in.u32();
        if (present & 2) m.flow = tuple(in);
        ByteWriter w;
        if (wa::serialize_ipv4_udp(m, {10, 9, 9, 9}, {10, 255, 0, 7}, {}, w))
          engine.on_message(port, w.data(), now);
        break;
      }
      case 2:
        engine.link_state(port, in.byte() & 1, now);
        break;
      case 3:
        engine.observe(port, std::uint64_t{in.byte()} << 12, in.byte() / 255.0,
                       now);
        break;
      case 4: {
        std::vector<wa::FiveTuple> flows(in.byte() % 4);
        for (wa::FiveTuple& f : flows) f = tuple(in);
        (void)engine.set_flows(port, flows, now);
        break;
      }
      case 5: {
        std::vector<PortId> ports;
        const std::uint8_t bits = in.byte();
        for (PortId p = 0; p < kPorts; ++p)
          if (bits >> p & 1) ports.push_back(p);
        engine.set_next_hops(in.byte() % 4, ports);
        break;
      }
      case 6:
        engine.set_local_alternatives(port, in.byte() & 1, now);
        break;
      case 7: {  // time passes, with every deadline on the way
        const Time until = now + ns(std::int64_t{in.byte()} * 250);
        while (engine.next_deadline() <= until) {
          now = std::max(now, engine.next_deadline());
          engine.on_timer(now);
          if (engine.next_deadline() <= now) __builtin_trap();
          transmits += engine.drain().transmits.size();
        }
        now = until;
        break;
      }
      case 8:
        (void)engine.set_refill_interval(
            port, ns(std::int64_t{in.byte()} * 100), now);
        break;
    }
    transmits += engine.drain().transmits.size();
  }
  if (engine.counters().sent != transmits) __builtin_trap();
  return 0;
}
