#include "wire/ibcs/signal_field.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "wire/ibcs/frames.h"

namespace arfabric::wire::ibcs {
namespace {

using testing::csig_frame;
using testing::full_ipv4_checksum;
using testing::full_udp_checksum;
using testing::get16;
using testing::hpcc_option_bytes;
using testing::ipv4_udp_frame;
using testing::kIpOffset;
using testing::shim_bytes;

// A CSIG-tagged frame, byte by byte.
const Bytes kCsigGolden = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02,  // destination MAC
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01,  // source MAC
    0x88, 0xb6,                          // CSIG TPID
    0x08, 0x85,                          // T=0 (ABW) R=0 S=0x11 LM=0x05
    0x08, 0x00,                          // next EtherType: IPv4
    0xde, 0xad,                          // payload (not parsed)
};

TEST(Bindings, MetadataTable) {
  EXPECT_EQ(binding_info(Binding::csig_l2).op, ExtremumOp::min);
  EXPECT_EQ(binding_info(Binding::csig_l2).uninitialized, 31u);
  EXPECT_EQ(binding_info(Binding::hpcc_int).op, ExtremumOp::max);
  EXPECT_EQ(binding_info(Binding::hpcc_int).uninitialized, 0u);
  EXPECT_EQ(binding_info(Binding::ipv4_udp).op, ExtremumOp::min);
  EXPECT_EQ(binding_info(Binding::ipv4_udp).uninitialized, 0xffffffffu);
  for (const BindingInfo& b : kBindings)
    EXPECT_EQ(&binding_info(b.binding), &b);
  static_assert(binding_info(Binding::hpcc_int).checksummed);
  static_assert(!binding_info(Binding::csig_l2).checksummed);
}

TEST(CsigBinding, LocatesReadsAndRewritesGolden) {
  auto f = locate(Binding::csig_l2, kCsigGolden);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->offset, 14u);
  EXPECT_EQ(f->size, 2);
  EXPECT_EQ(f->op, ExtremumOp::min);
  EXPECT_EQ(f->uninitialized, 31u);
  EXPECT_EQ(f->checksum_count, 0);
  EXPECT_EQ(*read_metric(kCsigGolden, *f), 0x11u);

  Bytes frame = kCsigGolden;
  ASSERT_TRUE(rewrite_metric(frame, *f, 0x03));
  Bytes want = kCsigGolden;
  want[14] = 0x01;  // T=0 R=0 S=0x03 LM=0x05: 0x0185
  want[15] = 0x85;
  EXPECT_EQ(frame, want);
  EXPECT_EQ(*read_metric(frame, *f), 3u);
}

TEST(CsigBinding, RewriteKeepsTypeReservedAndLocator) {
  CsigTag tag{.signal_type = 3,
              .reserved = 1,
              .signal_value = 0,
              .locator_metadata = 0x7f};
  Bytes frame = csig_frame(tag, Bytes{1, 2, 3});
  auto f = locate(Binding::csig_l2, frame);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->op, ExtremumOp::max);
  EXPECT_EQ(f->uninitialized, 0u);
  ASSERT_TRUE(rewrite_metric(frame, *f, 31));
  auto back = parse_csig_tag(ByteSpan(frame).subspan(12));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->signal_type, 3);
  EXPECT_EQ(back->reserved, 1);
  EXPECT_EQ(back->signal_value, 31);
  EXPECT_EQ(back->locator_metadata, 0x7f);
}

TEST(CsigBinding, AfterVlanTagAndConfiguredTpid) {
  CsigTag tag{.tpid = 0x9900, .signal_value = 9};
  const Bytes frame = csig_frame(tag, {}, /*vlan=*/true);
  EXPECT_FALSE(locate(Binding::csig_l2, frame));
  BindingConfig config;
  config.csig_ethertype = 0x9900;
  auto f = locate(Binding::csig_l2, frame, config);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->offset, 18u);
  EXPECT_EQ(*read_metric(frame, *f), 9u);
}

TEST(CsigBinding, AbsentTagAndUnassignedTypeBypass) {
  Bytes frame = kCsigGolden;
  frame[12] = 0x08;  // plain IPv4 frame
  frame[13] = 0x00;
  auto f = locate(Binding::csig_l2, frame);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().field, "eth.ethertype");

  frame = kCsigGolden;
  frame[14] = 0x88;  // signal type 4: unassigned
  f = locate(Binding::csig_l2, frame);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().field, "csig.signal_type");
}

TEST(CsigBinding, TruncationAtEveryField) {
  for (std::size_t n = 0; n < 18; ++n) {
    auto f = locate(Binding::csig_l2, ByteSpan(kCsigGolden).first(n));
    ASSERT_FALSE(f) << n;
    EXPECT_FALSE(f.error().field.empty());
  }
  // The next EtherType is needed to know where the tag ends.
  EXPECT_TRUE(locate(Binding::csig_l2, ByteSpan(kCsigGolden).first(18)));
}

TEST(CsigBinding, OutOfRangeValueLeavesFrameUntouched) {
  Bytes frame = kCsigGolden;
  auto f = locate(Binding::csig_l2, frame);
  ASSERT_TRUE(f);
  auto r = rewrite_metric(frame, *f, 32);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ibcs.metric");
  EXPECT_EQ(frame, kCsigGolden);
}

Bytes hpcc_frame(std::uint32_t util, std::size_t nops = 0,
                 bool with_shim = false) {
  const Bytes payload = with_shim ? shim_bytes(UdpShim{.metric = 7}) : Bytes{};
  return ipv4_udp_frame(
      hpcc_option_bytes(HpccOption{.locator = 9, .max_utilisation = util},
                        nops),
      4000, payload);
}

TEST(HpccBinding, LocatesReadsAndRewritesGolden) {
  Bytes frame = hpcc_frame(0x8000);
  // Option right after the fixed IPv4 header: 14 + 20 = 34.
  ASSERT_EQ(frame[34], 0x9e);
  auto f = locate(Binding::hpcc_int, frame);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->offset, 38u);
  EXPECT_EQ(f->op, ExtremumOp::max);
  EXPECT_EQ(f->uninitialized, 0u);
  ASSERT_EQ(f->checksum_count, 1);
  EXPECT_EQ(f->checksums[0].checksum_offset, kIpOffset + 10);
  EXPECT_EQ(*read_metric(frame, *f), 0x8000u);

  const Bytes before = frame;
  ASSERT_TRUE(rewrite_metric(frame, *f, 0x12345));
  EXPECT_EQ(*read_metric(frame, *f), 0x12345u);
  EXPECT_EQ(get16(frame, kIpOffset + 10), full_ipv4_checksum(frame));
  auto ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
  ASSERT_TRUE(ip);
  EXPECT_TRUE(ip->checksum_valid);
  // Only the metric and the header checksum changed; the UDP checksum
  // does not cover IP options.
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const bool may_change = (i >= 38 && i < 42) || i == 24 || i == 25;
    if (!may_change) {
      EXPECT_EQ(frame[i], before[i]) << i;
    }
  }
}

TEST(HpccBinding, OddAlignedAfterNop) {
  Bytes frame = hpcc_frame(5, /*nops=*/1);
  auto f = locate(Binding::hpcc_int, frame);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->offset, 39u);  // odd offset from the IPv4 header
  ASSERT_TRUE(rewrite_metric(frame, *f, 0xfedcba98));
  EXPECT_EQ(get16(frame, kIpOffset + 10), full_ipv4_checksum(frame));
}

TEST(HpccBinding, MissingAndMalformedOptions) {
  Bytes plain = ipv4_udp_frame({}, 4000, {});
  auto f = locate(Binding::hpcc_int, plain);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().field, "ipv4.options");

  // A different option (router alert) then our option type is required.
  Bytes other = ipv4_udp_frame({0x94, 0x04, 0x00, 0x00}, 4000, {});
  EXPECT_EQ(locate(Binding::hpcc_int, other).error().field, "ipv4.options");

  // An option whose length overruns the header.
  Bytes overrun = ipv4_udp_frame({0x94, 0x09, 0x00, 0x00}, 4000, {});
  f = locate(Binding::hpcc_int, overrun);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().field, "ipv4.options");
  EXPECT_EQ(f.error().offset, 34u);

  // Our type with a bad length: the HPCC codec names it.
  Bytes bad_len = ipv4_udp_frame({0x9e, 0x04, 0x10, 0x00}, 4000, {});
  EXPECT_EQ(locate(Binding::hpcc_int, bad_len).error().field, "hpcc.length");

  // Options after End of Option List are not looked at.
  Bytes after_eol = ipv4_udp_frame(
      {0x00, 0x9e, 0x08, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00},
      4000, {});
  EXPECT_FALSE(locate(Binding::hpcc_int, after_eol));

  Bytes bad_version = hpcc_frame(1);
  bad_version[kIpOffset] = 0x55;
  EXPECT_EQ(locate(Binding::hpcc_int, bad_version).error().field,
            "ipv4.version");
  Bytes bad_ihl = hpcc_frame(1);
  bad_ihl[kIpOffset] = 0x44;
  EXPECT_EQ(locate(Binding::hpcc_int, bad_ihl).error().field, "ipv4.ihl");
  Bytes bad_total = hpcc_frame(1);
  bad_total[kIpOffset + 2] = 0xff;
  EXPECT_EQ(locate(Binding::hpcc_int, bad_total).error().field,
            "ipv4.total_length");
}

TEST(HpccBinding, TruncationAtEveryField) {
  const Bytes frame = hpcc_frame(0x10000);
  // IPv4 total length bounds the header; every shorter prefix fails.
  for (std::size_t n = 0; n < frame.size(); ++n) {
    auto f = locate(Binding::hpcc_int, ByteSpan(frame).first(n));
    ASSERT_FALSE(f) << n;
    EXPECT_FALSE(f.error().field.empty());
  }
}

// QinQ: an 802.1ad (or 0x9100) S-tag outside an 802.1Q C-tag, and a CSIG
// tag inside them; each binding is found behind them all.
TEST(HpccBinding, StacksBehindQinQAndCsigTags) {
  const Bytes inner = hpcc_frame(0x4000);
  const Bytes csig = csig_frame(CsigTag{}, ByteSpan(inner).subspan(kIpOffset));
  for (const std::uint16_t outer : {0x88a8, 0x9100}) {
    Bytes frame(csig.begin(), csig.begin() + 12);
    frame.insert(frame.end(), {static_cast<std::uint8_t>(outer >> 8),
                               static_cast<std::uint8_t>(outer), 0x00, 0x05,
                               0x81, 0x00, 0x00, 0x07});
    frame.insert(frame.end(), csig.begin() + 12, csig.end());
    auto f = locate(Binding::hpcc_int, frame);
    ASSERT_TRUE(f) << f.error().to_string();
    EXPECT_EQ(*read_metric(frame, *f), 0x4000u);
    auto c = locate(Binding::csig_l2, frame);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->offset, 12u + 8 + 2);
  }
}

TEST(HpccBinding, StacksBehindCsigTag) {
  const Bytes inner = hpcc_frame(0x4000);
  Bytes frame = csig_frame(CsigTag{}, ByteSpan(inner).subspan(kIpOffset));
  auto f = locate(Binding::hpcc_int, frame);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(*read_metric(frame, *f), 0x4000u);
  EXPECT_TRUE(locate(Binding::csig_l2, frame));
}

constexpr std::uint16_t kPort = kDefaultIbcsUdpPort;

TEST(UdpBinding, LocatesReadsAndRewritesGolden) {
  Bytes frame = ipv4_udp_frame(
      {}, kPort, shim_bytes(UdpShim{.metric = 400000}, Bytes{'h', 'i'}));
  const std::size_t udp = kIpOffset + 20;
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->offset, udp + 9);
  EXPECT_EQ(f->op, ExtremumOp::min);
  EXPECT_EQ(f->uninitialized, 0xffffffffu);
  ASSERT_EQ(f->checksum_count, 1);
  EXPECT_EQ(f->checksums[0].checksum_offset, udp + 6);
  EXPECT_TRUE(f->checksums[0].zero_means_absent);
  EXPECT_EQ(*read_metric(frame, *f), 400000u);

  ASSERT_TRUE(rewrite_metric(frame, *f, 100000));
  EXPECT_EQ(*read_metric(frame, *f), 100000u);
  EXPECT_EQ(get16(frame, udp + 6), full_udp_checksum(frame));
  auto ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
  ASSERT_TRUE(ip);
  EXPECT_TRUE(udp_checksum_valid(ip->header, ip->payload));
}

TEST(UdpBinding, MaxUtilisationSignalType) {
  const Bytes frame = ipv4_udp_frame(
      {}, kPort, shim_bytes(UdpShim{.signal_type = 1, .metric = 3}));
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->op, ExtremumOp::max);
  EXPECT_EQ(f->uninitialized, 0u);
  EXPECT_EQ(f->signal_type, 1);
}

TEST(UdpBinding, AbsentChecksumStaysAbsent) {
  Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{.metric = 1}),
                               {10, 0, 0, 1}, {10, 0, 0, 2},
                               /*zero_checksum=*/true);
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f);
  ASSERT_TRUE(rewrite_metric(frame, *f, 0xabcdef01));
  EXPECT_EQ(get16(frame, kIpOffset + 26), 0);
  EXPECT_EQ(*read_metric(frame, *f), 0xabcdef01u);
}

// RFC 768: a checksum that computes to zero is sent as all ones. Search for
// a metric that makes the new checksum compute to 0 and check 0xFFFF.
TEST(UdpBinding, ComputedZeroIsSentAsAllOnes) {
  Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{.metric = 0}));
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f);
  // The metric's bytes sit at odd offsets 9..12 of the UDP segment, so its
  // middle bytes form the whole word at offsets 10..11. With metric 0 the
  // segment sums to S = ~stored; a middle word of 0xFFFF - S makes the sum
  // 0xFFFF, whose checksum computes to 0.
  const std::uint16_t stored = get16(frame, kIpOffset + 26);
  const std::uint16_t s = static_cast<std::uint16_t>(~stored);
  const std::uint32_t word = 0xffffu - s;
  ASSERT_TRUE(rewrite_metric(frame, *f, word << 8));
  EXPECT_EQ(get16(frame, kIpOffset + 26), 0xffff);
  EXPECT_EQ(full_udp_checksum(frame), 0xffff);
}

TEST(UdpBinding, NotOursOrMalformed) {
  const Bytes shim = shim_bytes(UdpShim{});
  EXPECT_EQ(
      locate(Binding::ipv4_udp, ipv4_udp_frame({}, 53, shim)).error().field,
      "udp.destination_port");
  Bytes bad_version = ipv4_udp_frame({}, kPort, shim);
  bad_version[kIpOffset + 28] = 0x20;
  EXPECT_EQ(locate(Binding::ipv4_udp, bad_version).error().field,
            "ibcs_udp.version");
  Bytes bad_type = ipv4_udp_frame({}, kPort, shim);
  bad_type[kIpOffset + 28] = 0x1e;
  EXPECT_EQ(locate(Binding::ipv4_udp, bad_type).error().field,
            "ibcs_udp.signal_type");
  Bytes tcp = ipv4_udp_frame({}, kPort, shim);
  tcp[kIpOffset + 9] = 6;
  EXPECT_EQ(locate(Binding::ipv4_udp, tcp).error().field, "ipv4.protocol");
  Bytes fragment = ipv4_udp_frame({}, kPort, shim);
  fragment[kIpOffset + 7] = 0x10;
  EXPECT_EQ(locate(Binding::ipv4_udp, fragment).error().field,
            "ipv4.fragment_offset");
  Bytes short_udp = ipv4_udp_frame({}, kPort, shim);
  short_udp[kIpOffset + 25] = 12;  // UDP length 12: shim truncated
  EXPECT_EQ(locate(Binding::ipv4_udp, short_udp).error().field,
            "ibcs_udp.metric");
  Bytes long_udp = ipv4_udp_frame({}, kPort, shim);
  long_udp[kIpOffset + 25] = 0x40;
  EXPECT_EQ(locate(Binding::ipv4_udp, long_udp).error().field, "udp.length");
  // Configured port.
  BindingConfig config;
  config.udp_port = 53;
  EXPECT_TRUE(locate(Binding::ipv4_udp, ipv4_udp_frame({}, 53, shim), config));
}

TEST(UdpBinding, TruncationAtEveryField) {
  const Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{}));
  for (std::size_t n = 0; n < frame.size(); ++n) {
    auto f = locate(Binding::ipv4_udp, ByteSpan(frame).first(n));
    ASSERT_FALSE(f) << n;
    EXPECT_FALSE(f.error().field.empty());
  }
}

TEST(Rewrite, FieldOutsideFrameLeavesBufferUntouched) {
  const Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{}));
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f);
  Bytes shorter(frame.begin(), frame.begin() + 40);
  const Bytes copy = shorter;
  auto r = rewrite_metric(shorter, *f, 5);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "ibcs.field");
  EXPECT_EQ(shorter, copy);
  EXPECT_FALSE(read_metric(shorter, *f));
}

TEST(Rewrite, MisplacedChecksumLeavesBufferUntouched) {
  Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{}));
  auto f = locate(Binding::ipv4_udp, frame);
  ASSERT_TRUE(f);
  const Bytes copy = frame;
  SignalField overlap = *f;
  overlap.checksums[0].checksum_offset = f->offset + 1;
  EXPECT_FALSE(rewrite_metric(frame, overlap, 5));
  SignalField outside = *f;
  outside.checksums[0].checksum_offset = frame.size() - 1;
  EXPECT_FALSE(rewrite_metric(frame, outside, 5));
  SignalField after = *f;
  after.checksums[0].region_offset = f->offset + 1;
  EXPECT_FALSE(rewrite_metric(frame, after, 5));
  SignalField bad_size = *f;
  bad_size.size = 3;
  EXPECT_FALSE(rewrite_metric(frame, bad_size, 5));
  EXPECT_EQ(frame, copy);
}

// ---- Properties over random packets and rewrites ----

rc::Gen<Ipv4Address> gen_address() { return rc::gen::arbitrary<Ipv4Address>(); }

RC_GTEST_PROP(UdpBinding, IncrementalEqualsFullRecomputation, ()) {
  const auto src = *gen_address();
  const auto dst = *gen_address();
  const auto type = *rc::gen::inRange<std::uint8_t>(0, 2);
  const auto metric = *rc::gen::arbitrary<std::uint32_t>();
  const auto rest = *rc::gen::arbitrary<Bytes>();
  const bool absent = *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
  Bytes frame = ipv4_udp_frame(
      {}, kPort,
      shim_bytes(UdpShim{.signal_type = type, .metric = metric}, rest), src,
      dst, absent);
  auto f = locate(Binding::ipv4_udp, frame);
  RC_ASSERT(f.has_value());
  const std::size_t sum_at = f->checksums[0].checksum_offset;
  for (int i = 0; i < 3; ++i) {
    const auto value = *rc::gen::arbitrary<std::uint32_t>();
    RC_ASSERT(rewrite_metric(frame, *f, value).has_value());
    RC_ASSERT(*read_metric(frame, *f) == value);
    if (absent) {
      RC_ASSERT(get16(frame, sum_at) == 0);
    } else {
      RC_ASSERT(get16(frame, sum_at) == full_udp_checksum(frame));
    }
    auto ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
    RC_ASSERT(ip.has_value());
    RC_ASSERT(udp_checksum_valid(ip->header, ip->payload));
  }
}

RC_GTEST_PROP(HpccBinding, IncrementalEqualsFullRecomputation, ()) {
  const auto nops = *rc::gen::inRange<std::size_t>(0, 4);
  const auto util = *rc::gen::arbitrary<std::uint32_t>();
  const bool shim = *rc::gen::arbitrary<bool>();
  Bytes frame = hpcc_frame(util, nops, shim);
  auto f = locate(Binding::hpcc_int, frame);
  RC_ASSERT(f.has_value());
  const std::uint16_t udp_sum_before =
      get16(frame, frame.size() - (shim ? 10 : 2));
  for (int i = 0; i < 3; ++i) {
    const auto value = *rc::gen::arbitrary<std::uint32_t>();
    RC_ASSERT(rewrite_metric(frame, *f, value).has_value());
    RC_ASSERT(*read_metric(frame, *f) == value);
    RC_ASSERT(get16(frame, kIpOffset + 10) == full_ipv4_checksum(frame));
    auto ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
    RC_ASSERT(ip.has_value());
    RC_ASSERT(ip->checksum_valid);
    RC_ASSERT(udp_checksum_valid(ip->header, ip->payload));
  }
  RC_ASSERT(get16(frame, frame.size() - (shim ? 10 : 2)) == udp_sum_before);
}

RC_GTEST_PROP(Rewrite, SameValueIsByteIdentical, ()) {
  const auto binding =
      *rc::gen::element(Binding::csig_l2, Binding::hpcc_int, Binding::ipv4_udp);
  Bytes frame;
  switch (binding) {
    case Binding::csig_l2:
      frame = csig_frame(
          CsigTag{.signal_type = *rc::gen::inRange<std::uint8_t>(0, 4),
                  .reserved = *rc::gen::inRange<std::uint8_t>(0, 2),
                  .signal_value = *rc::gen::inRange<std::uint8_t>(0, 32),
                  .locator_metadata = *rc::gen::inRange<std::uint8_t>(0, 128)},
          *rc::gen::arbitrary<Bytes>());
      break;
    case Binding::hpcc_int:
      frame = hpcc_frame(*rc::gen::arbitrary<std::uint32_t>(),
                         *rc::gen::inRange<std::size_t>(0, 4));
      break;
    case Binding::ipv4_udp:
      frame = ipv4_udp_frame(
          {}, kPort,
          shim_bytes(
              UdpShim{.signal_type = *rc::gen::inRange<std::uint8_t>(0, 2),
                      .metric = *rc::gen::arbitrary<std::uint32_t>()},
              *rc::gen::arbitrary<Bytes>()));
      break;
  }
  auto f = locate(binding, frame);
  RC_ASSERT(f.has_value());
  const Bytes before = frame;
  RC_ASSERT(rewrite_metric(frame, *f, *read_metric(frame, *f)).has_value());
  RC_ASSERT(frame == before);
  // Scrubbing to UNINITIALIZED and back restores the original bytes too.
  const std::uint32_t original = *read_metric(frame, *f);
  RC_ASSERT(rewrite_metric(frame, *f, f->uninitialized).has_value());
  RC_ASSERT(rewrite_metric(frame, *f, original).has_value());
  RC_ASSERT(frame == before);
}

RC_GTEST_PROP(Rewrite, FailedValidationLeavesBufferUntouched, ()) {
  Bytes frame = csig_frame(
      CsigTag{.signal_value = *rc::gen::inRange<std::uint8_t>(0, 32)},
      *rc::gen::arbitrary<Bytes>());
  auto f = locate(Binding::csig_l2, frame);
  RC_ASSERT(f.has_value());
  const Bytes before = frame;
  const auto bad = *rc::gen::inRange<std::uint32_t>(32, UINT32_MAX);
  RC_ASSERT(!rewrite_metric(frame, *f, bad).has_value());
  RC_ASSERT(frame == before);
}

// Arbitrary bytes never crash locate, and a rewrite never breaks a UDP
// checksum that verified before.
RC_GTEST_PROP(UdpBinding, ArbitraryTailAfterHeaders, ()) {
  Bytes frame = ipv4_udp_frame({}, kPort, shim_bytes(UdpShim{}));
  const auto noise = *rc::gen::arbitrary<Bytes>();
  const auto at = *rc::gen::inRange<std::size_t>(kIpOffset, frame.size());
  for (std::size_t i = 0; i < noise.size() && at + i < frame.size(); ++i)
    frame[at + i] = noise[i];
  auto f = locate(Binding::ipv4_udp, frame);
  if (!f) return;
  auto ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
  RC_ASSERT(ip.has_value());
  const bool valid_before = udp_checksum_valid(ip->header, ip->payload);
  RC_ASSERT(rewrite_metric(frame, *f, *rc::gen::arbitrary<std::uint32_t>())
                .has_value());
  ip = parse_ipv4(ByteSpan(frame).subspan(kIpOffset));
  if (valid_before) RC_ASSERT(udp_checksum_valid(ip->header, ip->payload));
}

}  // namespace
}  // namespace arfabric::wire::ibcs
