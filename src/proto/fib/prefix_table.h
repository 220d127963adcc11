// Longest-prefix match from IPv4/IPv6 prefixes to destination NodeIds, the
// "prefix -> destination node" half of issue 4's routes.
//
// A binary trie per address family, nodes in one vector addressed by index.
// Cost: lookup visits at most 33 (IPv4) / 129 (IPv6) nodes, one bit each,
// allocation-free; add allocates at most `length` nodes; remove clears the
// node's value and keeps the nodes (a control-plane table that churns can
// be rebuilt). Memory: at most (length + 1) nodes of 12 bytes per prefix.
// Simple and obviously correct rather than fast: per-packet paths in the
// simulator key the FIB by NodeId directly.
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <vector>

#include "proto/fib/fib_config.h"
#include "proto/fib/forwarding_types.h"

namespace arfabric::proto::fib {

struct Prefix {
  bool ipv6 = false;
  std::array<std::uint8_t, 16> address{};  // IPv4 uses the first 4 bytes
  std::uint8_t length = 0;
  bool operator==(const Prefix&) const = default;
};

class PrefixTable {
 public:
  PrefixTable();
  // Adds or replaces. Errors: length > 32 (IPv4) / 128 (IPv6); address bits
  // set beyond the length ("host bits set").
  std::expected<void, ConfigError> add(const Prefix& prefix, NodeId node);
  // Returns false if the exact prefix was not present (or is malformed).
  bool remove(const Prefix& prefix);
  // Longest match for `address` (first 4 bytes for IPv4), if any.
  std::optional<NodeId> lookup(
      bool ipv6, const std::array<std::uint8_t, 16>& address) const;
  std::size_t size() const { return prefixes_; }

 private:
  struct Node {
    std::int32_t child[2] = {-1, -1};
    NodeId value = 0;
    bool has_value = false;
  };
  std::vector<Node> nodes_;  // [0] IPv4 root, [1] IPv6 root
  std::size_t prefixes_ = 0;
};

}  // namespace arfabric::proto::fib
