// The ISO 8473 Fletcher checksum, as used by IS-IS LSPs (ISO 10589 section
// 7.3.11) and OSPF LSAs (RFC 2328 section 12.1.7). The algorithm is the one
// of ISO 8473 annex C, also printed in RFC 905 annex B.
//
// Two running sums are kept modulo 255 over the checksummed octets: C0 adds
// each octet, C1 adds C0. With the two checksum octets zeroed, they are set
// so that both sums of the whole range come out 0 mod 255:
//   X = ((L - n) * C0 - C1) mod 255,  Y = (-C0 - X) mod 255
// where L is the range length and n the 1-based position of X. A computed
// octet of 0 is sent as 255 (the same residue), so a correct checksum never
// contains a 0 octet and the value 0 is never a valid checksum.
//
// For an LSP the range starts at the LSP ID (PDU offset 12) and ends at the
// PDU length; the checksum field is at PDU offset 24, so it sits at offset
// 12 of the range. Remaining Lifetime is outside the range: it changes in
// flight without invalidating the checksum. For an OSPF LSA the range is the
// LSA without LS age (offset 2 to the LSA length) and the checksum sits at
// offset 14 of it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/bytes.h"

namespace arfabric::wire::lsr {

// The checksum for `data` with its two checksum octets at `checksum_offset`
// treated as zero (their current contents are ignored). Requires
// checksum_offset + 2 <= data.size().
std::uint16_t fletcher_checksum(ByteSpan data, std::size_t checksum_offset);

// True when the stored checksum at `checksum_offset` is non-zero and both
// Fletcher sums of `data` are 0 mod 255. Requires checksum_offset + 2 <=
// data.size().
bool fletcher_checksum_valid(ByteSpan data, std::size_t checksum_offset);

}  // namespace arfabric::wire::lsr
