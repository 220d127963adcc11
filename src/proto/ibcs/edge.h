// Frame operations of the IBCS Egress Edge
// (draft-tian-ccwg-ibcs-datapath-processing-00 §4.3): removing a CSIG tag.
//
// Zeroing a field is an in-place wire::ibcs::rewrite_metric(); stripping
// the 4-byte CSIG tag shortens the frame, so it works on the caller's
// buffer and returns the new length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace arfabric::proto::ibcs {

// Removes the 4 bytes at tag_offset (the CSIG TPID) by moving the rest of
// the frame down. A frame of at least 60 bytes (the Ethernet minimum
// without FCS) that would fall below 60 is zero-padded back to 60, as a MAC
// would pad it. Returns the new length, or nullopt (frame untouched) when
// the tag does not lie inside the frame after the two MAC addresses.
std::optional<std::size_t> strip_csig_tag(std::span<std::uint8_t> frame,
                                          std::size_t tag_offset);

}  // namespace arfabric::proto::ibcs
