// try_locate() (per packet, no errors) and detail::locate_detailed() (the
// walk behind locate()'s errors) must accept exactly the same frames and
// return the same field: locate() takes its success from try_locate(), so
// a disagreement would make `arfabric decode` and the SUF differ, and shows
// up as the "ibcs.locate" error. Checked on every single-byte mutation and
// every truncation of frames of each binding, and on random frames.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "wire/ibcs/frames.h"
#include "wire/ibcs/signal_field.h"

namespace arfabric::wire::ibcs {
namespace {

using testing::csig_frame;
using testing::hpcc_option_bytes;
using testing::ipv4_udp_frame;
using testing::shim_bytes;

constexpr std::array<Binding, 3> kAll = {Binding::csig_l2, Binding::hpcc_int,
                                         Binding::ipv4_udp};

// "" when both walks agree on `frame` for every binding, else a description.
std::string disagreement(ByteSpan frame, const BindingConfig& config = {}) {
  for (Binding b : kAll) {
    const auto fast = try_locate(b, frame, config);
    const auto detailed = detail::locate_detailed(b, frame, config);
    const auto full = locate(b, frame, config);
    if (fast.has_value() != detailed.has_value()) {
      return std::string(to_string(b)) + ": try_locate " +
             (fast ? "accepts" : "refuses") + ", detailed " +
             (detailed ? "accepts"
                       : "refuses: " + detailed.error().to_string());
    }
    if (fast && !(*fast == *detailed))
      return std::string(to_string(b)) + ": different fields";
    if (full.has_value() != fast.has_value() || (full && !(*full == *fast)) ||
        (!full && full.error().field == "ibcs.locate")) {
      return std::string(to_string(b)) + ": locate() differs";
    }
  }
  return "";
}

// One frame of each shape the bindings know, stacked and plain.
std::vector<Bytes> base_frames() {
  const Bytes hpcc = hpcc_option_bytes(
      HpccOption{.locator = 9, .max_utilisation = 0x8000}, /*nops=*/1);
  const Bytes shim0 = shim_bytes(UdpShim{.metric = 400}, Bytes{1, 2});
  const Bytes shim1 = shim_bytes(UdpShim{.signal_type = 1, .metric = 9});
  const Bytes udp = ipv4_udp_frame({}, kDefaultIbcsUdpPort, shim0);
  const Bytes both = ipv4_udp_frame(hpcc, kDefaultIbcsUdpPort, shim1);
  std::vector<Bytes> out = {
      csig_frame(CsigTag{.signal_value = 17}, Bytes{0xde, 0xad}),
      csig_frame(CsigTag{.signal_type = 2}, Bytes{}, /*vlan=*/true),
      udp,
      both,
      ipv4_udp_frame(hpcc, 4000, Bytes(8, 0)),
      csig_frame(CsigTag{.signal_type = 3},
                 ByteSpan(both).subspan(testing::kIpOffset)),
  };
  // 802.1Q after the CSIG tag (the other order of csig_frame(vlan)).
  Bytes tagged = out[0];
  tagged.insert(tagged.begin() + 16, {0x81, 0x00, 0x00, 0x64});
  out.push_back(tagged);
  return out;
}

TEST(LocateAgreement, BaseFramesAreAccepted) {
  const std::vector<Bytes> frames = base_frames();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    bool any = false;
    for (Binding b : kAll) any |= try_locate(b, frames[i]).has_value();
    EXPECT_TRUE(any) << "frame " << i;
    EXPECT_EQ(disagreement(frames[i]), "") << "frame " << i;
  }
}

TEST(LocateAgreement, EveryTruncation) {
  for (const Bytes& frame : base_frames()) {
    for (std::size_t n = 0; n <= frame.size(); ++n)
      ASSERT_EQ(disagreement(ByteSpan(frame).first(n)), "") << n;
  }
}

// Every byte of every frame set to values that hit each check of the walks
// (code points, version nibbles, IHL, lengths, option types, signal types).
TEST(LocateAgreement, EverySingleByteMutation) {
  for (const Bytes& base : base_frames()) {
    for (std::size_t at = 0; at < base.size(); ++at) {
      std::vector<std::uint8_t> values = {
          0x00, 0x01, 0x02, 0x04, 0x08, 0x0c, 0x10, 0x11, 0x1e, 0x20, 0x44,
          0x45, 0x46, 0x4f, 0x55, 0x80, 0x81, 0x88, 0x94, 0x9e, 0xb6, 0xff};
      for (int bit = 0; bit < 8; ++bit)
        values.push_back(static_cast<std::uint8_t>(base[at] ^ (1u << bit)));
      for (std::uint8_t v : values) {
        Bytes frame = base;
        frame[at] = v;
        ASSERT_EQ(disagreement(frame), "") << "byte " << at << " = " << int{v};
      }
    }
  }
}

// Configured code points, including ones that collide with 802.1Q, the
// IPv4 EtherType and the option-list markers.
TEST(LocateAgreement, ConfiguredCodePoints) {
  std::vector<BindingConfig> configs;
  for (std::uint16_t tpid :
       {std::uint16_t{0x88b6}, std::uint16_t{0x8100}, std::uint16_t{0x0800}})
    for (std::uint8_t opt : {std::uint8_t{0x9e}, std::uint8_t{0},
                             std::uint8_t{1}, std::uint8_t{0x94}})
      for (std::uint16_t port :
           {kDefaultIbcsUdpPort, std::uint16_t{4000}, std::uint16_t{40000}})
        configs.push_back({tpid, opt, port});
  for (const BindingConfig& c : configs) {
    for (const Bytes& frame : base_frames()) {
      for (std::size_t n = 0; n <= frame.size(); ++n) {
        ASSERT_EQ(disagreement(ByteSpan(frame).first(n), c), "")
            << c.csig_ethertype << "/" << int{c.hpcc_option_type} << "/"
            << c.udp_port << " length " << n;
      }
    }
  }
}

RC_GTEST_PROP(LocateAgreement, RandomMutationsOfValidFrames, ()) {
  const std::vector<Bytes> bases = base_frames();
  Bytes frame = *rc::gen::elementOf(bases);
  const auto edits = *rc::gen::inRange<std::size_t>(0, 6);
  for (std::size_t i = 0; i < edits; ++i) {
    const auto at = *rc::gen::inRange<std::size_t>(0, frame.size());
    frame[at] = *rc::gen::arbitrary<std::uint8_t>();
  }
  const auto keep = *rc::gen::inRange<std::size_t>(0, frame.size() + 1);
  frame.resize(keep);
  const auto tail = *rc::gen::arbitrary<Bytes>();
  if (*rc::gen::arbitrary<bool>())
    frame.insert(frame.end(), tail.begin(), tail.end());
  const BindingConfig config{
      *rc::gen::elementOf(
          std::vector<std::uint16_t>{0x88b6, 0x8100, 0x0800, 0x1234}),
      *rc::gen::elementOf(std::vector<std::uint8_t>{0x9e, 0, 1, 0x94, 0x44}),
      *rc::gen::elementOf(
          std::vector<std::uint16_t>{kDefaultIbcsUdpPort, 4000})};
  RC_ASSERT(disagreement(frame, config) == "");
}

RC_GTEST_PROP(LocateAgreement, ArbitraryBytes, (const Bytes& frame)) {
  RC_ASSERT(disagreement(frame) == "");
}

}  // namespace
}  // namespace arfabric::wire::ibcs
