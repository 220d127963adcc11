// The 5-tuple path selection hashes, read from an Ethernet frame
// (draft-tian-ccwg-ibcs-datapath-processing-00 §5.2 "Phase 2: Strict
// Forwarding Orthogonality"): the caller extracts it and hashes BEFORE
// process_egress() runs the SUF, so the update can never steer the flow.
//
// Recognises Ethernet, VLAN tags (QinQ too) and one CSIG tag (any order,
// as wire::ibcs::locate does), IPv4 with options, and UDP or TCP ports. IBCS
// fields never lie inside the 5-tuple, which the tests check by extracting
// the key before and after an update.
#pragma once

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "proto/fib/forwarding_types.h"
#include "wire/ibcs/csig_tag.h"

namespace arfabric::proto::ibcs {

// nullopt when the frame is not IPv4, is truncated, or is a non-first
// fragment (no ports); other IPv4 protocols yield ports 0. No allocation.
std::optional<FlowKey> extract_flow_key(
    ByteSpan frame,
    std::uint16_t csig_ethertype = wire::ibcs::kDefaultCsigEtherType);

}  // namespace arfabric::proto::ibcs
