// libFuzzer target: one LSN engine (proto::lsn::Engine) driven by a
// hostile sequence of inputs. The input is a list of operations, each a
// byte naming it followed by its arguments: frames as raw bytes or built
// from fuzzed fields and encoded (so that most parse and reach the
// receiver's overlay), port state and queue depth changes, transit
// reachability, and time passing with on_timer() at each deadline. The
// node attaches some devices, is transit for the rest, and has an
// untrusted port; the fabric spans two Dev-Ranges, so frames beyond it are
// dropped.
// Invariants: no crash, sanitizer report or leak; every frame received is
// counted once (applied, or dropped or malformed by reason); every record
// names a configured port and a device of the fabric; after
// on_timer(now) the next deadline is later than now.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "operation_reader.h"
#include "proto/lsn/lsn_engine.h"
#include "wire/lsn/lsn_frame.h"

using namespace arfabric;
using namespace arfabric::proto;
using namespace arfabric::proto::lsn;
namespace wl = arfabric::wire::lsn;

namespace {

constexpr PortId kPorts = 4;  // 0..2 trusted, 3 untrusted
constexpr std::uint32_t kDevices = 300;

Config config() {
  Config c;
  c.node_mac = {0x02, 0, 0, 0, 0, 7};
  for (PortId p = 0; p < kPorts; ++p)
    c.ports.push_back(
        {.id = p, .role = p == 3 ? PortRole::untrusted : PortRole::trusted});
  c.num_devices = kDevices;
  c.attached = {
      {.node = 1, .port = 0}, {.node = 2, .port = 1}, {.node = 260, .port = 2}};
  c.transit = true;
  c.period = us(10);
  c.congestion = {.rise = {1000, 2000, 4000}, .fall = {500, 1000, 2000}};
  return c;
}

bool valid(PortId port, NodeId node) {
  return port < kPorts && node < kDevices;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  auto created = Engine::create(config());
  if (!created) __builtin_trap();
  Engine& engine = *created;
  OperationReader in(data, size);
  Time now = us(1);
  while (!in.done()) {
    const std::uint8_t op = in.byte();
    const PortId port = static_cast<PortId>(in.byte() % kPorts);
    switch (op % 6) {
      case 0:  // a raw frame
        engine.on_frame(port, in.bytes(in.byte()), now);
        break;
      case 1: {  // an encoded frame of fuzzed fields
        wl::LsnFrame f;
        f.source = {0x02, 0, 0, 0, 0, in.byte()};
        f.msg_type = static_cast<wl::MsgType>(in.byte() % 4);
        f.dev_range = static_cast<std::uint8_t>(in.byte() % 4);
        f.bitmap.fill(true);
        // Up to four runs of cleared bits, each from a start and a length.
        for (int run = in.byte() % 5; run > 0; --run) {
          const std::size_t start = in.byte();
          const std::size_t length = in.byte() % 32;
          for (std::size_t b = start; b < start + length && b < 256; ++b)
            f.bitmap.set(b, false);
        }
        ByteWriter w;
        if (wl::serialize(f, w)) engine.on_frame(port, w.data(), now);
        break;
      }
      case 2:
        (void)engine.set_port_state(port, in.byte() & 1, now);
        break;
      case 3:
        (void)engine.set_queue_depth(port, std::uint64_t{in.byte()} * 32, now);
        break;
      case 4: {
        const NodeId node = (NodeId{in.byte()} << 1 | (in.byte() & 1)) % 400;
        (void)engine.set_transit_reachable(node, in.byte() & 1, now);
        break;
      }
      case 5: {  // time passes, with every deadline on the way
        const Time until = now + ns(std::int64_t{in.byte()} * 100);
        while (engine.next_deadline() <= until) {
          now = std::max(now, engine.next_deadline());
          engine.on_timer(now);
          if (engine.next_deadline() <= now) __builtin_trap();
          engine.clear_pending_frames();
        }
        now = until;
        break;
      }
    }
    for (const VetoChange& v : engine.veto_changes())
      if (!valid(v.port, v.destination)) __builtin_trap();
    for (const CongestionChange& c : engine.congestion_changes())
      if (!valid(c.port, c.destination) || c.level > 3) __builtin_trap();
    engine.clear_changes();
    engine.clear_pending_frames();
  }
  const ReceiverCounters& c = engine.receiver().counters();
  if (c.received != c.applied + c.dropped_untrusted + c.dropped_unknown_port +
                        c.dropped_range + c.malformed())
    __builtin_trap();
  return 0;
}
