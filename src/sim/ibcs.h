// In-band congestion signalling in the simulator
// (draft-tian-ccwg-ibcs-datapath-processing-00, CSIG compact tag binding).
//
// Data packets are light structs, so a packet's signal travels as a number
// (TransportHeader::signal, the tag's 5-bit S field). At every switch the
// number goes through the real engine: the switch's
// proto::ibcs::SignalUpdateFunction runs its rules on it
// (process_ingress_value at a leaf's host-facing port,
// process_egress_value at every switch egress), given the field as
// wire::ibcs::locate finds it in a frame with a CSIG tag of the configured
// signal type (located once, at creation). The network calls it after the
// flow hash and the FIB choice (sim/network.h HeaderProcessor), so the
// update cannot steer the packet (IBCS §5.2).
//
// L_Metric (IBCS §5.3, §7.1): each switch egress port feeds its LocalMetric
// a sample when a packet leaves and the last sample is at least
// `sample_interval` old; the sample is the configured CSIG signal of that
// port right then, quantized to the tag's 32 buckets:
//   abw    available bandwidth rate * (1 - u) in `bandwidth_step` buckets
//   abw_c  available fraction 31 * (1 - u)
//   delay  queueing delay (bytes queued / rate) in `delay_step` buckets
//   nqd    queue depth / buffer, 31 * q / B
// with u the link's busy fraction since the previous sample (serialisation
// time queued over elapsed time, at most 1). Bucket 31 is the top: for the
// MIN signals (abw, abw_c) it is also UNINITIALIZED, "at least this much".
//
// Roles (IBCS §4): a leaf's host-facing ports are untrusted ingress when
// `scrub_host_ingress` (a host's value is reset to UNINITIALIZED before the
// first SUF); every other port is transit. No port is an egress edge: the
// hosts are the two ends of the congestion-control loop, inside the
// domain, and the simulated fabric has no outside.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "proto/ibcs/suf.h"
#include "sim/network.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim {

class IbcsSwitches : public HeaderProcessor {
 public:
  // One SUF per switch of `network`. Errors: the engine's configuration
  // errors (e.g. "rules[0].metric.window: must be positive"), prefixed
  // "ibcs."; "ibcs.signal: not a CSIG signal type"; and, were the codec
  // to refuse the tag it is given, "ibcs: the CSIG tag cannot be written:
  // ..." or "ibcs: the CSIG tag is not found: ...".
  static std::expected<std::unique_ptr<IbcsSwitches>, std::string> create(
      Network& network, const IbcsParams& params);

  void on_host_ingress(LinkIndex l, Packet& packet, Time now) override;
  void on_egress(LinkIndex l, Packet& packet, Time now) override;

  // What hosts write into a new packet: the signal's UNINITIALIZED value.
  std::uint32_t uninitialized() const { return uninitialized_; }
  // The engines' counters, summed over switches.
  proto::ibcs::Counters counters() const;

 private:
  static constexpr std::uint32_t kNone = 0xffffffff;

  IbcsSwitches(Network& network, const IbcsParams& params);
  // Feeds `engine`'s L_Metric of `port` (link l) a sample: on_egress()
  // calls it when the last one is sample_interval old.
  void sample(LinkIndex l, proto::ibcs::SignalUpdateFunction& engine,
              proto::PortId port, Time now);

  Network* network_;
  IbcsParams params_;
  std::uint8_t signal_type_ = 0;
  std::uint32_t uninitialized_ = 0;
  BitsPerSecond bandwidth_step_ = 1;
  std::vector<proto::ibcs::SignalUpdateFunction> engines_;  // by switch
  std::vector<std::uint32_t> engine_of_;  // by node; kNone: a host
  // By link: its busy counter (LinkCounters::busy) at its last sample.
  std::vector<Time> busy_at_sample_;
  wire::ibcs::SignalField field_;  // the CSIG tag's S field
};

}  // namespace arfabric::sim
