// Fuzzes the IBCS bindings on arbitrary frames: for each binding, locate,
// read and rewrite the metric, and trap if a rewrite breaks a checksum that
// verified before, if read-after-write differs, or if a failed rewrite
// touched the buffer. The three tag codecs are also round-tripped from the
// start of the input. try_locate() (the SUF's per-packet walk) must accept
// exactly the frames detail::locate_detailed() accepts, with the same field.
#include <cstdint>
#include <cstring>
#include <vector>

#include "wire/ibcs/signal_field.h"
#include "wire/inet/checksum.h"
#include "wire/inet/ethernet.h"
#include "wire/inet/ipv4.h"
#include "wire/inet/udp.h"

namespace {

using namespace arfabric;
using namespace arfabric::wire;
using namespace arfabric::wire::ibcs;

template <typename T, typename Parse>
void round_trip(ByteSpan data, Parse parse) {
  auto first = parse(data);
  if (!first) return;
  ByteWriter w;
  if (!serialize(*first, w)) __builtin_trap();
  if (w.size() != encoded_size(*first)) __builtin_trap();
  auto second = parse(ByteSpan(w.data()));
  if (!second || !(*second == *first)) __builtin_trap();
}

// Where the IPv4 header starts, found the way locate() documents it: past
// the MAC addresses, VLAN tags (QinQ too) and one CSIG tag in any order.
std::size_t ipv4_offset(ByteSpan frame) {
  std::size_t at = 12;
  bool csig = false;
  while (at + 2 <= frame.size()) {
    const std::uint16_t type =
        static_cast<std::uint16_t>(frame[at] << 8 | frame[at + 1]);
    if (is_vlan_tpid(type)) {
      // any number of VLAN tags
    } else if (type == kDefaultCsigEtherType && !csig) {
      csig = true;
    } else {
      return at + 2;
    }
    at += 4;
  }
  __builtin_trap();  // locate() found a field past an incomplete L2 header
}

// Whether the checksum covering the field verifies (true when none does).
bool checksums_verify(ByteSpan frame, const SignalField& f) {
  if (f.checksum_count == 0) return true;
  const std::size_t at = ipv4_offset(frame);
  auto ip = parse_ipv4(frame.subspan(at), at);
  if (!ip) __builtin_trap();  // locate() walked this header
  if (f.binding == Binding::hpcc_int) return ip->checksum_valid;
  return udp_checksum_valid(ip->header, ip->payload);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan input(data, size);
  round_trip<CsigTag>(input, [](ByteSpan d) { return parse_csig_tag(d); });
  round_trip<HpccOption>(input,
                         [](ByteSpan d) { return parse_hpcc_option(d); });
  round_trip<UdpShim>(input, [](ByteSpan d) { return parse_udp_shim(d); });

  // The last 4 bytes choose the new metric; the rest is the frame.
  if (size < 4) return 0;
  std::uint32_t value;
  std::memcpy(&value, data + size - 4, 4);
  const ByteSpan frame_in = input.first(size - 4);

  for (Binding b : {Binding::csig_l2, Binding::hpcc_int, Binding::ipv4_udp}) {
    const auto fast = try_locate(b, frame_in);
    const auto detailed = detail::locate_detailed(b, frame_in);
    if (fast.has_value() != detailed.has_value()) __builtin_trap();
    if (fast && !(*fast == *detailed)) __builtin_trap();
    auto field = locate(b, frame_in);
    if (field.has_value() != fast.has_value()) __builtin_trap();
    if (!field) continue;
    std::vector<std::uint8_t> frame(frame_in.begin(), frame_in.end());
    auto before = read_metric(frame, *field);
    if (!before) __builtin_trap();

    const bool valid_before = checksums_verify(frame, *field);

    const std::uint32_t v = value & field->max_value;
    auto r = rewrite_metric(frame, *field, v);
    if (!r) __builtin_trap();
    auto after = read_metric(frame, *field);
    if (!after || *after != v) __builtin_trap();
    if (valid_before && !checksums_verify(frame, *field)) __builtin_trap();
    // The rewritten frame still locates to the same field.
    auto again = locate(b, frame);
    if (!again || again->offset != field->offset) __builtin_trap();

    // Writing the old value back restores the original bytes. Only for the
    // unchecksummed binding: a checksum may legally change between its two
    // representations of zero.
    if (rewrite_metric(frame, *field, *before) && b == Binding::csig_l2 &&
        !std::equal(frame.begin(), frame.end(), frame_in.begin())) {
      __builtin_trap();
    }

    // A value beyond the field fails without touching the frame.
    if (field->max_value < 0xffffffff) {
      const std::vector<std::uint8_t> copy = frame;
      if (rewrite_metric(frame, *field, field->max_value + 1)) __builtin_trap();
      if (frame != copy) __builtin_trap();
    }
  }
  return 0;
}
