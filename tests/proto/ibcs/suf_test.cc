#include "proto/ibcs/suf.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "proto/ibcs/flow_key.h"
#include "proto/ibcs/ibcs_frames.h"
#include "wire/ibcs/signal_field.h"
#include "wire/inet/udp.h"

namespace arfabric::proto::ibcs {
namespace {

using testing::csig_udp_frame;
using testing::full_ipv4_checksum;
using testing::full_udp_checksum;
using testing::get16;
using testing::hpcc_frame;
using testing::kIpOffset;
using testing::udp_shim_frame;
using wire::ibcs::Binding;
using wire::ibcs::ExtremumOp;

// Ports: 0 and 3 transit (fabric), 1 host-facing (untrusted ingress and
// egress edge), 2 egress edge toward a peering domain.
constexpr PortId kTransit = 0;
constexpr PortId kHost = 1;
constexpr PortId kPeer = 2;

SufConfig config() {
  SufConfig c;
  c.rules = {{.binding = Binding::csig_l2},
             {.binding = Binding::hpcc_int},
             {.binding = Binding::ipv4_udp}};
  c.ports.resize(4);
  c.ports[kHost] = {.untrusted_ingress = true, .egress_edge = true};
  c.ports[kPeer] = {.egress_edge = true, .peering = true};
  return c;
}

constexpr std::size_t kCsig = 0, kHpcc = 1, kUdp = 2;

SignalUpdateFunction engine(SufConfig c = config()) {
  auto e = SignalUpdateFunction::create(std::move(c));
  EXPECT_TRUE(e) << e.error().to_string();
  return std::move(*e);
}

std::uint32_t metric(Binding b, const Bytes& frame) {
  auto f = wire::ibcs::locate(b, frame);
  EXPECT_TRUE(f) << f.error().to_string();
  return *wire::ibcs::read_metric(frame, *f);
}

// A well-formed IPv4/UDP frame's checksums, recomputed from scratch.
void expect_checksums_full(const Bytes& frame) {
  EXPECT_EQ(get16(frame, kIpOffset + 10), full_ipv4_checksum(frame));
  const std::size_t ihl = (frame[kIpOffset] & 0x0f) * 4u;
  const std::size_t udp = kIpOffset + ihl;
  if (get16(frame, udp + 6) != 0) {
    EXPECT_EQ(get16(frame, udp + 6), full_udp_checksum(frame));
  }
  auto ip = wire::parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
  ASSERT_TRUE(ip);
  EXPECT_TRUE(ip->checksum_valid);
  EXPECT_TRUE(wire::udp_checksum_valid(ip->header, ip->payload));
}

TEST(Suf, Rule1UninitializedTakesLocalMetric) {
  auto e = engine();
  e.record_sample(kTransit, kCsig, 12, us(1));
  Bytes frame = csig_udp_frame(31);  // 31 = UNINITIALIZED for ABW (MIN)
  const Result r = e.process_egress(frame, kTransit, us(2));
  EXPECT_EQ(r.action, Action::rewritten);
  EXPECT_EQ(r.new_length, frame.size());
  EXPECT_EQ(metric(Binding::csig_l2, frame), 12u);

  // MAX signal: UNINITIALIZED is 0, and Rule 1 writes even L = 0x100.
  e.record_sample(kTransit, kHpcc, 0x100, us(1));
  frame = hpcc_frame(0);
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::hpcc_int, frame), 0x100u);
  expect_checksums_full(frame);
}

TEST(Suf, Rule2MinReplacesOnlyATighterBottleneck) {
  auto e = engine();
  e.record_sample(kTransit, kUdp, 400, us(1));  // 400 Mb/s spare here
  Bytes frame = udp_shim_frame(1000);
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 400u);
  expect_checksums_full(frame);

  // Rule 3: the packet already saw 300 Mb/s, tighter than 400.
  frame = udp_shim_frame(300);
  const Bytes before = frame;
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::unchanged);
  EXPECT_EQ(frame, before);
  EXPECT_EQ(e.counters().rewritten, 1u);
  EXPECT_EQ(e.counters().unchanged, 1u);
}

TEST(Suf, Rule2MaxReplacesOnlyAHigherUtilisation) {
  auto e = engine();
  e.record_sample(kTransit, kHpcc, 0x8000, us(1));  // 50 %
  Bytes frame = hpcc_frame(0x4000);                 // 25 % so far
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::hpcc_int, frame), 0x8000u);
  expect_checksums_full(frame);

  frame = hpcc_frame(0x9000);  // 56 % upstream: keep it
  const Bytes before = frame;
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::unchanged);
  EXPECT_EQ(frame, before);
}

TEST(Suf, OperatorFromConfigurationOverridesMetadata) {
  SufConfig c = config();
  c.rules[kCsig].op = ExtremumOp::max;  // ABW metadata says MIN
  auto e = engine(c);
  e.record_sample(kTransit, kCsig, 20, us(1));
  Bytes frame = csig_udp_frame(10);
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::csig_l2, frame), 20u);
}

TEST(Suf, LocalMetricIsClampedToTheField) {
  auto e = engine();
  e.record_sample(kTransit, kCsig, 1000, us(1));  // over the 5-bit bucket
  Bytes frame = csig_udp_frame(31);
  e.process_egress(frame, kTransit, us(2));
  EXPECT_EQ(metric(Binding::csig_l2, frame), 31u);
}

TEST(Suf, FailOpenWithoutSampleWhenStaleAndForUnmeasuredSignal) {
  auto e = engine();  // max_age 100 us
  Bytes frame = udp_shim_frame(1000);
  const Bytes before = frame;
  EXPECT_EQ(e.process_egress(frame, kTransit, us(1)).action, Action::fail_open);
  EXPECT_EQ(frame, before);

  e.record_sample(kTransit, kUdp, 10, us(0));
  EXPECT_EQ(e.process_egress(frame, kTransit, us(101)).action,
            Action::fail_open);  // 101 us > max_age
  EXPECT_EQ(frame, before);
  EXPECT_EQ(e.counters().fail_open, 2u);

  // Another port's sample does not help.
  e.record_sample(kTransit + 3, kUdp, 10, us(100));
  EXPECT_EQ(e.process_egress(frame, kTransit, us(101)).action,
            Action::fail_open);

  // Signal type 1 (utilisation) is not what this node measures (type 0).
  Bytes other = udp_shim_frame(5, /*type=*/1);
  EXPECT_EQ(e.process_egress(other, kTransit, us(50)).action,
            Action::fail_open);
  EXPECT_EQ(e.counters().fail_open, 4u);

  // Fresh again.
  EXPECT_EQ(e.process_egress(frame, kTransit, us(100)).action,
            Action::rewritten);
}

TEST(Suf, LastSampleIsPerPortAndRule) {
  auto e = engine();
  EXPECT_EQ(e.last_sample(kTransit, kCsig), std::nullopt);  // none yet
  e.record_sample(kTransit, kCsig, 12, us(3));
  EXPECT_EQ(e.last_sample(kTransit, kCsig), us(3));
  EXPECT_EQ(e.last_sample(kTransit), us(3));                    // rule 0
  EXPECT_EQ(e.last_sample(kTransit, kHpcc), std::nullopt);      // another rule
  EXPECT_EQ(e.last_sample(kTransit + 3, kCsig), std::nullopt);  // port
  // An older sample is folded in as if it came at the newest's time.
  e.record_sample(kTransit, kCsig, 14, us(2));
  EXPECT_EQ(e.last_sample(kTransit, kCsig), us(3));
  e.record_sample(kTransit, kCsig, 14, us(7));
  EXPECT_EQ(e.last_sample(kTransit, kCsig), us(7));
  // Out of range: nothing, and nothing counted.
  EXPECT_EQ(e.last_sample(4, kCsig), std::nullopt);
  EXPECT_EQ(e.last_sample(kTransit, 3), std::nullopt);
  EXPECT_EQ(e.counters().bad_port, 0u);
}

// sampled_after(port, t, rule) says whether last_sample(port, rule) is
// after t, without an optional: false before the first sample and out of
// range.
TEST(Suf, SampledAfterComparesTheLastSample) {
  auto e = engine();
  EXPECT_FALSE(e.sampled_after(kTransit, us(-1), kCsig));  // none yet
  e.record_sample(kTransit, kCsig, 12, us(3));
  EXPECT_TRUE(e.sampled_after(kTransit, us(2), kCsig));
  EXPECT_FALSE(e.sampled_after(kTransit, us(3), kCsig));  // not after itself
  EXPECT_FALSE(e.sampled_after(kTransit, us(4), kCsig));
  EXPECT_TRUE(e.sampled_after(kTransit, us(2)));              // rule 0
  EXPECT_FALSE(e.sampled_after(kTransit, us(2), kHpcc));      // another rule
  EXPECT_FALSE(e.sampled_after(kTransit + 3, us(2), kCsig));  // port
  EXPECT_FALSE(e.sampled_after(4, us(2), kCsig));             // out of range
  // Rule 3 is out of range even though kTransit's "rule 3" would be the
  // slot of kHost's rule 0, which has a sample.
  e.record_sample(kHost, kCsig, 1, us(3));
  EXPECT_FALSE(e.sampled_after(kTransit, us(2), 3));
  EXPECT_EQ(e.counters().bad_port, 0u);
}

TEST(Suf, AbsentFieldBypasses) {
  auto e = engine();
  e.record_sample(kTransit, kUdp, 10, us(0));
  Bytes frame = testing::ipv4_udp_frame({}, 4791, Bytes{1, 2, 3});
  const Bytes before = frame;
  EXPECT_EQ(e.process_egress(frame, kTransit, us(1)).action, Action::none);
  EXPECT_EQ(e.process_ingress(frame, kHost, us(1)).action, Action::none);
  EXPECT_EQ(e.process_egress(frame, kHost, us(1)).action, Action::none);
  EXPECT_EQ(frame, before);
  EXPECT_EQ(e.counters().absent, 3u);
}

TEST(Roles, IngressEdgeScrubsEveryFieldBeforeTheSuf) {
  auto e = engine();
  // A host claims a tiny available bandwidth and a huge utilisation.
  Bytes frame = testing::with_csig(
      testing::ipv4_udp_frame(
          testing::hpcc_option_bytes({.max_utilisation = 0xfffff}),
          wire::ibcs::kDefaultIbcsUdpPort, testing::shim_bytes({.metric = 1})),
      {.signal_value = 0});
  const Result r = e.process_ingress(frame, kHost, us(1));
  EXPECT_EQ(r.action, Action::scrubbed);
  EXPECT_EQ(e.counters().scrubbed, 3u);
  EXPECT_EQ(metric(Binding::csig_l2, frame), 31u);
  EXPECT_EQ(metric(Binding::hpcc_int, frame), 0u);
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 0xffffffffu);

  // The first local evaluation then writes this node's metrics (Rule 1).
  e.record_sample(kTransit, kCsig, 20, us(1));
  e.record_sample(kTransit, kHpcc, 0x2000, us(1));
  e.record_sample(kTransit, kUdp, 9000, us(1));
  EXPECT_EQ(e.process_egress(frame, kTransit, us(2)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::csig_l2, frame), 20u);
  EXPECT_EQ(metric(Binding::hpcc_int, frame), 0x2000u);
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 9000u);
  EXPECT_EQ(e.counters().rewritten, 3u);
}

TEST(Roles, TransitNeverResets) {
  auto e = engine();
  Bytes frame = udp_shim_frame(1);
  const Bytes before = frame;
  EXPECT_EQ(e.process_ingress(frame, kTransit, us(1)).action, Action::none);
  // Without a tighter local value the SUF leaves it too.
  e.record_sample(kTransit, kUdp, 50, us(1));
  EXPECT_EQ(e.process_egress(frame, kTransit, us(1)).action, Action::unchanged);
  EXPECT_EQ(frame, before);
  EXPECT_EQ(e.counters().scrubbed, 0u);
}

TEST(Roles, EgressEdgeStripsCsigTag) {
  auto e = engine();
  const Bytes inner = testing::ipv4_udp_frame({}, 4791, Bytes(20, 0xab));
  Bytes frame = testing::with_csig(inner, {.signal_value = 7});
  const Result r = e.process_egress(frame, kHost, us(1));
  EXPECT_EQ(r.action, Action::stripped);
  EXPECT_EQ(r.new_length, inner.size());  // 4 bytes shorter
  EXPECT_EQ(Bytes(frame.begin(), frame.begin() + r.new_length), inner);
  EXPECT_EQ(e.counters().stripped, 1u);
}

TEST(Roles, EgressEdgeZeroesHpccAndUninitializesShim) {
  auto e = engine();
  Bytes frame = hpcc_frame(0x7777);
  Result r = e.process_egress(frame, kHost, us(1));
  EXPECT_EQ(r.action, Action::zeroed);
  EXPECT_EQ(r.new_length, frame.size());
  EXPECT_EQ(metric(Binding::hpcc_int, frame), 0u);
  expect_checksums_full(frame);

  frame = udp_shim_frame(1234);
  e.process_egress(frame, kHost, us(1));
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 0xffffffffu);
  expect_checksums_full(frame);

  SufConfig c = config();
  c.rules[kUdp].edge_action = EdgeAction::zero;
  auto z = engine(c);
  frame = udp_shim_frame(1234);
  z.process_egress(frame, kHost, us(1));
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 0u);
  expect_checksums_full(frame);
}

TEST(Roles, EgressEdgeWithPeeringRunsTheSuf) {
  auto e = engine();
  e.record_sample(kPeer, kUdp, 70, us(1));
  Bytes frame = udp_shim_frame(1234);
  EXPECT_EQ(e.process_egress(frame, kPeer, us(1)).action, Action::rewritten);
  EXPECT_EQ(metric(Binding::ipv4_udp, frame), 70u);
}

TEST(Roles, UnknownPortIsCountedAndTreatedSafely) {
  auto e = engine();
  Bytes frame = udp_shim_frame(1);
  EXPECT_EQ(e.process_ingress(frame, 9, us(1)).action, Action::scrubbed);
  EXPECT_EQ(e.process_egress(frame, 9, us(1)).action, Action::none);
  EXPECT_FALSE(e.record_sample(9, 5, us(1)));
  EXPECT_FALSE(e.record_sample(0, 3, 5, us(1)));
  EXPECT_EQ(e.counters().bad_port, 4u);
}

// §5.2: the ECMP hash is taken before the SUF and the SUF never touches the
// 5-tuple, so the hash of the frame after the update is the same.
TEST(Phase2, HashUnchangedByTheUpdate) {
  auto e = engine();
  e.record_sample(kTransit, kCsig, 3, us(0));
  e.record_sample(kTransit, kHpcc, 0x10000, us(0));
  e.record_sample(kTransit, kUdp, 5, us(0));
  std::vector<Bytes> frames = {udp_shim_frame(1000), hpcc_frame(0),
                               csig_udp_frame(31)};
  for (Bytes& frame : frames) {
    const auto before = extract_flow_key(frame);
    ASSERT_TRUE(before);
    const std::uint64_t hash = testing::flow_hash(*before);
    const Bytes original = frame;
    EXPECT_EQ(e.process_egress(frame, kTransit, us(1)).action,
              Action::rewritten);
    EXPECT_NE(frame, original);
    const auto after = extract_flow_key(frame);
    ASSERT_TRUE(after);
    EXPECT_EQ(*after, *before);
    EXPECT_EQ(testing::flow_hash(*after), hash);
  }
  // Stripping the tag at an egress edge keeps the 5-tuple too.
  Bytes frame = csig_udp_frame(4);
  const auto before = extract_flow_key(frame);
  const Result r = e.process_egress(frame, kHost, us(1));
  ASSERT_EQ(r.action, Action::stripped);
  EXPECT_EQ(extract_flow_key(ByteSpan(frame).first(r.new_length)), before);
}

// Any P, L and operator: the shim ends up holding the operator's extremum
// (or L when P was UNINITIALIZED), with a UDP checksum equal to a full
// recomputation.
RC_GTEST_PROP(SufProperty, ShimFollowsTheRulesAndChecksumMatches,
              (std::uint32_t p, std::uint32_t l, bool max_op)) {
  SufConfig c = config();
  c.rules[kUdp].op = max_op ? ExtremumOp::max : ExtremumOp::min;
  auto e = SignalUpdateFunction::create(c);
  RC_ASSERT(e.has_value());
  e->record_sample(kTransit, kUdp, l, us(0));
  Bytes frame = udp_shim_frame(p);
  e->process_egress(frame, kTransit, us(1));
  const std::uint32_t want = p == 0xffffffffu ? l
                             : max_op         ? std::max(p, l)
                                              : std::min(p, l);
  RC_ASSERT(metric(Binding::ipv4_udp, frame) == want);
  RC_ASSERT(get16(frame, kIpOffset + 26) == full_udp_checksum(frame));
}

// The value path is the frame path: for any binding, signal type,
// P_Metric, L_Metric, operator, edge action, port (transit, host-facing,
// peering, outside the table), direction and sample age, a field held as
// a number ends as the frame's field ends, with the same Action and
// counters. Each frame holds the one field of its binding, as the value
// path's caller has.
RC_GTEST_PROP(SufProperty, ValuePathMatchesTheFramePath, ()) {
  const auto rule = *rc::gen::inRange<std::size_t>(kCsig, kUdp + 1);
  // One unassigned type each for CSIG (0..3) and the UDP shim (0..1).
  const auto type = *rc::gen::inRange<std::uint8_t>(0, rule == kCsig ? 5 : 3);
  const auto p = *rc::gen::arbitrary<std::uint32_t>();
  Bytes frame = rule == kCsig   ? csig_udp_frame(p % 32, type)
                : rule == kHpcc ? hpcc_frame(p)
                                : udp_shim_frame(p, type);
  const Binding binding = config().rules[rule].binding;
  const auto field = wire::ibcs::locate(binding, frame);
  RC_PRE(field.has_value());  // an unassigned type: no field to hold
  // P_Metric: UNINITIALIZED half of the time, so that Rule 1 is met.
  std::uint32_t value = *rc::gen::arbitrary<bool>()
                            ? field->uninitialized
                            : *wire::ibcs::read_metric(frame, *field);
  RC_ASSERT(wire::ibcs::rewrite_metric(frame, *field, value).has_value());

  SufConfig c = config();
  // The type this node measures: the field's half of the time.
  c.rules[rule].signal_type = *rc::gen::arbitrary<bool>()
                                  ? field->signal_type
                                  : *rc::gen::inRange<std::uint8_t>(0, 4);
  const auto op = *rc::gen::inRange(0, 3);
  if (op != 0) c.rules[rule].op = op == 1 ? ExtremumOp::min : ExtremumOp::max;
  const auto edge = *rc::gen::inRange(rule == kCsig ? 0 : 1, 4);
  if (edge != 3) {  // 3: the binding's default
    c.rules[rule].edge_action = edge == 0   ? EdgeAction::strip
                                : edge == 1 ? EdgeAction::zero
                                            : EdgeAction::uninitialize;
  }
  auto by_frame = SignalUpdateFunction::create(c);
  auto by_value = SignalUpdateFunction::create(c);
  RC_ASSERT(by_frame.has_value() && by_value.has_value());
  const auto port = *rc::gen::inRange<PortId>(0, 5);  // 4: outside
  if (*rc::gen::arbitrary<bool>()) {
    const auto l = *rc::gen::arbitrary<std::uint32_t>();
    by_frame->record_sample(port, rule, l, us(0));
    by_value->record_sample(port, rule, l, us(0));
  }
  const Time now = *rc::gen::arbitrary<bool>() ? us(1) : us(101);  // stale
  const std::uint32_t before = value;
  Result by_frame_result;
  Action by_value_action;
  if (*rc::gen::arbitrary<bool>()) {
    by_frame_result = by_frame->process_ingress(frame, port, now);
    by_value_action = by_value->process_ingress_value(*field, value, port, now);
  } else {
    by_frame_result = by_frame->process_egress(frame, port, now);
    by_value_action = by_value->process_egress_value(*field, value, port, now);
  }
  RC_ASSERT(by_value_action == by_frame_result.action);
  RC_ASSERT(by_value->counters() == by_frame->counters());
  if (by_value_action == Action::stripped) {
    RC_ASSERT(value == before);  // the caller drops the field
  } else {
    RC_ASSERT(*wire::ibcs::read_metric(frame, *field) == value);
  }
}

// A number the field cannot hold is a malformed field: left alone, counted
// absent, whatever the port.
TEST(SufValue, ValueOutsideTheFieldBypasses) {
  auto e = engine();
  e.record_sample(kTransit, kCsig, 3, us(0));
  const Bytes frame = csig_udp_frame(31);
  const auto field = wire::ibcs::locate(Binding::csig_l2, frame);
  ASSERT_TRUE(field);
  std::uint32_t value = 32;  // the S field has 5 bits
  EXPECT_EQ(e.process_egress_value(*field, value, kTransit, us(1)),
            Action::none);
  EXPECT_EQ(e.process_ingress_value(*field, value, kHost, us(1)), Action::none);
  EXPECT_EQ(e.process_egress_value(*field, value, kHost, us(1)), Action::none);
  EXPECT_EQ(value, 32u);
  EXPECT_EQ(e.counters().absent, 3u);
  EXPECT_EQ(e.counters().rewritten + e.counters().scrubbed, 0u);

  value = 31;  // UNINITIALIZED: Rule 1
  EXPECT_EQ(e.process_egress_value(*field, value, kTransit, us(1)),
            Action::rewritten);
  EXPECT_EQ(value, 3u);
}

TEST(SufCounters, AddFieldByField) {
  Counters a{1, 2, 3, 4, 5, 6, 7, 8};
  const Counters b{10, 20, 30, 40, 50, 60, 70, 80};
  a += b;
  EXPECT_EQ(a, (Counters{11, 22, 33, 44, 55, 66, 77, 88}));
}

}  // namespace
}  // namespace arfabric::proto::ibcs
