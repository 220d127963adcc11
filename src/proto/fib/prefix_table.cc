#include "proto/fib/prefix_table.h"

#include <string>

namespace arfabric::proto::fib {

namespace {

inline int bit_at(const std::array<std::uint8_t, 16>& a, unsigned i) {
  return (a[i / 8] >> (7 - i % 8)) & 1;
}

std::expected<void, ConfigError> check(const Prefix& p) {
  const unsigned max_len = p.ipv6 ? 128 : 32;
  if (p.length > max_len)
    return std::unexpected(ConfigError{
        "prefix.length",
        std::to_string(p.length) + " exceeds " + std::to_string(max_len)});
  for (unsigned i = p.length; i < 128; ++i)
    if (bit_at(p.address, i))
      return std::unexpected(ConfigError{
          "prefix.address",
          "bit " + std::to_string(i) + " set beyond the prefix length"});
  return {};
}

}  // namespace

PrefixTable::PrefixTable() : nodes_(2) {}

std::expected<void, ConfigError> PrefixTable::add(const Prefix& p,
                                                  NodeId node) {
  if (auto ok = check(p); !ok) return ok;
  std::int32_t at = p.ipv6 ? 1 : 0;
  for (unsigned i = 0; i < p.length; ++i) {
    const int b = bit_at(p.address, i);
    if (nodes_[at].child[b] < 0) {
      nodes_[at].child[b] = static_cast<std::int32_t>(nodes_.size());
      nodes_.emplace_back();
    }
    at = nodes_[at].child[b];
  }
  prefixes_ += !nodes_[at].has_value;
  nodes_[at].has_value = true;
  nodes_[at].value = node;
  return {};
}

bool PrefixTable::remove(const Prefix& p) {
  if (!check(p)) return false;
  std::int32_t at = p.ipv6 ? 1 : 0;
  for (unsigned i = 0; i < p.length && at >= 0; ++i)
    at = nodes_[at].child[bit_at(p.address, i)];
  if (at < 0 || !nodes_[at].has_value) return false;
  nodes_[at].has_value = false;
  --prefixes_;
  return true;
}

std::optional<NodeId> PrefixTable::lookup(
    bool ipv6, const std::array<std::uint8_t, 16>& address) const {
  const unsigned max_len = ipv6 ? 128 : 32;
  std::optional<NodeId> best;
  std::int32_t at = ipv6 ? 1 : 0;
  for (unsigned i = 0;; ++i) {
    if (nodes_[at].has_value) best = nodes_[at].value;
    if (i == max_len) break;
    at = nodes_[at].child[bit_at(address, i)];
    if (at < 0) break;
  }
  return best;
}

}  // namespace arfabric::proto::fib
