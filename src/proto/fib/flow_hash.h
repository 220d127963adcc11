// The 64-bit flow hash that picks a member-table entry.
//
// Per draft-tian-ccwg-ibcs-datapath-processing "Phase 2", the hash must be
// computed from the headers as received, BEFORE any header mutation (IBCS
// signal rewrite, TTL decrement, ECN marking): compute it first and pass the
// value to Fib::select(), so that the rewrite cannot move a flow.
//
// Construction: the 37 key bytes are read as five 64-bit words (source,
// destination as two words each, then ports and protocol); each word is
// folded in with h = rotl(h ^ word, 29) * K (K odd, so each step is a
// bijection of the word for a fixed h), and the result goes through the
// splitmix64 finaliser for full avalanche. Words are read in host byte
// order, so values differ between little- and big-endian hosts; they never
// leave the node. The seed lets each switch hash differently (avoiding
// polarisation across tiers).
#pragma once

#include <cstdint>

#include "common/hash.h"
#include "proto/fib/forwarding_types.h"

namespace arfabric::proto::fib {

// Never fails; allocation-free.
std::uint64_t flow_hash(const FlowKey& key, std::uint64_t seed);

}  // namespace arfabric::proto::fib
